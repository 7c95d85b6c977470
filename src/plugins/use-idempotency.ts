import { createHash } from 'node:crypto';
import type { GraphQLField } from 'graphql';
import type pg from 'pg';
import type { Plugin } from 'graphql-yoga';
import { canWrite, type Principal } from '../auth/principal.js';
import { apiError, ERRORS, isErrorCode, type ErrorCode } from '../errors.js';
import { Prisma } from '../generated/prisma/client.js';
import { TRANSACTION, type IdempotentWrite } from '../schema/shared/audit.js';
import { readBodyBytes } from './use-request-body-limit.js';
import { currentRequest, noteErrorCode, type RequestState } from './use-request-state.js';

// Idempotency-Key, for the writes of both surfaces (REST Mutation routes, GraphQL mutations; reads ignore it). A key
// belongs to its caller (credential, and so its delegated user): the first answer to a write sent with it is kept for
// 24 hours, and a repeat of the same request (method, path, query and body bytes) by the same caller gets that answer
// again without acting again (`Idempotent-Replayed: true`), once authenticated, role-checked and rate-limited like any
// request, with its own request id. The same key with another request is a 400; a repeat while the first is still
// running is a 409. Answers a retry should not see again (server errors, auth, credits, rate limits, conflicts) are not
// kept: the key is freed and a retry runs.
//
// A claim is a lease: a request that never stores its answer (its process died, or the database failed it and the
// statement freeing the key failed too) holds the key LEASE_SECONDS at most (60 s, longer than a write can take). Each
// write it commits is recorded with the claim in the write's own transaction (writeAudited calls
// context.idempotentWrite), so a retry that takes an expired claim over is handed those writes' results instead of
// writing again, and answers what the first would have. A request whose claim was taken over cannot commit a write
// under it any more (the record's update finds no claim of its own). A write reads the rows it needs inside
// writeAudited (its `lock`), never before it, so a retry of a delete that committed reaches the replay, not a 404.

export const IDEMPOTENCY_HEADER = 'idempotency-key';
const KEY = /^[\x21-\x7e]{1,255}$/;
const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const KEPT_HOURS = 24;
/**
 * How long a claim without an answer holds its key: longer than a write can take (it may wait TRANSACTION.maxWait for a
 * connection, then run TRANSACTION.timeout), with a margin for the reads around it, so a retry never takes over a
 * request still queued under a burst; short enough for a retry. 60 s.
 */
export const LEASE_SECONDS = (TRANSACTION.maxWait + TRANSACTION.timeout) / 1000 + 15;
const NOT_KEPT = new Set([401, 402, 403, 408, 409, 429]);

/** A write request sent with a key, fingerprinted, until its surface knows the caller. */
type Sent = { pool: pg.Pool; key: string; hash: string; graphql: boolean; Response: typeof Response };
/** The caller's claim of the key: the results of the writes a taken-over claim had committed, handed out in order. */
type Claim = { pool: pg.Pool; params: [workspaceId: string, credentialId: string, key: string, requestId: string]; committed: unknown[]; replayed: number };

const sent = new WeakMap<RequestState, Sent>();
const claims = new WeakMap<RequestState, Claim>();
/** A GraphQL request's answer given instead of running it (REST ends its request with it directly). */
const answers = new WeakMap<RequestState, Response>();

