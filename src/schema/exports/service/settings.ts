import path from 'node:path';
import { envNumber } from '../../../config.js';

// The settings of exports, read from the environment on first use (tests set them before).

/**
 * The most rows of a chunk: the worker thread holds two chunks (and, for Parquet, a row group) in a heap capped at
 * 64 MB (service/copy.ts), and a list without records holds each item parsed.
 */
export const MAX_CHUNK_ROWS = 10_000;

export type ExportSettings = {
  /** EXPORT_DIR: where files are written (default `<DATA_DIR>/exports`). */
  dir: string;
  /** EXPORT_TTL_HOURS (24): how long a finished file is kept. */
  ttlMs: number;
  /** EXPORT_CHUNK_ROWS (1,000, at most MAX_CHUNK_ROWS): rows read (and written) per run of the route. */
  chunkRows: number;
  /** EXPORT_EMBEDDED_MAX_ROWS (100,000): the most rows an export may have on the embedded database, which it holds while it runs. */
  embeddedMaxRows: number;
  /** How long a running export's heartbeat may be silent before a sweep fails it (its process died). */
  leaseMs: number;
  /** EXPORT_CONCURRENCY (1, at most 64): exports run at once by one process. */
  concurrency: number;
};

export function exportSettings(): ExportSettings {
  return {
    dir: path.resolve(process.env.EXPORT_DIR || path.join(process.env.DATA_DIR || './.data', 'exports')),
    // Hours may be a fraction (0.25: a quarter of an hour).
    ttlMs: Math.round(envNumber('EXPORT_TTL_HOURS', 24, { whole: false, min: 0.01, unit: 'hours' }) * 3_600_000),
    chunkRows: envNumber('EXPORT_CHUNK_ROWS', 1_000, { min: 1, max: MAX_CHUNK_ROWS }),
    embeddedMaxRows: envNumber('EXPORT_EMBEDDED_MAX_ROWS', 100_000, { min: 1 }),
    leaseMs: envNumber('EXPORT_LEASE_SECONDS', 120, { min: 1, unit: 'seconds' }) * 1_000,
    concurrency: envNumber('EXPORT_CONCURRENCY', 1, { min: 1, max: 64 }),
  };
}

export const CONTENT_TYPES = { ndjson: 'application/x-ndjson', csv: 'text/csv; charset=utf-8', parquet: 'application/vnd.apache.parquet' } as const;
export const EXTENSIONS = { ndjson: 'ndjson', csv: 'csv', parquet: 'parquet' } as const;

export type S3Settings = {
  /** EXPORT_S3_ENDPOINT: the store's URL (default `https://s3.<region>.amazonaws.com`; MinIO, R2, Ceph, … give theirs). */
  endpoint: string;
  /** EXPORT_S3_BUCKET: the bucket (it must exist); setting it turns the store on. */
  bucket: string;
  /** EXPORT_S3_REGION (us-east-1). */
  region: string;
  /** EXPORT_S3_ACCESS_KEY_ID / EXPORT_S3_SECRET_ACCESS_KEY (else AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY). */
  accessKeyId: string;
  secretAccessKey: string;
  /** EXPORT_S3_PREFIX (`exports/`): the keys' prefix. */
  prefix: string;
  /** EXPORT_S3_PATH_STYLE: `<endpoint>/<bucket>/<key>` URLs (default when EXPORT_S3_ENDPOINT is set), else `<bucket>.<host>`. */
  pathStyle: boolean;
  /** EXPORT_S3_PART_MB (16, at least 5): a file larger than one part is uploaded in parts of this size. */
  partBytes: number;
};

/** A setting of the store that cannot work: coded, so an export failing on it shows the message. */
const misconfigured = (message: string) => Object.assign(new Error(`the export store is misconfigured: ${message}`), { extensions: { code: 'service_unavailable' } });

/** The S3-compatible store of export files, or null when EXPORT_S3_BUCKET is not set (files stay in EXPORT_DIR). */
export function s3Settings(): S3Settings | null {
  const bucket = process.env.EXPORT_S3_BUCKET;
  if (!bucket) return null;
  const region = process.env.EXPORT_S3_REGION || process.env.AWS_REGION || 'us-east-1';
  const accessKeyId = process.env.EXPORT_S3_ACCESS_KEY_ID || process.env.AWS_ACCESS_KEY_ID;
  const secretAccessKey = process.env.EXPORT_S3_SECRET_ACCESS_KEY || process.env.AWS_SECRET_ACCESS_KEY;
  if (!accessKeyId || !secretAccessKey) throw misconfigured('EXPORT_S3_BUCKET needs EXPORT_S3_ACCESS_KEY_ID and EXPORT_S3_SECRET_ACCESS_KEY (or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY)');
  const endpoint = process.env.EXPORT_S3_ENDPOINT || `https://s3.${region}.amazonaws.com`;
  try {
    new URL(endpoint);
  } catch {
    throw misconfigured(`EXPORT_S3_ENDPOINT must be a URL, got ${JSON.stringify(endpoint)}`);
  }
  const pathStyle = process.env.EXPORT_S3_PATH_STYLE ? process.env.EXPORT_S3_PATH_STYLE === 'true' : Boolean(process.env.EXPORT_S3_ENDPOINT);
  let partMb: number;
  try {
    partMb = envNumber('EXPORT_S3_PART_MB', 16, { whole: false });
  } catch (error) {
    throw misconfigured((error as Error).message);
  }
  if (partMb < 5) throw misconfigured(`EXPORT_S3_PART_MB must be at least 5 (S3's smallest part), got ${partMb}`);
  const prefix = process.env.EXPORT_S3_PREFIX ?? 'exports/';
  return { endpoint, bucket, region, accessKeyId, secretAccessKey, prefix, pathStyle, partBytes: Math.floor(partMb * 1024 * 1024) };
}
