import { Writable } from 'node:stream';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setCredits } from '../../src/auth/admin.js';
import { loadConfig } from '../../src/config.js';
import { connect } from '../../src/db/client.js';
import { createHttpServer, createMetricsServer } from '../../src/http.js';
import { createRateLimiter } from '../../src/metering/index.js';
import { createLogger } from '../../src/observability/logger.js';
import { Metrics } from '../../src/observability/metrics.js';
import { createReadiness } from '../../src/observability/readiness.js';
import { createTestApp, TEST_RATE_LIMITS, type TestApp } from '../support/app.js';
import { withStatements } from '../support/statements.js';
import { adsScenario } from '../ads/scenario.js';

let t: TestApp;
let metrics: Metrics;
let key: { apiKey: string; credentialId: string; workspaceId: string; slug: string };
const PAGES = '/ads/facets/landing-pages?scopeTrackedPages=1000000000000001&limit=5'; // metered: one credit per row (one row)

beforeAll(async () => {
  t = await createTestApp(adsScenario, { logLevel: 'info', metrics: (metrics = new Metrics({}, { processMetrics: false })) });
  key = await t.newKey();
  await setCredits(t.db.prisma, { workspace: key.slug, recurringLimit: 1000, recurringUsed: 0, topup: 0 });
});
afterAll(() => t?.close());

const accessLine = (requestId: string | null) => t.logs.find((line) => line.msg === 'request' && line.requestId === requestId);

describe('access log', () => {
  it('one line per request: request id, method, route template, status, duration, workspace and credential, cost; never the key', async () => {
    const detail = await t.rest('GET', '/ads/facebook_9001', { key: key.apiKey });
    expect(accessLine(detail.headers.get('x-request-id'))).toMatchObject({
      level: 'info', method: 'GET', route: '/v1/ads/:adId', status: 200, durationMs: expect.any(Number), workspaceId: key.workspaceId, credentialId: key.credentialId,
    });
    const metered = await t.rest('GET', PAGES, { key: key.apiKey });
    expect(metered.status).toBe(200);
    expect(accessLine(metered.headers.get('x-request-id'))).toMatchObject({ route: '/v1/ads/facets/landing-pages', cost: 1 });
    const graphql = await t.graphql('{ me { workspace { slug } } }', {}, key.apiKey);
    expect(accessLine(graphql.headers.get('x-request-id'))).toMatchObject({ method: 'POST', route: '/graphql', status: 200, operationType: 'query', workspaceId: key.workspaceId });
    const refused = await t.rest('GET', '/ads?search=x&limit=1000', { key: key.apiKey });
    expect(accessLine(refused.headers.get('x-request-id'))).toMatchObject({ status: 400, errorCodes: ['validation_error'] });
    const unknown = await t.rest('GET', '/no/such/route/123', { key: key.apiKey });
    expect(accessLine(unknown.headers.get('x-request-id'))).toMatchObject({ status: 404, route: 'unmatched' });
    expect(JSON.stringify(t.logs)).not.toContain(key.apiKey);
    expect(JSON.stringify(t.logs)).not.toContain(key.apiKey.slice(-20));
  });

  it('LOG_LEVEL sets the level; JSON lines unless a terminal (or LOG_FORMAT) asks for pretty output', () => {
    const lines: string[] = [];
    const sink = new Writable({ write: (chunk: Buffer, _e, done) => { lines.push(chunk.toString()); done(); } });
    const warn = createLogger({ level: 'warn', destination: sink });
    warn.info('hidden');
    warn.warn({ requestId: 'r1' }, 'shown');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: 'warn', msg: 'shown', requestId: 'r1', time: expect.any(String) });
    expect(loadConfig({ LOG_LEVEL: 'debug', LOG_FORMAT: 'pretty' })).toMatchObject({ logLevel: 'debug', logFormat: 'pretty' });
    expect(loadConfig({})).toMatchObject({ logLevel: 'info', logFormat: 'auto', metrics: { onApiPort: false, port: undefined }, corsOrigins: '*', shutdownTimeoutMs: 10_000 });
    expect(loadConfig({ METRICS: 'on', METRICS_PORT: '9464', CORS_ORIGINS: 'https://a.example, https://b.example/' })).toMatchObject({ metrics: { onApiPort: true, port: 9464 }, corsOrigins: ['https://a.example', 'https://b.example'] });
    expect(() => loadConfig({ LOG_LEVEL: 'loud' })).toThrow(/LOG_LEVEL/);
  });
});

