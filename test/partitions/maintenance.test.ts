import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HISTORY_TABLES, maintainHistoryPartitions, monthPartitions } from '../../src/db/partitions.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { TINY_MARKET } from '../support/tiny-market.js';
import { digests, monthsOfRows, partitionOf, partitionsOf } from './support.js';

// The maintenance of the history partitions (src/db/partitions.ts): the tiny market (as of 2025-06-01) loaded on a
// freshly migrated database (a copy of the run's template of it: seedMarket's database as the load left it); the load
// makes the months of its snapshot window first and writes into them. Those months
// are then folded back into the default partitions (as a load of past months that made none would leave them). The
// maintenance then gives each month of the data its partition (moving the rows), creates the months ahead, and drops
// whole months past the retention.

const JUNE = new Date('2025-06-15T08:00:00Z');
let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase({ market: TINY_MARKET });
  for (const table of HISTORY_TABLES) {
    for (const { name } of await monthPartitions(db.pool, table)) {
      await db.pool.query(`ALTER TABLE "${table}" DETACH PARTITION "${name}"`);
      await db.pool.query(`INSERT INTO "${table}" SELECT * FROM "${name}"`);
      await db.pool.query(`DROP TABLE "${name}"`);
    }
  }
});
afterAll(() => db?.dispose());

