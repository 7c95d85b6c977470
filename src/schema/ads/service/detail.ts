import type pg from 'pg';
import { prepared } from '../../../db/statements.js';
import { newestHistoryDays } from '../../../db/partitions.js';
import { Prisma, type PrismaClient } from '../../../generated/prisma/client.js';
import { columns, coverage, jsonObject, reviver } from '../../shared/json-rows.js';

// One ad: its detail (GET /v1/ads/{adId}, Query.ad), its media's source URLs and its daily reach history.
//
// The detail through Prisma takes two relation-join statements for a duplicate group's member (the member, then its
// lead) and Prisma's mapping of each value of the ad, its advertiser, the advertiser's shops, its page's daily
// history and its latest fetch in JavaScript, a large share of the request's CPU. When the request selects no more
// than DETAIL, one prepared statement finds the group lead and has PostgreSQL write it, with every relation, as one
// JSON object (src/schema/shared/json-rows.ts); a test compares it with Prisma's findUnique on every ad. Any other
// selection is Prisma's.

/** The advertiser's shops as the detail lists them: a shop row carries ~70 profile columns, only these are read. */
export const AD_SHOPS = {
  select: { isPrimary: true, shop: { select: { id: true, domain: true, name: true, monthlyVisits: true, categories: true } } },
  orderBy: [{ isPrimary: 'desc' }, { shopId: 'asc' }],
} as const satisfies Prisma.AdvertiserShopFindManyArgs;

/** The advertiser's page history, oldest first. */
export const PAGE_DAYS = {
  select: { date: true, facebookLikes: true, instagramFollowers: true, totalImpressions: true },
  orderBy: { date: 'asc' },
} as const satisfies Prisma.AdvertiserMetricDayFindManyArgs;

/** The ad's latest fetch: the newest fetch time of its reach snapshots (none for the demo market's). */
export const LAST_FETCH = {
  select: { fetchedAt: true },
  where: { fetchedAt: { not: null } },
  orderBy: { fetchedAt: 'desc' },
  take: 1,
} as const satisfies Prisma.AdReachDayFindManyArgs;

/** Everything the ad object types read of an ad (AD_SUMMARY_INCLUDE among it) and the detail's relations. */
export const DETAIL = {
  include: { advertiser: { include: { shops: AD_SHOPS, metricDays: PAGE_DAYS } }, transcript: true, hook: true, reachDays: LAST_FETCH },
} as const satisfies Prisma.AdDefaultArgs;

export type AdDetailRow = Prisma.AdGetPayload<typeof DETAIL>;

const { advertiser, transcript, hook, reachDays } = DETAIL.include;
const SHOPS = `(SELECT coalesce(json_agg(${jsonObject('AdvertiserShop', 'l', AD_SHOPS, { shop: jsonObject('Shop', 's', AD_SHOPS.select.shop) })} ORDER BY l."isPrimary" DESC, l."shopId"), '[]')
  FROM "advertiser_shops" l JOIN "shops" s ON s."id" = l."shopId" WHERE l."advertiserId" = v."id")`;
const DAYS = `(SELECT coalesce(json_agg(${jsonObject('AdvertiserMetricDay', 'd', PAGE_DAYS)} ORDER BY d."date"), '[]')
  FROM "advertiser_metric_days" d WHERE d."advertiserId" = v."id")`;

const FETCHES = `(SELECT coalesce(json_agg(${jsonObject('AdReachDay', 'f', reachDays)}), '[]')
  FROM (SELECT "fetchedAt" FROM "ad_reach_days" WHERE "adId" = a."id" AND "fetchedAt" IS NOT NULL ORDER BY "fetchedAt" DESC LIMIT 1) f)`;

// The requested ad r, or its duplicate group's lead when r is not one (and the group has one), as a.
const DETAIL_STATEMENT = `
  SELECT row_to_json(x) AS "ad" FROM (
    SELECT ${columns('Ad', 'a')},
      (SELECT ${jsonObject('Advertiser', 'v', advertiser, { shops: SHOPS, metricDays: DAYS })} FROM "advertisers" v WHERE v."id" = a."advertiserId") AS "advertiser",
      (SELECT ${jsonObject('AdTranscript', 't', transcript)} FROM "ad_transcripts" t WHERE t."adId" = a."id") AS "transcript",
      (SELECT ${jsonObject('AdHook', 'h', hook)} FROM "ad_hooks" h WHERE h."adId" = a."id") AS "hook",
      ${FETCHES} AS "reachDays"
    FROM "ads" r
    JOIN "ads" a ON a."id" = coalesce(
      (SELECT l."id" FROM "ads" l WHERE NOT r."isGroupLead" AND l."collationId" = r."collationId" AND l."isGroupLead" ORDER BY l."id" LIMIT 1), r."id")
    WHERE r."id" = $1) x`;

