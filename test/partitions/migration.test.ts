import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedMarket } from '../../src/data/market.js';
import { listMigrations, migrate } from '../../src/db/migrate.js';
import { HISTORY_TABLES } from '../../src/db/partitions.js';
import { acrossWorkspaces } from '../../src/db/workspace-check.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { digests, monthsOfRows, partitionOf, partitionsOf, type Digest } from './support.js';

// Migration 0037 on a database that holds history: the tiny market loaded on the schema of 0036 (plain tables), then
// migrated. Every row is kept, each in the partition of its month (none in the default), the keys, indexes and foreign
// keys are back under their names, the writers' ON CONFLICT targets still match, and a bulk load that drops and
// re-creates the keys (seedMarket with deferred indexes) works on the partitioned tables.

const BEFORE = '0036_brand_changes';
// The market load of today's code also refreshes the brands' daily series (migration 0038) and the ads' landing-page
// counts (migration 0040): applied before the load, out of their order (each creates a table and a function, and reads
// "ads" and the history tables by name, whatever their form).
const LOAD_NEEDS = ['0038_brandtracker_overview', '0040_advertiser_landing_page_counts'];
let db: TestDatabase;
let before: Record<string, Digest>;

beforeAll(async () => {
  db = await createTestDatabase({ migrated: false });
  await db.pool.query('CREATE TABLE IF NOT EXISTS "_migrations" (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
  for (const migration of (await listMigrations()).filter((m) => m.name <= BEFORE || LOAD_NEEDS.includes(m.name))) {
    await db.pool.query(`${acrossWorkspaces('a test applies the migrations one by one')}\n${migration.sql}`);
    await db.pool.query('INSERT INTO "_migrations" (name) VALUES ($1)', [migration.name]);
  }
  await seedMarket(db.pool, { scale: 'tiny', seed: 7, asOf: new Date('2025-06-01T00:00:00Z') });
  before = await digests(db.pool);
  // 0037 first, then the later ones not applied before the load.
  const pending = (await listMigrations()).map((m) => m.name).filter((name) => name > BEFORE && !LOAD_NEEDS.includes(name));
  expect(pending[0]).toBe('0037_partitioned_history');
  expect(await migrate(db.pool)).toEqual(pending);
});
afterAll(() => db?.dispose());

describe('migration 0037 (partitioned history)', () => {
  it('keeps every row of every history table', async () => {
    for (const table of HISTORY_TABLES) expect(before[table].rows, table).toBeGreaterThan(0);
    expect(await digests(db.pool)).toEqual(before);
  });

  it('makes each table partitioned by month on "date", a partition per month of its rows and an empty default', async () => {
    for (const table of HISTORY_TABLES) {
      const { rows: [kind] } = await db.pool.query<{ relkind: string; key: string }>(
        `SELECT c.relkind, pg_get_partkeydef(c.oid) AS key FROM pg_class c WHERE c.oid = $1::regclass`, [`"${table}"`]);
      expect(kind, table).toEqual({ relkind: 'p', key: 'RANGE (date)' });
      const months = await monthsOfRows(db.pool, table);
      expect(months.length, table).toBeGreaterThanOrEqual(2);
      const partitions = await partitionsOf(db.pool, table);
      expect(partitions.map((p) => p.name).sort(), table).toEqual([...months.map((month) => partitionOf(table, month)), `${table}_default`].sort());
      expect(partitions.find((p) => p.name === `${table}_default`)).toMatchObject({ bound: 'DEFAULT', rows: 0 });
      const first = partitions.find((p) => p.name === partitionOf(table, months[0]))!;
      const next = new Date(Date.UTC(Number(months[0].slice(0, 4)), Number(months[0].slice(5, 7)), 1)).toISOString().slice(0, 10);
      expect(first.bound).toBe(`FOR VALUES FROM ('${months[0]}') TO ('${next}')`);
    }
  });

  it('keeps the keys, indexes and foreign keys under their names, on the parent and every partition', async () => {
    const { rows } = await db.pool.query<{ table: string; name: string; type: string }>(
      `SELECT t.relname AS table, k.conname AS name, k.contype AS type FROM pg_constraint k JOIN pg_class t ON t.oid = k.conrelid
       WHERE t.relname = ANY($1::text[]) AND k.contype IN ('p', 'u', 'f') ORDER BY 1, 2`, [[...HISTORY_TABLES]]);
    expect(rows).toEqual([
      { table: 'ad_reach_days', name: 'ad_reach_days_adId_fkey', type: 'f' },
      { table: 'ad_reach_days', name: 'ad_reach_days_pkey', type: 'p' },
      { table: 'advertiser_metric_days', name: 'advertiser_metric_days_advertiserId_fkey', type: 'f' },
      { table: 'advertiser_metric_days', name: 'advertiser_metric_days_pkey', type: 'p' },
      { table: 'shop_sales_readings', name: 'shop_sales_readings_pkey', type: 'p' },
      { table: 'shop_sales_readings', name: 'shop_sales_readings_shopId_fkey', type: 'f' },
      { table: 'shop_social_days', name: 'shop_social_days_pkey', type: 'p' },
      { table: 'shop_social_days', name: 'shop_social_days_shopId_fkey', type: 'f' },
      { table: 'tiktok_page_snapshots', name: 'tiktok_page_snapshots_pkey', type: 'p' },
      { table: 'tiktok_page_snapshots', name: 'tiktok_page_snapshots_profileId_fkey', type: 'f' },
    ]);
    const { rows: indexes } = await db.pool.query<{ name: string }>(
      `SELECT c.relname AS name FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE i.indrelid = ANY($1::regclass[]) ORDER BY 1`,
      [HISTORY_TABLES.map((table) => `"${table}"`)]);
    expect(indexes.map((row) => row.name)).toEqual([
      'ad_reach_days_date_idx', 'ad_reach_days_pkey', 'advertiser_metric_days_date_advertiserId_totalImpressions_idx', 'advertiser_metric_days_pkey',
      'shop_sales_readings_pkey', 'shop_social_days_pkey', 'tiktok_page_snapshots_pkey',
    ]);
    // Every partition has its copy of each index of its parent, valid.
    const { rows: missing } = await db.pool.query<{ partition: string; index: string }>(
      `SELECT p.relname AS partition, pi.relname AS index
       FROM pg_inherits h JOIN pg_class p ON p.oid = h.inhrelid
       JOIN pg_index x ON x.indrelid = h.inhparent JOIN pg_class pi ON pi.oid = x.indexrelid
       WHERE h.inhparent = ANY($1::regclass[])
         AND NOT EXISTS (SELECT 1 FROM pg_index y JOIN pg_inherits hi ON hi.inhrelid = y.indexrelid AND hi.inhparent = x.indexrelid
                         WHERE y.indrelid = p.oid AND y.indisvalid)`,
      [HISTORY_TABLES.map((table) => `"${table}"`)]);
    expect(missing).toEqual([]);
  });

  it('upserts on the primary key, as the importers do (ON CONFLICT ("adId", "date")), and refuses a dangling ad', async () => {
    const { rows: [day] } = await db.pool.query<{ adId: string; date: string; reach: string }>(
      `SELECT "adId", to_char("date", 'YYYY-MM-DD') AS date, "reach"::text AS reach FROM "ad_reach_days" ORDER BY "date" DESC, "adId" LIMIT 1`);
    const upsert = await db.pool.query<{ reach: string; inserted: boolean }>(
      `INSERT INTO "ad_reach_days" AS t ("adId", "date", "reach") VALUES ($1, $2::date, $3) ON CONFLICT ("adId", "date") DO UPDATE SET "reach" = EXCLUDED."reach"
       RETURNING t."reach"::text AS reach, NOT EXISTS (SELECT 1 FROM "ad_reach_days" d WHERE d."adId" = t."adId" AND d."date" = t."date") AS inserted`, [day.adId, day.date, '123456789']);
    expect(upsert.rows).toEqual([{ reach: '123456789', inserted: false }]);
    await db.pool.query(`UPDATE "ad_reach_days" SET "reach" = $3 WHERE "adId" = $1 AND "date" = $2::date`, [day.adId, day.date, day.reach]);
    await expect(db.pool.query(`INSERT INTO "ad_reach_days" ("adId", "date", "reach") VALUES ('no-such-ad', '2025-05-01', 1)`)).rejects.toThrow(/foreign key/);
    // Prisma reads and writes the tables by the same keys.
    const found = await db.prisma.adReachDay.findUnique({ where: { adId_date: { adId: day.adId, date: new Date(`${day.date}T00:00:00Z`) } } });
    expect(String(found?.reach)).toBe(day.reach);
    expect(await digests(db.pool)).toEqual(before);
  });

  it('takes a bulk load that drops and re-creates the keys and indexes (seedMarket, deferred indexes) on the partitioned tables', async () => {
    await seedMarket(db.pool, { scale: 'tiny', seed: 7, asOf: new Date('2025-06-01T00:00:00Z'), replace: true, deferIndexes: true });
    expect(await digests(db.pool)).toEqual(before);
    for (const table of HISTORY_TABLES) {
      const partitions = await partitionsOf(db.pool, table);
      expect(partitions.find((p) => p.name === `${table}_default`)?.rows, table).toBe(0);
    }
    const { rows } = await db.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_index i JOIN pg_inherits h ON h.inhrelid = i.indrelid WHERE h.inhparent = ANY($1::regclass[]) AND NOT i.indisvalid`,
      [HISTORY_TABLES.map((table) => `"${table}"`)]);
    expect(rows[0].n).toBe(0);
    await expect(db.pool.query(`INSERT INTO "ad_reach_days" ("adId", "date", "reach") VALUES ('no-such-ad', '2025-05-01', 1)`)).rejects.toThrow(/foreign key/);
  });
});
