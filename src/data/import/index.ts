import type pg from 'pg';
import { googleAds } from './google-ads.js';
import { metaAds } from './meta-ads.js';
import { importFiles, type Format, type ImportSummary } from './run.js';
import { shopDomain, shopifyProducts } from './shopify-products.js';
import { tiktokAds } from './tiktok-ads.js';
import type { ImportFormat } from './formats.js';

export type { ImportError, ImportSummary } from './run.js';

// `npm run --silent cli -- import <format> <file|dir> [...]`.
export { IMPORT_FORMATS, type ImportFormat } from './formats.js';

/** `domain`: the shop whose `products.json` pages are imported (shopify-products only). */
export type ImportOptions = { asOf?: Date; domain?: string };

const formats: Record<ImportFormat, (options: ImportOptions) => Format<unknown>> = {
  'meta-ads': () => metaAds as Format<unknown>,
  'tiktok-ads': () => tiktokAds as Format<unknown>,
  'shopify-products': ({ domain }) => {
    const host = domain === undefined ? null : shopDomain(domain);
    if (!host) throw new Error(`shopify-products needs the shop's domain, got ${JSON.stringify(domain ?? null)}`);
    return shopifyProducts(host) as Format<unknown>;
  },
  'google-ads': () => googleAds as Format<unknown>,
};

/** Imports `paths` (files, or directories of the format's files taken in name order), one transaction per batch. */
export async function importData(pool: pg.Pool, format: ImportFormat, paths: string[], options: ImportOptions = {}): Promise<ImportSummary> {
  return await importFiles(pool, formats[format](options), paths, { asOf: options.asOf });
}
