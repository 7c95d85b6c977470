import type { Context } from '../../../context.js';
import { newestHistoryDays } from '../../../db/partitions.js';
import { Prisma } from '../../../generated/prisma/client.js';
import { findPage, tsQuery, type OffsetPageOf, type OffsetRequest, type OrderKey } from '../../shared/list.js';
import { range, type Range } from '../../shared/ranges.js';
import { shopInCategories, shopUsesApps, shopUsesPixels, shopUsesTechnologies } from '../../shared/shop-facets.js';
import { GROWTH_PERIOD_DAYS, type GrowthCondition } from '../../shared/growth-filter.js';
import { mainTikTokProfile, shopAds } from './figures-loader.js';
import { shopsByIds } from './find.js';
import { growthConditions } from './growth.js';
import { EXPORTED_SHOPS } from './export.js';

// The shops list engine (GET /v1/shops, POST /v1/shops/query): SQL finds the page of shop ids and the total of
// matches (findPage, shared/list.ts); Prisma then loads the fields the request selected for those ids.

export type AdsPeriod = 'last24h' | 'last7d' | 'last30d';
export type ShopSearch = { text: string; type: 'broad' | 'domain' | 'shopContains' | 'productName' };
export type ShopSortValue =
  | 'relevance' | 'monthlyVisits' | 'activeAds' | 'growth30d' | 'productsCount' | 'createdAt'
  | 'tiktokFollowers' | 'tiktokActiveAds' | 'tiktokTotalPosts' | 'tiktokAvgActiveAds7d' | 'tiktokAvgActiveAds30d';
export type ShopSort = { sortBy: ShopSortValue; order: 'asc' | 'desc'; adsPeriod: AdsPeriod };

export type ShopFilter = {
  search?: ShopSearch | null;
  ids?: string[] | null;
  excludeIds?: string[] | null;
  categoryIds?: number[] | null;
  excludeCategoryIds?: number[] | null;
  shopifyAppIds?: number[] | null;
  excludeShopifyAppIds?: number[] | null;
  pixelIds?: string[] | null;
  excludePixelIds?: string[] | null;
  technologies?: string[] | null;
  excludeTechnologies?: string[] | null;
  themeIds?: string[] | null;
  excludeThemeIds?: string[] | null;
  creationCountries?: string[] | null;
  excludeCreationCountries?: string[] | null;
  mainMarketCountries?: string[] | null;
  marketCountries?: string[] | null;
  excludeMarketCountries?: string[] | null;
  languages?: string[] | null;
  currencies?: string[] | null;
  monthlyVisits?: Range<number>;
  estimatedRevenue?: Range<number>;
  productsCount?: Range<number>;
  bestSellerPrice?: Range<number>;
  created?: Range<Date>;
  activeAds?: Range<number> & { period: AdsPeriod };
  hasTikTok?: boolean | null;
  tiktokFollowers?: Range<number>;
  tiktokActiveAds?: Range<number>;
  tiktokTotalPosts?: Range<number>;
  isShopifyPlus?: boolean | null;
  displayInTrending?: boolean | null;
  dtcRegion?: 'all' | 'us' | 'eu' | null;
  trustpilotRating?: Range<number>;
  trustpilotReviews?: Range<number>;
  trafficGrowth?: GrowthCondition[] | null;
  adsGrowth?: GrowthCondition[] | null;
  pageReachGrowth?: GrowthCondition[] | null;
  adReachGrowth?: GrowthCondition[] | null;
};

const sql = Prisma.sql;
export const S = sql`s."id"`;
const EU = ['AT', 'BE', 'BG', 'HR', 'CY', 'CZ', 'DK', 'EE', 'FI', 'FR', 'DE', 'GR', 'HU', 'IE', 'IT', 'LV', 'LT', 'LU', 'MT', 'NL', 'PL', 'PT', 'RO', 'SK', 'SI', 'ES', 'SE'];

/** The hosts a domain search tries: the host itself and its parent domains ("a.shop.com" → a.shop.com, shop.com). */
export function domainCandidates(host: string): string[] {
  const labels = host.split('.').filter(Boolean);
  return labels.slice(0, -1).map((_, index) => labels.slice(index).join('.'));
}

/** Active ads of the shop's pages: live now (last24h), or running at some point of the last 7 or 30 days. */
export function activeAdsOf(period: AdsPeriod): Prisma.Sql {
  const running = period === 'last24h' ? sql`a."status" = 'active'` : sql`(a."status" = 'active' OR a."lastSeenAt" >= now() - ${GROWTH_PERIOD_DAYS[period]} * interval '1 day')`;
  return sql`(SELECT count(*) FROM ${shopAds(S)} AND ${running})`;
}

const tiktok = (column: Prisma.Sql) => sql`(SELECT ${column} FROM (${mainTikTokProfile(S)}) p)`;
const snapshotAverage = (days: number) =>
  tiktok(sql`(SELECT avg(x."adsCount") FROM (${newestHistoryDays('tiktok_page_snapshots', sql`"adsCount", "date"`, sql`"profileId" = p."id"`, days)}) x)`);
