import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type pg from 'pg';
import { once } from 'node:events';
import { from as copyFrom } from 'pg-copy-streams';
import { bulkInsertParams, bulkInsertSql, copyRows, copySql, type Queryable } from './bulk.js';
import { planMarket, SCALES, type MarketScale } from './market/generate.js';
import { MARKET_TABLES, sliceTables, type MarketTable, type TableRows } from './market/tables.js';
import { DAY, WINDOW_DAYS } from './market/time.js';
import { createHistoryMonths } from '../db/partitions.js';
import { dropStructure, readStructure, restoreStructure } from './market/deferred.js';
import { AD_GROUP_TABLES, refreshAdGroups } from './ad-groups.js';
import { marketLoad } from './shop-links.js';
import { refreshFacetUsage } from './facet-usage.js';

// The synthetic market: Meta pages, their shops, ads with duplicate groups, transcripts, hooks and 90 days of
// daily snapshots; the TikTok library (accounts, ads and organic videos, music, pins, page snapshots); Google Ads
// advertisers and ads with the taxonomy categories. Everything is drawn from one seeded PRNG, so (scale, seed,
// asOf) fixes every byte. The market is generated and inserted slice by slice (a few thousand ads and their
// rows at a time), so memory stays flat at every scale and the next slice is generated while the database
// inserts the previous statement.

export { MARKET_TABLES, SCALES, type MarketScale };
/** `estimated`: `total` is extrapolated from the part generated so far (the table's size is only known at the end). */
export type SeedProgress = { table: string; done: number; total: number; estimated?: true };
export type SeedMarketOptions = {
  scale: MarketScale;
  /** Default 42. */
  seed?: number;
  /** The last snapshot date (its UTC day is used); default: today (UTC). */
  asOf?: Date;
  /** Truncate the market tables first instead of refusing to seed over existing data. */
  replace?: boolean;
  onProgress?: (event: SeedProgress) => void;
  /** Ads (TikTok items, Google rows) per generated slice and rows per insert statement; default 5000. The data does not depend on it. */
  batchSize?: number;
  /**
   * Load the market tables bare: drop their keys, foreign keys and indexes first and re-create them, with the
   * same definitions, once the rows are in (see market/deferred.ts): faster at every scale (the demo's tiny
   * load on PGlite: about 15% less CPU, its GIN and trigram indexes each built in one pass). Default: on.
   */
  deferIndexes?: boolean;
};

const BATCH_SIZE = 5000;
const SCALE_NAMES = Object.keys(SCALES).join(', ');

/**
 * Sends batch statements one at a time on one connection, keeping one in flight: the caller generates and
 * encodes the next batch while the database runs the previous one. A failure surfaces on the next call.
 * With `copy`, each batch is one `COPY … FROM STDIN` (PostgreSQL); otherwise one `INSERT … SELECT FROM unnest`
 * (PGlite, whose socket bridge does not carry the COPY sub-protocol).
 */
class Loader {
  private pending: Promise<void> = Promise.resolve();
  private failure: { error: unknown } | null = null;
  readonly done = new Map<MarketTable, number>();
  private readonly last = new Map<MarketTable, SeedProgress>();

  constructor(
    private readonly client: pg.PoolClient,
    private readonly onProgress: ((event: SeedProgress) => void) | undefined,
    private readonly copy: boolean,
  ) {}

  private async copyBatch(sql: string, text: string): Promise<void> {
    const stream = this.client.query(copyFrom(sql));
    stream.end(text);
    await once(stream, 'finish');
  }

  private async send(table: MarketTable, statement: () => Promise<unknown>, rows: number, total: number, estimated: boolean) {
    await this.pending;
    if (this.failure) throw this.failure.error;
    this.pending = statement().then(
      () => {
        const done = (this.done.get(table) ?? 0) + rows;
        this.done.set(table, done);
        this.report({ table, done, total: Math.max(total, done), ...(estimated ? { estimated: true as const } : {}) });
      },
      (error: unknown) => {
        this.failure = { error };
      },
    );
  }

  private report(event: SeedProgress) {
    this.last.set(event.table as MarketTable, event);
    this.onProgress?.(event);
  }

  /** Inserts one table's rows of a slice, `statementRows` rows per statement. */
  async insert({ table, columns, rows }: TableRows, statementRows: number, total: number, estimated: boolean) {
    const sql = this.copy ? copySql(table, columns) : bulkInsertSql(table, columns);
    const flush = (batch: unknown[][]) => {
      if (this.copy) {
        const text = copyRows(columns, batch);
        return this.send(table, () => this.copyBatch(sql, text), batch.length, total, estimated);
      }
      const params = bulkInsertParams(columns, batch);
      return this.send(table, () => this.client.query(sql, params), batch.length, total, estimated);
    };
    let batch: unknown[][] = [];
    for (const row of rows) {
      batch.push(row);
      if (batch.length === statementRows) {
        await flush(batch);
        batch = [];
      }
    }
    if (batch.length > 0) await flush(batch);
  }

