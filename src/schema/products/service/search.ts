import type { Context } from '../../../context.js';
import { Prisma } from '../../../generated/prisma/client.js';
import { checkCursor, findPage, inBulkExport, searchBounds, tsQuery as textQuery, type CursorPageOf, type CursorRequest, type KeysetKey } from '../../shared/list.js';
import { range, type Range } from '../../shared/ranges.js';
import { shopUsesApps, shopUsesPixels } from '../../shared/shop-facets.js';
import { requireEuAccess } from '../eu-access.js';
import { EU_CPM_USD, withView } from '../figures.js';
import type { ProductRow } from '../types.js';
import { inlineProducts, productsByIds } from './by-ids.js';
import { exportedProducts } from './export.js';

// The products list engine (GET /v1/products, POST /v1/products/query): the filter's conditions and each sort's
// keyset keys. Keys never hold a null
// (a missing value is coalesced to one that sorts it last in the requested direction), so a row comparison on them
// continues a page exactly; migration 0012 indexes the keys of every default order.

const sql = Prisma.sql;

export type ProductSortBy = 'relevance' | 'best-selling' | 'newest' | 'est-sales' | 'active-ads' | 'ad-pressure' | 'spend' | 'spend-14d';
export type SearchField = 'productName' | 'description' | 'shopName';

export type ProductFilter = {
  search?: { websearch: string; exclude: string[]; fields: SearchField[] } | null;
  shopId?: string | null;
  cpm: number;
  subscription?: 'subscription' | 'one-time' | null;
  published?: Range<Date>;
  promoTypes?: string[] | null;
  currencies?: string[] | null;
  shopCountries?: string[] | null;
  sellingCountries?: string[] | null;
  mainSellingCountries?: string[] | null;
  excludeSellingCountries?: string[] | null;
  shopVisitorCountries?: string[] | null;
  sellingCountriesBasis: 'adCount' | 'reach';
  categoryIds?: number[] | null;
  shopCreated?: Range<Date>;
  pixelIds?: string[] | null;
  shopifyAppIds?: number[] | null;
  themeIds?: string[] | null;
  adsLaunched?: Range<number> & { period: '7d' | '14d' | '30d' | 'all' };
  partnership?: boolean | null;
  priceUsd?: Range<number>;
  rating?: Range<number>;
  reviewCount?: Range<number>;
  bestSellerRank?: Range<number>;
  monthlyRevenueUsd?: Range<number>;
  monthlyUnitsSold?: Range<number>;
  activeAds?: Range<number>;
  adShare?: Range<number>;
  euAdSpendUsd?: Range<number>;
  spendShare?: Range<number>;
  shopMonthlyVisits?: Range<number>;
  /** Percent, as the API takes it (the shop stores a fraction). */
  shopTrafficGrowth30d?: Range<number>;
  shopProductsCount?: Range<number>;
};

export type ProductSort = { sortBy: ProductSortBy; order: 'asc' | 'desc' };

export const FROM = sql`FROM "products" p LEFT JOIN "shops" s ON s."id" = p."shopId"`;

const ADS_LAUNCHED = { '7d': sql`p."adsLaunched7d"`, '14d': sql`p."adsLaunched14d"`, '30d': sql`p."adsLaunched30d"`, all: sql`p."totalAds"` };

const tsQuery = (websearch: string) => textQuery({ websearch });

/** The query's words as a tsquery: the alternatives, and none of the excluded words. */
function productTsQuery(search: NonNullable<ProductFilter['search']>): Prisma.Sql {
  const excluded = search.exclude.map((word) => sql`!!plainto_tsquery('simple', ${word})`);
  const parts = [...(search.websearch ? [tsQuery(search.websearch)] : []), ...excluded];
  return sql`(${Prisma.join(parts, ' && ')})`;
}

function searchCondition(search: NonNullable<ProductFilter['search']>): Prisma.Sql {
  const query = productTsQuery(search);
  const byField: Record<SearchField, Prisma.Sql> = {
    productName: sql`p."searchTitle" @@ ${query}`,
    description: sql`p."searchDescription" @@ ${query}`,
    shopName: sql`s."searchText" @@ ${query}`,
  };
  return sql`(${Prisma.join(search.fields.map((field) => byField[field]), ' OR ')})`;
}