const TIKTOK = {
  followers: tiktok(sql`p."followers"`),
  activeAds: tiktok(sql`(SELECT count(*) FROM "tiktok_items" i WHERE i."profileId" = p."id" AND i."type" = 'ad' AND i."status" = 'active')`),
  totalPosts: tiktok(sql`p."totalTikToks"`),
};

const linked = (table: string, column: string, values: unknown[], type: string) =>
  sql`EXISTS (SELECT 1 FROM ${Prisma.raw(`"${table}"`)} x WHERE x."shopId" = ${S} AND x.${Prisma.raw(`"${column}"`)} = ANY(${values}::${Prisma.raw(type)}))`;

function searchCondition(search: ShopSearch): Prisma.Sql {
  if (search.type === 'domain') {
    const hosts = domainCandidates(search.text);
    return sql`(s."domain" = ANY(${hosts}::text[]) OR s."relatedDomains" && ${hosts}::text[] OR s."myShopifyDomain" = ANY(${hosts}::text[]))`;
  }
  if (search.type === 'productName') {
    return sql`s."id" IN (SELECT pr."shopId" FROM "products" pr WHERE pr."searchTitle" @@ ${tsQuery({ websearch: search.text })})`;
  }
  const host = search.text.trim().toLowerCase();
  // Each alternative reaches an index (`@>` the related domains' GIN index, where `= ANY` reaches none), so that the
  // matches are a BitmapOr rather than a scan of the table testing every shop.
  return sql`(s."searchText" @@ ${tsQuery({ websearch: search.text })} OR s."domain" = ${host} OR s."relatedDomains" @> ARRAY[${host}]::text[])`;
}

/** The conditions of `f` on the shop s, none for an empty filter: the shops lists, and the emails list's sending shop. */
export function shopFilterConditions(f: ShopFilter): Prisma.Sql[] {
  const out: Prisma.Sql[] = [];
  if (f.search) out.push(searchCondition(f.search));
  if (f.ids) out.push(sql`s."id" = ANY(${f.ids}::uuid[])`);
  if (f.excludeIds?.length) out.push(sql`NOT (s."id" = ANY(${f.excludeIds}::uuid[]))`);
  if (f.categoryIds?.length) out.push(shopInCategories('s', f.categoryIds));
  if (f.excludeCategoryIds?.length) out.push(sql`NOT ${shopInCategories('s', f.excludeCategoryIds)}`);
  if (f.shopifyAppIds?.length) out.push(shopUsesApps('s', f.shopifyAppIds));
  if (f.excludeShopifyAppIds?.length) out.push(sql`NOT ${shopUsesApps('s', f.excludeShopifyAppIds)}`);
  if (f.pixelIds?.length) out.push(shopUsesPixels('s', f.pixelIds));
  if (f.excludePixelIds?.length) out.push(sql`NOT ${shopUsesPixels('s', f.excludePixelIds)}`);
  if (f.technologies?.length) out.push(shopUsesTechnologies('s', f.technologies));
  if (f.excludeTechnologies?.length) out.push(sql`NOT ${shopUsesTechnologies('s', f.excludeTechnologies)}`);
  if (f.themeIds?.length) out.push(sql`s."themeId" = ANY(${f.themeIds}::uuid[])`);
  if (f.excludeThemeIds?.length) out.push(sql`(s."themeId" IS NULL OR NOT (s."themeId" = ANY(${f.excludeThemeIds}::uuid[])))`);
  if (f.creationCountries?.length) out.push(sql`s."countryCode" = ANY(${f.creationCountries}::text[])`);
  if (f.excludeCreationCountries?.length) out.push(sql`(s."countryCode" IS NULL OR NOT (s."countryCode" = ANY(${f.excludeCreationCountries}::text[])))`);
  if (f.mainMarketCountries?.length) out.push(sql`s."mainMarket" = ANY(${f.mainMarketCountries}::text[])`);
  if (f.marketCountries?.length) out.push(linked('shop_traffic_countries', 'countryCode', f.marketCountries, 'text[]'));
  if (f.excludeMarketCountries?.length) out.push(sql`NOT ${linked('shop_traffic_countries', 'countryCode', f.excludeMarketCountries, 'text[]')}`);
  if (f.languages?.length) out.push(sql`s."defaultLanguage" = ANY(${f.languages}::text[])`);
  if (f.currencies?.length) out.push(sql`s."currency" = ANY(${f.currencies}::text[])`);
  range(sql`s."monthlyVisits"`, f.monthlyVisits, out);
  range(sql`s."monthlyRevenueUsd"`, f.estimatedRevenue, out);
  range(sql`s."productsCount"`, f.productsCount, out);
  range(sql`s."bestSellerPriceUsd"`, f.bestSellerPrice, out);
  range(sql`s."createdAt"`, f.created, out);
  if (f.activeAds) range(activeAdsOf(f.activeAds.period), f.activeAds, out);
  if (f.hasTikTok != null) out.push(sql`${f.hasTikTok ? Prisma.empty : sql`NOT`} EXISTS (SELECT 1 FROM "tiktok_profiles" p WHERE p."shopId" = ${S})`);
  range(TIKTOK.followers, f.tiktokFollowers, out);
  range(TIKTOK.activeAds, f.tiktokActiveAds, out);
  range(TIKTOK.totalPosts, f.tiktokTotalPosts, out);
  if (f.isShopifyPlus != null) out.push(sql`s."isShopifyPlus" = ${f.isShopifyPlus}`);
  if (f.displayInTrending) out.push(sql`s."displayInTrending"`);
  if (f.dtcRegion) out.push(sql`s."isDtc"`);
  if (f.dtcRegion === 'us') out.push(sql`s."countryCode" = 'US'`);
  if (f.dtcRegion === 'eu') out.push(sql`s."countryCode" = ANY(${EU}::text[])`);
  range(sql`s."trustpilotRating"`, f.trustpilotRating, out);
  range(sql`s."trustpilotReviews"`, f.trustpilotReviews, out);
  growthConditions('traffic', f.trafficGrowth, out);
  growthConditions('ads', f.adsGrowth, out);
  growthConditions('pageReach', f.pageReachGrowth, out);
  growthConditions('adReach', f.adReachGrowth, out);
  return out;
}

