import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { setCredits } from '../../src/auth/admin.js';
import { acrossWorkspaces } from '../../src/db/workspace-check.js';
import { ERRORS } from '../../src/errors.js';
import { schema } from '../../src/schema/index.js';
import { createTestApp, type HttpResult, type TestApp } from '../support/app.js';
import { adsScenario } from '../ads/scenario.js';
import { tiktokScenario } from '../tiktok/scenario.js';
import { googleAdsScenario } from '../google-ads/scenario.js';

// Generated bad input for every operation of the served OpenAPI document (so every route, present and future, is
// covered without an edit here), on REST and, with the same arguments as variables, on GraphQL. Expected: never a
// 5xx; every 4xx in the specification's error envelope with the request id; every 2xx with the request id; nothing
// stored changed by a refused request; an unpaired surrogate in any input refused (in a URL as the bytes a careless
// client sends, which are not UTF-8). Bounded (FUZZ_REQUESTS in all, default 2,400) and seeded (FUZZ_SEED): a
// failure prints the request, and the same seed sends the same requests again.

const SEED = Number(process.env.FUZZ_SEED ?? 20261124);
const TOTAL = Number(process.env.FUZZ_REQUESTS ?? 2400);

type Json = Record<string, unknown>;
type Input = { name: string; in: 'path' | 'query' | 'body'; schema: Json; required: boolean };
/** `streams`: its answer is a Server-Sent Events stream (GET /v1/events/stream), opened and closed rather than read. */
type Operation = { method: string; path: string; operationId: string; inputs: Input[]; streams: boolean };
/** `surrogate`: an input the request sends carries an unpaired surrogate, which every surface must refuse (never store as U+FFFD). */
type Case = { method: string; url: string; body?: string; contentType?: string; note: string; surrogate: boolean; graphql?: { field: string; args: Json; surrogate: boolean } };

let t: TestApp;
let key: string;
let workspaceFingerprint: () => Promise<string>;
let operations: Operation[];
const seen = { rest: 0, graphql: 0, surrogates: 0, byStatus: new Map<number, number>() };

const LONG = 'x'.repeat(10_000);
const NASTY = ["'", '%', '_', '\\', "' OR 1=1 --", '%_%', "'; DROP TABLE ads; --", 'a\u0000b', '\u0000', '\ud800', '🙂🙂', '\u202e', 'ǅ', '   ', '', LONG, '${x}', '$1', '::text', '\\x00', 'NaN', 'Infinity', '-0', '1e309', '0x1f', '2147483648', '-2147483649', '9.3e18', '1.5', 'true', 'null', '[]', '{}', 'a,b,,c', ',', 'a\nb', '<script>'];
const NUMBERS = [0, -1, 1.5, 0.5, -0.5, 2 ** 31, 2 ** 31 - 1, -(2 ** 31) - 1, 2 ** 53 + 2, 9.3e18, 1e308, -1e308, 1e-320, 1000.7];

/** A value for an input: usually out of its schema's range or type, sometimes a valid edge (to reach the SQL). */
function valueFor(input: Input): fc.Arbitrary<unknown> {
  const s = input.schema;
  const items = (s.items as Json | undefined) ?? {};
  const enums = (s.enum ?? items.enum) as string[] | undefined;
  const edges: fc.Arbitrary<unknown>[] = [fc.constantFrom(...NASTY), fc.constantFrom(...NUMBERS), fc.string({ unit: 'binary', maxLength: 40 }), fc.string({ unit: 'grapheme', maxLength: 40 })];
  if (typeof s.minimum === 'number' || typeof s.maximum === 'number') {
    const lo = (s.minimum as number | undefined) ?? 0;
    const hi = (s.maximum as number | undefined) ?? 100;
    edges.push(fc.constantFrom(lo, hi, lo - 1, hi + 1, lo + 0.5), fc.integer({ min: Math.ceil(Math.max(lo, -1e9)), max: Math.floor(Math.min(hi, 1e9)) }));
  }
  if (typeof s.maxLength === 'number') edges.push(fc.constantFrom('y'.repeat(s.maxLength as number), 'y'.repeat((s.maxLength as number) + 1)));
  if (enums) edges.push(fc.constantFrom(...enums), fc.constantFrom(...enums).map((v) => v.toUpperCase()), fc.constantFrom(...enums).map((v) => `${v.slice(0, -1)}`));
  const wrongType: fc.Arbitrary<unknown>[] = [fc.boolean(), fc.constant(null), fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 3 }), fc.integer()];
  const scalar = fc.oneof(...edges, ...wrongType);
  // Lists where a scalar is expected and the reverse; lists of bad items; lists past their bound.
  const list = fc.oneof(fc.array(scalar, { maxLength: 4 }), fc.array(fc.constantFrom(...NASTY), { minLength: 1, maxLength: 3 }), fc.constant(Array.from({ length: 300 }, (_, i) => `v${i}`)));
  if (s.type === 'array') return fc.oneof({ weight: 3, arbitrary: list }, { weight: 1, arbitrary: scalar });
  if (s.$ref) return fc.oneof(fc.dictionary(fc.constantFrom('include', 'exclude', 'main', 'among', 'anyOf', 'all', 'x'), fc.oneof(list, scalar), { maxKeys: 3 }), scalar, list);
  return fc.oneof({ weight: 4, arbitrary: scalar }, { weight: 1, arbitrary: list });
}

