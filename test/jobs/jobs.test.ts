import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bossOn, listSchedules, startJobs, type Jobs } from '../../src/jobs/index.js';
import { loadSchedules } from '../../src/jobs/schedules.js';
import { Metrics } from '../../src/observability/metrics.js';
import { sourceStatuses } from '../../src/sources/index.js';
import { shopifyProduct, startFakeShopify, type FakeShopify } from '../sources/fakes/shopify.js';
import { fakeServers } from '../sources/helpers.js';
import { createTestApp, type TestApp } from '../support/app.js';

// The job queue on the test database (PGlite through its loopback server, and PostgreSQL): schedules from the
// configuration reach pg-boss, a job of a schedule's queue runs its sync in this process, a removed schedule stops
// firing, and the run shows on GET /v1/system/freshness.

let t: TestApp;
let fake: FakeShopify;
const saved = { ...process.env };
const logger = { info: () => {}, warn: () => {} };
const schedules = (list: object[]) => JSON.stringify({ schedules: list });
const DOMAIN = 'queue-store.example';
const fakes = fakeServers();

beforeAll(async () => {
  t = await createTestApp();
  fake = await fakes.track(startFakeShopify({ stores: { [DOMAIN]: { products: Array.from({ length: 3 }, (_, i) => shopifyProduct(i)), etag: true } } }));
  process.env.SHOPIFY_STORE_URL = fake.storeUrlTemplate;
  process.env.SHOPIFY_DELAY_MS = '0';
});
afterAll(async () => {
  process.env = saved;
  await t?.close();
});

describe('schedules from the configuration', () => {
  it('are read from SYNC_SCHEDULES, each query checked by its connector', () => {
    const env = { SYNC_SCHEDULES: schedules([{ name: 'shops', source: 'shopify', cron: '0 5 * * *', query: { domains: [DOMAIN] } }]) };
    expect(loadSchedules(env)).toEqual([{ name: 'shops', source: 'shopify', cron: '0 5 * * *', query: { domains: [DOMAIN] } }]);
    expect(loadSchedules({})).toEqual([]);
    expect(() => loadSchedules({ SYNC_SCHEDULES: schedules([{ name: 'm', source: 'meta-ads', cron: '0 4 * * *', query: { countries: ['FR'] } }]) }))
      .toThrow(/schedule m: meta-ads: give search or pageIds/);
    expect(() => loadSchedules({ SYNC_SCHEDULES: schedules([{ name: 'x', source: 'myspace', cron: '0 4 * * *' }]) })).toThrow(/source must be one of/);
    expect(() => loadSchedules({ SYNC_SCHEDULES: '{not json' })).toThrow(/SYNC_SCHEDULES: not JSON/);
    expect(() => loadSchedules({ SYNC_CONFIG: '/nonexistent/sync.json' })).toThrow(/cannot read \/nonexistent\/sync.json \(ENOENT\)/);
    const twice = { name: 'a', source: 'shopify', cron: '0 5 * * *' };
    expect(() => loadSchedules({ SYNC_SCHEDULES: schedules([twice, twice]) })).toThrow(/two schedules are named a/);
  });
});

describe('the queue', () => {
  let jobs: Jobs | undefined;
  afterAll(async () => jobs?.stop());

  it('holds the schedules, works a job of one in this process, and unschedules one removed from the configuration', async () => {
    process.env.SYNC_SCHEDULES = schedules([
      { name: 'shops-hourly', source: 'shopify', cron: '0 * * * *', query: { domains: [DOMAIN] } },
      { name: 'shops-nightly', source: 'shopify', cron: '15 3 * * *', tz: 'Europe/Paris', query: { domains: [DOMAIN] } },
    ]);
    jobs = await startJobs(t.db.pool, { work: true, logger });
    const held = await listSchedules(t.db.pool);
    expect(held.map((s) => [s.name, s.cron, s.tz, s.configured, s.held])).toEqual([
      ['shops-hourly', '0 * * * *', null, true, true],
      ['shops-nightly', '15 3 * * *', 'Europe/Paris', true, true],
    ]);

    // A job on the schedule's queue (what its cron sends) is worked here: the run is stored with its trigger.
    const boss = bossOn(t.db.pool, { work: false });
    await boss.start();
    try {
      await boss.send('sync-shops-hourly', { schedule: 'shops-hourly' });
      let run: { status: string; fetched: number } | undefined;
      for (let i = 0; i < 200 && run?.status !== 'succeeded'; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        ({ rows: [run] } = await t.db.pool.query<{ status: string; fetched: number }>(`SELECT "status", "fetched" FROM "sync_runs" WHERE "trigger" = 'schedule:shops-hourly'`));
      }
      expect(run).toEqual({ status: 'succeeded', fetched: 3 });
    } finally {
      await boss.stop({ graceful: false, wait: true });
    }
    await jobs.stop();

    // The nightly schedule leaves the configuration: it no longer fires.
    process.env.SYNC_SCHEDULES = schedules([{ name: 'shops-hourly', source: 'shopify', cron: '0 * * * *', query: { domains: [DOMAIN] } }]);
    jobs = await startJobs(t.db.pool, { work: false, logger });
    expect((await listSchedules(t.db.pool)).map((s) => [s.name, s.held])).toEqual([['shops-hourly', true]]);
    await jobs.stop();

    // No schedule left: nothing is worked, and the last one stops firing too.
    delete process.env.SYNC_SCHEDULES;
    jobs = await startJobs(t.db.pool, { work: true, logger });
    expect(jobs.schedules).toEqual([]);
    expect(await listSchedules(t.db.pool)).toEqual([]);
  }, 60_000);

  it('/metrics reports each source from its runs: rows by outcome, runs by status, lag, running', async () => {
    const metrics = new Metrics({}, { processMetrics: false, sources: () => sourceStatuses(t.db.pool) });
    const { body } = await metrics.render();
    expect(body).toContain('mi_sync_rows{source="shopify",outcome="fetched"} 3');
    expect(body).toContain('mi_sync_rows{source="shopify",outcome="inserted"} 3');
    expect(body).toContain('mi_sync_runs{source="shopify",status="succeeded"} 1');
    expect(body).toContain('mi_sync_runs{source="shopify",status="failed"} 0');
    expect(body).toContain('mi_sync_running{source="shopify"} 0');
    const lag = Number(/mi_sync_lag_seconds\{source="shopify"\} ([\d.e+-]+)/.exec(body)?.[1]);
    expect(lag).toBeGreaterThanOrEqual(0);
    expect(lag).toBeLessThan(120);
  });

  it('GET /v1/system/freshness reports the source from its runs', async () => {
    const res = await t.rest('GET', '/system/freshness');
    expect(res.status).toBe(200);
    const today = new Date().toISOString().slice(0, 10);
    expect(res.body.data.sources).toEqual([
      expect.objectContaining({ source: 'shopify', latestReadyDate: today, latestScheduledDate: today, dataFreshnessLagDays: 0, lastRunStatus: 'succeeded', running: false }),
    ]);
  });
});
