import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type pg from 'pg';
import { parseJson } from './json.js';
import { BadRecord } from './values.js';

// The import driver shared by every format: files in order, one transaction per file, bad records reported
// with their position and skipped, a file that fails in the database rolled back whole and reported.

export type ImportError = { file: string; position: number | null; reason: string };

/**
 * `read`: records found in the files. `inserted`: records that created their main row (ad, TikTok item).
 * `updated`: records that already existed and changed at least one of their rows. `skipped`: records not
 * applied (bad records, duplicates within a file, every record of a file that failed). A record counted in
 * none of these was already stored exactly as the file has it.
 */
export type ImportSummary = { read: number; inserted: number; updated: number; skipped: number; errors: ImportError[] };

export type ImportContext = {
  /** The moment the import stands for: decides "still running" and the day of the reach snapshot. */
  asOf: Date;
  /** `asOf`'s UTC calendar day, as midnight UTC. */
  day: Date;
};

export type Outcome = 'inserted' | 'updated';

export type Format<R> = {
  /** The record list of a parsed file, or why the file has none. */
  records(document: unknown): unknown[] | string;
  /** One record read and checked; throws `BadRecord` with the reason. */
  parse(record: unknown, context: ImportContext): R;
  /** The identity of a record: a later record with the same key in the same file replaces an earlier one. */
  key(record: R): string;
  /** Writes the records inside the file's transaction; returns the keys of the records that inserted or changed rows. */
  apply(client: pg.PoolClient, records: R[], context: ImportContext): Promise<Map<string, Outcome>>;
};

/** The files named: a file as is, a directory's `*.json` files in name order. */
export async function listFiles(paths: string[]): Promise<{ files: string[]; errors: ImportError[] }> {
  const files: string[] = [];
  const errors: ImportError[] = [];
  for (const entry of paths) {
    try {
      if ((await stat(entry)).isDirectory()) {
        const names = (await readdir(entry)).filter((name) => name.toLowerCase().endsWith('.json')).sort();
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

/** Serialises imports against each other: the page and group figures are recomputed from what is stored. */
const IMPORT_LOCK = 727275;

export async function importFiles<R>(
  pool: pg.Pool,
  format: Format<R>,
  paths: string[],
  options: { asOf?: Date } = {},
): Promise<ImportSummary> {
  const asOf = options.asOf ?? new Date();
  const day = new Date(Date.UTC(asOf.getUTCFullYear(), asOf.getUTCMonth(), asOf.getUTCDate()));
  const context: ImportContext = { asOf, day };
  const summary: ImportSummary = { read: 0, inserted: 0, updated: 0, skipped: 0, errors: [] };
  const { files, errors } = await listFiles(paths);
  summary.errors.push(...errors);

  for (const file of files) {
    let document: unknown;
    try {
      document = parseJson(await readFile(file, 'utf8'));
    } catch (error) {
      const reason = error instanceof SyntaxError ? `not JSON: ${error.message}` : `cannot read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`;
      summary.errors.push({ file, position: null, reason });
      continue;
    }
    const records = format.records(document);
    if (typeof records === 'string') {
      summary.errors.push({ file, position: null, reason: records });
      continue;
    }
    summary.read += records.length;

    // Read every record first: a bad one is reported and left out, the rest go to the database together.
    const byKey = new Map<string, { position: number; record: R }>();
    records.forEach((raw, position) => {
      try {
        const record = format.parse(raw, context);
        const key = format.key(record);
        const earlier = byKey.get(key);
        if (earlier) {
          summary.errors.push({ file, position: earlier.position, reason: `duplicate of the record at position ${position}, which replaces it` });
          summary.skipped++;
          byKey.delete(key);
        }
        byKey.set(key, { position, record });
      } catch (error) {
        if (!(error instanceof BadRecord)) throw error;
        summary.errors.push({ file, position, reason: error.message });
        summary.skipped++;
      }
    });
    const good = [...byKey.values()].sort((a, b) => a.position - b.position);
    if (good.length === 0) continue;

    const client = await pool.connect();
    let broken = false;
    try {
      await client.query('BEGIN');
      await client.query('SELECT pg_advisory_xact_lock($1)', [IMPORT_LOCK]);
      const outcomes = await format.apply(client, good.map((entry) => entry.record), context);
      await client.query('COMMIT');
      for (const outcome of outcomes.values()) summary[outcome]++;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => (broken = true));
      summary.errors.push({ file, position: null, reason: `not imported, the file was rolled back: ${(error as Error).message}` });
      summary.skipped += good.length;
    } finally {
      client.release(broken);
    }
  }
  return summary;
}
