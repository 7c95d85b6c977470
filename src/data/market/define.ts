import type { BulkColumn } from '../bulk.js';

/** The market tables, in foreign-key order (the order slices insert them in). */
export const MARKET_TABLES = [
  'categories',
  'themes',
  'shopify_apps',
  'technologies',
  'pixels',
  'shops',
  'shop_apps',
  'shop_technologies',
  'shop_pixels',
  'shop_traffic_months',
  'shop_traffic_countries',
  'advertisers',
  'advertiser_shops',
  'landing_pages',
  'landing_page_technologies',
  'ads',
  'ad_transcripts',
  'ad_hooks',
  'ad_reach_days',
  'ad_demography',
  'advertiser_metric_days',
  'brandtrackers',
  'brandtracker_websites',
  'shop_social_days',
  'shop_sales_readings',
  'image_fingerprints',
  'products',
  'product_variants',
  'product_images',
  'product_weeks',
  'email_promotion_types',
  'email_categories',
  'email_events',
  'emails',
  'tiktok_music',
  'tiktok_profiles',
  'tiktok_items',
  'tiktok_pins',
  'tiktok_page_snapshots',
  'google_advertisers',
  'google_ads',
] as const;

export type MarketTable = (typeof MARKET_TABLES)[number];

/** The rows of one table from one slice of the market: `count` rows, produced lazily by `rows`. */
export type TableRows = { table: MarketTable; columns: BulkColumn[]; count: number; rows: Iterable<unknown[]> };

/** A column: its name, its PostgreSQL type (for the unnest cast) and the value it takes from an item. */
export type Column<T> = readonly [name: string, type: string, value: (item: T) => unknown];

/** One table's rows from `items`, with each column declared next to the value it takes. */
export function define<T>(table: MarketTable, count: number, items: Iterable<T>, columns: readonly Column<T>[]): TableRows {
  function* rows() {
    for (const item of items) yield columns.map(([, , value]) => value(item));
  }
  return { table, columns: columns.map(([name, type]) => ({ name, type })), count, rows: rows() };
}
