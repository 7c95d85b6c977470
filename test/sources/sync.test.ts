import { spawn } from 'node:child_process';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syncSource, type SyncRunRow } from '../../src/sources/index.js';
import { metaAd, startFakeMeta, type FakeMeta } from './fakes/meta.js';
import { startFakeShopify } from './fakes/shopify.js';
import { startFakeTikTok, tiktokAd } from './fakes/tiktok.js';
import { fakeServers, FAST, runFigures, sourceEnv } from './helpers.js';
import { createTestApp, type TestApp } from '../support/app.js';

// The sync runner (src/sources/sync.ts) through the meta-ads connector: a run killed for real (a child process
// SIGKILLed mid-page) resumes after its lease and ends with the rows of a run never stopped; one running run per
// source (a conflict for the second of two at once); a stale run taken over from its cursor, a stopped one resumed,
// one of another query or more than a day old left; a refused request not resumed; bad queries refused before any
// request.

const TOKEN = 'EAAsyncTestToken0a1b2c3d4e';
const CHILD = path.join(import.meta.dirname, 'support/sync-child.ts');
/** What a Meta import writes (ads.firstFetchedAt, the database clock at insert, is left out of the comparison). */
const META_TABLES = [
  'ads', 'advertisers', 'ad_demography', 'ad_reach_days', 'advertiser_ad_groups', 'advertiser_ad_counts', 'advertiser_main_landing_pages', 'advertiser_metric_days',
  'advertiser_landing_page_counts', 'advertiser_series_days',
];

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const env = sourceEnv();
const fakes = fakeServers();

async function fakeMeta(count: number, latencyMs = 0, from = 0): Promise<FakeMeta> {
  const meta = await fakes.track(startFakeMeta({ token: TOKEN, ads: { count, make: (i) => metaAd(from + i) }, latencyMs }));
  env({ META_GRAPH_URL: meta.url, META_ACCESS_TOKEN: TOKEN });
  return meta;
}

const sync = (query: unknown, options: Parameters<typeof syncSource>[3] = {}, pool: pg.Pool = t.db.pool) =>
  syncSource(pool, 'meta-ads', query, { http: FAST, ...options });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const runRow = async (id: string) => (await t.db.pool.query<SyncRunRow>(`SELECT * FROM "sync_runs" WHERE "id" = $1`, [id])).rows[0];
