import type { Plugin } from 'graphql-yoga';
import { methodNotAllowedFailure } from '../../rest/errors.js';
import { currentRequest } from './use-request-state.js';
import { errorResponse, escapeHtml, htmlPage, htmlResponse, jsonResponse, SERVER_NAME, SERVER_VERSION, wantsHtml } from './pages.js';

// GET / (and HEAD): what a new user meets first. A browser gets a page naming the server and linking GraphiQL, the
// REST reference and the health routes, with how to get a key; any other client `{ name, version, apiVersion, links }`.
// Open, unmetered, no database.

const LINKS = {
  graphql: '/graphql',
  docs: '/v1/docs',
  openapi: '/v1/openapi.json',
  api: '/v1',
  health: '/v1/health',
  ready: '/v1/ready',
} as const;

const ALLOWED = ['GET', 'HEAD'];

const KEY = {
  demo: 'On the embedded database the first start loads the demo market and prints the demo workspace’s key, with a curl line.',
  cli: ['npm run --silent cli -- workspace create --slug acme --name "Acme"', 'npm run --silent cli -- key create --workspace acme'],
};

function homePage(publicBaseUrl: string): string {
  const link = (path: string, text: string, note: string) => `<li><a href="${path}">${escapeHtml(text)}</a> <small>${escapeHtml(note)}</small></li>`;
  return htmlPage(SERVER_NAME, `<h1>${escapeHtml(SERVER_NAME)}</h1>
<p class="muted">Version ${escapeHtml(SERVER_VERSION)} · REST API v1 · GraphQL</p>
<ul>
${link(LINKS.graphql, 'GraphiQL', `${LINKS.graphql}: the GraphQL endpoint; in a browser, GraphiQL (add {"Authorization": "Bearer <key>"} in its headers pane)`)}
${link(LINKS.docs, 'REST reference', `${LINKS.docs}: every /v1 route, its parameters and answers`)}
${link(LINKS.openapi, 'OpenAPI document', `${LINKS.openapi}: OpenAPI 3.1, for generators`)}
${link(LINKS.health, 'Health', `${LINKS.health}: liveness; ${LINKS.ready}: readiness (database, Redis)`)}
</ul>
<h2>An API key</h2>
<p>${escapeHtml(KEY.demo)} Otherwise an operator creates a workspace and a key with the CLI:</p>
<pre>${escapeHtml(KEY.cli.join('\n'))}</pre>
<p>Then send it as a bearer token:</p>
<pre>${escapeHtml(`curl -H "Authorization: Bearer <key>" "${publicBaseUrl}/v1/me"`)}</pre>`);
}

export function useHomePage(options: { publicBaseUrl: string }): Plugin {
  return {
    onRequest({ request, url, endResponse }) {
      if (url.pathname !== '/') return;
      const state = currentRequest();
      if (state) state.route = '/';
      if (!ALLOWED.includes(request.method)) return endResponse(errorResponse(request, methodNotAllowedFailure(request.method, '/', ALLOWED, state?.requestId ?? '')));
      if (wantsHtml(request)) return endResponse(htmlResponse(request, () => homePage(options.publicBaseUrl)));
      endResponse(jsonResponse(request, { name: SERVER_NAME, version: SERVER_VERSION, apiVersion: 'v1', links: LINKS, apiKey: KEY }));
    },
  };
}
