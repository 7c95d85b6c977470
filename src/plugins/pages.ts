import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { RestError } from '../../rest/errors.js';
import { projectRoot } from '../db/root.js';
import { noteErrorCode } from './use-request-state.js';

// The few HTML pages the server answers outside /v1 (its home page, share links, a 404 for a browser): one layout,
// inline styles, no external asset, so they render offline. A client that does not ask for HTML gets JSON.

export const SERVER_NAME = 'Market Intelligence API';

/** The server's version: package.json's, read once. */
export const SERVER_VERSION = (JSON.parse(readFileSync(path.join(projectRoot, 'package.json'), 'utf8')) as { version: string }).version;

/** Whether the client asked for HTML rather than JSON (a browser's navigation does; curl, fetch and SDKs do not). */
export function wantsHtml(request: Request): boolean {
  const accept = request.headers.get('accept') ?? '';
  const html = accept.indexOf('text/html');
  if (html < 0) return false;
  const json = accept.indexOf('application/json');
  return json < 0 || html < json;
}

export function escapeHtml(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;').replaceAll("'", '&#39;');
}

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;color:#1d2330}
h1{font-size:1.6rem;margin:0 0 .25rem}small,.muted{color:#5c6577}code,pre{font:14px ui-monospace,monospace;background:#f2f4f7;border-radius:4px}
code{padding:0 .25rem}pre{padding:.75rem;overflow-x:auto}a{color:#1a56db}ul{padding-left:1.2rem}li{margin:.25rem 0}
img{max-width:100%;height:auto;border-radius:4px}table{border-collapse:collapse}td,th{text-align:left;padding:.2rem .8rem .2rem 0;vertical-align:top}`;

/** A whole page: `title` is text (escaped here), `body` is HTML the caller built with escapeHtml. */
export function htmlPage(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body>
${body}
</body>
</html>
`;
}

/** The pages run no script and load only pictures and videos (an ad's creative may live on another host). */
const HTML_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; img-src http: https: data:; media-src http: https:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
};

/** A page as the answer (no body for a HEAD). */
export function htmlResponse(request: Request, page: () => string, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(request.method === 'HEAD' ? null : page(), { status, headers: { ...headers, ...HTML_HEADERS } });
}

/** The error envelope's page for a browser: the code, the message and the request id, and the way home. */
export function errorPage(status: number, code: string, message: string, requestId: string): string {
  return htmlPage(`${status} ${code} · ${SERVER_NAME}`, `<h1>${status} · <code>${escapeHtml(code)}</code></h1>
<p>${escapeHtml(message)}</p>
<p class="muted">Request id <code>${escapeHtml(requestId)}</code>. <a href="/">${escapeHtml(SERVER_NAME)}</a></p>`);
}

/** JSON as the answer (no body for a HEAD: served in process, a body would be sent). */
export function jsonResponse(request: Request, body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  if (request.method !== 'HEAD') return Response.json(body, { status, headers });
  return new Response(null, { status, headers: { ...headers, 'content-type': 'application/json; charset=utf-8' } });
}

/** A failure outside /v1: the error envelope (JSON), or its page when the client asked for HTML. */
export function errorResponse(request: Request, failure: RestError): Response {
  noteErrorCode(failure.body.error.code);
  const { status, headers, body } = failure;
  if (!wantsHtml(request)) return jsonResponse(request, body, status, headers);
  return htmlResponse(request, () => errorPage(status, body.error.code, body.error.message, body.error.requestId), status, headers);
}