const runCount = async () => (await t.db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM "sync_runs"`)).rows[0].n;

async function tableSums(): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const table of META_TABLES) {
    const { rows } = await t.db.pool.query<{ sum: string | null; n: number }>(
      `SELECT md5(string_agg(x, '|' ORDER BY x)) AS sum, count(*)::int AS n FROM (SELECT (to_jsonb(r) - 'firstFetchedAt')::text AS x FROM "${table}" r) s`,
    );
    out[table] = `${rows[0].n}:${rows[0].sum}`;
  }
  return out;
}

describe('sync: a run killed mid-way', () => {
  it('is taken over after its lease, resumes at its cursor and ends with the rows of a run never stopped', async () => {
    const meta = await fakeMeta(90, 80);
    const query = { countries: ['FR'], search: 'our', limit: 10 };
    const asOf = new Date();
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, t.db.url, 'meta-ads', JSON.stringify(query), asOf.toISOString(), '4'], {
      env: { ...process.env, META_GRAPH_URL: meta.url, META_ACCESS_TOKEN: TOKEN, SYNC_LEASE_MS: '1000' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let errors = '';
    child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    const killedAt = await new Promise<number>((resolve, reject) => {
      let at = 0;
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        // Killed inside the transaction of its 4th page (it hangs there): that page is rolled back, the 3rd is the last stored.
        if (!at && /page 4/.test(output)) {
          at = Date.now();
          child.kill('SIGKILL');
        }
      });
      child.on('exit', (code, signal) => (signal === 'SIGKILL' ? resolve(at) : reject(new Error(`child exited ${code}: ${output} ${errors}`))));
    });
    expect(output).not.toMatch(/done/);

    const { rows: [left] } = await t.db.pool.query<SyncRunRow>(`SELECT * FROM "sync_runs" WHERE "source" = 'meta-ads'`);
    expect(left).toMatchObject({ status: 'running', pages: 3, fetched: 30, inserted: 30, finishedAt: null });
    expect(left.cursor).toEqual({ leg: 0, after: expect.any(String) });
    const { rows: [stored] } = await t.db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM "ads"`);
    expect(stored.n).toBe(30);

    // Within the lease the run still counts as running.
    await expect(sync(query, { leaseMs: 1000 })).rejects.toMatchObject({ extensions: { code: 'conflict', details: { runId: left.id } } });
    // The lease runs from the last heartbeat that reached the database: one the child sent just before it was killed
    // may be written after the kill (queued behind the page's transaction), so the wait is for the heartbeat's age.
    await sleep(Math.max(0, killedAt + 1100 - Date.now()));
    for (let i = 0; i < 100; i++) {
      const { rows: [lease] } = await t.db.pool.query<{ lapsed: boolean }>(
        `SELECT "heartbeatAt" < now() - interval '1100 milliseconds' AS lapsed FROM "sync_runs" WHERE "id" = $1`,
        [left.id],
      );
      if (lease.lapsed) break;
      await sleep(100);
    }
    const asked = meta.archiveRequests().length;
    const resumed = await sync(query, { leaseMs: 1000 });
    expect(resumed).toMatchObject({ id: left.id, status: 'succeeded', cursor: null, asOf });
    expect(runFigures(resumed)).toEqual({ status: 'succeeded', pages: 9, fetched: 90, inserted: 90, updated: 0, unchanged: 0, skipped: 0 });
    const again = meta.archiveRequests().slice(asked);
    expect(again).toHaveLength(6);
    expect(again[0].query.get('after')).toBe((left.cursor as { after: string }).after);
    const afterResume = await tableSums();

    // The same query on a clean table set, never stopped.
    await t.db.pool.query(`TRUNCATE ${[...META_TABLES, 'sync_runs'].map((table) => `"${table}"`).join(', ')} CASCADE`);
    const whole = await sync(query, { asOf });
    expect(runFigures(whole)).toEqual(runFigures(resumed));
    expect(await tableSums()).toEqual(afterResume);
  });
});

describe('sync: one running run per source', () => {
  it('refuses the second of two runs started at once on separate connections with a conflict', async () => {
    await fakeMeta(30, 60, 2000);
    const pools = [new pg.Pool({ connectionString: t.db.url, max: 2 }), new pg.Pool({ connectionString: t.db.url, max: 2 })];
    try {
      const before = await runCount();
      const results = await Promise.allSettled([
        sync({ countries: ['FR'], search: 'our', limit: 10 }, {}, pools[0]),
        sync({ countries: ['DE'], search: 'our', limit: 10 }, {}, pools[1]),
      ]);
      const done = results.filter((result) => result.status === 'fulfilled');
      const refused = results.filter((result): result is PromiseRejectedResult => result.status === 'rejected');
      expect(done).toHaveLength(1);
      expect((done[0] as PromiseFulfilledResult<SyncRunRow>).value).toMatchObject({ status: 'succeeded', pages: 3 });
      expect(refused).toHaveLength(1);
      expect(refused[0].reason).toMatchObject({ extensions: { code: 'conflict' }, message: /A meta-ads run is already running/ });
      expect(await runCount()).toBe(before + 1);
    } finally {
      await Promise.all(pools.map((pool) => pool.end()));
    }
  });
});