const WHERE_CLAIM = `"workspaceId" = $1 AND "credentialId" = $2 AND "key" = $3`;
const EXPIRED = `"idempotency_keys"."createdAt" < now() - interval '${KEPT_HOURS} hours'`;
const CLAIM = `
  INSERT INTO "idempotency_keys" ("workspaceId", "credentialId", "key", "requestId", "requestHash") VALUES ($1, $2, $3, $4, $5)
  ON CONFLICT ("workspaceId", "credentialId", "key") DO UPDATE SET
    "requestId" = EXCLUDED."requestId", "requestHash" = EXCLUDED."requestHash", "claimedAt" = now(), "status" = NULL, "contentType" = NULL, "body" = NULL,
    "writes" = CASE WHEN ${EXPIRED} THEN '[]'::jsonb ELSE "idempotency_keys"."writes" END,
    "createdAt" = CASE WHEN ${EXPIRED} THEN now() ELSE "idempotency_keys"."createdAt" END
  WHERE ${EXPIRED} OR ("idempotency_keys"."status" IS NULL AND "idempotency_keys"."claimedAt" < now() - interval '${LEASE_SECONDS} seconds'
    AND ("idempotency_keys"."writes" = '[]'::jsonb OR "idempotency_keys"."requestHash" = EXCLUDED."requestHash"))
  RETURNING "writes"`;
const FIRST = `
  SELECT "requestHash", "status", "contentType", "body",
    CASE WHEN "claimedAt" > now() - interval '${LEASE_SECONDS} seconds' THEN ceil(extract(epoch FROM "claimedAt" - (now() - interval '${LEASE_SECONDS} seconds')))::int ELSE 0 END AS "leaseLeft"
  FROM "idempotency_keys" WHERE ${WHERE_CLAIM}`;
const MINE = `${WHERE_CLAIM} AND "requestId" = $4`;
const STORE = `UPDATE "idempotency_keys" SET "status" = $5, "contentType" = $6, "body" = $7 WHERE ${MINE}`;
/** Frees a key nothing was committed under; releases the lease of one under which writes were (a retry replays them). */
const RELEASE = `
  WITH freed AS (DELETE FROM "idempotency_keys" WHERE ${MINE} AND "writes" = '[]'::jsonb RETURNING 1)
  UPDATE "idempotency_keys" SET "claimedAt" = to_timestamp(0) WHERE ${MINE} AND "writes" <> '[]'::jsonb`;
const RECORD = `UPDATE "idempotency_keys" SET "writes" = "writes" || jsonb_build_array($5::jsonb) WHERE "workspaceId" = $1::uuid AND "credentialId" = $2::uuid AND "key" = $3 AND "requestId" = $4`;

function refusal(Response: typeof globalThis.Response, graphql: boolean, requestId: string, code: ErrorCode, message: string, options: { details?: Record<string, unknown>; headers?: Record<string, string> } = {}): Response {
  noteErrorCode(code);
  const { details, headers } = options;
  const body = graphql
    ? { errors: [{ message, extensions: { code, ...(details ? { details } : {}) } }] }
    : { error: { code, message, requestId, ...(details ? { details } : {}) } };
  return Response.json(body, { status: ERRORS[code].status, headers });
}

const headerViolation = (expected: string) => ({
  details: { validationErrors: [{ field: 'header.Idempotency-Key', location: 'header', expected: [expected] }] },
});

