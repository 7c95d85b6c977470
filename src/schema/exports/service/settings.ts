import path from 'node:path';

// The settings of exports, read from the environment on first use (tests set them before).

function positive(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number, got ${JSON.stringify(raw)}`);
  return n;
}

export type ExportSettings = {
  /** EXPORT_DIR: where files are written (default `<DATA_DIR>/exports`). */
  dir: string;
  /** EXPORT_TTL_HOURS (24): how long a finished file is kept. */
  ttlMs: number;
  /** EXPORT_CHUNK_ROWS (1,000): rows read (and written) per run of the route. */
  chunkRows: number;
  /** EXPORT_EMBEDDED_MAX_ROWS (100,000): the most rows an export may have on the embedded database, which it holds while it runs. */
  embeddedMaxRows: number;
  /** How long a running export's heartbeat may be silent before a sweep fails it (its process died). */
  leaseMs: number;
};

export function exportSettings(): ExportSettings {
  return {
    dir: path.resolve(process.env.EXPORT_DIR || path.join(process.env.DATA_DIR || './.data', 'exports')),
    ttlMs: positive('EXPORT_TTL_HOURS', 24) * 3_600_000,
    chunkRows: Math.floor(positive('EXPORT_CHUNK_ROWS', 1_000)),
    embeddedMaxRows: Math.floor(positive('EXPORT_EMBEDDED_MAX_ROWS', 100_000)),
    leaseMs: positive('EXPORT_LEASE_SECONDS', 120) * 1_000,
  };
}

export const CONTENT_TYPES = { ndjson: 'application/x-ndjson', csv: 'text/csv; charset=utf-8', parquet: 'application/vnd.apache.parquet' } as const;
export const EXTENSIONS = { ndjson: 'ndjson', csv: 'csv', parquet: 'parquet' } as const;
