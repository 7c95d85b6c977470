import { Prisma } from '../../generated/prisma/client.js';
import { columns, coverage, jsonObject, jsonRowSet, reviver } from '../shared/json-rows.js';
import { AD_SUMMARY_INCLUDE, type AdSummaryRow } from './types.js';

// Ads by id, for every list that finds a page of ad ids and then loads them (ads, advertiser ads, brandtracker
// analytics, favorites, workspace analytics). Prisma's findMany maps each value of each row in JavaScript, which
// for a page of 400 ads with their advertisers cost more of Node's time than the rest of the request. When the
// request selects no more than an ad summary (the ad's fields, its advertiser, its transcript's text), one statement
// has PostgreSQL write the rows as JSON, which is parsed at once and given Prisma's types back (DateTime as Date,
// BigInt as bigint). Any other selection is Prisma's. The columns come from the Prisma datamodel
// (src/schema/shared/json-rows.ts), so a field added to the schema is loaded without touching this file; a test
// compares both paths row for row.

const SUMMARY = { include: AD_SUMMARY_INCLUDE } as const;
const reviveSummary = reviver('Ad', SUMMARY);

// The advertiser and the transcript's text (AD_SUMMARY_INCLUDE) are LATERAL joins with LIMIT 1, as Prisma writes
// its own: the planner keeps the nested loop and memoizes the advertiser's object, built once per page, not per ad.
const SUMMARY_ROWS = Prisma.raw(`
  SELECT ${columns('Ad', 'a')}, v."json" AS "advertiser", t."json" AS "transcript"
  FROM "ads" a
  LEFT JOIN LATERAL (SELECT ${jsonObject('Advertiser', 'v0')} AS "json" FROM "advertisers" v0 WHERE v0."id" = a."advertiserId" LIMIT 1) v ON TRUE
  LEFT JOIN LATERAL (SELECT ${jsonObject('AdTranscript', 't0', AD_SUMMARY_INCLUDE.transcript)} AS "json" FROM "ad_transcripts" t0 WHERE t0."adId" = a."id" LIMIT 1) t ON TRUE`);

/** Whether a Prisma query (Pothos's selection) asks for no more than the summary statement loads. */
export const isSummarySelection = coverage('Ad', SUMMARY);

const summaries = jsonRowSet<AdSummaryRow>(SUMMARY_ROWS, 'a."id"', reviveSummary);

async function summaryRows(prisma: Prisma.TransactionClient, ids: string[]): Promise<AdSummaryRow[]> {
  const [{ rows }] = await prisma.$queryRaw<{ rows: string }[]>`SELECT ${summaries.of(Prisma.sql`${ids}::text[]`)} AS "rows"`;
  return summaries.parse(rows);
}

/**
 * The ads of `ids` (in no particular order), loaded with `query`, Pothos's selection for them: it always holds the
 * transcript's text, which the ad object types include (AD_SUMMARY_INCLUDE).
 */
export async function findAds(prisma: Prisma.TransactionClient, ids: string[], query: object): Promise<AdSummaryRow[]> {
  if (!ids.length) return [];
  if (isSummarySelection(query)) return summaryRows(prisma, ids);
  return (await prisma.ad.findMany({ where: { id: { in: ids } }, relationLoadStrategy: 'join', ...query })) as AdSummaryRow[];
}
