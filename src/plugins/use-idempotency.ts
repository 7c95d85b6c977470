import { createHash } from 'node:crypto';
import type pg from 'pg';
import type { Plugin } from 'graphql-yoga';
import type { Authenticator } from '../auth/authenticate.js';
import { ERRORS, type ErrorCode } from '../errors.js';
import { readBodyText } from './use-request-body-limit.js';
import { currentRequest, type RequestState } from './use-request-state.js';

// Idempotency-Key, for every write of both surfaces: the first answer to a request sent with a key is kept for
// 24 hours per workspace, and a repeat of the same request (method, path, query and body) with the same key gets
// that answer again without running anything (`Idempotent-Replayed: true`). The same key with another request is
// a 400; a repeat while the first is still running is a 409. Answers a retry should not see again (server errors,
// auth, credits, rate limits, conflicts) are not kept: the key is freed and a retry runs.

export const IDEMPOTENCY_HEADER = 'idempotency-key';
const KEY = /^[\x21-\x7e]{1,255}$/;
const KEPT_HOURS = 24;
const NOT_KEPT = new Set([401, 402, 403, 408, 409, 429]);

type Claim = { pool: pg.Pool; workspaceId: string; key: string };
const claims = new WeakMap<RequestState, Claim>();

function refusal(Response: typeof globalThis.Response, graphql: boolean, requestId: string, code: ErrorCode, message: string, details?: Record<string, unknown>): Response {
  const body = graphql
    ? { errors: [{ message, extensions: { code, ...(details ? { details } : {}) } }] }
    : { error: { code, message, requestId, ...(details ? { details } : {}) } };
  return Response.json(body, { status: ERRORS[code].status });
}

const headerViolation = (expected: string) => ({
  validationErrors: [{ field: 'header.Idempotency-Key', location: 'header', expected: [expected] }],
});

/** Deletes the keys older than 24 hours (the server's minute sweep). */
export async function sweepIdempotencyKeys(pool: pg.Pool): Promise<void> {
  await pool.query(`DELETE FROM "idempotency_keys" WHERE "createdAt" < now() - interval '${KEPT_HOURS} hours'`);
}

export function useIdempotency(options: { pool: pg.Pool; authenticate: Authenticator }): Plugin {
  const { pool, authenticate } = options;
  return {
    async onRequest({ request, url, endResponse, fetchAPI }) {
      const key = request.headers.get(IDEMPOTENCY_HEADER);
      if (key === null || request.method === 'GET' || request.method === 'HEAD' || request.method === 'OPTIONS') return;
      const graphql = url.pathname === '/graphql';
      if (!graphql && !url.pathname.startsWith('/v1/')) return;
      const state = currentRequest()!;
      if (!KEY.test(key)) {
        return endResponse(refusal(fetchAPI.Response, graphql, state.requestId, 'validation_error', 'Invalid request: Idempotency-Key must be 1 to 255 visible ASCII characters', headerViolation('Idempotency-Key must be 1 to 255 visible ASCII characters')));
      }
      // Authenticated once: the REST layer and the GraphQL context reuse this principal (and answer its failure).
      state.principal ??= authenticate(request.headers.get('authorization'));
      const principal = await state.principal.catch(() => null);
      if (!principal) return;
      let body: string;
      try {
        body = await readBodyText(request.clone());
      } catch {
        return; // a body the server refuses is answered by the surface, with nothing run
      }
      const hash = createHash('sha256').update(`${request.method} ${url.pathname}${url.search}\n${body}`).digest('hex');
      const workspaceId = principal.workspace.id;
      const claimed = await pool.query(
        `INSERT INTO "idempotency_keys" ("workspaceId", "key", "requestHash") VALUES ($1, $2, $3)
         ON CONFLICT ("workspaceId", "key") DO UPDATE SET "requestHash" = EXCLUDED."requestHash", "status" = NULL, "contentType" = NULL, "body" = NULL, "createdAt" = now()
         WHERE "idempotency_keys"."createdAt" < now() - interval '${KEPT_HOURS} hours'
         RETURNING 1`,
        [workspaceId, key, hash],
      );
      if (claimed.rowCount === 1) {
        claims.set(state, { pool, workspaceId, key });
        return;
      }
      const { rows } = await pool.query<{ requestHash: string; status: number | null; contentType: string | null; body: string | null }>(
        'SELECT "requestHash", "status", "contentType", "body" FROM "idempotency_keys" WHERE "workspaceId" = $1 AND "key" = $2',
        [workspaceId, key],
      );
      const first = rows[0];
      if (!first) return; // freed meanwhile (the first request failed): run this one without a key
      if (first.requestHash !== hash) {
        return endResponse(refusal(fetchAPI.Response, graphql, state.requestId, 'validation_error', 'Invalid request: this Idempotency-Key was used with another request', headerViolation('Idempotency-Key must not be reused with a different method, path or body')));
      }
      if (first.status === null) {
        return endResponse(refusal(fetchAPI.Response, graphql, state.requestId, 'conflict', 'A request with this Idempotency-Key is still running; retry when it has answered.'));
      }
      const headers: Record<string, string> = { 'Idempotent-Replayed': 'true' };
      if (first.contentType) headers['content-type'] = first.contentType;
      return endResponse(new fetchAPI.Response(first.body, { status: first.status, headers }));
    },
    async onResponse({ response }) {
      const state = currentRequest();
      const claim = state && claims.get(state);
      if (!claim) return;
      claims.delete(state);
      const params = [claim.workspaceId, claim.key];
      if (response.status >= 500 || NOT_KEPT.has(response.status)) {
        await claim.pool.query('DELETE FROM "idempotency_keys" WHERE "workspaceId" = $1 AND "key" = $2', params).catch(() => {});
        return;
      }
      const text = await response.clone().text();
      await claim.pool
        .query('UPDATE "idempotency_keys" SET "status" = $3, "contentType" = $4, "body" = $5 WHERE "workspaceId" = $1 AND "key" = $2', [...params, response.status, response.headers.get('content-type'), text])
        .catch(() => claim.pool.query('DELETE FROM "idempotency_keys" WHERE "workspaceId" = $1 AND "key" = $2', params).catch(() => {}));
    },
  };
}
