import type pg from 'pg';
import { apiError } from '../errors.js';
import { metaAdsConnector } from './meta-ads/connector.js';
import { shopifyConnector } from './shopify/connector.js';
import { runSync, type SyncOptions, type SyncRunRow } from './sync.js';
export { defaultLeaseMs } from './sync.js';
import { tiktokAdsConnector } from './tiktok-ads/connector.js';
import type { Connector } from './types.js';

// The sources this server collects from, by name: what `sync run <source>`, the schedules and the jobs name.

export const SOURCES = {
  'meta-ads': metaAdsConnector,
  'tiktok-ads': tiktokAdsConnector,
  shopify: shopifyConnector,
};

export type SourceName = keyof typeof SOURCES;
export const SOURCE_NAMES = Object.keys(SOURCES) as SourceName[];

export const isSourceName = (name: string): name is SourceName => Object.hasOwn(SOURCES, name);

/** Runs `source` for `query` (see runSync). */
export async function syncSource(pool: pg.Pool, source: string, query: unknown, options: SyncOptions = {}): Promise<SyncRunRow> {
  if (!isSourceName(source)) throw apiError('validation_error', `unknown source ${JSON.stringify(source)}: one of ${SOURCE_NAMES.join(', ')}`);
  return await runSync(pool, SOURCES[source] as Connector<unknown>, query, options);
}

export { listRuns, type SyncRunRow } from './sync.js';
export { sourceStatuses, type SourceStatus } from './status.js';