const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const hasSurrogate = (value: unknown): boolean =>
  typeof value === 'string' ? UNPAIRED_SURROGATE.test(value) : value !== null && typeof value === 'object' && Object.entries(value).some(([key, item]) => hasSurrogate(key) || hasSurrogate(item));

/**
 * Percent-encoding as a careless client's: an unpaired surrogate goes as the three bytes of its code point (WTF-8,
 * `%ED%A0%80` for U+D800), which UTF-8 forbids, where encodeURIComponent throws and URLSearchParams sends U+FFFD.
 */
const percentEncode = (text: string) =>
  text.replace(/[\uD800-\uDBFF][\uDC00-\uDFFF]|[\s\S]/g, (unit) => {
    const code = unit.charCodeAt(0);
    if (unit.length === 2 || code < 0xd800 || code > 0xdfff) return encodeURIComponent(unit);
    return [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)].map((byte) => `%${byte.toString(16).toUpperCase()}`).join('');
  });

/** The text of a value in a URL: lists become repeated parameters, objects JSON. */
const asText = (value: unknown): string[] => (Array.isArray(value) ? value.flatMap(asText) : [value !== null && typeof value === 'object' ? JSON.stringify(value) : String(value)]);

/** A valid-looking value for a required input the case leaves alone (ids of the seeded market, or a plain word). */
function filler(input: Input): unknown {
  if (input.in === 'path') return { adId: 'facebook_9001', itemId: '7412345678901234567', shopId: '5a0e0000-0000-4000-8000-000000000001' }[input.name] ?? 'x';
  const enums = input.schema.enum as string[] | undefined;
  if (enums) return enums[0];
  return input.schema.type === 'array' ? ['summer'] : input.schema.type === 'integer' || input.schema.type === 'number' ? 1 : 'summer';
}

function caseArbitrary(op: Operation): fc.Arbitrary<Case> {
  const fields = op.inputs.length
    ? fc.shuffledSubarray(op.inputs, { minLength: 1, maxLength: Math.min(3, op.inputs.length) }).chain((chosen) => fc.tuple(...chosen.map((input) => fc.tuple(fc.constant(input), valueFor(input)))))
    : fc.constant([] as [Input, unknown][]);
  const shape = fc.constantFrom('plain', 'plain', 'plain', 'plain', 'repeated', 'unknown', 'rawPercent', 'malformedJson', 'wrongContentType', 'bodyNotObject');
  return fc.tuple(fields, shape).map(([pairs, shape]) => {
    const chosen = new Map(pairs.map(([input, value]) => [input.name, value] as const));
    for (const input of op.inputs) if (input.required && !chosen.has(input.name)) chosen.set(input.name, filler(input));
    let path = op.path;
    const query: [string, string][] = [];
    let surrogate = false;
    const body: Json = {};
    for (const input of op.inputs) {
      if (!chosen.has(input.name)) continue;
      const value = chosen.get(input.name);
      if (input.in === 'path') {
        const text = asText(value)[0] ?? '';
        surrogate ||= hasSurrogate(text);
        path = path.replace(`{${input.name}}`, shape === 'rawPercent' ? `${percentEncode(text)}%${text.length % 2 ? 'G' : ''}` : percentEncode(text) || '%20');
      } else if (input.in === 'query') {
        surrogate ||= hasSurrogate(asText(value));
        for (const text of asText(value)) query.push([input.name, text]);
        if (shape === 'repeated') query.push([input.name, asText(value)[0] ?? '']);
      } else {
        surrogate ||= hasSurrogate(value);
        body[input.name] = value;
      }
    }
    if (shape === 'unknown') query.push(['notAParameter', "'%_\\\ud800"]);
    const graphqlArgs = Object.fromEntries(chosen);
    const withBody = op.method === 'POST' || op.method === 'PATCH';
    let text: string | undefined = withBody ? JSON.stringify(body) : undefined;
    let contentType = withBody ? 'application/json' : undefined;
    if (withBody && shape === 'malformedJson') text = `${text!.slice(0, -1)},}`;
    if (withBody && shape === 'wrongContentType') contentType = 'text/plain';
    if (withBody && shape === 'bodyNotObject') text = JSON.stringify([body]);
    const search = query.map(([name, text]) => `${name}=${percentEncode(text)}`).join('&');
    return { method: op.method, url: `${path}${search ? `?${search}` : ''}`, body: text, contentType, note: shape, surrogate, graphql: { field: op.operationId, args: graphqlArgs, surrogate: hasSurrogate(graphqlArgs) } };
  });
}