describe('metrics', () => {
  it('requests by route template and status, latency, GraphQL operations, pools, credits charged and refused, rate-limit refusals', async () => {
    const poor = await t.newKey();
    await setCredits(t.db.prisma, { workspace: poor.slug, recurringLimit: 0, recurringUsed: 0, topup: 0 });
    expect((await t.rest('GET', PAGES, { key: poor.apiKey })).status).toBe(402);
    await t.rest('GET', PAGES, { key: key.apiKey });
    await t.graphql('{ health { status } }');
    const limited = await createTestApp(undefined, { database: t.db, metrics, rateLimits: { read: { capacity: 1, perSecond: 0.001 }, write: TEST_RATE_LIMITS.write } });
    try {
      await limited.rest('GET', '/me', { key: key.apiKey });
      expect((await limited.rest('GET', '/me', { key: key.apiKey })).status).toBe(429);
    } finally {
      await limited.close();
    }
    const text = (await metrics.render()).body;
    const value = (pattern: RegExp) => Number(pattern.exec(text)?.[1] ?? NaN);
    expect(value(/^mi_http_requests_total\{method="GET",route="\/v1\/ads\/facets\/landing-pages",status="200"\} (\d+)/m)).toBeGreaterThanOrEqual(1);
    expect(value(/^mi_http_request_duration_seconds_count\{method="GET",route="\/v1\/ads\/facets\/landing-pages",status="200"\} (\d+)/m)).toBeGreaterThanOrEqual(1);
    expect(value(/^mi_graphql_operations_total\{operation_type="query",outcome="ok"\} (\d+)/m)).toBeGreaterThanOrEqual(1);
    expect(value(/^mi_credits_charged_total (\d+)/m)).toBeGreaterThanOrEqual(1);
    expect(value(/^mi_credit_refusals_total (\d+)/m)).toBeGreaterThanOrEqual(1);
    expect(value(/^mi_rate_limit_refusals_total (\d+)/m)).toBe(1);
    expect(text).not.toMatch(/route="\/v1\/ads\/facebook_/); // templates, never raw paths
    const pools = new Metrics({ data: t.db.pool, ledger: t.db.ledger }, { processMetrics: false });
    expect((await pools.render()).body).toMatch(/mi_db_pool_connections\{pool="data",state="total"\} \d+/);
  });

  it('served at /metrics on the API port only when asked (METRICS=on), or on a port of its own (METRICS_PORT)', async () => {
    const logger = createLogger({ level: 'silent' });
    const servers = [createHttpServer(t.app, { logger, metrics, metricsOnThisPort: true }), createHttpServer(t.app, { logger, metrics }), createMetricsServer(metrics)];
    await Promise.all(servers.map((server) => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))));
    try {
      const get = (index: number, path: string) => fetch(`http://127.0.0.1:${(servers[index]!.address() as { port: number }).port}${path}`);
      const on = await get(0, '/metrics');
      expect(on.status).toBe(200);
      expect(await on.text()).toMatch(/^# HELP mi_http_requests_total/m);
      expect((await get(0, '/v1/health')).status).toBe(200);
      expect((await get(1, '/metrics')).status).toBe(404);
      expect(await (await get(2, '/metrics')).text()).toMatch(/mi_http_requests_total/);
    } finally {
      await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
    }
  });
});