const reviveDetail = reviver('Ad', DETAIL);

/** Whether a Prisma query (Pothos's selection) asks for no more than the detail statement loads. */
export const isDetailSelection = coverage('Ad', DETAIL);

/** The ad `id` with DETAIL, or the lead of its duplicate group when it is another member (and the group has a lead). */
export async function adDetailRow(pool: pg.Pool, id: string): Promise<AdDetailRow | null> {
  const { rows } = await pool.query<{ ad: Record<string, unknown> }>(prepared(DETAIL_STATEMENT, [id]));
  if (!rows.length) return null;
  reviveDetail(rows[0].ad);
  return rows[0].ad as unknown as AdDetailRow;
}

/**
 * The ad `id` loaded with `query` (Pothos's selection), or its group lead, with the id that was asked for when the
 * lead is another ad; null when there is no such ad.
 */
export async function findAdDetail(db: { pool: pg.Pool; prisma: PrismaClient }, id: string, query: object): Promise<{ ad: AdDetailRow; requestedId: string } | null> {
  if (isDetailSelection(query)) {
    const ad = await adDetailRow(db.pool, id);
    return ad && { ad, requestedId: id };
  }
  const ad = await db.prisma.ad.findUnique({ where: { id }, relationLoadStrategy: 'join', ...query });
  if (!ad || ad.isGroupLead) return ad && { ad: ad as AdDetailRow, requestedId: id };
  const lead = await db.prisma.ad.findFirst({ where: { collationId: ad.collationId, isGroupLead: true }, orderBy: { id: 'asc' }, relationLoadStrategy: 'join', ...query });
  return { ad: (lead ?? ad) as AdDetailRow, requestedId: id };
}

/** The stored media URLs of the ad `id`, or null when there is no such ad. */
export function adMediaSource(prisma: PrismaClient, id: string) {
  return prisma.ad.findUnique({ where: { id }, select: { id: true, mediaType: true, mediaUrl: true, thumbnailUrl: true } });
}

/** The ad a's newest $2 days (src/db/partitions.ts: read from the newest months down). */
const NEWEST_REACH_DAYS = () => newestHistoryDays('ad_reach_days', Prisma.raw('"date", "reach"'), Prisma.raw('"adId" = a."id"'), Prisma.raw('$2'));

/**
 * The daily reach of the ad `id`, oldest first: its most recent `limit` days; null when there is no such ad.
 * A hot, fixed-shape read: plain SQL on the shared pool, prepared, without Prisma's query planning. The days come
 * back as one JSON array, oldest first: one row to read instead of up to 365. Dates of years 1-9999 come
 * already written as `YYYY-MM-DD`; any other (never seen) as epoch milliseconds, made a Date here so the Date scalar
 * writes it as it writes every other one.
 */
export async function adReachHistory(pool: pg.Pool, id: string, limit: number): Promise<{ date: Date | string; reach: number }[] | null> {
  const { rows } = await pool.query<{ days: { date: string | number; reach: number }[] | null }>(prepared(
    `SELECT (SELECT json_agg(json_build_object(
               'date', CASE WHEN d."date" BETWEEN DATE '0001-01-01' AND DATE '9999-12-31' THEN to_json(to_char(d."date", 'YYYY-MM-DD'))
                            ELSE to_json(extract(epoch FROM d."date")::float8 * 1000) END,
               'reach', d."reach") ORDER BY d."date")
             FROM (${NEWEST_REACH_DAYS().text}) d) AS "days"
     FROM "ads" a
     WHERE a."id" = $1`,
    [id, limit],
  ));
  if (rows.length === 0) return null;
  const days: { date: Date | string | number; reach: number }[] = rows[0]!.days ?? [];
  for (const day of days) if (typeof day.date === 'number') day.date = new Date(day.date);
  return days as { date: Date | string; reach: number }[];
}
