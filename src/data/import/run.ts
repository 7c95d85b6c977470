import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type pg from 'pg';
import { eventsCommitted } from '../events.js';
import { parseJson } from './json.js';
import { BadRecord } from './values.js';

// The import driver shared by every format and every source: records arrive in batches (a file, a slice of a
// large file, a fetched page), one transaction per batch; bad records are reported with their position and
// skipped; a batch that fails in the database is rolled back whole and reported.

export type ImportError = { file: string; position: number | null; reason: string };

/**
 * `read`: records found. `inserted`: records that created their main row (ad, TikTok item). `updated`: records
 * that already existed and changed at least one of their rows (a new day's history snapshot alone is not a change). `skipped`: records not applied (bad records,
 * duplicates within a batch, every record of a batch that failed). A record counted in none of these was
 * already stored exactly as the batch has it.
 */
export type ImportSummary = { read: number; inserted: number; updated: number; skipped: number; errors: ImportError[] };

export type ImportContext = {
  /** The moment the import stands for: decides "still running" and the day of the reach snapshot. */
  asOf: Date;
  /** `asOf`'s UTC calendar day, as midnight UTC. */
  day: Date;
};

export type Outcome = 'inserted' | 'updated';

/** Records read from one file or fetched page, applied in one transaction. */
export type Batch = {
  /** Where the records come from (a file path, a page's label): named in the errors. */
  origin: string;
  /** The records, or why the origin has none. */
  records: unknown[] | string;
  /** The position of the first record within its origin (a large file comes in several batches). */
  offset?: number;
  /** The records already read (`readBatch`), by a caller that reads the next batch while the one before is written. */
  read?: ReadBatch<unknown> | string;
};

/** A batch's records read and checked: the good ones in order, the bad ones and the duplicates reported. */
export type ReadBatch<R> = { read: number; skipped: number; errors: ImportError[]; good: R[] };

export type Format<R> = {
  /** The record list of a parsed JSON document, or why it has none. */
  records(document: unknown): unknown[] | string;
  /** The file name endings read from a directory (default `.json`). */
  extensions?: string[];
  /** Reads a file as batches (default: the whole file parsed as JSON, then `records`). */
  readFile?(file: string): AsyncIterable<Batch>;
  /** One record read and checked; throws `BadRecord` with the reason. */
  parse(record: unknown, context: ImportContext): R;
  /** The identity of a record: a later record with the same key in the same batch replaces an earlier one. */
  key(record: R): string;
  /**
   * The tables a large import grows: analysed as it goes (after 1,000 records inserted, then each doubling), so the
   * planner of the next batches sees their size rather than the estimates of an emptier table.
   */
  analyze?: string[];
  /** Writes the records inside the batch's transaction; returns the keys of the records that inserted or changed rows. */
  apply(client: pg.PoolClient, records: R[], context: ImportContext): Promise<Map<string, Outcome>>;
};

/** What one batch did, handed to `onBatch` before its transaction commits. */
export type BatchResult = {
  origin: string;
  read: number;
  inserted: number;
  updated: number;
  skipped: number;
  errors: ImportError[];
  /** The batch's good records were rolled back (a database error). */
  failed: boolean;
};

export type ImportOptions = {
  asOf?: Date;
  /**
   * Runs inside the batch's transaction after its records are written (a sync stores its cursor here, so a
   * crash leaves either both or neither). Also called for a batch with no good record, in a transaction of its own.
   */
  onBatch?(client: pg.PoolClient, result: BatchResult): Promise<void>;
  /** Records inserted so far and the count at which the format's tables are analysed next, kept across calls by a sync. */
  growth?: { inserted: number; analyzeAt: number | null };
};

/** The files named: a file as is, a directory's files with one of `extensions` in name order. */
export async function listFiles(paths: string[], extensions = ['.json']): Promise<{ files: string[]; errors: ImportError[] }> {
  const files: string[] = [];
  const errors: ImportError[] = [];
  for (const entry of paths) {
    try {
      if ((await stat(entry)).isDirectory()) {
        const names = (await readdir(entry)).filter((name) => extensions.some((end) => name.toLowerCase().endsWith(end))).sort();
        files.push(...names.map((name) => path.join(entry, name)));
      } else {
        files.push(entry);
      }
    } catch (error) {
      errors.push({ file: entry, position: null, reason: `cannot read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}` });
    }
  }
  return { files, errors };
}

const cannotRead = (error: unknown) => `cannot read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`;

/** A JSON file as one batch. */
async function* jsonFile<R>(format: Format<R>, file: string): AsyncIterable<Batch> {
  let document: unknown;
  try {
    document = parseJson(await readFile(file, 'utf8'));
  } catch (error) {
    yield { origin: file, records: error instanceof SyntaxError ? `not JSON: ${error.message}` : cannotRead(error) };
    return;
  }
  yield { origin: file, records: format.records(document) };
}

/** The batches of the files named, in order; a file that cannot be read is one batch with its reason. */
async function* fileBatches<R>(format: Format<R>, files: string[]): AsyncIterable<Batch> {
  for (const file of files) {
    if (!format.readFile) {
      yield* jsonFile(format, file);
      continue;
    }
    try {
      yield* format.readFile(file);
    } catch (error) {
      yield { origin: file, records: cannotRead(error) };
    }
  }
}

/** Serialises imports against each other: the page and group figures are recomputed from what is stored. */
const IMPORT_LOCK = 727275;

