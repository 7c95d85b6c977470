import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syncSource, type SyncRunRow } from '../../src/sources/index.js';
import { metaAd, startFakeMeta, type FakeMeta } from './fakes/meta.js';
import { fakeServers, FAST, sourceEnv } from './helpers.js';
import { createTestApp, type TestApp } from '../support/app.js';

// sync_runs retention: at the start of a run, the finished runs of its source started more than SYNC_RUNS_KEEP_DAYS
// days ago are deleted (default 90, 0 keeps them all), never a running run nor the latest succeeded run, which
// GET /v1/system/freshness goes on reporting while the runs after it fail.

const TOKEN = 'EAAretentionTestToken5c6d7e';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const env = sourceEnv();
const fakes = fakeServers();

/** A Meta fake that knows another token than the one set: every run fails at its first request. */
async function refusingMeta(vars: Record<string, string | undefined> = {}): Promise<FakeMeta> {
  const meta = await fakes.track(startFakeMeta({ token: `${TOKEN}-other`, ads: [metaAd(1)] }));
  env({ META_GRAPH_URL: meta.url, META_ACCESS_TOKEN: TOKEN, ...vars });
  return meta;
}

type Past = { id: string; asOf: Date; finishedAt: Date | null };

/** A run of the past, written as a run leaves it: started `startedDaysAgo`, standing for the day `asOfDaysAgo`. */
async function pastRun(source: string, status: SyncRunRow['status'], startedDaysAgo: number, asOfDaysAgo = startedDaysAgo): Promise<Past> {
  const { rows: [row] } = await t.db.pool.query<Past>(
    `INSERT INTO "sync_runs" ("id", "source", "query", "queryKey", "status", "trigger", "asOf", "startedAt", "heartbeatAt", "finishedAt")
     VALUES (gen_random_uuid(), $1, '{}', 'past-' || gen_random_uuid(), $2::"SyncRunStatus", 'test', now() - make_interval(days => $4),
             now() - make_interval(days => $3), now() - make_interval(days => $3),
             CASE WHEN $5 THEN now() - make_interval(days => $3) + interval '1 minute' END)
     RETURNING "id", "asOf", "finishedAt"`,
    [source, status, startedDaysAgo, asOfDaysAgo, status !== 'running'],
  );
  return row;
}

const stored = async () =>
  new Map((await t.db.pool.query<{ id: string; status: string }>(`SELECT "id", "status" FROM "sync_runs"`)).rows.map((row) => [row.id, row.status]));
const sync = () => syncSource(t.db.pool, 'meta-ads', { countries: ['FR'], search: 'retention' }, { http: FAST });

describe('sync_runs retention', () => {
  it('deletes the finished runs of the source older than SYNC_RUNS_KEEP_DAYS when it runs; keeps a running run and its latest success', async () => {
    await t.db.pool.query(`DELETE FROM "sync_runs"`);
    const older = await pastRun('meta-ads', 'succeeded', 200);
    // The latest succeeded day, and the latest succeeded run to finish (a run dated back with --as-of): freshness reads both.
    const latestDay = await pastRun('meta-ads', 'succeeded', 150);
    const lastFinished = await pastRun('meta-ads', 'succeeded', 120, 400);
    const failed = await pastRun('meta-ads', 'failed', 100);
    const stopped = await pastRun('meta-ads', 'interrupted', 95);
    const recent = await pastRun('meta-ads', 'failed', 80);
    const running = await pastRun('meta-ads', 'running', 150);
    const otherSource = await pastRun('shopify', 'failed', 100);

    await refusingMeta({ SYNC_RUNS_KEEP_DAYS: '90' });
    const run = await sync();
    expect(run).toMatchObject({ status: 'failed', error: expect.stringMatching(/error 190/) });

    const left = await stored();
    for (const gone of [older, failed, stopped]) expect(left.has(gone.id)).toBe(false);
    expect([latestDay, lastFinished, recent, otherSource].map((kept) => left.get(kept.id))).toEqual(['succeeded', 'succeeded', 'failed', 'failed']);
    // Not deleted while running; the run's claim then found it stale, of another query, and ended it.
    expect(left.get(running.id)).toBe('interrupted');
    expect(left.get(run.id)).toBe('failed');
    expect(left.size).toBe(6);

    const res = await t.rest('GET', '/system/freshness');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const meta = res.body.data.sources.find((source: { source: string }) => source.source === 'meta-ads');
    expect(meta).toMatchObject({
      latestReadyDate: latestDay.asOf.toISOString().slice(0, 10),
      lastSucceededAt: lastFinished.finishedAt!.toISOString(),
      lastRunStatus: 'failed',
    });
    expect(res.body.data.latestReadyDate).toBe(latestDay.asOf.toISOString().slice(0, 10));
  });

  it('keeps 90 days by default, and every run with SYNC_RUNS_KEEP_DAYS=0', async () => {
    await t.db.pool.query(`DELETE FROM "sync_runs"`);
    const ancient = await pastRun('meta-ads', 'failed', 400);
    const meta = await refusingMeta({ SYNC_RUNS_KEEP_DAYS: '0' });
    await sync();
    expect((await stored()).has(ancient.id)).toBe(true);

    const past = await pastRun('meta-ads', 'failed', 91);
    const within = await pastRun('meta-ads', 'failed', 89);
    env({ META_GRAPH_URL: meta.url, META_ACCESS_TOKEN: TOKEN });
    await sync();
    const left = await stored();
    expect([left.has(ancient.id), left.has(past.id), left.has(within.id)]).toEqual([false, false, true]);
  });

  it('refuses a malformed SYNC_RUNS_KEEP_DAYS before the run starts, deleting nothing', async () => {
    await t.db.pool.query(`DELETE FROM "sync_runs"`);
    const ancient = await pastRun('meta-ads', 'failed', 400);
    const meta = await refusingMeta();
    for (const [value, message] of [['-1', /must be 0 \(keep every run\) or more/], ['ninety', /must be a whole number of days/], ['2.5', /must be a whole number of days/]] as const) {
      env({ META_GRAPH_URL: meta.url, META_ACCESS_TOKEN: TOKEN, SYNC_RUNS_KEEP_DAYS: value });
      await expect(sync()).rejects.toMatchObject({
        extensions: { code: 'validation_error' },
        message: expect.stringMatching(new RegExp(`^invalid source configuration: SYNC_RUNS_KEEP_DAYS: ${message.source}`)),
      });
    }
    expect(meta.requests).toHaveLength(0);
    expect([...(await stored()).keys()]).toEqual([ancient.id]);
  });
});
