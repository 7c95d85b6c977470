import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryRateLimitStore } from '../../src/metering/rate-limit.js';
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
beforeAll(async () => {
  database = await createTestDatabase();
  await adsScenario(database);
  t = await createTestApp(undefined, { database, rateLimits: LIMITS, redisUrl, redisPrefix: prefix });
});
afterAll(async () => {
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