describe('sync: stopped and stale runs', () => {
  const query = { countries: ['FR'], search: 'our', limit: 10 };

  it('stops on its signal as interrupted; the next run of the query resumes it', async () => {
    const meta = await fakeMeta(40, 0, 3000);
    const controller = new AbortController();
    const stopped = await sync(query, { signal: controller.signal, onPage: (run) => run.pages === 2 && controller.abort(new Error('operator stop')) });
    expect(stopped).toMatchObject({ status: 'interrupted', pages: 2, inserted: 20, error: 'stopped: operator stop' });
    expect(stopped.cursor).toEqual({ leg: 0, after: expect.any(String) });
    // The two pages stored, and at most the one fetched ahead while the second was written (not written).
    const asked = meta.archiveRequests().length;
    expect(asked === 2 || asked === 3).toBe(true);

    const resumed = await sync(query);
    expect(resumed).toMatchObject({ id: stopped.id, status: 'succeeded', pages: 4, inserted: 40, error: null });
    expect(meta.archiveRequests()[asked].query.get('after')).toBe((stopped.cursor as { after: string }).after);
  });

  it('refuses to start beside a running run with a fresh heartbeat; takes over a stale one from its cursor', async () => {
    const meta = await fakeMeta(40, 0, 3100);
    const controller = new AbortController();
    const left = await sync(query, { signal: controller.signal, onPage: (run) => run.pages === 1 && controller.abort() });
    // As a crashed process leaves it: still running, its heartbeat beating.
    await t.db.pool.query(`UPDATE "sync_runs" SET "status" = 'running', "finishedAt" = NULL, "error" = NULL, "heartbeatAt" = now() WHERE "id" = $1`, [left.id]);
    await expect(sync(query)).rejects.toMatchObject({ extensions: { code: 'conflict', details: { runId: left.id } } });
    await expect(sync({ ...query, limit: 20 })).rejects.toMatchObject({ extensions: { code: 'conflict' } });

    // Its heartbeat older than the lease: taken over.
    await t.db.pool.query(`UPDATE "sync_runs" SET "heartbeatAt" = now() - interval '2 minutes' WHERE "id" = $1`, [left.id]);
    const asked = meta.archiveRequests().length;
    const taken = await sync(query, { trigger: 'schedule:test' });
    expect(taken).toMatchObject({ id: left.id, status: 'succeeded', trigger: 'schedule:test', pages: 4, inserted: 40 });
    expect(meta.archiveRequests()[asked].query.get('after')).toBe((left.cursor as { after: string }).after);
    expect(meta.archiveRequests().length - asked).toBe(3);
  });

  it('marks a stale run of another query, or one started more than a day ago, interrupted and starts afresh', async () => {
    const meta = await fakeMeta(20, 0, 3200);
    const other = await sync({ ...query, limit: 5 }, { signal: AbortSignal.abort() }).catch((error: unknown) => error);
    expect(other).toMatchObject({ status: 'interrupted' }); // aborted before its first page
    await t.db.pool.query(`UPDATE "sync_runs" SET "status" = 'running', "finishedAt" = NULL, "heartbeatAt" = now() - interval '2 minutes' WHERE "id" = $1`, [
      (other as SyncRunRow).id,
    ]);
    const run = await sync(query);
    expect(run.id).not.toBe((other as SyncRunRow).id);
    expect(run).toMatchObject({ status: 'succeeded', pages: 2 });
    expect(await runRow((other as SyncRunRow).id)).toMatchObject({ status: 'interrupted', error: 'left by a stopped process; a run of another query started' });

    // The same query, crashed two days ago: its asOf no longer stands for today's data.
    const controller = new AbortController();
    const old = await sync(query, { signal: controller.signal, onPage: () => controller.abort() });
    await t.db.pool.query(
      `UPDATE "sync_runs" SET "status" = 'running', "finishedAt" = NULL, "startedAt" = now() - interval '2 days', "heartbeatAt" = now() - interval '2 days' WHERE "id" = $1`,
      [old.id],
    );
    const asked = meta.archiveRequests().length;
    const fresh = await sync(query);
    expect(fresh.id).not.toBe(old.id);
    expect(fresh).toMatchObject({ status: 'succeeded', pages: 2 });
    expect(meta.archiveRequests()[asked].query.get('after')).toBeNull();
    expect(await runRow(old.id)).toMatchObject({ status: 'interrupted', error: 'left by a stopped process on an earlier day' });
  });

  it('does not resume a run the source refused as a wrong request: the next run starts over', async () => {
    const tiktok = await fakes.track(startFakeTikTok({ ads: Array.from({ length: 30 }, (_, i) => tiktokAd(4000 + i)), faults: [{ at: 2, fault: 'invalid_params' }] }));
    env({ TIKTOK_API_URL: tiktok.url, TIKTOK_CLIENT_KEY: tiktok.clientKey, TIKTOK_CLIENT_SECRET: tiktok.clientSecret });
    const q = { countries: ['FR'], search: 'SAS', from: '2024-01-01', to: '2026-11-01', maxCount: 20 };
    const failed = await syncSource(t.db.pool, 'tiktok-ads', q, { http: FAST });
    expect(failed).toMatchObject({ status: 'failed', pages: 1, cursor: null, error: expect.stringMatching(/invalid_params/) });
    const next = await syncSource(t.db.pool, 'tiktok-ads', q, { http: FAST });
    expect(next.id).not.toBe(failed.id);
    expect(next).toMatchObject({ status: 'succeeded', pages: 2, fetched: 30 });
    expect(JSON.parse(tiktok.queryRequests()[2].body).search_id).toBeUndefined();
  });
});

