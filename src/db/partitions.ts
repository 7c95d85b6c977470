import type pg from 'pg';
import { Prisma } from '../generated/prisma/client.js';

// The day-snapshot tables are partitioned by month on their "date" (migration 0037): `<table>_pYYYYMM` holds the
// month's days, `<table>_default` any row of a month without a partition (a backfill, a bulk load of past months).
// The maintenance keeps them so:
//   - the current month and the next `aheadMonths` have their partitions before a row arrives;
//   - a row that fell into the default partition is moved into its month's partition (created then): after a demo or
//     bulk load, each month its data covers has its partition, and the default is empty again;
//   - with `retentionMonths`, the months that ended before the retention window are detached and dropped whole (and
//     the default's rows of those months deleted): the current month and the `retentionMonths` months before it stay;
//     when reach rows went, the brands' daily series (summed from them ahead of time, migration 0038) are recomputed.
// It runs at each start (after the migrations and the demo load) and every few hours where the workers run
// (startHistoryMaintenance). Two instances never run it at once (an advisory lock: the second skips its turn).

/** The partitioned history tables, each by month on "date". */
export const HISTORY_TABLES = ['ad_reach_days', 'advertiser_metric_days', 'shop_social_days', 'shop_sales_readings', 'tiktok_page_snapshots'] as const;
export type HistoryTable = (typeof HISTORY_TABLES)[number];

export type HistoryPartitionOptions = {
  /** Months after the current one whose partitions exist ahead. */
  aheadMonths: number;
  /** Whole months kept before the current one; null keeps everything. */
  retentionMonths: number | null;
  /** The clock (tests); the months are UTC months. */
  now?: Date;
};

export type HistoryMaintenance = {
  /** False when another instance was maintaining the partitions at the time (nothing was done). */
  ran: boolean;
  /** Partitions created, `<table>_pYYYYMM`. */
  created: string[];
  /** Partitions detached and dropped by the retention. */
  dropped: string[];
  /** Rows moved from a default partition into their month's partition. */
  moved: number;
  /** Rows of months before the retention window deleted from a default partition. */
  deleted: number;
};

/** A month partition of a history table: its name and the first day of its month (YYYY-MM-DD). */
export type MonthPartition = { name: string; month: string };

const LOCK = 727275;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The first day of the month `offset` months after the month of `date` (UTC), as YYYY-MM-DD. */
export function monthStart(date: Date, offset = 0): string {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + offset, 1)).toISOString().slice(0, 10);
}

const nextMonth = (month: string) => monthStart(new Date(`${month}T00:00:00Z`), 1);
const partitionName = (table: HistoryTable, month: string) => `${table}_p${month.slice(0, 4)}${month.slice(5, 7)}`;
const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** The month partitions of `table`, oldest first (the default partition is not one of them). */
export async function monthPartitions(db: pg.Pool | pg.PoolClient, table: HistoryTable): Promise<MonthPartition[]> {
  const { rows } = await db.query<{ name: string; bound: string }>(
    `SELECT c.relname AS name, pg_get_expr(c.relpartbound, c.oid) AS bound
     FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
     WHERE i.inhparent = to_regclass($1)`,
    [ident(table)],
  );
  const months: MonthPartition[] = [];
  for (const row of rows) {
    const from = /^FOR VALUES FROM \('(\d{4}-\d{2}-\d{2})'\) TO \('(\d{4}-\d{2}-\d{2})'\)$/.exec(row.bound);
    if (from) months.push({ name: row.name, month: from[1] });
  }
  return months.sort((a, b) => (a.month < b.month ? -1 : a.month > b.month ? 1 : 0));
}

/** The months (first days) of the rows in `table`'s default partition. */
async function defaultMonths(client: pg.PoolClient, table: HistoryTable): Promise<string[]> {
  const { rows } = await client.query<{ month: string }>(
    `SELECT DISTINCT to_char(date_trunc('month', "date"), 'YYYY-MM-DD') AS month FROM ${ident(`${table}_default`)} ORDER BY 1`,
  );
  return rows.map((row) => row.month);
}

async function columnsOf(client: pg.PoolClient, table: HistoryTable): Promise<string> {
  const { rows } = await client.query<{ name: string }>(
    `SELECT a.attname AS name FROM pg_attribute a WHERE a.attrelid = to_regclass($1) AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum`,
    [ident(table)],
  );
  return rows.map((row) => ident(row.name)).join(', ');
}