/** Countries a product sells in: where its ads run (adCount) or where its EU ads reach (reach). */
function sellingIn(countries: string[], basis: ProductFilter['sellingCountriesBasis']): Prisma.Sql {
  if (basis === 'adCount') return sql`p."sellingCountries" && ${countries}::text[]`;
  const wanted = countries.map((countryCode) => JSON.stringify([{ countryCode }]));
  return sql`(${Prisma.join(wanted.map((json) => sql`p."euReachByCountry" @> ${json}::jsonb`), ' OR ')})`;
}

function mainSellingIn(countries: string[], basis: ProductFilter['sellingCountriesBasis']): Prisma.Sql {
  return basis === 'adCount'
    ? sql`p."mainSellingCountry" = ANY(${countries}::text[])`
    : sql`(p."euReachByCountry" -> 0 ->> 'countryCode') = ANY(${countries}::text[])`;
}

export function conditions(filter: ProductFilter): Prisma.Sql[] {
  const out: Prisma.Sql[] = [];
  if (filter.search) out.push(searchCondition(filter.search));
  if (filter.shopId) out.push(sql`p."shopId" = ${filter.shopId}::uuid`);
  if (filter.subscription) out.push(sql`p."isSubscription" = ${filter.subscription === 'subscription'}`);
  range(sql`p."publishedAt"`, filter.published, out);
  if (filter.promoTypes?.length) out.push(sql`p."promoTypes" && ${filter.promoTypes}::text[]`);
  if (filter.currencies?.length) out.push(sql`p."currency" = ANY(${filter.currencies}::text[])`);
  if (filter.shopCountries?.length) out.push(sql`s."countryCode" = ANY(${filter.shopCountries}::text[])`);
  if (filter.sellingCountries?.length) out.push(sellingIn(filter.sellingCountries, filter.sellingCountriesBasis));
  if (filter.mainSellingCountries?.length) out.push(mainSellingIn(filter.mainSellingCountries, filter.sellingCountriesBasis));
  if (filter.excludeSellingCountries?.length) out.push(sql`NOT ${sellingIn(filter.excludeSellingCountries, filter.sellingCountriesBasis)}`);
  if (filter.shopVisitorCountries?.length) {
    out.push(sql`EXISTS (SELECT 1 FROM "shop_traffic_countries" c WHERE c."shopId" = p."shopId" AND c."countryCode" = ANY(${filter.shopVisitorCountries}::text[]))`);
  }
  if (filter.categoryIds?.length) out.push(sql`p."categoryIds" && ${filter.categoryIds}::int[]`);
  range(sql`s."createdAt"`, filter.shopCreated, out);
  if (filter.pixelIds?.length) out.push(shopUsesPixels('s', filter.pixelIds));
  if (filter.shopifyAppIds?.length) out.push(shopUsesApps('s', filter.shopifyAppIds));
  if (filter.themeIds?.length) out.push(sql`s."themeId" = ANY(${filter.themeIds}::uuid[])`);
  if (filter.adsLaunched) range(ADS_LAUNCHED[filter.adsLaunched.period], filter.adsLaunched, out);
  if (filter.partnership != null) out.push(sql`p."hasPartnershipAds" = ${filter.partnership}`);
  if (filter.priceUsd && (filter.priceUsd.min != null || filter.priceUsd.max != null)) out.push(sql`p."priceUsd" > 0`);
  range(sql`p."priceUsd"`, filter.priceUsd, out);
  range(sql`p."rating"`, filter.rating, out);
  range(sql`p."reviewCount"`, filter.reviewCount, out);
  range(sql`p."bestSellerPercentile"`, filter.bestSellerRank, out);
  range(sql`p."monthlyRevenueUsd"`, filter.monthlyRevenueUsd, out);
  range(sql`p."monthlyUnitsSold"`, filter.monthlyUnitsSold, out);
  range(sql`p."activeAds"`, filter.activeAds, out);
  range(sql`p."adShare"`, filter.adShare, out);
  range(sql`p."euSpendUsd" * ${filter.cpm / EU_CPM_USD}::float8`, filter.euAdSpendUsd, out);
  range(sql`p."spendShare"`, filter.spendShare, out);
  range(sql`s."monthlyVisits"`, filter.shopMonthlyVisits, out);
  const growth = filter.shopTrafficGrowth30d;
  if (growth) range(sql`s."trafficGrowth30d"`, { min: growth.min == null ? null : growth.min / 100, max: growth.max == null ? null : growth.max / 100 }, out);
  range(sql`s."productsCount"`, filter.shopProductsCount, out);
  return out;
}

