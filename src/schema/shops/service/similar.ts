import type { Context } from '../../../context.js';
import { Prisma, type PrismaClient } from '../../../generated/prisma/client.js';
import { hostOf } from '../../shared/codes.js';
import { findComputedPage, inIdOrder, offsetPagination, type OffsetPagination, type OffsetRequest } from '../../shared/list.js';
import { shopsByIds } from './find.js';
import { activeAdsOf, S } from './search.js';

// Similar shops, computed from what two shops have in common. The score (0..1) adds:
//   0.30 × shared Google categories (Jaccard: shared / all of both)
//   0.15 × shared Shopify apps (Jaccard)      0.10 × shared technologies (Jaccard)   0.05 × shared pixels (Jaccard)
//   0.10 × same home country                 0.10 × visitor-country overlap (sum of the smaller share per country)
//   0.10 × price band: 1 - |ln(best-seller price ratio)| / ln 10, from 0
//   0.10 × traffic: 1 - |ln(monthly visits ratio)| / ln 100, from 0
// Candidates share at least one category with the shop; the shop itself is never among them.

export const SIMILARITY_DESCRIPTION =
  'similarityScore (0..1) = 0.30 shared categories (Jaccard) + 0.15 shared Shopify apps (Jaccard) + 0.10 shared technologies (Jaccard) + 0.05 shared pixels (Jaccard) + 0.10 same home country + 0.10 visitor-country overlap (sum of the smaller share) + 0.10 price band (1 - |ln(best-seller price ratio)| / ln 10, from 0) + 0.10 traffic (1 - |ln(visits ratio)| / ln 100, from 0). Candidates share at least one category with the shop.';

export type SimilarSort = 'relevance' | 'monthlyVisits' | 'activeAds' | 'growth30d' | 'productsCount' | 'createdAt';
type SimilarScores = { rows: { id: string; score: number }[]; total: number };
type Scored = { id: string; score: number | null; k: unknown };
export type SimilarRow = { shop: { id: string }; similarityScore: number };
export type SimilarPage = { data: SimilarRow[]; pagination: OffsetPagination; meta: { shopExists: boolean } };

type SimilarOrder = { sortBy: SimilarSort; order: 'asc' | 'desc' };
type Page = OffsetRequest;

const sql = Prisma.sql;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The id of the shop an identifier names: a shop (website) uuid, or a domain (or URL) or one of its related domains. */
async function resolveShopId(prisma: PrismaClient, identifier: string): Promise<string | null> {
  const value = identifier.trim();
  if (UUID.test(value)) return (await prisma.shop.findUnique({ where: { id: value.toLowerCase() }, select: { id: true } }))?.id ?? null;
  const host = hostOf(value);
  if (!host) return null;
  const [row] = await prisma.$queryRaw<{ id: string }[]>`
    SELECT "id"::text AS id FROM "shops" WHERE "domain" = ${host} OR "relatedDomains" @> ARRAY[${host}]::text[] ORDER BY ("domain" = ${host}) DESC, "monthlyVisits" DESC LIMIT 1`;
  return row?.id ?? null;
}

const jaccard = (shared: string, mine: string, theirs: string) => `coalesce(${shared}::float8 / nullif(${mine} + ${theirs} - ${shared}, 0), 0)`;
const ratioScore = (a: string, b: string, span: number) => `greatest(0, 1 - abs(ln(${a}) - ln(${b})) / ln(${span}))`;
const setOf = (table: string, column: string, shop: Prisma.Sql) => sql`ARRAY(SELECT x.${Prisma.raw(`"${column}"`)} FROM ${Prisma.raw(`"${table}"`)} x WHERE x."shopId" = ${shop})`;

/** Shared rows and row counts of a candidate in a shop-linked table (apps, technologies, pixels). */
const overlap = (table: string, column: string, targetSet: string) => Prisma.raw(`
  SELECT x."shopId", count(*) FILTER (WHERE x."${column}" = ANY(t.${targetSet})) AS shared, count(*) AS size
  FROM "${table}" x JOIN cand c ON c."id" = x."shopId", t GROUP BY x."shopId"`);

// Set-based: the candidates are read once, each linked table is joined to them once and grouped (a subquery
// per candidate cost seconds once a category holds thousands of shops).
const SCORE = Prisma.raw(`round((
  0.30 * coalesce(cardinality(ARRAY(SELECT unnest(c."categoryIds") INTERSECT SELECT unnest(t."categoryIds")))::float8
         / nullif(cardinality(ARRAY(SELECT unnest(c."categoryIds") UNION SELECT unnest(t."categoryIds"))), 0), 0)
  + 0.15 * ${jaccard('coalesce(ap.shared, 0)', 'cardinality(t.apps)', 'coalesce(ap.size, 0)')}
  + 0.10 * ${jaccard('coalesce(te.shared, 0)', 'cardinality(t.techs)', 'coalesce(te.size, 0)')}
  + 0.05 * ${jaccard('coalesce(px.shared, 0)', 'cardinality(t.pixels)', 'coalesce(px.size, 0)')}
  + 0.10 * (CASE WHEN c."countryCode" = t."countryCode" THEN 1 ELSE 0 END)
  + 0.10 * coalesce(vc.overlap, 0)
  + 0.10 * coalesce(${ratioScore('nullif(c."bestSellerPriceUsd", 0)', 'nullif(t."bestSellerPriceUsd", 0)', 10)}, 0)
  + 0.10 * ${ratioScore('(c."monthlyVisits" + 1)', '(t."monthlyVisits" + 1)', 100)}
)::numeric, 4)::float8`);

