import type { Plugin } from 'graphql-yoga';
import { notFoundFailure } from '../../rest/errors.js';
import { errorResponse } from './pages.js';
import { currentRequest } from './use-request-state.js';

// The last word on a request no plugin answered and that is not GraphQL's: a 404 in the error envelope with its
// request id (a page for a browser), instead of yoga's empty 404. Paths below /v1 never get here (rest/plugin.ts
// answers all of them).

export function useNotFound(options: { graphqlEndpoint: string }): Plugin {
  const { graphqlEndpoint } = options;
  return {
    onRequest({ request, url, endResponse }) {
      if (url.pathname === graphqlEndpoint || url.pathname === `${graphqlEndpoint}/`) return;
      const requestId = currentRequest()?.requestId ?? '';
      endResponse(errorResponse(request, notFoundFailure(`Nothing answers ${request.method} ${url.pathname}: see / for what this server serves.`, requestId)));
    },
  };
}