/** A stream's case: a refusal is read as any answer; a stream that opened is checked for its type and closed (body null). */
async function openStream(url: string): Promise<HttpResult> {
  const res = await t.app.fetch(`http://api.test/v1${url}`, { headers: { authorization: `Bearer ${key}` } });
  if (res.status >= 300) return { status: res.status, headers: res.headers, body: await res.json() };
  expect(res.headers.get('content-type'), url).toMatch(/^text\/event-stream/);
  expect(res.headers.get('x-request-id'), url).toMatch(/^\S+$/);
  await res.body?.cancel();
  return { status: res.status, headers: res.headers, body: null };
}

function check(label: string, res: HttpResult, before: string, after: string) {
  seen.byStatus.set(res.status, (seen.byStatus.get(res.status) ?? 0) + 1);
  const requestId = res.headers.get('x-request-id');
  expect(res.status, label).toBeLessThan(500);
  if (res.status >= 400) {
    expect(Object.keys(res.body ?? {}), label).toEqual(['error']);
    expect(res.body.error.code in ERRORS, label).toBe(true);
    expect(ERRORS[res.body.error.code as keyof typeof ERRORS].status, label).toBe(res.status);
    expect(typeof res.body.error.message, label).toBe('string');
    expect(res.body.error.requestId, label).toBe(requestId);
    if (res.body.error.code === 'validation_error') expect(res.body.error.details?.validationErrors?.length ?? 0, label).toBeGreaterThan(0);
    expect(after, `${label}: a refused request changed stored workspace data`).toBe(before);
  } else if (res.body !== null) {
    expect(res.body.requestId, label).toBe(requestId);
  }
}

/** The GraphQL side of a case: the route's field with the same argument values as variables, selecting only __typename. */
function graphqlDocument(fieldName: string, args: Json): { query: string; variables: Json } | null {
  const field = schema.getQueryType()!.getFields()[fieldName] ?? schema.getMutationType()!.getFields()[fieldName];
  if (!field) return null;
  const kind = schema.getQueryType()!.getFields()[fieldName] ? 'query' : 'mutation';
  const used = field.args.filter((arg) => arg.name in args);
  const declarations = used.map((arg) => `$${arg.name}: ${String(arg.type)}`).join(', ');
  const call = used.map((arg) => `${arg.name}: $${arg.name}`).join(', ');
  const named = String(field.type).replace(/[[\]!]/g, '');
  const selection = schema.getType(named) && 'getFields' in schema.getType(named)! ? ' { __typename }' : '';
  return { query: `${kind}${declarations ? `(${declarations})` : ''} { ${field.name}${call ? `(${call})` : ''}${selection} }`, variables: Object.fromEntries(used.map((arg) => [arg.name, args[arg.name]])) };
}