const SORT_KEYS: Record<Exclude<SimilarSort, 'relevance'>, Prisma.Sql> = {
  monthlyVisits: sql`s."monthlyVisits"`,
  activeAds: activeAdsOf('last24h'),
  growth30d: sql`s."trafficGrowth30d"`,
  productsCount: sql`s."productsCount"`,
  createdAt: sql`s."createdAt"`,
};

/** One page of the shops most similar to `shopId`, with their scores and the number of candidates. */
async function similarShopScores(prisma: PrismaClient, shopId: string, sort: SimilarOrder, page: Page): Promise<SimilarScores> {
  const direction = Prisma.raw(sort.order === 'asc' ? 'ASC NULLS LAST' : 'DESC NULLS LAST');
  const key = sort.sortBy === 'relevance' ? sql`score` : SORT_KEYS[sort.sortBy];
  // The candidates in the sort's order (k), then by score and id: one statement gives the page and their number.
  const found = await findComputedPage<Scored>(prisma, {
    rows: sql`
    WITH t AS (SELECT s.*, ${setOf('shop_apps', 'appId', S)} AS apps, ${setOf('shop_technologies', 'technologyId', S)} AS techs,
                      ${setOf('shop_pixels', 'pixelId', S)} AS pixels FROM "shops" s WHERE s."id" = ${shopId}::uuid),
    cand AS MATERIALIZED (SELECT s."id", s."categoryIds", s."countryCode", s."bestSellerPriceUsd", s."monthlyVisits"
                          FROM "shops" s, t WHERE s."id" <> t."id" AND s."categoryIds" && t."categoryIds"),
    ap AS (${overlap('shop_apps', 'appId', 'apps')}),
    te AS (${overlap('shop_technologies', 'technologyId', 'techs')}),
    px AS (${overlap('shop_pixels', 'pixelId', 'pixels')}),
    vc AS (SELECT x."shopId", sum(least(x."share", y."share")) AS overlap FROM "shop_traffic_countries" x JOIN cand c ON c."id" = x."shopId"
           JOIN t ON TRUE JOIN "shop_traffic_countries" y ON y."shopId" = t."id" AND y."countryCode" = x."countryCode" GROUP BY x."shopId"),
    scored AS MATERIALIZED (SELECT c."id"::text AS id, ${SCORE} AS score FROM cand c CROSS JOIN t
      LEFT JOIN ap ON ap."shopId" = c."id" LEFT JOIN te ON te."shopId" = c."id" LEFT JOIN px ON px."shopId" = c."id" LEFT JOIN vc ON vc."shopId" = c."id")
    SELECT x.id, x.score, ${sort.sortBy === 'relevance' ? sql`x.score` : sql`(SELECT ${key} FROM "shops" s WHERE s."id" = x.id::uuid)`} AS k FROM scored x`,
    order: (p) => sql`${Prisma.raw(p)}k ${direction}, ${Prisma.raw(p)}score DESC, ${Prisma.raw(p)}id`,
    page,
  });
  return { rows: found.data.map((row) => ({ id: row.id, score: row.score ?? 0 })), total: found.pagination.total };
}

/** A page of the shops similar to the shop `shopId` (none: an empty page), each summary loaded with `select`. */
export async function similarShopsById(context: Pick<Context, 'prisma'>, select: object, shopId: string | null, sort: SimilarOrder, page: Page): Promise<SimilarPage> {
  if (!shopId) return { data: [], pagination: offsetPagination(page, 0), meta: { shopExists: false } };
  const found = await similarShopScores(context.prisma, shopId, sort, page);
  const shops = await shopsByIds<{ id: string }>(context.prisma, found.rows.map((row) => row.id), select);
  const scoreOf = new Map(found.rows.map((row) => [row.id, row.score]));
  const data = inIdOrder(found.rows.map((row) => row.id), shops).map((shop) => ({ shop, similarityScore: scoreOf.get(shop.id)! }));
  return { data, pagination: offsetPagination(page, found.total), meta: { shopExists: true } };
}

/** GET /v1/shops/{identifier}/similar: the shops similar to the shop a domain, URL or uuid names. */
export async function similarShops(context: Pick<Context, 'prisma'>, select: object, identifier: string, sort: SimilarOrder, page: Page): Promise<SimilarPage> {
  return similarShopsById(context, select, await resolveShopId(context.prisma, identifier), sort, page);
}