/** A key that is never null: a missing value sorts last in either direction. */
function lastWhenMissing(column: Prisma.Sql, type: 'int4' | 'timestamptz', direction: 'ASC' | 'DESC'): KeysetKey {
  const missing = type === 'int4' ? (direction === 'ASC' ? sql`2147483647` : sql`-1`) : direction === 'ASC' ? sql`'infinity'::timestamptz` : sql`'-infinity'::timestamptz`;
  return { key: sql`coalesce(${column}, ${missing})`, type };
}

/** Best sellers: each shop's best seller first, the higher monthly revenue first among the same position. */
function bestSelling(direction: 'ASC' | 'DESC'): KeysetKey[] {
  return [lastWhenMissing(sql`p."bestSellerPosition"`, 'int4', direction), { key: sql`(-p."monthlyRevenueUsd")`, type: 'float8' }];
}

/** The keys (before the id) and their direction for a sort. */
function sortKeys(filter: ProductFilter, sort: ProductSort): { keys: KeysetKey[]; direction: 'ASC' | 'DESC' } {
  const direction = sort.order === 'asc' ? 'ASC' : 'DESC';
  switch (sort.sortBy) {
    case 'relevance':
      if (!filter.search) return { keys: bestSelling(direction), direction };
      return { keys: [{ key: sql`ts_rank(p."searchTitle", ${productTsQuery(filter.search)})`, type: 'float8' }], direction };
    case 'best-selling':
      return { keys: bestSelling(direction), direction };
    case 'newest':
      return { keys: [lastWhenMissing(sql`p."publishedAt"`, 'timestamptz', direction)], direction };
    case 'est-sales':
      return { keys: [{ key: sql`p."monthlyRevenueUsd"`, type: 'float8' }], direction };
    case 'active-ads':
      return { keys: [{ key: sql`p."activeAds"`, type: 'int4' }], direction };
    case 'ad-pressure':
      return { keys: [{ key: sql`p."adShare"`, type: 'float8' }], direction };
    case 'spend':
      return { keys: [{ key: sql`p."euSpendUsd"`, type: 'float8' }], direction };
    case 'spend-14d':
      return { keys: [{ key: sql`p."euSpend14dUsd"`, type: 'float8' }], direction };
  }
}

/** The default order of each sort: ascending for best-selling (position 1 first), descending otherwise. */
export function defaultOrder(sortBy: ProductSortBy, search: boolean): 'asc' | 'desc' {
  return sortBy === 'best-selling' || (sortBy === 'relevance' && !search) ? 'asc' : 'desc';
}

/**
 * The count's bounds (findPage's cursor style, KeysetListQuery.count): the matches of an index-narrowed query (one shop, a text search) are
 * counted up to every searchable list's bound (searchBounds.totalCap, shared/list.ts); any other filter set
 * is counted among the first COUNT_WINDOW products of its order (a thousand index entries read, as cheap at a
 * million products as at ten thousand), and beyond them `total` is a lower bound (`gte`).
 */
export const COUNT_WINDOW = 1_000;


/**
 * A cursor page of products by keyset, its count and (for the product type's own selection, `select`) its rows in
 * one statement, in order. EU/UK filters or sorts (`euFields`) below the Pro plan are refused (403) before anything
 * else; without them the plan only decides what rows show.
 */
export async function searchProducts(context: Context, select: object, filter: ProductFilter, sort: ProductSort, page: CursorRequest, euFields: string[]): Promise<CursorPageOf<ProductRow>> {
  const checked = euFields.length ? await requireEuAccess(context, euFields) : null;
  const { keys, direction } = sortKeys(filter, sort);
  const count = filter.shopId || filter.search ? ({ by: 'matches', cap: searchBounds.totalCap } as const) : ({ by: 'window', rows: COUNT_WINDOW } as const);
  const list = { id: sql`p."id"`, from: FROM, where: conditions(filter), keys, direction, count, digestOf: { filter, sort }, page };
  // A cursor this query did not hand out is refused before any statement (the plan read below included).
  checkCursor(list);
  // A bulk export writes the rows as the caller's plan shows them: it needs the plan's answer first.
  const known = checked ?? (inBulkExport() ? await requireEuAccess(context, euFields) : null);
  const exported = known === null ? undefined : exportedProducts({ cpm: filter.cpm, euAccess: known });
  const [euAccess, found] = await Promise.all([
    known ?? requireEuAccess(context, euFields),
    findPage(context.pool, { ...list, rows: { inline: inlineProducts(select), load: (ids) => productsByIds(context.prisma, ids, select), exported } }),
  ]);
  return { data: withView(found.data, { cpm: filter.cpm, euAccess }), pagination: found.pagination };
}
