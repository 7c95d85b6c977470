import { performance } from 'node:perf_hooks';
import type pg from 'pg';
import { bulkInsert, type Queryable } from './bulk.js';
import { generateMarket, SCALES, type MarketScale } from './market/generate.js';
import { MARKET_TABLES, marketTables, type TableRows } from './market/tables.js';
import { DAY } from './market/time.js';

// The synthetic market: Meta pages, their shops, ads with duplicate groups, transcripts, hooks and 90 days of
// daily snapshots; the TikTok library (accounts, ads and organic videos, music, pins, page snapshots); Google Ads
// advertisers and ads with the taxonomy categories. Everything is drawn from one seeded PRNG, so (scale, seed,
// asOf) fixes every byte.

export { MARKET_TABLES, type MarketScale };
export type SeedProgress = { table: string; done: number; total: number };
export type SeedMarketOptions = {
  scale: MarketScale;
  /** Default 42. */
  seed?: number;
  /** The last snapshot date (its UTC day is used); default: today (UTC). */
  asOf?: Date;
  /** Truncate the market tables first instead of refusing to seed over existing data. */
  replace?: boolean;
  onProgress?: (event: SeedProgress) => void;
};

const BATCH_SIZE = 5000;

/** Inserts a table's row stream batch by batch, so only one batch of rows exists at a time. */
async function insertTable(client: Queryable, { table, columns, total, rows }: TableRows, onProgress?: (event: SeedProgress) => void) {
  let done = 0;
  let batch: unknown[][] = [];
  const flush = async () => {
    done += await bulkInsert(client, table, columns, batch, BATCH_SIZE);
    batch = [];
    onProgress?.({ table, done, total });
  };
  for (const row of rows) {
    batch.push(row);
    if (batch.length === BATCH_SIZE) await flush();
  }
  if (batch.length > 0 || done === 0) await flush();
  return done;
}

async function nonEmptyTables(client: Queryable): Promise<string[]> {
  const sql = MARKET_TABLES.map((table) => `SELECT '${table}' AS name WHERE EXISTS (SELECT 1 FROM "${table}")`).join(' UNION ALL ');
  return (await client.query<{ name: string }>(sql)).rows.map((row) => row.name);
}

/** Today's date (UTC) at 00:00. */
function today(): Date {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

/**
 * Fills the market tables with a synthetic, internally consistent market, in one transaction.
 * Refuses when the market tables already hold data unless `replace` is set, which truncates them first
 * (the CASCADE also empties `ad_shares`, whose rows point at the old ads).
 */
export async function seedMarket(pool: pg.Pool, options: SeedMarketOptions): Promise<{ counts: Record<string, number>; ms: number }> {
  const started = performance.now();
  const seed = options.seed ?? 42;
  const asOf = options.asOf ?? today();
  if (!Object.hasOwn(SCALES, options.scale)) throw new Error(`seedMarket: unknown scale "${String(options.scale)}" (expected tiny or small)`);
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) throw new Error('seedMarket: seed must be an integer in 0..4294967295');
  if (Number.isNaN(asOf.getTime()) || asOf.getTime() < Date.UTC(2019, 0, 1) + 90 * DAY) {
    throw new Error('seedMarket: asOf must be a valid date after April 2019');
  }

  const client = await pool.connect();
  const counts: Record<string, number> = {};
  try {
    await client.query('BEGIN');
    const filled = await nonEmptyTables(client);
    if (filled.length > 0 && !options.replace) {
      throw new Error(`seedMarket: the market tables already hold data (${filled.join(', ')}); pass replace: true to truncate and reseed them`);
    }
    if (options.replace) await client.query(`TRUNCATE ${MARKET_TABLES.map((table) => `"${table}"`).join(', ')} CASCADE`);
    for (const table of marketTables(generateMarket(options.scale, seed, asOf))) {
      counts[table.table] = await insertTable(client, table, options.onProgress);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
  return { counts, ms: Math.round(performance.now() - started) };
}
