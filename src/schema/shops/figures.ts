import DataLoader from 'dataloader';
import type { Context } from '../../context.js';
import { Prisma, type PrismaClient } from '../../generated/prisma/client.js';

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
  Prisma.sql`(SELECT round(avg(x."adsCount")::numeric, 2)::float8 FROM (SELECT n."adsCount" FROM "tiktok_page_snapshots" n WHERE n."profileId" = p."id" ORDER BY n."date" DESC LIMIT ${days}) x)`;

async function loadFigures(prisma: PrismaClient, ids: readonly string[]): Promise<ShopFigures[]> {
  const rows = await prisma.$queryRaw<(ShopFigures & { id: string })[]>`
    SELECT s."id"::text AS id,
      (SELECT count(*)::int FROM ${shopAds(Prisma.sql`s."id"`)} AND a."status" = 'active') AS "activeAds",
      (SELECT count(*)::int FROM "advertiser_shops" l WHERE l."shopId" = s."id") AS "linkedAdvertisersCount",
      (SELECT coalesce(json_agg(json_build_object('period', to_char(w, 'YYYY-MM-DD'), 'value',
          (SELECT count(*) FROM ${shopAds(Prisma.sql`s."id"`)} AND a."firstSeenAt" < w + interval '7 days' AND (a."status" = 'active' OR a."lastSeenAt" >= w)))
          ORDER BY w), '[]')
        FROM generate_series(date_trunc('week', now() AT TIME ZONE 'UTC') - interval '25 weeks', date_trunc('week', now() AT TIME ZONE 'UTC'), interval '1 week') w) AS history,
      (SELECT coalesce(json_agg(json_build_object('countryCode', c.code, 'share', round(c.n::numeric / c.total, 4)::float8) ORDER BY c.n DESC, c.code), '[]')
        FROM (SELECT code, count(*) AS n, sum(count(*)) OVER () AS total
              FROM (SELECT a."targetedCountries" FROM ${shopAds(Prisma.sql`s."id"`)} AND a."status" = 'active') x, unnest(x."targetedCountries") AS code
              GROUP BY code ORDER BY n DESC, code LIMIT 5) c) AS "topCountries",
      (SELECT coalesce(json_agg(json_build_object('id', x."id", 'mediaType', x."mediaType", 'mediaUrl', x."mediaUrl", 'thumbnailUrl', x."thumbnailUrl")
          ORDER BY x."firstSeenAt" DESC, x."id"), '[]')
        FROM (SELECT a.* FROM ${shopAds(Prisma.sql`s."id"`)} AND a."isGroupLead" ORDER BY a."firstSeenAt" DESC, a."id" LIMIT 3) x) AS "latestAds",
      (SELECT json_build_object('pageId', p."id", 'handle', p."handle", 'followers', p."followers", 'totalPosts', p."totalTikToks",
          'newPosts', p."newTikToks", 'totalViews', p."views", 'totalLikes', p."likes",
          'activeAds', (SELECT count(*) FROM "tiktok_items" i WHERE i."profileId" = p."id" AND i."type" = 'ad' AND i."status" = 'active'),
          'totalAds', (SELECT count(*) FROM "tiktok_items" i WHERE i."profileId" = p."id" AND i."type" = 'ad'),
          'avgActiveAds7d', ${avgLatestSnapshots(7)}, 'avgActiveAds30d', ${avgLatestSnapshots(30)},
          'lastUpdatedAt', (SELECT max(n."recordedAt") FROM "tiktok_page_snapshots" n WHERE n."profileId" = p."id"))
        FROM (${mainTikTokProfile(Prisma.sql`s."id"`)}) p) AS tiktok
    FROM "shops" s WHERE s."id" = ANY(${ids as string[]}::uuid[])`;
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
