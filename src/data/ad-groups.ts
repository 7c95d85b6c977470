import type { Queryable } from './bulk.js';

/** The tables refreshAdGroups writes. */
export const AD_GROUP_TABLES = [
  'advertiser_ad_groups', 'advertiser_ad_counts', 'advertiser_main_landing_pages', 'advertiser_landing_page_counts', 'advertiser_series_days',
] as const;

/**
 * Recomputes what is read precomputed per Facebook page (migration 0021: the hook, ad-copy and landing-page groups
 * of its ads and its counts, for the workspace analytics; migration 0024: its main landing pages, for the
 * advertisers' lists; migration 0038: its ads' daily figures, for the brandtrackers' series; migration 0040: its ads
 * counted per domain and landing page, for the landing-pages facet) from the stored ads and their reach rows, for the
 * given pages or every page. Run when market ads change: after a market load and after an ads import, in the same
 * transaction. The landing-page counts go first: their lock per page, held to the end of the transaction, makes a
 * second refresh of the same pages wait for the first one's commit, so it recomputes every table from committed ads.
 */
export async function refreshAdGroups(client: Queryable, pageIds?: string[]): Promise<void> {
  await client.query('SELECT "refresh_advertiser_landing_page_counts"($1::text[])', [pageIds ?? null]);
  await client.query('SELECT "refresh_advertiser_ad_groups"($1::text[])', [pageIds ?? null]);
  await client.query('SELECT "refresh_advertiser_main_landing_pages"($1::text[])', [pageIds ?? null]);
  await refreshSeriesDays(client, pageIds);
}

/** A connection as pg's or as Prisma's (a transaction's client): refreshSeriesDays runs in either. */
type Runner = Queryable | { $executeRawUnsafe(query: string, ...values: unknown[]): Promise<number> };

/**
 * Recomputes the daily figures of the given pages (every page when omitted) alone: for pages whose ads only got reach
 * rows, and for a page a brandtracker starts to track (they are kept for tracked pages only).
 */
export async function refreshSeriesDays(client: Runner, pageIds?: string[]): Promise<void> {
  const text = 'SELECT "refresh_advertiser_series_days"($1::text[])';
  if ('$executeRawUnsafe' in client) await client.$executeRawUnsafe(text, pageIds ?? null);
  else await client.query(text, [pageIds ?? null]);
}
