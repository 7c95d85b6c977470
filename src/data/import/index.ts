import type pg from 'pg';
import { metaAds } from './meta-ads.js';
import { importFiles, type ImportSummary } from './run.js';
import { tiktokAds } from './tiktok-ads.js';

export type { ImportError, ImportSummary } from './run.js';

// `npm run --silent cli -- import <format> <file|dir> [...]`. Shopify products.json is not importable yet:
// the product tables it maps to do not exist.
export const IMPORT_FORMATS = ['meta-ads', 'tiktok-ads'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

const formats = { 'meta-ads': metaAds, 'tiktok-ads': tiktokAds } as const;

/** Imports `paths` (files, or directories of `*.json` taken in name order), one transaction per file. */
export function importData(pool: pg.Pool, format: ImportFormat, paths: string[], options: { asOf?: Date } = {}): Promise<ImportSummary> {
  return importFiles(pool, formats[format] as Parameters<typeof importFiles>[1], paths, options);
}