async function inTransaction<T>(client: pg.PoolClient, work: () => Promise<T>): Promise<T> {
  await client.query('BEGIN');
  try {
    const result = await work();
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

/**
 * Creates the partition of `month` (YYYY-MM-01). Rows of that month waiting in the default partition are moved into it
 * first (a partition cannot be created over rows the default holds): the new table is filled, then attached, which
 * builds its keys and indexes and checks its foreign keys. Returns the rows moved.
 */
async function createMonth(client: pg.PoolClient, table: HistoryTable, month: string, withRows: boolean): Promise<number> {
  const name = ident(partitionName(table, month));
  const bounds = `FOR VALUES FROM ('${month}') TO ('${nextMonth(month)}')`;
  if (!withRows) {
    await client.query(`CREATE TABLE ${name} PARTITION OF ${ident(table)} ${bounds}`);
    return 0;
  }
  const columns = await columnsOf(client, table);
  await client.query(`CREATE TABLE ${name} (LIKE ${ident(table)} INCLUDING DEFAULTS INCLUDING CONSTRAINTS)`);
  const moved = await client.query(
    `WITH moved AS (DELETE FROM ${ident(`${table}_default`)} WHERE "date" >= $1::date AND "date" < $2::date RETURNING ${columns})
     INSERT INTO ${name} (${columns}) SELECT ${columns} FROM moved`,
    [month, nextMonth(month)],
  );
  await client.query(`ALTER TABLE ${ident(table)} ATTACH PARTITION ${name} ${bounds}`);
  return moved.rowCount ?? 0;
}

/**
 * Makes sure each month from `first` to `last` (dates; their UTC months) has its partition in every history table,
 * in the caller's transaction: a bulk load of past months (the demo, a seeded market) writes straight into them instead
 * of the default partition, which the maintenance would then have to empty row by row. Rows of such a month already
 * waiting in the default partition are moved into the new one. Returns the partitions created.
 */
export async function createHistoryMonths(client: pg.PoolClient, first: Date, last: Date): Promise<string[]> {
  // The maintenance's lock, held to the end of the caller's transaction: an instance maintaining the partitions
  // meanwhile (a worker starting beside the server) neither sees these months half made nor makes them twice.
  await client.query('SELECT pg_advisory_xact_lock($1)', [LOCK]);
  const months: string[] = [];
  for (let month = monthStart(first); month <= monthStart(last); month = nextMonth(month)) months.push(month);
  const created: string[] = [];
  const { rows: partitioned } = await client.query<{ name: string }>(
    `SELECT relname AS name FROM pg_class WHERE relkind = 'p' AND relname = ANY($1::text[]) AND relnamespace = current_schema()::regnamespace`,
    [[...HISTORY_TABLES]],
  );
  for (const table of HISTORY_TABLES) {
    // A database whose migrations stop before the partitioned history (0037) has plain tables: nothing to make.
    if (!partitioned.some((row) => row.name === table)) continue;
    const have = new Set((await monthPartitions(client, table)).map((p) => p.month));
    const missing = months.filter((month) => !have.has(month));
    if (!missing.length) continue;
    const waiting = new Set(await defaultMonths(client, table));
    for (const month of missing) {
      await createMonth(client, table, month, waiting.has(month));
      created.push(partitionName(table, month));
    }
  }
  return created;
}

// Pruning. A read bounded on both sides by constant dates inside the months that have partitions rules the default
// partition out when it is planned; only then can PostgreSQL read the months in date order (an ordered Append) and stop
// at the first rows a newest-first LIMIT needs, never touching the older months. A read open on one side, or bounded by
// a value computed in the statement (max("date")), keeps the default in its plan, and its newest rows come from merging
// every month's head (a Merge Append). The statements below therefore read a table in two parts: the span of months
// with partitions (no gap up to the newest; the dates written as constants, so even a generic plan prunes) and the
// rest (the default partition, empty after the maintenance, and any months before a gap). The two parts cover every
// date whatever the span, so a span that is out of date (another instance made or dropped months since) only costs
// speed, never a row. The spans are read from the catalogue after each maintenance, and again every SPAN_TTL_MS when
// a statement asks for them.

/** The months of a history table with partitions and no gap up to its newest one: "date" ≥ from and < to. */
export type HistorySpan = { from: string; to: string };

const SPAN_TTL_MS = 10 * 60_000;
const spans = { known: new Map<HistoryTable, HistorySpan>(), at: 0, pool: null as pg.Pool | null, refreshing: false };

function spanOf(months: MonthPartition[]): HistorySpan | null {
  if (!months.length) return null;
  let first = months.length - 1;
  while (first > 0 && nextMonth(months[first - 1]!.month) === months[first]!.month) first--;
  return { from: months[first]!.month, to: nextMonth(months[months.length - 1]!.month) };
}

/** Reads the history tables' spans from `pool`'s catalogue, and keeps `pool` to read them again when they are old. */
export async function learnHistorySpans(pool: pg.Pool): Promise<void> {
  const known = new Map<HistoryTable, HistorySpan>();
  for (const table of HISTORY_TABLES) {
    const span = spanOf(await monthPartitions(pool, table));
    if (span) known.set(table, span);
  }
  Object.assign(spans, { known, at: Date.now(), pool });
}

/** The span of `table` last read (null before any, or for a table without month partitions). */
export function historySpan(table: HistoryTable): HistorySpan | null {
  if (spans.pool && !spans.refreshing && Date.now() - spans.at > SPAN_TTL_MS) {
    spans.refreshing = true;
    learnHistorySpans(spans.pool).catch(() => undefined).finally(() => (spans.refreshing = false));
  }
  return spans.known.get(table) ?? null;
}

const inSpan = (span: HistorySpan) => Prisma.raw(`"date" >= DATE '${span.from}' AND "date" < DATE '${span.to}'`);
const outsideSpan = (span: HistorySpan) => Prisma.raw(`("date" < DATE '${span.from}' OR "date" >= DATE '${span.to}')`);

/**
 * A scalar subquery: the latest "date" of `table`'s rows where `where` holds (its columns unqualified), read from the
 * newest month that has one (the months before it are not read).
 */
export function latestHistoryDay(table: HistoryTable, where: Prisma.Sql = Prisma.sql`TRUE`): Prisma.Sql {
  const from = Prisma.raw(ident(table));
  const span = historySpan(table);
  if (!span) return Prisma.sql`(SELECT max("date") FROM ${from} WHERE ${where})`;
  return Prisma.sql`(SELECT max(x."date") FROM (
    (SELECT "date" FROM ${from} WHERE ${inSpan(span)} AND ${where} ORDER BY "date" DESC LIMIT 1)
    UNION ALL (SELECT max("date") FROM ${from} WHERE ${outsideSpan(span)} AND ${where})) x)`;
}

/**
 * A derived table's body: `columns` (which name "date") of `table`'s rows where `where` holds, the newest `limit` days,
 * newest first, read from the newest months down until there are `limit` of them.
 */
export function newestHistoryDays(table: HistoryTable, columns: Prisma.Sql, where: Prisma.Sql, limit: Prisma.Sql | number): Prisma.Sql {
  const from = Prisma.raw(ident(table));
  const span = historySpan(table);
  if (!span) return Prisma.sql`SELECT ${columns} FROM ${from} WHERE ${where} ORDER BY "date" DESC LIMIT ${limit}`;
  return Prisma.sql`SELECT * FROM (
    (SELECT ${columns} FROM ${from} WHERE ${inSpan(span)} AND ${where} ORDER BY "date" DESC LIMIT ${limit})
    UNION ALL (SELECT ${columns} FROM ${from} WHERE ${outsideSpan(span)} AND ${where} ORDER BY "date" DESC LIMIT ${limit})) n
    ORDER BY "date" DESC LIMIT ${limit}`;
}

/** Keeps the history partitions as the header says; each table's changes in transactions of their own. */
export async function maintainHistoryPartitions(pool: pg.Pool, options: HistoryPartitionOptions): Promise<HistoryMaintenance> {
  const { aheadMonths, retentionMonths } = options;
  if (!Number.isInteger(aheadMonths) || aheadMonths < 0) throw new Error('maintainHistoryPartitions: aheadMonths must be an integer ≥ 0');
  if (retentionMonths !== null && (!Number.isInteger(retentionMonths) || retentionMonths < 1)) {
    throw new Error('maintainHistoryPartitions: retentionMonths must be an integer ≥ 1, or null');
  }
  const now = options.now ?? new Date();
  const report: HistoryMaintenance = { ran: false, created: [], dropped: [], moved: 0, deleted: 0 };
  const client = await pool.connect();
  let locked = false;
  try {
    locked = (await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1) AS locked', [LOCK])).rows[0].locked;
    if (!locked) return report;
    report.ran = true;
    const current = monthStart(now);
    const cutoff = retentionMonths === null ? null : monthStart(now, -retentionMonths);
    const ahead = Array.from({ length: aheadMonths + 1 }, (_, offset) => monthStart(now, offset));
    for (const table of HISTORY_TABLES) {
      let existing = await monthPartitions(client, table);
      const before = existing.length;
      if (cutoff !== null) {
        const deleted = await client.query(`DELETE FROM ${ident(`${table}_default`)} WHERE "date" < $1::date`, [cutoff]);
        report.deleted += deleted.rowCount ?? 0;
        for (const partition of existing.filter((p) => p.month < cutoff)) {
          await inTransaction(client, async () => {
            await client.query(`ALTER TABLE ${ident(table)} DETACH PARTITION ${ident(partition.name)}`);
            await client.query(`DROP TABLE ${ident(partition.name)}`);
          });
          report.dropped.push(partition.name);
        }
        existing = existing.filter((p) => p.month >= cutoff);
        // The brands' daily series (migration 0038's function, which src/data/ad-groups.ts calls after market writes)
        // sum the reach rows: they follow the rows kept.
        if (table === 'ad_reach_days' && (deleted.rowCount || existing.length !== before)) await client.query('SELECT "refresh_advertiser_series_days"(NULL)');
      }
      const have = new Set(existing.map((p) => p.month));
      const waiting = new Set(await defaultMonths(client, table));
      const wanted = [...new Set([...waiting, ...ahead.filter((month) => month >= current)])].filter((month) => DAY.test(month) && !have.has(month)).sort();
      let moved = 0;
      for (const month of wanted) {
        moved += await inTransaction(client, () => createMonth(client, table, month, waiting.has(month)));
        report.created.push(partitionName(table, month));
      }
      // Rows moved between partitions: the parent's statistics (which the planner reads for the whole table) follow.
      if (moved > 0) await client.query(`ANALYZE ${ident(table)}`);
      report.moved += moved;
    }
    return report;
  } finally {
    if (locked) await client.query('SELECT pg_advisory_unlock($1)', [LOCK]).catch(() => undefined);
    client.release();
    // What this or another instance made or dropped: the statements' spans follow.
    await learnHistorySpans(pool).catch(() => undefined);
  }
}

export type HistoryMaintenanceLogger = { info(message: string): void; warn(object: object, message: string): void };

/** One line on what a maintenance did (null when it changed nothing). */
export function describeMaintenance(report: HistoryMaintenance): string | null {
  if (!report.created.length && !report.dropped.length && !report.deleted) return null;
  const parts = [`${report.created.length} partition(s) created`];
  if (report.moved) parts.push(`${report.moved} row(s) moved out of the default partitions`);
  if (report.dropped.length) parts.push(`${report.dropped.length} old partition(s) dropped (${report.dropped.join(', ')})`);
  if (report.deleted) parts.push(`${report.deleted} old row(s) deleted from the default partitions`);
  return `history partitions: ${parts.join(', ')}`;
}

/** Every `everyMs` (six hours by default), the maintenance again; stop() waits for a run in flight. */
export function startHistoryMaintenance(
  pool: pg.Pool,
  options: HistoryPartitionOptions & { everyMs?: number; logger: HistoryMaintenanceLogger },
): { stop(): Promise<void> } {
  let running: Promise<unknown> = Promise.resolve();
  const tick = () => {
    running = maintainHistoryPartitions(pool, options).then(
      (report) => {
        const line = describeMaintenance(report);
        if (line) options.logger.info(line);
      },
      (error: unknown) => options.logger.warn({ err: error }, 'history partition maintenance failed; it runs again at the next turn'),
    );
  };
  const timer = setInterval(tick, options.everyMs ?? 6 * 3_600_000);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