/** The kept body with this request's id where the envelope has one (REST's `requestId`, `error.requestId`). */
function withRequestId(body: string | null, requestId: string): string | null {
  let parsed: unknown;
  try {
    parsed = body === null ? null : JSON.parse(body);
  } catch {
    return body;
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return body;
  const envelope = parsed as { requestId?: unknown; error?: { requestId?: unknown } };
  if ('requestId' in envelope) envelope.requestId = requestId;
  if (envelope.error && typeof envelope.error === 'object' && 'requestId' in envelope.error) envelope.error.requestId = requestId;
  return JSON.stringify(envelope);
}

/** Whether an answer is kept for a repeat: not one a retry should not see again, on REST or in a GraphQL error. */
function kept(status: number, body: string): boolean {
  if (status >= 500 || NOT_KEPT.has(status)) return false;
  let errors: unknown;
  try {
    errors = (JSON.parse(body) as { errors?: unknown }).errors;
  } catch {
    return true;
  }
  if (!Array.isArray(errors)) return true;
  return errors.every((error: { extensions?: { code?: unknown } }) => {
    const code = error?.extensions?.code;
    return isErrorCode(code) && ERRORS[code].status < 500 && !NOT_KEPT.has(ERRORS[code].status);
  });
}

/** Whether a root field is for writers only (its access rule is `writer`). */
function writersOnly(field: GraphQLField<unknown, unknown>): boolean {
  return (field.extensions?.pothosOptions as { authScopes?: { writer?: unknown } } | undefined)?.authScopes?.writer === true;
}

/** Deletes the keys older than 24 hours (the server's minute sweep). */
export async function sweepIdempotencyKeys(pool: pg.Pool): Promise<void> {
  await pool.query(`DELETE FROM "idempotency_keys" WHERE "createdAt" < now() - interval '${KEPT_HOURS} hours'`);
}

/**
 * Called by a surface for a write, once the caller is authenticated and within its rate limit, before anything runs:
 * claims the request's key for the caller and returns null (run it), or returns the answer to give instead (the kept
 * one, a 409 while the first runs, a 400 for another request). A caller the fields refuse gets their refusal (403).
 */
export async function claimIdempotencyKey(state: RequestState, principal: Principal, fields: readonly GraphQLField<unknown, unknown>[]): Promise<Response | null> {
  const request = sent.get(state);
  if (!request) return null;
  sent.delete(state);
  if (fields.some(writersOnly) && !canWrite(principal)) return null;
  const { pool, key, hash, graphql, Response } = request;
  const params: Claim['params'] = [principal.workspace.id, principal.credential.id, key, state.requestId];
  const answer = (response: Response) => {
    if (graphql) answers.set(state, response);
    return response;
  };
  for (let attempt = 0; attempt < 3; attempt++) {
    const claimed = await pool.query<{ writes: unknown[] }>(CLAIM, [...params, hash]);
    if (claimed.rowCount === 1) {
      claims.set(state, { pool, params, committed: claimed.rows[0].writes.map(decode), replayed: 0 });
      return null;
    }
    const { rows: [first] } = await pool.query<{ requestHash: string; status: number | null; contentType: string | null; body: string | null; leaseLeft: number }>(FIRST, params.slice(0, 3));
    if (!first) continue; // freed meanwhile (the first request failed): claim it again
    if (first.requestHash !== hash) {
      return answer(refusal(Response, graphql, state.requestId, 'validation_error', 'Invalid request: this Idempotency-Key was used with another request', headerViolation('Idempotency-Key must not be reused with a different method, path or body')));
    }
    if (first.status === null) {
      return answer(refusal(Response, graphql, state.requestId, 'conflict', 'A request with this Idempotency-Key is still running; retry when it has answered.', { headers: { 'Retry-After': String(Math.max(1, first.leaseLeft)) } }));
    }
    const headers: Record<string, string> = { 'Idempotent-Replayed': 'true' };
    if (first.contentType) headers['content-type'] = first.contentType;
    return answer(new Response(withRequestId(first.body, state.requestId), { status: first.status, headers }));
  }
  return answer(refusal(Response, graphql, state.requestId, 'conflict', 'This Idempotency-Key is being claimed by another request; retry.', { headers: { 'Retry-After': '1' } }));
}

const unclaimed: IdempotentWrite<never> = { replayed: false, record: async (_tx, value) => value };

/**
 * A request's context.idempotentWrite, called by writeAudited (src/schema/shared/audit.ts) for each write: without a
 * key, the write runs as it is. Under a claim, the n-th write gets the n-th result committed under it before (a retry
 * of a request that committed and never answered), or runs and records its result in its own transaction, which fails
 * if the claim is no longer this request's (a retry took an expired lease over): a write is made once per key,
 * whatever the faults.
 */
export function idempotentWrite<T>(state: RequestState): IdempotentWrite<T> {
  const claim = claims.get(state);
  if (!claim) return unclaimed as IdempotentWrite<T>;
  if (claim.replayed < claim.committed.length) return { replayed: true, value: claim.committed[claim.replayed++] as T };
  return {
    replayed: false,
    async record(tx, value) {
      const recorded = await tx.$executeRawUnsafe(RECORD, ...claim.params, JSON.stringify(encode(value)));
      if (recorded !== 1) throw apiError('conflict', 'A retry with this Idempotency-Key took it over while this request ran: nothing was written by this one.');
      return value;
    },
  };
}

export function useIdempotency(options: { pool: pg.Pool }): Plugin {
  const { pool } = options;
  return {
    async onRequest({ request, url, endResponse, fetchAPI }) {
      const key = request.headers.get(IDEMPOTENCY_HEADER);
      if (key === null || !WRITE_METHODS.has(request.method)) return;
      const graphql = url.pathname === '/graphql';
      if (!graphql && !url.pathname.startsWith('/v1/')) return;
      const state = currentRequest()!;
      if (!KEY.test(key)) {
        return endResponse(refusal(fetchAPI.Response, graphql, state.requestId, 'validation_error', 'Invalid request: Idempotency-Key must be 1 to 255 visible ASCII characters', headerViolation('Idempotency-Key must be 1 to 255 visible ASCII characters')));
      }
      let body: Buffer;
      try {
        body = await readBodyBytes(request.clone());
      } catch {
        return; // a body the server refuses is answered by the surface, with nothing run
      }
      // The bytes, not their text: two binary uploads that decode to the same text are two requests.
      const hash = createHash('sha256').update(`${request.method} ${url.pathname}${url.search}\n`).update(body).digest('hex');
      sent.set(state, { pool, key, hash, graphql, Response: fetchAPI.Response });
    },
    onResultProcess({ setResultProcessor }) {
      const state = currentRequest();
      const answer = state && answers.get(state);
      if (answer) setResultProcessor(() => answer, answer.headers.get('content-type') ?? 'application/json');
    },
    async onResponse({ response }) {
      const state = currentRequest();
      const claim = state && claims.get(state);
      if (!claim) return;
      claims.delete(state);
      // Neither statement has to succeed: a claim left without an answer is released when its lease ends.
      const text = await response.clone().text();
      if (kept(response.status, text)) await claim.pool.query(STORE, [...claim.params, response.status, response.headers.get('content-type'), text]).catch(() => undefined);
      else await claim.pool.query(RELEASE, claim.params).catch(() => undefined);
    },
  };
}

// A write's result as JSON that gives back what Prisma returned: dates, bigints, decimals and bytes keep their types.
const TYPE = '$mi:type';

function encode(value: unknown): unknown {
  if (value === undefined) return { [TYPE]: 'undefined' };
  if (value instanceof Date) return { [TYPE]: 'date', value: value.toISOString() };
  if (typeof value === 'bigint') return { [TYPE]: 'bigint', value: value.toString() };
  if (Prisma.Decimal.isDecimal(value)) return { [TYPE]: 'decimal', value: value.toString() };
  if (value instanceof Uint8Array) return { [TYPE]: 'bytes', value: Buffer.from(value).toString('base64') };
  if (Array.isArray(value)) return value.map(encode);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([name, inner]) => [name, encode(inner)]));
  return value;
}

function decode(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(decode);
  if (value === null || typeof value !== 'object') return value;
  const tagged = value as Record<string, unknown>;
  switch (tagged[TYPE]) {
    case 'undefined': return undefined;
    case 'date': return new Date(tagged.value as string);
    case 'bigint': return BigInt(tagged.value as string);
    case 'decimal': return new Prisma.Decimal(tagged.value as string);
    case 'bytes': return new Uint8Array(Buffer.from(tagged.value as string, 'base64'));
    default: return Object.fromEntries(Object.entries(tagged).map(([name, inner]) => [name, decode(inner)]));
  }
}