describe('readiness', () => {
  it('GET /v1/ready checks the database; GET /v1/health stays the liveness answer', async () => {
    const ready = await t.rest('GET', '/ready');
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({ requestId: ready.headers.get('x-request-id'), status: 'ready', checks: { database: { status: 'up', latencyMs: expect.any(Number) } } });
    expect(ready.body.checks.redis).toBeUndefined();
    // No DATABASE_REPLICA_URLS (and none possible on the embedded database): the list says there are none.
    expect(ready.body.replicas).toEqual([]);
    expect((await t.rest('GET', '/health')).status).toBe(200);
  });

  it.skipIf(process.env.TEST_DB !== 'postgres')('stays ready while a read replica does not answer, and names it by host:port/database only', async () => {
    const db = connect(t.db.url, { replicas: { urls: ['postgresql://reader:s3cret-word@127.0.0.1:1/market?application_name=probe'], maxLagMs: 500 } });
    try {
      await db.replicas!.ready;
      const report = await createReadiness({ pool: db.pool, rateLimiter: createRateLimiter(TEST_RATE_LIMITS) }).check();
      expect(report).toMatchObject({ status: 'ready', checks: { database: { status: 'up' } } });
      expect(report.replicas).toEqual([
        { name: '127.0.0.1:1/market', reachable: false, lagMs: null, maxLagMs: 500, lagging: false, inRotation: false, reason: 'not answering: connection refused' },
      ]);
      expect(JSON.stringify(report)).not.toMatch(/s3cret|reader|postgresql:|application_name/);
    } finally {
      await db.close();
    }
  });

  it('answers 503 while the database or Redis is down, and stopping once shutdown began', async () => {
    const nowhere = new pg.Pool({ connectionString: 'postgresql://postgres@127.0.0.1:1/none', connectionTimeoutMillis: 1000 });
    nowhere.on('error', () => {});
    const memory = createRateLimiter(TEST_RATE_LIMITS);
    const down = await createReadiness({ pool: nowhere, rateLimiter: memory }).check();
    expect(down).toMatchObject({ status: 'unavailable', checks: { database: { status: 'down', error: expect.any(String) } } });
    await nowhere.end();
    const redisDown = createRateLimiter(TEST_RATE_LIMITS, 'redis://127.0.0.1:1');
    try {
      const report = await createReadiness({ pool: t.db.pool, rateLimiter: redisDown }).check();
      expect(report).toMatchObject({ status: 'unavailable', checks: { database: { status: 'up' }, redis: { status: 'down' } } });
    } finally {
      await redisDown.close().catch(() => undefined);
    }
    const readiness = createReadiness({ pool: t.db.pool, rateLimiter: memory });
    readiness.stop();
    expect((await readiness.check()).status).toBe('stopping');
  });
});

describe('X-Credits-Remaining on every authenticated answer', () => {
  it('free routes carry X-Usage-Cost: 0 and the balance; no statement reads the balance once the process knows it', async () => {
    const fresh = await t.newKey();
    await setCredits(t.db.prisma, { workspace: fresh.slug, recurringLimit: 500, recurringUsed: 20, topup: 7 });
    const first = await t.rest('POST', '/ads/query', { key: fresh.apiKey, body: {} });
    expect([first.status, first.headers.get('x-usage-cost'), first.headers.get('x-credits-remaining')]).toEqual([200, '0', '487']);
    const [second, sql] = await withStatements(() => t.rest('POST', '/ads/query', { key: fresh.apiKey, body: {} }));
    expect(second.headers.get('x-credits-remaining')).toBe('487');
    expect(sql.filter((text) => text.includes('credit_accounts'))).toEqual([]);
    const metered = await t.rest('GET', PAGES, { key: fresh.apiKey });
    expect([metered.headers.get('x-usage-cost'), metered.headers.get('x-credits-remaining')]).toEqual(['1', '486']);
    const [after, afterSql] = await withStatements(() => t.graphql('{ me { workspace { slug } } }', {}, fresh.apiKey));
    expect([after.headers.get('x-usage-cost'), after.headers.get('x-credits-remaining')]).toEqual(['0', '486']); // learnt from the charge
    expect(afterSql.filter((text) => text.includes('credit_accounts'))).toEqual([]);
    expect((await t.rest('GET', '/health')).headers.get('x-credits-remaining')).toBeNull(); // open routes: no caller
    const off = await createTestApp(undefined, { database: t.db, metering: false });
    try {
      expect((await off.rest('POST', '/ads/query', { key: fresh.apiKey, body: {} })).headers.get('x-credits-remaining')).toBeNull();
    } finally {
      await off.close();
    }
  });
});