  /** Waits for the last statement; then reports every table's final count (0 for a table that got no rows). */
  async finish(): Promise<Record<string, number>> {
    await this.pending;
    if (this.failure) throw this.failure.error;
    const counts: Record<string, number> = {};
    for (const table of MARKET_TABLES) {
      const done = this.done.get(table) ?? 0;
      counts[table] = done;
      const last = this.last.get(table);
      if (!last || last.estimated || last.total !== done) this.report({ table, done, total: done });
    }
    return counts;
  }
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

function check(options: SeedMarketOptions): { seed: number; asOf: Date; batchSize: number } {
  const seed = options.seed ?? 42;
  const asOf = options.asOf ?? today();
  const batchSize = options.batchSize ?? BATCH_SIZE;
  if (!Object.hasOwn(SCALES, options.scale)) throw new Error(`seedMarket: unknown scale "${String(options.scale)}" (expected ${SCALE_NAMES})`);
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) throw new Error('seedMarket: seed must be an integer in 0..4294967295');
  if (Number.isNaN(asOf.getTime()) || asOf.getTime() < Date.UTC(2019, 0, 1) + 90 * DAY) {
    throw new Error('seedMarket: asOf must be a valid date after April 2019');
  }
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new Error('seedMarket: batchSize must be a positive integer');
  return { seed, asOf, batchSize };
}

/** Rows per statement: twice the batch for narrow tables (the daily snapshot tables). */
const statementRows = (part: TableRows, batchSize: number) => (part.columns.length <= 6 ? batchSize * 2 : batchSize);

/**
 * Fills the market tables with a synthetic, internally consistent market, in one transaction.
 * Refuses when the market tables already hold data unless `replace` is set, which truncates them first
 * (the CASCADE also empties `ad_shares`, whose rows point at the old ads).
 */
export async function seedMarket(pool: pg.Pool, options: SeedMarketOptions): Promise<{ counts: Record<string, number>; ms: number }> {
  const started = performance.now();
  const { seed, asOf, batchSize } = check(options);
  const deferIndexes = options.deferIndexes ?? true;

  const client = await pool.connect();
  let committed = false;
  try {
    await client.query('BEGIN');
    const filled = await nonEmptyTables(client);
    if (filled.length > 0 && !options.replace) {
      throw new Error(`seedMarket: the market tables already hold data (${filled.join(', ')}); pass replace: true to truncate and reseed them`);
    }
    await marketLoad(client);
    if (options.replace) await client.query(`TRUNCATE ${MARKET_TABLES.map((table) => `"${table}"`).join(', ')} CASCADE`);
    // The months its daily snapshots cover get their history partitions first: the rows go straight into them.
    await createHistoryMonths(client, new Date(asOf.getTime() - WINDOW_DAYS * DAY), asOf);
    const structure = deferIndexes ? await readStructure(client, MARKET_TABLES) : null;
    if (structure) await dropStructure(client, structure);

    const plan = planMarket(options.scale, seed, asOf, batchSize);
    const { rows: [server] } = await client.query<{ version: string }>('SELECT version()');
    const loader = new Loader(client, options.onProgress, !/PGlite/.test(server.version));
    const generated = new Map<MarketTable, number>();
    for (const slice of plan.slices) {
      for (const part of sliceTables(slice)) {
        const sofar = (generated.get(part.table) ?? 0) + part.count;
        generated.set(part.table, sofar);
        const known = plan.totals[part.table];
        const estimated = known === undefined && slice.fraction < 1;
        const upfront = Math.min(sofar, plan.upfront[part.table] ?? 0);
        const total = known ?? upfront + Math.round((sofar - upfront) / slice.fraction);
        await loader.insert(part, statementRows(part, batchSize), total, estimated);
      }
    }
    const counts = await loader.finish();

    if (structure) await restoreStructure(client, structure);
    // Rows were inserted with explicit ids: the next id a user or an importer gets follows them.
    await client.query(`SELECT setval(pg_get_serial_sequence('emails', 'id'), coalesce(max(id), 0) + 1, false) FROM emails`);
    await refreshFacetUsage(client);
    await refreshAdGroups(client);
    await client.query('COMMIT');
    committed = true;
    // Fresh statistics, so that the first queries on a new database are planned on the loaded rows, not on empty tables;
    // and VACUUM, which a bulk load needs before it is read: it sets each page's hint bits and the visibility map once,
    // where otherwise every first read of a page writes it back, and no index-only scan can skip the heap (a capped
    // search count at medium: 34 ms on the fresh load, 6 ms after VACUUM). Autovacuum would do it, some time later.
    await client.query(`VACUUM (ANALYZE) ${[...MARKET_TABLES, ...AD_GROUP_TABLES].map((table) => `"${table}"`).join(', ')}`);
    return { counts, ms: Math.round(performance.now() - started) };
  } catch (error) {
    if (committed) throw new Error(`seedMarket: the market was loaded and committed, but VACUUM (ANALYZE) failed: ${(error as Error).message}`, { cause: error });
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

/**
 * A SHA-256 per table of the rows `seedMarket` would insert (in insertion order), computed in memory without a
 * database; `slices` stops after that many slices (to check a large scale's first slices cheaply).
 */
export function marketChecksums(
  options: Pick<SeedMarketOptions, 'scale' | 'seed' | 'asOf' | 'batchSize'> & { slices?: number },
): Record<string, { rows: number; sha256: string }> {
  const { seed, asOf, batchSize } = check(options);
  const hashes = new Map<string, { rows: number; hash: ReturnType<typeof createHash> }>();
  let sliceCount = 0;
  for (const slice of planMarket(options.scale, seed, asOf, batchSize).slices) {
    if (options.slices !== undefined && sliceCount++ >= options.slices) break;
    for (const part of sliceTables(slice)) {
      let entry = hashes.get(part.table);
      if (!entry) hashes.set(part.table, (entry = { rows: 0, hash: createHash('sha256') }));
      for (const row of part.rows) {
        entry.hash.update(JSON.stringify(row));
        entry.hash.update('\n');
        entry.rows++;
      }
    }
  }
  return Object.fromEntries([...hashes].map(([table, { rows, hash }]) => [table, { rows, sha256: hash.digest('hex') }]));
}
