import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { getOperationAST } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Principal } from '../auth/principal.js';

/** What one HTTP request carries across yoga's hooks, SOFA and the resolvers. */
export type RequestState = {
  requestId: string;
  responseHeaders: Map<string, string>;
  /** performance.now() when the request came in. */
  startedAt: number;
  /** Set when the REST layer authenticated before running the field, so the context reuses it. */
  principal?: Promise<Principal>;
  /** Served by the REST surface (which applies rate limits and dry runs at its own boundary). */
  rest?: boolean;
  /** The caller asked for the price only: `?dryRun=true` on REST, `X-Dry-Run: true` on GraphQL. */
  dryRun?: boolean;
  /** The route template that served the request (`/v1/ads/:adId`), for logs and metrics. */
  route?: string;
  /** Who called, once authenticated (never the key). */
  identity?: { workspaceId: string; credentialId: string };
  /** The distinct error codes answered (both surfaces), for logs and metrics. */
  errorCodes?: string[];
  /** A /graphql operation's type (query, mutation). */
  operationType?: string;
};

const storage = new AsyncLocalStorage<RequestState>();

export const currentRequest = (): RequestState | undefined => storage.getStore();

/** Notes an error code the request is answered with (deliberate errors, and internal_error); each code once per request. */
export function noteErrorCode(code: string): void {
  const state = storage.getStore();
  if (!state) return;
  const codes = (state.errorCodes ??= []);
  if (!codes.includes(code)) codes.push(code);
}

/** Notes who the request was authenticated as. */
export function noteIdentity(principal: Principal): void {
  const state = storage.getStore();
  if (state) state.identity = { workspaceId: principal.workspace.id, credentialId: principal.credential.id };
}

const CLIENT_REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;

export type AnsweredHook = (state: RequestState, request: Request, response: Response) => void;

/**
 * Gives every request an id (the client's X-Request-Id when well-formed) and sends it, with the resolvers' headers,
 * on every response; then hands the answered request to `onAnswered` (access log and metrics).
 */
export function useRequestState(options: { onAnswered?: AnsweredHook } = {}): Plugin {
  const { onAnswered } = options;
  return {
    instrumentation: {
      request: ({ request }, wrapped) => {
        const given = request.headers.get('x-request-id');
        const requestId = given && CLIENT_REQUEST_ID.test(given) ? given : randomUUID();
        return storage.run({ requestId, responseHeaders: new Map(), startedAt: performance.now(), dryRun: request.headers.get('x-dry-run') === 'true' }, wrapped);
      },
    },
    onExecute({ args }) {
      const state = storage.getStore();
      if (state && !state.rest) state.operationType = getOperationAST(args.document, args.operationName)?.operation;
    },
    onResponse({ request, response }) {
      const state = storage.getStore();
      if (!state) return;
      response.headers.set('X-Request-Id', state.requestId);
      for (const [name, value] of state.responseHeaders) response.headers.set(name, value);
      onAnswered?.(state, request, response);
    },
  };
}