describe('sync: bad input', () => {
  it('refuses a bad query or a malformed setting with a validation_error before any request', async () => {
    const meta = await fakeMeta(5);
    const tiktok = await fakes.track(startFakeTikTok({ ads: [] }));
    const shopify = await fakes.track(startFakeShopify({ stores: {} }));
    const settings = {
      META_GRAPH_URL: meta.url, META_ACCESS_TOKEN: TOKEN, TIKTOK_API_URL: tiktok.url, TIKTOK_CLIENT_KEY: 'key1', TIKTOK_CLIENT_SECRET: 'secret1',
      SHOPIFY_STORE_URL: shopify.storeUrlTemplate,
    };
    env(settings);
    const before = await runCount();
    const refused = async (source: string, query: unknown, message: RegExp) => {
      // syncSource refuses an unknown source by throwing at once, not with a rejected promise.
      const error = await Promise.resolve()
        .then(() => syncSource(t.db.pool, source, query, { http: FAST }))
        .then(() => null, (e: unknown) => e);
      expect(error, `${source} ${JSON.stringify(query)}`).toMatchObject({ extensions: { code: 'validation_error' }, message });
    };
    await refused('meta-ads', { countries: ['FR'], search: 'x', color: 'red' }, /^meta-ads: Unrecognized key: "color"/);
    await refused('meta-ads', { search: 'x' }, /^meta-ads: .*countries/);
    await refused('meta-ads', { countries: [], search: 'x' }, /^meta-ads: countries needs at least one country$/);
    await refused('meta-ads', { countries: ['France'], search: 'x' }, /countries must be ISO codes/);
    await refused('meta-ads', { countries: ['FR'], search: 'x', deliveredFrom: '2026-02-30' }, /must be real days/);
    await refused('meta-ads', { countries: ['FR'], search: 'x', deliveredFrom: '01/02/2026' }, /must be dates like 2026-11-01/);
    await refused('meta-ads', { countries: ['FR'], search: 'x', deliveredFrom: '2026-03-02', deliveredTo: '2026-03-01' }, /deliveredFrom is after deliveredTo/);
    await refused('meta-ads', { countries: ['FR'] }, /give search or pageIds/);
    await refused('tiktok-ads', { search: 'x', region: 'EU', countries: ['FR'] }, /^tiktok-ads: Unrecognized key: "region"/);
    await refused('tiktok-ads', { search: 'x' }, /^tiktok-ads: .*countries/);
    await refused('tiktok-ads', { countries: ['FR'], search: 'x', from: '2026-13-01' }, /must be real days/);
    await refused('tiktok-ads', { countries: ['FR'], search: 'x', from: '2022-09-30' }, /2022-10-01 or later/);
    await refused('tiktok-ads', { countries: ['FR'], search: 'x', from: '2026-03-02', to: '20260301' }, /from is after to/);
    await refused('shopify', { domains: ['not a domain'] }, /is not a shop domain/);
    await refused('shopify', { domains: ['a.example.com'], pages: 3 }, /Unrecognized key: "pages"/);
    await refused('google-ads', {}, /unknown source "google-ads"/);

    env({ ...settings, META_API_VERSION: '21' });
    await refused('meta-ads', { countries: ['FR'], search: 'x' }, /invalid source configuration: META_API_VERSION: must look like v21\.0/);
    env({ ...settings, SHOPIFY_STORE_URL: 'https://shops.example.com' });
    await refused('shopify', { domains: ['a.example.com'] }, /invalid source configuration: SHOPIFY_STORE_URL: must be a URL template with \{domain\}/);

    expect([meta.requests.length, tiktok.requests.length, shopify.requests.length]).toEqual([0, 0, 0]);
    expect(await runCount()).toBe(before);
  });
});

