import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { Plugin } from 'graphql-yoga';
import type { Principal } from '../auth/principal.js';

/** What one HTTP request carries across yoga's hooks, SOFA and the resolvers. */
export type RequestState = {
  requestId: string;
  responseHeaders: Map<string, string>;
  /** Set when the REST layer authenticated before running the field, so the context reuses it. */
  principal?: Promise<Principal>;
  /** Served by the REST surface (which applies rate limits and dry runs at its own boundary). */
  rest?: boolean;
  /** The caller asked for the price only: `?dryRun=true` on REST, `X-Dry-Run: true` on GraphQL. */
  dryRun?: boolean;
};

const storage = new AsyncLocalStorage<RequestState>();

export const currentRequest = (): RequestState | undefined => storage.getStore();

const CLIENT_REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/** Gives every request an id (the client's X-Request-Id when well-formed) and sends it, with the resolvers' headers, on every response. */
export function useRequestState(): Plugin {
  return {
    instrumentation: {
      request: ({ request }, wrapped) => {
        const given = request.headers.get('x-request-id');
        const requestId = given && CLIENT_REQUEST_ID.test(given) ? given : randomUUID();
        return storage.run({ requestId, responseHeaders: new Map(), dryRun: request.headers.get('x-dry-run') === 'true' }, wrapped);
      },
    },
    onResponse({ response }) {
      const state = storage.getStore();
      if (!state) return;
      response.headers.set('X-Request-Id', state.requestId);
      for (const [name, value] of state.responseHeaders) response.headers.set(name, value);
    },
  };
}
