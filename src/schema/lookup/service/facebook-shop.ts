import type { Context } from '../../../context.js';
import { notFound } from '../../../errors.js';
import { Prisma } from '../../../generated/prisma/client.js';

// GET /v1/lookup/facebook-shop: the shops a Facebook page links to, or the pages a shop links to, ranked.

export type ShopEntry = { id: string; domain: string; name: string; rank: string; isMainRelation: boolean; isPrimary: boolean; trafficNumber: number; profilePhotoUrl: string | null };
export type PageEntry = { id: string; facebookPageId: string; name: string; rank: string; isMainRelation: boolean; isPrimary: boolean; runningAds: number };

/** The page's shops, the primary first, then by traffic; 404 for a page that is not known (one row with no shop: known, none linked). */
export async function shopsOfPage({ prisma }: Context, page: string, limit: number): Promise<ShopEntry[]> {
  const rows = await prisma.$queryRaw<(ShopEntry | { id: null })[]>(Prisma.sql`
    SELECT s."id"::text AS id, s."domain", s."name", l."isMain" AS "isMainRelation", l."isPrimary", s."monthlyVisits" AS "trafficNumber", s."logoUrl" AS "profilePhotoUrl",
      (row_number() OVER (ORDER BY l."isPrimary" DESC, s."monthlyVisits" DESC, s."id"))::text AS rank
    FROM "advertisers" v LEFT JOIN "advertiser_shops" l ON l."advertiserId" = v."id" LEFT JOIN "shops" s ON s."id" = l."shopId"
    WHERE v."id" = ${page} ORDER BY l."isPrimary" DESC NULLS LAST, s."monthlyVisits" DESC, s."id" LIMIT ${limit}`);
  if (!rows.length) throw notFound(`Facebook page "${page}"`);
  return rows.filter((row): row is ShopEntry => row.id !== null);
}

/** The shop's pages by the strength of their relation (the main page first); 404 for an unknown shop. One statement. */
export async function pagesOfShop({ prisma }: Context, shop: string, limit: number): Promise<PageEntry[]> {
  const rows = await prisma.$queryRaw<(PageEntry | { id: null })[]>(Prisma.sql`
    SELECT v."id", v."id" AS "facebookPageId", v."name", l."isMain" AS "isMainRelation", l."isPrimary", v."liveAdsCount" AS "runningAds",
      (row_number() OVER (ORDER BY l."isMain" DESC, l."rank" ASC NULLS LAST, v."liveAdsCount" DESC, v."id"))::text AS rank
    FROM "shops" s LEFT JOIN "advertiser_shops" l ON l."shopId" = s."id" LEFT JOIN "advertisers" v ON v."id" = l."advertiserId"
    WHERE s."id" = ${shop}::uuid ORDER BY l."isMain" DESC NULLS LAST, l."rank" ASC NULLS LAST, v."liveAdsCount" DESC, v."id" LIMIT ${limit}`);
  if (!rows.length) throw notFound(`Shop "${shop}"`);
  return rows.filter((row): row is PageEntry => row.id !== null);
}