describe('sync: ownership, days and failed pages', () => {
  it('a runner whose run was taken over writes nothing more: it stops with a conflict, the new owner finishes', async () => {
    const meta = await fakeMeta(60, 60, 5000);
    // The first runner's 3rd page (fetched while its 2nd is written) comes late: the takeover happens while it waits,
    // however slow the machine, and the page it then gets is not written.
    meta.faults.add({ at: 3, fault: { kind: 'slow', ms: 3000 } });
    const query = { countries: ['FR'], search: 'our', limit: 10 };
    let first: SyncRunRow | undefined;
    let second: Promise<SyncRunRow> | undefined;
    const stalled = sync(query, {
      leaseMs: 60_000,
      onPage: (row) => {
        first = row;
        // After its 2nd page the runner looks dead to the others (its heartbeat is backdated) and is taken over.
        if (row.pages === 2 && !second) {
          second = (async () => {
            await sleep(20);
            await t.db.pool.query(`UPDATE "sync_runs" SET "heartbeatAt" = now() - interval '5 minutes' WHERE "id" = $1`, [row.id]);
            return sync(query, { leaseMs: 60_000, trigger: 'takeover' });
          })();
        }
      },
    });
    await expect(stalled).rejects.toMatchObject({ extensions: { code: 'conflict' }, message: /was taken over by another process/ });
    const taken = await second!;
    expect(taken).toMatchObject({ id: first!.id, status: 'succeeded', trigger: 'takeover', fetched: 60, inserted: 60 });
    const { rows: [ads] } = await t.db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM "ads" WHERE "id" = ANY($1::text[])`, [
      Array.from({ length: 60 }, (_, i) => `facebook_${metaAd(5000 + i).id}`),
    ]);
    expect(ads.n).toBe(60);
  });

  it('a stopped run is resumed only for the same day: a run for the next day starts over', async () => {
    const meta = await fakeMeta(30, 0, 5100);
    const query = { countries: ['FR'], search: 'our', limit: 10 };
    const day = new Date('2026-11-20T06:00:00Z');
    const controller = new AbortController();
    const stopped = await sync(query, { asOf: day, signal: controller.signal, onPage: () => controller.abort() });
    expect(stopped).toMatchObject({ status: 'interrupted', pages: 1 });
    const asked = meta.archiveRequests().length;
    const nextDay = await sync(query, { asOf: new Date('2026-11-21T06:00:00Z') });
    expect(nextDay.id).not.toBe(stopped.id);
    expect(nextDay).toMatchObject({ status: 'succeeded', pages: 3, fetched: 30 });
    expect(meta.archiveRequests()[asked].query.get('after')).toBeNull();
    expect(await runRow(stopped.id)).toMatchObject({ status: 'interrupted' });
  });

  it('a page the database refuses is tried once more; refused again, the run fails with its cursor on that page', async () => {
    await fakeMeta(30, 0, 5200);
    const query = { countries: ['DE'], search: 'our', limit: 10 };
    // The second page's demography write fails: once (a sequence counts the attempts across rollbacks), then always.
    const page2 = Array.from({ length: 10 }, (_, i) => `facebook_${metaAd(5210 + i).id}`);
    await t.db.pool.query(`CREATE SEQUENCE IF NOT EXISTS "test_fail_attempts"`);
    await t.db.pool.query(`CREATE TABLE IF NOT EXISTS "test_fail_mode" (always boolean NOT NULL)`);
    await t.db.pool.query(`INSERT INTO "test_fail_mode" VALUES (false)`);
    await t.db.pool.query(
      `CREATE OR REPLACE FUNCTION "test_fail_page"() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN
         IF NEW."adId" = ANY('{${page2.join(',')}}'::text[]) AND ((SELECT always FROM "test_fail_mode" LIMIT 1) OR nextval('test_fail_attempts') = 1) THEN
           RAISE EXCEPTION 'injected failure';
         END IF;
         RETURN NEW;
       END $$`,
    );
    await t.db.pool.query(`CREATE TRIGGER "test_fail_page" BEFORE INSERT ON "ad_demography" FOR EACH ROW EXECUTE FUNCTION "test_fail_page"()`);
    try {
      const retried = await sync(query);
      expect(runFigures(retried)).toEqual({ status: 'succeeded', pages: 3, fetched: 30, inserted: 30, updated: 0, unchanged: 0, skipped: 0 });

      await t.db.pool.query(`DELETE FROM "ad_demography" WHERE "adId" = ANY($1::text[])`, [page2]);
      await t.db.pool.query(`DELETE FROM "ads" WHERE "id" = ANY($1::text[])`, [page2]);
      await t.db.pool.query(`UPDATE "test_fail_mode" SET always = true`);
      const failed = await sync(query, { asOf: new Date(Date.now() + 1000) });
      expect(failed).toMatchObject({ status: 'failed', pages: 1, error: expect.stringMatching(/could not be written: .*injected failure/) });
      expect(failed.cursor).toEqual({ leg: 0, after: expect.any(String) });
      const { rows: [gone] } = await t.db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM "ads" WHERE "id" = ANY($1::text[])`, [page2]);
      expect(gone.n).toBe(0);

      // The database accepts it again: the next run resumes at that page.
      await t.db.pool.query(`UPDATE "test_fail_mode" SET always = false`);
      const resumed = await sync(query, { asOf: new Date(Date.now() + 2000) });
      expect(resumed).toMatchObject({ id: failed.id, status: 'succeeded', pages: 3 });
      const { rows: [back] } = await t.db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM "ads" WHERE "id" = ANY($1::text[])`, [page2]);
      expect(back.n).toBe(10);
    } finally {
      await t.db.pool.query(`DROP TRIGGER IF EXISTS "test_fail_page" ON "ad_demography"`);
    }
  });

  it('a scheduled run that cannot start (no credential) leaves a failed run saying why', async () => {
    env({ META_ACCESS_TOKEN: undefined });
    await expect(sync({ countries: ['FR'], search: 'x' }, { trigger: 'schedule:nightly' })).rejects.toMatchObject({ extensions: { code: 'validation_error' } });
    const { rows: [run] } = await t.db.pool.query<SyncRunRow>(`SELECT * FROM "sync_runs" WHERE "trigger" = 'schedule:nightly'`);
    expect(run).toMatchObject({ status: 'failed', error: expect.stringMatching(/META_ACCESS_TOKEN is not set/), pages: 0 });
  });
});

describe('sync: the next day', () => {
  it('an ad unchanged since the day before counts as unchanged: its snapshot and last-seen day move, nothing else', async () => {
    await fakeMeta(20, 0, 5300);
    const query = { countries: ['IT'], search: 'our', limit: 10 };
    const ids = Array.from({ length: 20 }, (_, i) => `facebook_${metaAd(5300 + i).id}`);
    const adsSum = async () =>
      (await t.db.pool.query<{ sum: string }>(
        `SELECT md5(string_agg((to_jsonb(a) - 'lastSeenAt')::text, '|' ORDER BY a."id")) AS sum FROM "ads" a WHERE a."id" = ANY($1::text[])`,
        [ids],
      )).rows[0].sum;
    const first = await sync(query, { asOf: new Date('2030-01-10T06:00:00Z') });
    expect(first).toMatchObject({ status: 'succeeded', inserted: 20 });
    const before = await adsSum();
    const next = await sync(query, { asOf: new Date('2030-01-11T06:00:00Z') });
    expect(runFigures(next)).toEqual({ status: 'succeeded', pages: 2, fetched: 20, inserted: 0, updated: 0, unchanged: 20, skipped: 0 });
    expect(await adsSum()).toBe(before);
    const { rows } = await t.db.pool.query<{ days: number; seen: Date; status: string }>(
      `SELECT (SELECT count(*)::int FROM "ad_reach_days" r WHERE r."adId" = a."id") AS days, a."lastSeenAt" AS seen, a."status"::text AS status
       FROM "ads" a WHERE a."id" = ANY($1::text[])`,
      [ids],
    );
    expect(rows.every((row) => row.days === 2)).toBe(true);
    const active = rows.filter((row) => row.status === 'active');
    expect(active.length).toBeGreaterThan(0);
    for (const row of active) expect(row.seen.toISOString()).toBe('2030-01-11T00:00:00.000Z');
  });
});