beforeAll(async () => {
  t = await createTestApp(async (db) => {
    await adsScenario(db);
    await tiktokScenario(db);
    await googleAdsScenario(db);
  });
  const created = await t.newKey();
  key = created.apiKey;
  await setCredits(t.db.prisma, { workspace: created.slug, recurringLimit: 10_000_000, recurringUsed: 0, topup: 0 });
  // Every table with a workspaceId (present and future), with the credential's last-used time left out (written after requests, by design).
  const { rows } = await t.db.pool.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.columns WHERE table_schema = 'public' AND column_name = 'workspaceId' ORDER BY table_name`,
  );
  const union = rows.map(({ table_name }) => `SELECT '${table_name}:' || (to_jsonb(t) - 'lastUsedAt')::text AS row FROM "${table_name}" t`).join(' UNION ALL ');
  const across = acrossWorkspaces("a test's fingerprint of every workspace's rows");
  const fingerprintOfRows = async () => (await t.db.pool.query<{ fp: string }>(`${across} SELECT md5(coalesce(string_agg(row, '|' ORDER BY row), '')) AS fp FROM (${union}) rows`)).rows[0]!.fp;
  // Rows change only in a transaction that was given an id, and the current snapshot (xmin:xmax:the ids still running)
  // changes whenever such a transaction starts or ends. While it stands still, no row can have changed and the last
  // fingerprint holds; once it moved, the rows are read again.
  const nextTransactionId = async () => (await t.db.pool.query<{ x: string }>('SELECT pg_current_snapshot()::text AS x')).rows[0]!.x;
  let last: { mark: string; fp: string } | null = null;
  workspaceFingerprint = async () => {
    const mark = await nextTransactionId();
    if (last?.mark !== mark) last = { mark, fp: await fingerprintOfRows() };
    return last.fp;
  };
  const doc = (await t.rest('GET', '/openapi.json')).body;
  operations = [];
  for (const [path, methods] of Object.entries(doc.paths as Record<string, Record<string, Json>>)) {
    for (const [method, op] of Object.entries(methods)) {
      // Request headers (Range, If-None-Match, Last-Event-ID) are not generated: Last-Event-ID is the stream's `after`,
      // which is, and the file's conditional headers are read only once an export is done.
      const parameters = ((op.parameters ?? []) as Json[]).filter((p) => p.in !== 'header').map((p) => ({ name: p.name as string, in: p.in as 'path' | 'query', schema: p.schema as Json, required: Boolean(p.required) }));
      const bodySchema = (op.requestBody as Json | undefined)?.content as Record<string, { schema: Json }> | undefined;
      const props = (bodySchema?.['application/json']?.schema.properties ?? {}) as Record<string, Json>;
      const required = (bodySchema?.['application/json']?.schema.required ?? []) as string[];
      const body = Object.entries(props).map(([name, s]) => ({ name, in: 'body' as const, schema: s, required: required.includes(name) }));
      const answers = ((op.responses as Record<string, Json>)['200']?.content ?? {}) as Json;
      operations.push({ method: method.toUpperCase(), path: path.replace(/^\/v1/, ''), operationId: op.operationId as string, inputs: [...parameters, ...body], streams: 'text/event-stream' in answers });
    }
  }
});
afterAll(async () => {
  if (seen.rest) console.log(`bad input: ${seen.rest} REST and ${seen.graphql} GraphQL requests over ${operations.length} operations (seed ${SEED}), ${seen.surrogates} REST ones with an unpaired surrogate; statuses ${JSON.stringify(Object.fromEntries([...seen.byStatus].sort()))}`);
  await t?.close();
});

// Longer than the configured test timeout: the default 2,400 requests take ~20 s, and FUZZ_REQUESTS may ask for tenfold.
it('every operation of the OpenAPI document answers generated bad input with a 4xx envelope (or a 2xx), never a 5xx, and a refusal changes nothing', { timeout: 600_000 }, async () => {
  expect(operations.length).toBeGreaterThan(20);
  const perOperation = Math.max(12, Math.floor(TOTAL / operations.length / 1.25));
  let fingerprint = await workspaceFingerprint();
  for (const [index, op] of operations.entries()) {
    const cases = fc.sample(caseArbitrary(op), { seed: SEED + index, numRuns: perOperation });
    for (const [n, c] of cases.entries()) {
      const label = `${c.method} /v1${c.url} ${c.body ? `body ${c.body.slice(0, 300)}` : ''} [${c.note}, FUZZ_SEED=${SEED}, case ${index}.${n}]`;
      const res = op.streams ? await openStream(c.url) : await t.rest(c.method, c.url, { key, rawBody: c.body, headers: c.contentType ? { 'content-type': c.contentType } : {} });
      seen.rest++;
      const after = await workspaceFingerprint();
      check(label, res, fingerprint, after);
      if (c.surrogate) {
        seen.surrogates++;
        expect(res.status, `${label}: an unpaired surrogate was accepted`).toBeGreaterThanOrEqual(400);
      }
      fingerprint = after;
      // One case in four goes to GraphQL as well, with the same values as variables.
      if (n % 4 === 0 && c.graphql) {
        const document = graphqlDocument(c.graphql.field, c.graphql.args);
        if (!document) continue;
        const gql = await t.app.fetch('http://api.test/graphql', { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(document) });
        const body = await gql.json();
        seen.graphql++;
        const glabel = `GraphQL ${JSON.stringify(document).slice(0, 400)} [FUZZ_SEED=${SEED}, case ${index}.${n}]`;
        expect(gql.status, glabel).toBeLessThan(500);
        const codes = (body.errors ?? []).map((e: { extensions?: { code?: string } }) => e.extensions?.code);
        expect(codes.filter((code: string | undefined) => !code || !(code in ERRORS) || code === 'internal_error'), glabel).toEqual([]);
        if (c.graphql.surrogate) expect(codes.length, `${glabel}: an unpaired surrogate was accepted`).toBeGreaterThan(0);
        const afterGql = await workspaceFingerprint();
        if (body.errors?.length && body.data == null) expect(afterGql, `${glabel}: a refused request changed stored workspace data`).toBe(fingerprint);
        fingerprint = afterGql;
      }
    }
  }
});
