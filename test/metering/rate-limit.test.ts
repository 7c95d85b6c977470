import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import { createConnection, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpServer } from '../../src/http.js';
import { MemoryRateLimitStore } from '../../src/metering/rate-limit.js';
import { createLogger } from '../../src/observability/logger.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { withStatements } from '../support/statements.js';
import { adsScenario } from '../ads/scenario.js';

// Slow refills (a token every 2 s, every 5 s for writes), so a loaded machine cannot refill a bucket mid-test.
const LIMITS = { read: { capacity: 3, perSecond: 0.5 }, write: { capacity: 1, perSecond: 0.2 } };
const redisUrl = process.env.TEST_REDIS_URL;
const prefix = `mi:test:${process.pid}:${randomBytes(4).toString('hex')}:`;

let database: TestDatabase;
let t: TestApp;
let server: Server;
/** The app behind Node's HTTP server, as clients meet it: headers as written on the wire, read by Node's fetch. */
let overHttp: (path: string, init?: RequestInit) => Promise<Response>;
beforeAll(async () => {
  database = await createTestDatabase();
  await adsScenario(database);
  t = await createTestApp(undefined, { database, rateLimits: LIMITS, redisUrl, redisPrefix: prefix });
  server = createHttpServer(t.app, { logger: createLogger({ level: 'silent' }) });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  overHttp = (path, init) => fetch(`http://127.0.0.1:${port}${path}`, init);
});
afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await t?.close();
  await database?.dispose();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe(`rate limits (${redisUrl ? 'Redis' : 'memory'} store)`, () => {
  it('a burst past the bucket gets 429 with Retry-After; honouring it succeeds', async () => {
    const { apiKey } = await t.newKey();
    const remaining: (string | null)[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await t.rest('GET', '/me', { key: apiKey });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-ratelimit-limit')).toBe('3');
      expect(Number(res.headers.get('x-ratelimit-reset'))).toBeGreaterThan(0);
      remaining.push(res.headers.get('x-ratelimit-remaining'));
    }
    expect(remaining).toEqual(['2', '1', '0']);

    const refused = await t.rest('GET', '/me', { key: apiKey });
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatchObject({ code: 'rate_limited', requestId: refused.headers.get('x-request-id') });
    const wire = await overHttp('/v1/me', { headers: { authorization: `Bearer ${apiKey}` } });
    expect([wire.status, wire.headers.get('retry-after')]).toEqual([429, expect.stringMatching(/^\d+$/)]); // one value, not "1, 1"
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');

    await sleep(retryAfter * 1000 + 50);
    expect((await t.rest('GET', '/me', { key: apiKey })).status).toBe(200);
  });

  it('the bucket is per credential and shared by both surfaces; GraphQL answers rate_limited too', async () => {
    const first = await t.newKey();
    const other = await t.newKey();
    for (let i = 0; i < 3; i++) expect((await t.rest('GET', '/workspace', { key: first.apiKey })).status).toBe(200);
    const gql = await t.graphql('{ me { workspace { slug } } }', {}, first.apiKey);
    expect(gql.status).toBe(429);
    expect(gql.body.errors[0].extensions.code).toBe('rate_limited');
    const wire = await overHttp('/graphql', { method: 'POST', headers: { authorization: `Bearer ${first.apiKey}`, 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ me { workspace { slug } } }' }) });
    expect([wire.status, wire.headers.get('retry-after')]).toEqual([429, expect.stringMatching(/^\d+$/)]); // one value, not "1, 1"
    expect(Number(gql.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await t.rest('GET', '/me', { key: other.apiKey })).status).toBe(200);
  });

  it('writes draw from their own, stricter bucket', async () => {
    const { apiKey } = await t.newKey();
    expect((await t.rest('POST', '/ads/facebook_9001/share', { key: apiKey })).status).toBe(200);
    const second = await t.rest('POST', '/ads/facebook_9001/share', { key: apiKey });
    expect(second.status).toBe(429);
    expect(second.headers.get('x-ratelimit-limit')).toBe('1');
    expect((await t.rest('GET', '/me', { key: apiKey })).status).toBe(200);
  });

  it('is enforced right after authentication, before any other database work', async () => {
    const { apiKey } = await t.newKey();
    for (let i = 0; i < 3; i++) await t.rest('GET', '/ads/facebook_9001', { key: apiKey });
    const [res, statements] = await withStatements(() => t.rest('GET', '/ads/facebook_9001', { key: apiKey }));
    expect(res.status).toBe(429);
    // Only the credential lookup ran (one statement): no ad was read, no credit touched.
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatch(/FROM "credentials" c\s+JOIN "workspaces"/);
  });

  it('open routes and failed authentication carry no rate-limit headers', async () => {
    const open = await t.rest('GET', '/health');
    expect(open.headers.get('x-ratelimit-limit')).toBeNull();
    const denied = await t.rest('GET', '/me');
    expect(denied.status).toBe(401);
    expect(denied.headers.get('x-ratelimit-limit')).toBeNull();
  });

  it('requests refused at authentication draw from a bucket per client address: key guessing gets 429', async () => {
    const from = (address: string) => ({ req: { socket: { remoteAddress: address } } });
    const guess = (address: string, key: string, path = '/v1/me') =>
      t.app.fetch(`http://api.test${path}`, { headers: { authorization: `Bearer ${key}` } }, from(address));
    const codes: string[] = [];
    for (const key of ['guess-1', `mik_${'A'.repeat(12)}_${'b'.repeat(40)}`, 'guess-3', 'guess-4']) codes.push((await (await guess('192.0.2.10', key)).json()).error.code);
    expect(codes).toEqual(['invalid_api_key', 'invalid_api_key', 'invalid_api_key', 'rate_limited']);
    const limited = await guess('192.0.2.10', 'guess-5');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    const body = await limited.json();
    expect(body.error.requestId).toBe(limited.headers.get('x-request-id'));
    const missing = await t.app.fetch('http://api.test/v1/me', {}, from('192.0.2.10'));
    expect((await missing.json()).error.code).toBe('rate_limited'); // no key at all draws from the same bucket
    const gql = await t.app.fetch('http://api.test/graphql', { method: 'POST', headers: { authorization: 'Bearer guess-6', 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ me { workspace { slug } } }' }) }, from('192.0.2.10'));
    expect([gql.status, (await gql.json()).errors[0].extensions.code, gql.headers.get('retry-after')]).toEqual([429, 'rate_limited', expect.stringMatching(/^\d+$/)]);
    // Another address has its own bucket, and a valid key is never held back by the guesses from its address.
    expect((await (await guess('192.0.2.11', 'guess-7')).json()).error.code).toBe('invalid_api_key');
    const { apiKey } = await t.newKey();
    expect((await guess('192.0.2.10', apiKey)).status).toBe(200);
  });

  it('the MCP endpoint draws refused keys from the same bucket (its initialize and tools/list authenticate too)', async () => {
    const from = { req: { socket: { remoteAddress: '192.0.2.12' } } };
    const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'guess', version: '1' } } };
    const guess = async (key: string) => {
      const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
      const res = await t.app.fetch('http://api.test/v1/mcp', { method: 'POST', headers, body: JSON.stringify(initialize) }, from);
      return { status: res.status, retryAfter: res.headers.get('retry-after'), code: (await res.json()).error?.code };
    };
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await guess(`mcp-guess-${i}`));
    expect(answers.map((a) => a.code)).toEqual(['invalid_api_key', 'invalid_api_key', 'invalid_api_key', 'rate_limited']);
    expect([answers[3].status, answers[3].retryAfter]).toEqual([429, expect.stringMatching(/^\d+$/)]);
    // REST from that address now meets the same empty bucket.
    const rest = await t.app.fetch('http://api.test/v1/me', { headers: { authorization: 'Bearer rest-guess' } }, from);
    expect((await rest.json()).error.code).toBe('rate_limited');
  });

  it.runIf(redisUrl)('two instances on one Redis share the bucket', async () => {
    const other = await createTestApp(undefined, { database, rateLimits: LIMITS, redisUrl, redisPrefix: prefix });
    try {
      const { apiKey } = await t.newKey();
      for (let i = 0; i < 3; i++) expect((await (i % 2 ? other : t).rest('GET', '/me', { key: apiKey })).status).toBe(200);
      expect((await other.rest('GET', '/me', { key: apiKey })).status).toBe(429);
      expect((await t.rest('GET', '/me', { key: apiKey })).status).toBe(429);
    } finally {
      await other.close();
    }
  });
});

