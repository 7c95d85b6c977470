import DataLoader from 'dataloader';
import type { Context } from '../../../context.js';
import { newestHistoryDays } from '../../../db/partitions.js';
import { Prisma, type PrismaClient } from '../../../generated/prisma/client.js';

// Figures of a shop derived from other tables (its linked Facebook pages' ads, its TikTok profile), read for
// every shop of a page in one statement, once per request, whatever the number of shops.

export type SeriesPoint = { period: string; value: number };
export type CountryShare = { countryCode: string; share: number };
export type LatestAd = { id: string; mediaType: string; mediaUrl: string | null; thumbnailUrl: string | null };
export type ShopTikTokFigures = {
  pageId: string;
  handle: string;
  followers: number;
  totalPosts: number;
  newPosts: number;
  totalViews: number;
  totalLikes: number;
  activeAds: number;
  totalAds: number;
  avgActiveAds7d: number | null;
  avgActiveAds30d: number | null;
  lastUpdatedAt: string | null;
};
export type ShopFigures = {
  activeAds: number;
  linkedAdvertisersCount: number;
  history: SeriesPoint[];
  topCountries: CountryShare[];
  latestAds: LatestAd[];
  tiktok: ShopTikTokFigures | null;
};

const EMPTY: ShopFigures = { activeAds: 0, linkedAdvertisersCount: 0, history: [], topCountries: [], latestAds: [], tiktok: null };

/** The ads of the shop's linked Facebook pages (alias a), for a shop id expression. */
export const shopAds = (shopId: Prisma.Sql) =>
  Prisma.sql`"advertiser_shops" l JOIN "ads" a ON a."advertiserId" = l."advertiserId" WHERE l."shopId" = ${shopId}`;

/** The shop's main TikTok profile: its most followed one. */
export const mainTikTokProfile = (shopId: Prisma.Sql) =>
  Prisma.sql`SELECT p.* FROM "tiktok_profiles" p WHERE p."shopId" = ${shopId} ORDER BY p."followers" DESC, p."id" LIMIT 1`;

const avgLatestSnapshots = (days: number) =>
  Prisma.sql`(SELECT round(avg(x."adsCount")::numeric, 2)::float8 FROM (${newestHistoryDays('tiktok_page_snapshots', Prisma.sql`"adsCount", "date"`, Prisma.sql`"profileId" = t."id"`, days)}) x)`;

// Set-based on purpose: the page's ads are read once (by the links' page ids) and grouped per shop. Correlated
// subqueries per shop and week made the planner's estimate cross PostgreSQL's JIT threshold, and compiling cost
// seconds per request.
async function loadFigures(prisma: PrismaClient, ids: readonly string[]): Promise<ShopFigures[]> {
  const page = ids as string[];
  const rows = await prisma.$queryRaw<(ShopFigures & { id: string })[]>`
    WITH page AS (SELECT DISTINCT id FROM unnest(${page}::uuid[]) AS id),
    links AS (SELECT l."shopId", l."advertiserId" FROM "advertiser_shops" l WHERE l."shopId" = ANY(${page}::uuid[])),
    pads AS MATERIALIZED (
      SELECT k."shopId", a."id", a."status", a."firstSeenAt", a."lastSeenAt", a."isGroupLead", a."mediaType", a."mediaUrl", a."thumbnailUrl", a."targetedCountries"
      FROM links k JOIN "ads" a ON a."advertiserId" = k."advertiserId"),
    weeks AS (SELECT w FROM generate_series(date_trunc('week', now() AT TIME ZONE 'UTC') - interval '25 weeks', date_trunc('week', now() AT TIME ZONE 'UTC'), interval '1 week') w),
    weekly AS (
      SELECT p.id, w.w, count(x."id")::int AS n FROM page p CROSS JOIN weeks w
      LEFT JOIN pads x ON x."shopId" = p.id AND x."firstSeenAt" < w.w + interval '7 days' AND (x."status" = 'active' OR x."lastSeenAt" >= w.w)
      GROUP BY p.id, w.w),
    countries AS (
      SELECT x."shopId", code, count(*) AS n, sum(count(*)) OVER (PARTITION BY x."shopId") AS total,
             row_number() OVER (PARTITION BY x."shopId" ORDER BY count(*) DESC, code) AS position
      FROM pads x, unnest(x."targetedCountries") AS code WHERE x."status" = 'active' GROUP BY x."shopId", code),
    latest AS (
      SELECT x.*, row_number() OVER (PARTITION BY x."shopId" ORDER BY x."firstSeenAt" DESC, x."id") AS position FROM pads x WHERE x."isGroupLead"),
    profiles AS (
      SELECT DISTINCT ON (p."shopId") p.* FROM "tiktok_profiles" p WHERE p."shopId" = ANY(${page}::uuid[]) ORDER BY p."shopId", p."followers" DESC, p."id")
    SELECT p.id::text AS id,
      (SELECT count(*)::int FROM pads x WHERE x."shopId" = p.id AND x."status" = 'active') AS "activeAds",
      (SELECT count(*)::int FROM links k WHERE k."shopId" = p.id) AS "linkedAdvertisersCount",
      (SELECT json_agg(json_build_object('period', to_char(w.w, 'YYYY-MM-DD'), 'value', w.n) ORDER BY w.w) FROM weekly w WHERE w.id = p.id) AS history,
      (SELECT coalesce(json_agg(json_build_object('countryCode', c.code, 'share', round(c.n::numeric / c.total, 4)::float8) ORDER BY c.position), '[]')
        FROM countries c WHERE c."shopId" = p.id AND c.position <= 5) AS "topCountries",
      (SELECT coalesce(json_agg(json_build_object('id', x."id", 'mediaType', x."mediaType", 'mediaUrl', x."mediaUrl", 'thumbnailUrl', x."thumbnailUrl") ORDER BY x.position), '[]')
        FROM latest x WHERE x."shopId" = p.id AND x.position <= 3) AS "latestAds",
      (SELECT json_build_object('pageId', t."id", 'handle', t."handle", 'followers', t."followers", 'totalPosts', t."totalTikToks",
          'newPosts', t."newTikToks", 'totalViews', t."views", 'totalLikes', t."likes",
          'activeAds', (SELECT count(*) FROM "tiktok_items" i WHERE i."profileId" = t."id" AND i."type" = 'ad' AND i."status" = 'active'),
          'totalAds', (SELECT count(*) FROM "tiktok_items" i WHERE i."profileId" = t."id" AND i."type" = 'ad'),
          'avgActiveAds7d', ${avgLatestSnapshots(7)}, 'avgActiveAds30d', ${avgLatestSnapshots(30)},
          'lastUpdatedAt', (SELECT max(n."recordedAt") FROM "tiktok_page_snapshots" n WHERE n."profileId" = t."id"))
        FROM profiles t WHERE t."shopId" = p.id) AS tiktok
    FROM page p`;
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.map((id) => byId.get(id) ?? EMPTY);
}

const loaders = new WeakMap<object, DataLoader<string, ShopFigures>>();

/** This request's loader of shop figures: the shops of a page are read together. */
export function shopFigures(context: Pick<Context, 'prisma'>): DataLoader<string, ShopFigures> {
  let loader = loaders.get(context);
  if (!loader) {
    loader = new DataLoader((ids) => loadFigures(context.prisma, ids), { maxBatchSize: 500 });
    loaders.set(context, loader);
  }
  return loader;
}
