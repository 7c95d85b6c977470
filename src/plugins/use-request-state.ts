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
  /** The connection's peer address (`unknown` in process): whose bucket a request refused at authentication draws from. */
  clientAddress: string;
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

type NodeRequest = { socket?: { remoteAddress?: string }; rawHeaders?: string[] };

/** The values of a header sent more than once, from Node's raw headers (its parsed ones keep only the first Authorization). */
function repeated(rawHeaders: string[], name: string): string[] | undefined {
  let values: string[] | undefined;
  let count = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    if (rawHeaders[i].length !== name.length || rawHeaders[i].toLowerCase() !== name) continue;
    (values ??= []).push(rawHeaders[i + 1]);
    count++;
  }
  return count > 1 ? values : undefined;
}

/**
 * Sets a header the response may already have: whatwg-node's Headers, made from an object, add a lower-case copy
 * beside a name written in another case, and Node then sends both (`Retry-After: 1` and `retry-after: 1`).
 */
function setOnce(headers: Headers, name: string, value: string) {
  if (headers.has(name)) headers.delete(name);
  headers.set(name, value);
}

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
        return storage.run({ requestId, responseHeaders: new Map(), startedAt: performance.now(), dryRun: request.headers.get('x-dry-run') === 'true', clientAddress: 'unknown' }, wrapped);
      },
    },
    onRequest({ request, serverContext }) {
      const state = storage.getStore();
      const node = (serverContext as { req?: NodeRequest } | undefined)?.req;
      if (!state || !node) return;
      state.clientAddress = node.socket?.remoteAddress ?? 'unknown';
      // Two Authorization headers reach the authenticator as fetch joins them ("Bearer a, Bearer b"), which it refuses.
      const authorizations = node.rawHeaders && repeated(node.rawHeaders, 'authorization');
      if (authorizations) request.headers.set('authorization', authorizations.join(', '));
    },
    onExecute({ args }) {
      const state = storage.getStore();
      if (state && !state.rest) state.operationType = getOperationAST(args.document, args.operationName)?.operation;
    },
    onResponse({ request, response }) {
      const state = storage.getStore();
      if (!state) return;
      setOnce(response.headers, 'X-Request-Id', state.requestId);
      for (const [name, value] of state.responseHeaders) setOnce(response.headers, name, value);
      onAnswered?.(state, request, response);
    },
  };
}
