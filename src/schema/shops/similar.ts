import { Prisma, type PrismaClient } from '../../generated/prisma/client.js';
import { hostOf } from '../shared/codes.js';
import { activeAdsOf, S } from './sql.js';

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
export type SimilarPage = { exists: boolean; rows: { id: string; score: number }[]; total: number };

const sql = Prisma.sql;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The id of the shop an identifier names: a shop (website) uuid, or a domain (or URL) or one of its related domains. */
export async function resolveShopId(prisma: PrismaClient, identifier: string): Promise<string | null> {
  const value = identifier.trim();
  if (UUID.test(value)) return (await prisma.shop.findUnique({ where: { id: value.toLowerCase() }, select: { id: true } }))?.id ?? null;
  const host = hostOf(value);
  if (!host) return null;
  const [row] = await prisma.$queryRaw<{ id: string }[]>`
    SELECT "id"::text AS id FROM "shops" WHERE "domain" = ${host} OR ${host} = ANY("relatedDomains") ORDER BY ("domain" = ${host}) DESC, "monthlyVisits" DESC LIMIT 1`;
  return row?.id ?? null;
}

const jaccard = (shared: Prisma.Sql, mine: Prisma.Sql, theirs: Prisma.Sql) => sql`coalesce(${shared}::float8 / nullif(${mine} + ${theirs} - ${shared}, 0), 0)`;
const setOf = (table: string, column: string, shop: Prisma.Sql) => sql`ARRAY(SELECT x.${Prisma.raw(`"${column}"`)} FROM ${Prisma.raw(`"${table}"`)} x WHERE x."shopId" = ${shop})`;
const sharedWith = (table: string, column: string, targetSet: Prisma.Sql) =>
  sql`(SELECT count(*) FROM ${Prisma.raw(`"${table}"`)} x WHERE x."shopId" = ${S} AND x.${Prisma.raw(`"${column}"`)} = ANY(${targetSet}))`;
const sizeOf = (table: string) => sql`(SELECT count(*) FROM ${Prisma.raw(`"${table}"`)} x WHERE x."shopId" = ${S})`;
const ratioScore = (a: Prisma.Sql, b: Prisma.Sql, span: number) => sql`greatest(0, 1 - abs(ln(${a}) - ln(${b})) / ln(${span}::float8))`;

const SCORE = sql`round((
  0.30 * coalesce(cardinality(ARRAY(SELECT unnest(s."categoryIds") INTERSECT SELECT unnest(t."categoryIds")))::float8
         / nullif(cardinality(ARRAY(SELECT unnest(s."categoryIds") UNION SELECT unnest(t."categoryIds"))), 0), 0)
  + 0.15 * ${jaccard(sharedWith('shop_apps', 'appId', sql`t.apps`), sql`cardinality(t.apps)`, sizeOf('shop_apps'))}
  + 0.10 * ${jaccard(sharedWith('shop_technologies', 'technologyId', sql`t.techs`), sql`cardinality(t.techs)`, sizeOf('shop_technologies'))}
  + 0.05 * ${jaccard(sharedWith('shop_pixels', 'pixelId', sql`t.pixels`), sql`cardinality(t.pixels)`, sizeOf('shop_pixels'))}
  + 0.10 * (CASE WHEN s."countryCode" = t."countryCode" THEN 1 ELSE 0 END)
  + 0.10 * coalesce((SELECT sum(least(c."share", tc."share")) FROM "shop_traffic_countries" c JOIN "shop_traffic_countries" tc
                     ON tc."countryCode" = c."countryCode" AND tc."shopId" = t."id" WHERE c."shopId" = ${S}), 0)
  + 0.10 * coalesce(${ratioScore(sql`nullif(s."bestSellerPriceUsd", 0)`, sql`nullif(t."bestSellerPriceUsd", 0)`, 10)}, 0)
  + 0.10 * ${ratioScore(sql`(s."monthlyVisits" + 1)`, sql`(t."monthlyVisits" + 1)`, 100)}
)::numeric, 4)::float8`;

const SORT_KEYS: Record<Exclude<SimilarSort, 'relevance'>, Prisma.Sql> = {
  monthlyVisits: sql`s."monthlyVisits"`,
  activeAds: activeAdsOf('last24h'),
  growth30d: sql`s."trafficGrowth30d"`,
  productsCount: sql`s."productsCount"`,
  createdAt: sql`s."createdAt"`,
};

/** One page of the shops most similar to `shopId`, with their scores and the number of candidates. */
export async function similarShops(prisma: PrismaClient, shopId: string, sort: { sortBy: SimilarSort; order: 'asc' | 'desc' }, page: { limit: number; offset: number }): Promise<SimilarPage> {
  const direction = Prisma.raw(sort.order === 'asc' ? 'ASC NULLS LAST' : 'DESC NULLS LAST');
  const key = sort.sortBy === 'relevance' ? sql`score` : SORT_KEYS[sort.sortBy];
  const rows = await prisma.$queryRaw<{ id: string | null; score: number | null; total: number }[]>`
    WITH t AS (SELECT s.*, ${setOf('shop_apps', 'appId', S)} AS apps, ${setOf('shop_technologies', 'technologyId', S)} AS techs,
                      ${setOf('shop_pixels', 'pixelId', S)} AS pixels FROM "shops" s WHERE s."id" = ${shopId}::uuid),
    scored AS MATERIALIZED (SELECT s."id"::text AS id, ${SCORE} AS score FROM "shops" s, t WHERE s."id" <> t."id" AND s."categoryIds" && t."categoryIds"),
    ordered AS (SELECT x.id, x.score, ${sort.sortBy === 'relevance' ? sql`x.score` : sql`(SELECT ${key} FROM "shops" s WHERE s."id" = x.id::uuid)`} AS k FROM scored x)
    SELECT p.id, p.score, c.total FROM (SELECT count(*)::int AS total FROM scored) c
    LEFT JOIN LATERAL (SELECT * FROM ordered ORDER BY k ${direction}, score DESC, id LIMIT ${page.limit} OFFSET ${page.offset}) p ON TRUE
    ORDER BY p.k ${direction}, p.score DESC, p.id`;
  return { exists: true, rows: rows.flatMap((row) => (row.id === null ? [] : [{ id: row.id, score: row.score ?? 0 }])), total: rows[0]?.total ?? 0 };
}
