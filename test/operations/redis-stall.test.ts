import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuthenticator } from '../../src/auth/authenticate.js';
import { createKey, createWorkspace } from '../../src/auth/admin.js';
import { loadConfig } from '../../src/config.js';
import { createRateLimiter } from '../../src/metering/index.js';
import type { RateLimiter } from '../../src/metering/rate-limit.js';
import { createLogger } from '../../src/observability/logger.js';
import { createApp, type App } from '../../src/server.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { TcpProxy } from './tcp-proxy.js';

// A Redis that stops answering with its connections left open (a hung server, a network that drops packets): each
// rate-limit command has a deadline (REDIS_COMMAND_TIMEOUT_MS), after which the documented fail-open applies, and the
// failure is reported once per period, not per request. /v1/ready says Redis is down; the limits resume once it answers.

const redisUrl = process.env.TEST_REDIS_URL;
const COMMAND_TIMEOUT_MS = 200;
/** A request's own deadline here: far above the command timeout, far below the 15 s the stall used to hang requests for. */
const CLIENT_DEADLINE_MS = 8_000;

it('REDIS_COMMAND_TIMEOUT_MS is read from the environment, 300 ms by default', () => {
  expect(loadConfig({}).redisCommandTimeoutMs).toBe(300);
  expect(loadConfig({ REDIS_COMMAND_TIMEOUT_MS: '150' }).redisCommandTimeoutMs).toBe(150);
  expect(() => loadConfig({ REDIS_COMMAND_TIMEOUT_MS: '0' })).toThrow(/REDIS_COMMAND_TIMEOUT_MS/);
});

describe.skipIf(!redisUrl)('Redis that stops answering (skipped without TEST_REDIS_URL)', () => {
  let database: TestDatabase;
  let proxy: TcpProxy;
  let limiter: RateLimiter;
  let app: App;
  const reports: Error[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    const target = new URL(redisUrl!);
    proxy = new TcpProxy({ host: target.hostname, port: Number(target.port || 6379) });
    await proxy.up();
    // Five reads per key, refilled very slowly: a sixth answer while Redis hangs shows the limits failed open.
    const limits = { read: { capacity: 5, perSecond: 0.001 }, write: { capacity: 5, perSecond: 0.001 } };
    const prefix = `mi:test:${process.pid}:${randomBytes(4).toString('hex')}:`;
    limiter = createRateLimiter(limits, `redis://127.0.0.1:${proxy.port}`, prefix, (error) => reports.push(error), { commandTimeoutMs: COMMAND_TIMEOUT_MS });
    await limiter.ready();
    app = createApp(
      {
        prisma: database.prisma,
        pool: database.pool,
        ledger: database.ledger,
        authenticate: createAuthenticator(database.prisma, { cacheMs: 60_000 }),
        rateLimiter: limiter,
        publicBaseUrl: 'http://api.test',
        startedAt: new Date(),
      },
      { logger: createLogger({ level: 'silent' }) },
    );
  });
  afterAll(async () => {
    await proxy?.down();
    await limiter?.close().catch(() => undefined);
    await database?.dispose();
  });

  const timed = async (path: string, apiKey?: string) => {
    const started = performance.now();
    try {
      const response = await app.fetch(`http://api.test/v1${path}`, { headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {}, signal: AbortSignal.timeout(CLIENT_DEADLINE_MS) });
      return { status: response.status, remaining: response.headers.get('x-ratelimit-remaining'), body: await response.json(), ms: performance.now() - started };
    } catch (error) {
      return { status: 0, remaining: null, body: { error: String(error) }, ms: performance.now() - started };
    }
  };

  it('requests answer within the command timeout and are served without limits; reported once; limits resume after', async () => {
    const slug = `stall-${process.pid}`;
    await createWorkspace(database.prisma, { slug, name: slug });
    const { apiKey } = await createKey(database.prisma, { workspace: slug });
    const before = await timed('/me', apiKey);
    expect([before.status, before.remaining]).toEqual([200, '4']);

    proxy.stall();
    const during = await Promise.all(Array.from({ length: 20 }, () => timed('/me', apiKey)));
    const later = [];
    for (let i = 0; i < 10; i++) later.push(await timed('/me', apiKey));
    const ready = await timed('/ready');
    const statuses = [...during, ...later].map((res) => res.status);
    const slowest = Math.max(...[...during, ...later].map((res) => res.ms));
    console.log(`redis stall: statuses ${JSON.stringify(Object.fromEntries(statuses.map((s) => [s, statuses.filter((x) => x === s).length])))}, ` +
      `concurrent p50 ${Math.round(during.map((r) => r.ms).sort((a, b) => a - b)[10])} ms max ${Math.round(Math.max(...during.map((r) => r.ms)))} ms, ` +
      `sequential max ${Math.round(Math.max(...later.map((r) => r.ms)))} ms, ready ${ready.status} in ${Math.round(ready.ms)} ms`);
    expect(statuses).toEqual(Array(30).fill(200)); // 30 answers on a five-token bucket: the limits failed open
    expect(slowest).toBeLessThan(CLIENT_DEADLINE_MS / 2); // bounded by the command timeout (wide margin for a loaded machine)
    expect([ready.status, ready.body.checks.redis.status, ready.body.checks.database.status]).toEqual([503, 'down', 'up']);
    expect(reports.length).toBe(1); // once per period, not per request

    proxy.resume();
    for (let i = 0; i < 200 && (await timed('/ready')).status !== 200; i++) await new Promise((resolve) => setTimeout(resolve, 25));
    // Redis' own buckets again: a fresh key's two requests take two tokens (failing open, both would say 4). The stalled
    // key's bucket is not looked at: the commands the stall held reach Redis when it resumes, and take their tokens then.
    const other = await createKey(database.prisma, { workspace: slug });
    const resumed = [await timed('/me', other.apiKey), await timed('/me', other.apiKey)];
    expect(resumed.map((res) => [res.status, res.remaining])).toEqual([[200, '4'], [200, '3']]);
  });
});