/** The text rank of a relevance sort over the shops' own text (how often the words occur in it). */
const textRank = (search: ShopSearch | null | undefined, sort: ShopSort) =>
  sort.sortBy === 'relevance' && search && (search.type === 'broad' || search.type === 'shopContains')
    ? sql`ts_rank(s."searchText", ${tsQuery({ websearch: search.text })})`
    : null;

function sortKey(sort: ShopSort): Prisma.Sql {
  switch (sort.sortBy) {
    case 'relevance':
    case 'monthlyVisits': return sql`s."monthlyVisits"`;
    case 'activeAds': return activeAdsOf(sort.adsPeriod);
    case 'growth30d': return sql`s."trafficGrowth30d"`;
    case 'productsCount': return sql`s."productsCount"`;
    case 'createdAt': return sql`s."createdAt"`;
    case 'tiktokFollowers': return TIKTOK.followers;
    case 'tiktokActiveAds': return TIKTOK.activeAds;
    case 'tiktokTotalPosts': return TIKTOK.totalPosts;
    case 'tiktokAvgActiveAds7d': return snapshotAverage(7);
    case 'tiktokAvgActiveAds30d': return snapshotAverage(30);
  }
}

/** The order after the text rank (a relevance sort's text rank comes first, then monthly visits). */
export function shopOrder(sort: ShopSort): OrderKey[] {
  // Monthly visits (the relevance order too) and the products count are NOT NULL: plain ASC/DESC, which their indexes serve.
  const notNull = sort.sortBy === 'relevance' || sort.sortBy === 'monthlyVisits' || sort.sortBy === 'productsCount';
  const direction = sort.order === 'asc' ? (notNull ? 'ASC' : 'ASC NULLS LAST') : notNull ? 'DESC' : 'DESC NULLS LAST';
  return [{ key: sortKey(sort), direction }, { key: S, direction: 'ASC' }];
}

const COMPUTED_SORTS = new Set<ShopSortValue>(['activeAds', 'tiktokFollowers', 'tiktokActiveAds', 'tiktokTotalPosts', 'tiktokAvgActiveAds7d', 'tiktokAvgActiveAds30d']);

export function shopConditions(filter: ShopFilter): Prisma.Sql {
  const conditions = shopFilterConditions(filter);
  return Prisma.join(conditions.length ? conditions : [sql`TRUE`], ' AND ');
}

export type ShopPage = OffsetPageOf<{ id: string }>;

/** A page of shop summaries, each loaded with `select` (Pothos' selection of a row). */
export async function searchShops(context: Pick<Context, 'prisma'>, select: object, filter: ShopFilter, sort: ShopSort, page: OffsetRequest): Promise<ShopPage> {
  return findPage(context.prisma, {
    id: sql`s."id"`,
    from: sql`FROM "shops" s WHERE ${shopConditions(filter)}`,
    order: shopOrder(sort),
    // A text search's page and total cost a bounded amount (shared/list.ts); a computed order visits every match.
    search: filter.search && filter.search.type !== 'domain' ? { rank: textRank(filter.search, sort) } : undefined,
    scansAllMatches: COMPUTED_SORTS.has(sort.sortBy),
    boundedTotal: true, // the list reports meta.totalRelation
    page,
    rows: { load: (ids) => shopsByIds<{ id: string }>(context.prisma, ids, select), exported: EXPORTED_SHOPS },
  });
}