/** Imports `paths` (files, or directories of the format's files taken in name order). */
export async function importFiles<R>(pool: pg.Pool, format: Format<R>, paths: string[], options: ImportOptions = {}): Promise<ImportSummary> {
  const { files, errors } = await listFiles(paths, format.extensions);
  const summary = await importBatches(pool, format, fileBatches(format, files), options);
  summary.errors.unshift(...errors);
  return summary;
}

/** Applies `batches` in order, one transaction each (see `ImportOptions.onBatch`). */
export async function importBatches<R>(
  pool: pg.Pool,
  format: Format<R>,
  batches: AsyncIterable<Batch>,
  options: ImportOptions = {},
): Promise<ImportSummary> {
  const context = importContext(options.asOf ?? new Date());
  const summary: ImportSummary = { read: 0, inserted: 0, updated: 0, skipped: 0, errors: [] };

  const growth = options.growth ?? { inserted: 0, analyzeAt: null };
  for await (const batch of batches) {
    const result = await importBatch(pool, format, batch, context, options.onBatch);
    growth.inserted += result.inserted;
    if (format.analyze && growth.inserted > 0) {
      // A quarter of the table's size first (a large table's statistics stay good), then each doubling.
      growth.analyzeAt ??= Math.max(1000, 0.25 * (await estimatedRows(pool, format.analyze[0])));
      if (growth.inserted >= growth.analyzeAt) {
        growth.analyzeAt = 2 * growth.inserted;
        for (const table of format.analyze) await pool.query(`ANALYZE "${table.replaceAll('"', '""')}"`);
      }
    }
    summary.read += result.read;
    summary.inserted += result.inserted;
    summary.updated += result.updated;
    summary.skipped += result.skipped;
    summary.errors.push(...result.errors);
  }
  return summary;
}

/** The context of an import standing for `asOf`. */
export function importContext(asOf: Date): ImportContext {
  return { asOf, day: new Date(Date.UTC(asOf.getUTCFullYear(), asOf.getUTCMonth(), asOf.getUTCDate())) };
}

/** Reads and checks a batch's records: a bad one is reported and left out, a later duplicate replaces an earlier one. */
export function readBatch<R>(format: Format<R>, batch: Batch, context: ImportContext): ReadBatch<R> | string {
  const { origin, records } = batch;
  if (typeof records === 'string') return records;
  const out: ReadBatch<R> = { read: records.length, skipped: 0, errors: [], good: [] };
  const offset = batch.offset ?? 0;
  const byKey = new Map<string, { position: number; record: R }>();
  records.forEach((raw, index) => {
    const position = offset + index;
    try {
      const record = format.parse(raw, context);
      const key = format.key(record);
      const earlier = byKey.get(key);
      if (earlier) {
        out.errors.push({ file: origin, position: earlier.position, reason: `duplicate of the record at position ${position}, which replaces it` });
        out.skipped++;
        byKey.delete(key);
      }
      byKey.set(key, { position, record });
    } catch (error) {
      if (!(error instanceof BadRecord)) throw error;
      out.errors.push({ file: origin, position, reason: error.message });
      out.skipped++;
    }
  });
  out.good = [...byKey.values()].sort((a, b) => a.position - b.position).map((entry) => entry.record);
  return out;
}

async function importBatch<R>(
  pool: pg.Pool,
  format: Format<R>,
  batch: Batch,
  context: ImportContext,
  onBatch: ImportOptions['onBatch'],
): Promise<BatchResult> {
  const { origin } = batch;
  const result: BatchResult = { origin, read: 0, inserted: 0, updated: 0, skipped: 0, errors: [], failed: false };
  // Every record read first: a bad one is reported and left out, the rest go to the database together.
  const read = (batch.read as ReadBatch<R> | string | undefined) ?? readBatch(format, batch, context);
  if (typeof read === 'string') {
    result.errors.push({ file: origin, position: null, reason: read });
  } else {
    result.read = read.read;
    result.skipped = read.skipped;
    result.errors.push(...read.errors);
    const good = read.good;
    if (good.length > 0) {
      try {
        await inTransaction(pool, async (client) => {
          const outcomes = await format.apply(client, good, context);
          for (const outcome of outcomes.values()) result[outcome]++;
          await onBatch?.(client, result);
        });
        // The batch may have recorded events (src/data/events.ts): the dispatcher of this process looks at once.
        eventsCommitted();
        return result;
      } catch (error) {
        result.inserted = result.updated = 0;
        result.failed = true;
        result.errors.push({ file: origin, position: null, reason: `not imported, the batch was rolled back: ${(error as Error).message}` });
        result.skipped += good.length;
      }
    }
  }
  if (onBatch) await inTransaction(pool, (client) => onBatch(client, result));
  return result;
}

/** The planner's estimate of a table's rows (0 for a table never analysed). */
async function estimatedRows(pool: pg.Pool, table: string): Promise<number> {
  const { rows } = await pool.query<{ n: number }>(`SELECT greatest(reltuples, 0)::float8 AS n FROM pg_class WHERE oid = to_regclass($1)`, [`"${table}"`]);
  return rows[0]?.n ?? 0;
}

async function inTransaction(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<void>): Promise<void> {
  const client = await pool.connect();
  let broken = false;
  try {
    await client.query('BEGIN');
    // The batch's statements are short and many: compiling them (JIT, on when a stale estimate looks costly) takes
    // longer than running them.
    await client.query('SET LOCAL jit = off');
    await client.query('SELECT pg_advisory_xact_lock($1)', [IMPORT_LOCK]);
    await work(client);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => (broken = true));
    throw error;
  } finally {
    client.release(broken);
  }
}