describe('two Authorization headers', () => {
  // A valid key followed by junk must not authenticate: not through fetch's Headers (which join them with ", "),
  // and not through Node's HTTP server (whose parsed headers keep only the first Authorization).
  const answerOf = (raw: string) => ({ status: Number(raw.slice(9, 12)), body: JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4)) });

  it('are refused as 401 invalid_api_key, in process and over HTTP', async () => {
    const { apiKey } = await t.newKey();
    const headers = new Headers();
    headers.append('authorization', `Bearer ${apiKey}`);
    headers.append('authorization', 'Bearer junk');
    const inProcess = await t.app.fetch('http://api.test/v1/me', { headers }, { req: { socket: { remoteAddress: '192.0.2.20' } } });
    expect([inProcess.status, (await inProcess.json()).error?.code]).toEqual([401, 'invalid_api_key']);

    const { port } = server.address() as AddressInfo;
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = createConnection(port, '127.0.0.1', () =>
        socket.write(`GET /v1/me HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${apiKey}\r\nAuthorization: Bearer junk\r\nConnection: close\r\n\r\n`));
      let text = '';
      socket.on('data', (chunk) => (text += chunk.toString('utf8')));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    const answer = answerOf(raw.replace(/\r\n[0-9a-f]+\r\n/, '\r\n').replace(/\r\n0\r\n\r\n$/, ''));
    expect([answer.status, answer.body.error?.code]).toEqual([401, 'invalid_api_key']);
  });
});

describe('the token bucket', () => {
  it('refills at the sustained rate up to the burst', async () => {
    let now = 0;
    const store = new MemoryRateLimitStore(() => now);
    const bucket = { capacity: 2, perSecond: 4 };
    expect(await store.take('k', bucket)).toEqual({ allowed: true, tokens: 1 });
    expect(await store.take('k', bucket)).toEqual({ allowed: true, tokens: 0 });
    expect((await store.take('k', bucket)).allowed).toBe(false);
    now = 125; // half a token
    expect(await store.take('k', bucket)).toEqual({ allowed: false, tokens: 0.5 });
    now = 250;
    expect(await store.take('k', bucket)).toEqual({ allowed: true, tokens: 0 });
    now = 60_000; // a long pause refills only up to the burst
    expect(await store.take('k', bucket)).toEqual({ allowed: true, tokens: 1 });
  });
});