const names = async (table: (typeof HISTORY_TABLES)[number]) => (await monthPartitions(db.pool, table)).map((p) => p.name);
const defaultRows = async (table: string) => (await db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${table}_default"`)).rows[0].n;

describe('a market load', () => {
  it('writes its snapshot window into month partitions it makes first, leaving the default partitions empty', async () => {
    const fresh = await createTestDatabase({ market: TINY_MARKET });
    try {
      for (const table of HISTORY_TABLES) {
        const months = await monthsOfRows(fresh.pool, table);
        expect(months.length, table).toBeGreaterThan(0);
        expect((await monthPartitions(fresh.pool, table)).map((p) => p.name), table).toEqual(expect.arrayContaining(months.map((month) => partitionOf(table, month))));
        const { rows: [left] } = await fresh.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${table}_default"`);
        expect(left.n, table).toBe(0);
      }
    } finally {
      await fresh.dispose();
    }
  });
});

describe('history partition maintenance', () => {
  it('moves the rows a load left in the default partitions into a partition per month, and creates the months ahead', async () => {
    const before = await digests(db.pool);
    const months = Object.fromEntries(await Promise.all(HISTORY_TABLES.map(async (table) => [table, await monthsOfRows(db.pool, table)] as const)));
    for (const table of HISTORY_TABLES) {
      expect(await names(table), table).toEqual([]);
      expect(await defaultRows(table), table).toBe(before[table].rows);
    }
    const report = await maintainHistoryPartitions(db.pool, { aheadMonths: 2, retentionMonths: null, now: JUNE });
    expect(report.ran).toBe(true);
    expect(report.moved).toBe(Object.values(before).reduce((sum, digest) => sum + digest.rows, 0));
    expect(report.dropped).toEqual([]);
    for (const table of HISTORY_TABLES) {
      const expected = [...new Set([...months[table], '2025-06-01', '2025-07-01', '2025-08-01'])].sort().map((month) => partitionOf(table, month));
      expect(await names(table), table).toEqual(expected);
      expect(await defaultRows(table), table).toBe(0);
      // Each row is in its month's partition.
      for (const partition of await partitionsOf(db.pool, table)) {
        if (partition.name.endsWith('_default')) continue;
        const month = `${partition.name.slice(-6, -2)}-${partition.name.slice(-2)}-01`;
        const { rows: [inMonth] } = await db.pool.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM "${table}" WHERE "date" >= $1::date AND "date" < ($1::date + interval '1 month')`, [month]);
        expect(partition.rows, partition.name).toBe(inMonth.n);
      }
    }
    expect(await digests(db.pool)).toEqual(before);
    // Run again: nothing left to do.
    expect(await maintainHistoryPartitions(db.pool, { aheadMonths: 2, retentionMonths: null, now: JUNE })).toEqual({ ran: true, created: [], dropped: [], moved: 0, deleted: 0 });
  });

  it('creates the current month and the next ones ahead as time goes on, and only those', async () => {
    const report = await maintainHistoryPartitions(db.pool, { aheadMonths: 3, retentionMonths: null, now: new Date('2025-09-30T23:59:00Z') });
    expect(report.created.sort()).toEqual(HISTORY_TABLES.flatMap((table) => ['2025-09-01', '2025-10-01', '2025-11-01', '2025-12-01'].map((m) => partitionOf(table, m))).sort());
    expect(report.moved).toBe(0);
    // A row of the new month goes straight to its partition.
    const { rows: [ad] } = await db.pool.query<{ id: string }>(`SELECT "id" FROM "ads" ORDER BY "id" LIMIT 1`);
    await db.pool.query(`INSERT INTO "ad_reach_days" ("adId", "date", "reach") VALUES ($1, '2025-10-03', 5)`, [ad.id]);
    const { rows: [row] } = await db.pool.query<{ partition: string }>(`SELECT tableoid::regclass::text AS partition FROM "ad_reach_days" WHERE "adId" = $1 AND "date" = '2025-10-03'`, [ad.id]);
    expect(row.partition).toBe('ad_reach_days_p202510');
  });

  it('gives a backfilled row of an older month its partition at the next run', async () => {
    const { rows: [ad] } = await db.pool.query<{ id: string }>(`SELECT "id" FROM "ads" ORDER BY "id" LIMIT 1`);
    await db.pool.query(`INSERT INTO "ad_reach_days" ("adId", "date", "reach") VALUES ($1, '2024-12-05', 7), ($1, '2024-12-06', 8)`, [ad.id]);
    expect(await defaultRows('ad_reach_days')).toBe(2);
    const report = await maintainHistoryPartitions(db.pool, { aheadMonths: 0, retentionMonths: null, now: JUNE });
    expect(report).toEqual({ ran: true, created: ['ad_reach_days_p202412'], dropped: [], moved: 2, deleted: 0 });
    expect(await defaultRows('ad_reach_days')).toBe(0);
    const { rows } = await db.pool.query<{ partition: string; reach: string }>(
      `SELECT tableoid::regclass::text AS partition, "reach"::text AS reach FROM "ad_reach_days" WHERE "adId" = $1 AND "date" < '2025-01-01' ORDER BY "date"`, [ad.id]);
    expect(rows).toEqual([{ partition: 'ad_reach_days_p202412', reach: '7' }, { partition: 'ad_reach_days_p202412', reach: '8' }]);
  });

  it('with a retention, detaches and drops the months before it whole, and keeps every row of the months it keeps', async () => {
    // Retention 2 in June 2025: April and May stay with June; March 2025 and before go.
    const cutoff = '2025-04-01';
    const kept = await digestsFrom(cutoff);
    const old = await countsBefore(cutoff);
    expect(old.ad_reach_days).toBeGreaterThan(0);
    // A row of an old month with no partition, waiting in the default: deleted, not given a partition.
    const { rows: [profile] } = await db.pool.query<{ id: string }>(`SELECT "id" FROM "tiktok_profiles" ORDER BY "id" LIMIT 1`);
    await db.pool.query(
      `INSERT INTO "tiktok_page_snapshots" ("profileId", "date", "recordedAt", "adsCount", "organicCount", "totalTikToks", "dailyViews", "dailyLikes", "dailyFollowers")
       VALUES ($1, '2023-02-01', now(), 1, 1, 1, 1, 1, 1)`, [profile.id]);
    const partitionsBefore = Object.fromEntries(await Promise.all(HISTORY_TABLES.map(async (table) => [table, await monthPartitions(db.pool, table)] as const)));
    // The brands' daily series (migration 0038) hold the reach gained on days before the cutoff, which go with their rows.
    const reachDaysBefore = async () => (await db.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM "advertiser_series_days" WHERE "date" < $1::date AND ("reachLevel" <> 0 OR "reachDelta" <> 0)`, [cutoff])).rows[0].n;
    expect(await reachDaysBefore()).toBeGreaterThan(0);

    const report = await maintainHistoryPartitions(db.pool, { aheadMonths: 0, retentionMonths: 2, now: JUNE });
    expect(await reachDaysBefore()).toBe(0);
    expect(report.created).toEqual([]);
    expect(report.deleted).toBe(1);
    expect(report.dropped.sort()).toEqual(HISTORY_TABLES.flatMap((table) => partitionsBefore[table].filter((p) => p.month < cutoff).map((p) => p.name)).sort());
    expect(report.dropped).toContain('ad_reach_days_p202412');
    for (const table of HISTORY_TABLES) {
      expect((await names(table)).every((name) => name >= partitionOf(table, cutoff)), table).toBe(true);
      const { rows: [gone] } = await db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_class WHERE relname = ANY($1::text[])`,
        [partitionsBefore[table].filter((p) => p.month < cutoff).map((p) => p.name)]);
      expect(gone.n, table).toBe(0);
    }
    expect(await countsBefore(cutoff)).toEqual(Object.fromEntries(HISTORY_TABLES.map((table) => [table, 0])));
    expect(await digestsFrom(cutoff)).toEqual(kept);
    // The next run finds nothing more to drop.
    expect((await maintainHistoryPartitions(db.pool, { aheadMonths: 0, retentionMonths: 2, now: JUNE })).dropped).toEqual([]);
  });

  it('refuses a nonsensical setting', async () => {
    await expect(maintainHistoryPartitions(db.pool, { aheadMonths: -1, retentionMonths: null })).rejects.toThrow(/aheadMonths/);
    await expect(maintainHistoryPartitions(db.pool, { aheadMonths: 1, retentionMonths: 0 })).rejects.toThrow(/retentionMonths/);
  });
});

async function countsBefore(day: string): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const table of HISTORY_TABLES) out[table] = (await db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${table}" WHERE "date" < $1::date`, [day])).rows[0].n;
  return out;
}

async function digestsFrom(day: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const table of HISTORY_TABLES) {
    out[table] = (await db.pool.query<{ md5: string }>(
      `SELECT count(*) || ':' || md5(string_agg(t::text, E'\\n' ORDER BY t::text)) AS md5 FROM "${table}" t WHERE t."date" >= $1::date`, [day])).rows[0].md5;
  }
  return out;
}
