import type { Prisma } from '../../generated/prisma/client.js';
import { jsonRowsLoader } from '../shared/json-rows.js';
import { AD_SUMMARY_INCLUDE, type AdSummaryRow } from './types.js';

// Ads by id, for every list that finds a page of ad ids and then loads them (ads, advertiser ads, brandtracker
// analytics, favorites, workspace analytics): one JSON statement when the request selects no more than an ad summary
// (the ad's fields, its advertiser, its transcript's text: AD_SUMMARY_INCLUDE), Prisma otherwise
// (src/schema/shared/json-rows.ts). For a page of 400 ads with their advertisers, Prisma's mapping cost more of
// Node's time than the rest of the request.

const summaries = jsonRowsLoader<AdSummaryRow, typeof AD_SUMMARY_INCLUDE>('Ad', { table: 'ads' }, AD_SUMMARY_INCLUDE, {
  advertiser: { table: 'advertisers', on: (advertiser, ad) => `${advertiser}."id" = ${ad}."advertiserId"` },
  transcript: { table: 'ad_transcripts', on: (transcript, ad) => `${transcript}."adId" = ${ad}."id"` },
});

/** Whether a Prisma query (Pothos's selection) asks for no more than the summary statement loads. */
export const isSummarySelection = (query: object): boolean => summaries.serves(query);

/**
 * The ads of `ids` (in no particular order), loaded with `query`, Pothos's selection for them: it always holds the
 * transcript's text, which the ad object types include (AD_SUMMARY_INCLUDE).
 */
export async function findAds(prisma: Prisma.TransactionClient, ids: string[], query: object): Promise<AdSummaryRow[]> {
  if (!ids.length) return [];
  if (summaries.serves(query)) return summaries.load(prisma, ids);
  return (await prisma.ad.findMany({ where: { id: { in: ids } }, relationLoadStrategy: 'join', ...query })) as AdSummaryRow[];
}
