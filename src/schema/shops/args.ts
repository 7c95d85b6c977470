import type { InputShapeFromFields } from '@pothos/core';
import { z } from 'zod';
import { AdsTimePeriod } from '../ads/types.js';
import { builder } from '../builder.js';
import { hostOf, languageCode } from '../shared/codes.js';
import { countries } from '../shared/countries.js';
import { SortOrder } from '../shared/enums.js';
import { amount, count } from '../shared/ranges.js';
import { endOfDay } from '../shared/time.js';
import { offsetArgs } from '../shared/list.js';
import { growthConditionList, ReachGrowthCondition, type GrowthCondition } from '../shared/growth-filter.js';
import { growthArgs, trustpilotArgs } from '../shared/shop-filter-args.js';
import { DtcRegion, ShopListSort, ShopQuerySort, ShopSearchType } from './enums.js';
import type { ShopFilter, ShopSearch, ShopSort } from './service/search.js';

// Arguments of GET /v1/shops and POST /v1/shops/query, their validation, and their translation into the
// list engine's filter (service/search.ts).

const MAX_INT = 2_147_483_647;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const CURRENCIES = new Set(Intl.supportedValuesOf('currency'));

export const SHOP_LIMITS = { defaultLimit: 32, maxLimit: 100 };
const list = <T extends z.ZodType>(item: T, max = 100) => z.array(item).max(max);
const uuids = list(z.string().regex(UUID, '{name} must be UUIDs').transform((id) => id.toLowerCase()));
const ids = list(z.number().int().min(1).max(MAX_INT));
const currencies = list(z.string().transform((code) => code.trim().toUpperCase()).refine((code) => CURRENCIES.has(code), '{name} must be ISO 4217 currency codes'));

/** The filters GET /v1/shops and POST /v1/shops/query share. */
const commonArgs = () =>
  builder.args((t) => ({
    order: t.field({ type: SortOrder, defaultValue: 'desc' }),
    ...offsetArgs(SHOP_LIMITS),
    minMonthlyVisits: t.int({ validate: count }),
    maxMonthlyVisits: t.int({ validate: count }),
    minActiveAds: t.int({ description: "Active Meta ads of the shop's pages; the metric follows adsTimePeriod.", validate: count }),
    maxActiveAds: t.int({ validate: count }),
    adsTimePeriod: t.field({ type: AdsTimePeriod, defaultValue: 'last24h', description: 'last24h: live ads; last7d/last30d: ads running at some point of the window.' }),
    hasTikTok: t.boolean({ description: 'true: shops with an indexed TikTok account; false: shops without one.' }),
    minTikTokFollowers: t.int({ validate: count }),
    maxTikTokFollowers: t.int({ validate: count }),
    minTikTokActiveAds: t.int({ validate: count }),
    maxTikTokActiveAds: t.int({ validate: count }),
    minTikTokTotalPosts: t.int({ validate: count }),
    maxTikTokTotalPosts: t.int({ validate: count }),
    minProductsCount: t.int({ validate: count }),
    maxProductsCount: t.int({ validate: count }),
    createdAfter: t.field({ type: 'Date', description: 'Shop created on or after this date.' }),
    createdBefore: t.field({ type: 'Date', description: 'Shop created on or before this date.' }),
    isShopifyPlus: t.boolean(),
    categoryIds: t.intList({ description: 'Google taxonomy ids (GET /v1/facets/categories); any of them.', validate: ids }),
    pixelIds: t.stringList({ description: 'Pixel ids (GET /v1/facets/pixels); any of them.', validate: uuids }),
    excludePixelIds: t.stringList({ validate: uuids }),
    shopifyAppIds: t.intList({ description: 'Shopify app ids (GET /v1/facets/shopify-apps); any of them.', validate: ids }),
    excludeShopifyAppIds: t.intList({ validate: ids }),
    languages: t.stringList({ description: 'Default storefront languages: ISO 639-1 codes or English names.', validate: list(languageCode) }),
    currencies: t.stringList({ description: 'Default currencies (ISO 4217).', validate: currencies }),
    ...trustpilotArgs(),
  }));

export const shopListArgs = () =>
  builder.args((t) => ({
    search: t.string({ description: 'Broad: shop name, domain and related domains.', validate: z.string().max(500) }),
    sortBy: t.field({ type: ShopListSort, defaultValue: 'monthlyVisits' }),
    ...commonArgs(),
  }));

export const shopQueryArgs = () =>
  builder.args((t) => ({
    search: t.string({ description: 'A domain or URL with searchType domain; text otherwise.', validate: z.string().max(500) }),
    searchType: t.field({ type: ShopSearchType, defaultValue: 'shopContains' }),
    sortBy: t.field({ type: ShopQuerySort, defaultValue: 'relevance' }),
    ...commonArgs(),
    minEstimatedRevenue: t.float({ description: 'Estimated revenue of the last 30 days (USD).', validate: amount }),
    maxEstimatedRevenue: t.float({ validate: amount }),
    mainMarketCountries: t.stringList({ description: 'The country most visitors come from.', validate: countries }),
    marketCountries: t.stringList({ description: 'Countries among the visitor countries.', validate: countries }),
    excludeMarketCountries: t.stringList({ validate: countries }),
    minBestSellerPrice: t.float({ description: "Price (USD) of the shop's best seller.", validate: amount }),
    maxBestSellerPrice: t.float({ validate: amount }),
    ...growthArgs(),
    pageReachGrowth: t.field({ type: [ReachGrowthCondition], description: "Impressions of the shop's pages in the window against the window before.", validate: growthConditionList }),
    adReachGrowth: t.field({ type: [ReachGrowthCondition], description: "Reach of the shop's ads now against the start of the window.", validate: growthConditionList }),
    creationCountries: t.stringList({ description: 'Countries the shop is based in.', validate: countries }),
    excludeCreationCountries: t.stringList({ validate: countries }),
    displayInTrending: t.boolean({ description: 'true: shops of the trending feed only.' }),
    themeIds: t.stringList({ description: 'Theme ids (GET /v1/facets/themes).', validate: uuids }),
    excludeThemeIds: t.stringList({ validate: uuids }),
    excludeCategoryIds: t.intList({ validate: ids }),
    technologies: t.stringList({ description: 'Technology slugs (GET /v1/facets/technologies); any of them.', validate: list(z.string().min(1).max(100)) }),
    excludeTechnologies: t.stringList({ validate: list(z.string().min(1).max(100)) }),
    dtcRegion: t.field({ type: DtcRegion }),
  }));

type ListArgs = InputShapeFromFields<ReturnType<typeof shopListArgs>>;
type QueryArgs = InputShapeFromFields<ReturnType<typeof shopQueryArgs>>;

function search(text: string | null | undefined, type: ShopSearch['type']): ShopSearch | null {
  const trimmed = text?.trim();
  if (!trimmed) return null;
  return { text: type === 'domain' ? hostOf(trimmed) : trimmed, type };
}

/** Both routes' arguments as the engine's filter, sort and page. */
export function shopListFilter(args: ListArgs | QueryArgs): { filter: ShopFilter; sort: ShopSort; page: { limit: number; offset: number } } {
  const q: Partial<QueryArgs> = args;
  const period = args.adsTimePeriod ?? 'last24h';
  const filter: ShopFilter = {
    search: search(args.search, 'searchType' in args ? (args.searchType === 'domain' || args.searchType === 'productName' ? args.searchType : 'shopContains') : 'broad'),
    categoryIds: args.categoryIds, excludeCategoryIds: q.excludeCategoryIds,
    shopifyAppIds: args.shopifyAppIds, excludeShopifyAppIds: args.excludeShopifyAppIds,
    pixelIds: args.pixelIds, excludePixelIds: args.excludePixelIds,
    technologies: q.technologies, excludeTechnologies: q.excludeTechnologies,
    themeIds: q.themeIds, excludeThemeIds: q.excludeThemeIds,
    creationCountries: q.creationCountries, excludeCreationCountries: q.excludeCreationCountries,
    mainMarketCountries: q.mainMarketCountries, marketCountries: q.marketCountries, excludeMarketCountries: q.excludeMarketCountries,
    languages: args.languages, currencies: args.currencies,
    monthlyVisits: { min: args.minMonthlyVisits, max: args.maxMonthlyVisits },
    estimatedRevenue: { min: q.minEstimatedRevenue, max: q.maxEstimatedRevenue },
    productsCount: { min: args.minProductsCount, max: args.maxProductsCount },
    bestSellerPrice: { min: q.minBestSellerPrice, max: q.maxBestSellerPrice },
    created: { min: args.createdAfter, max: endOfDay(args.createdBefore) },
    activeAds: { min: args.minActiveAds, max: args.maxActiveAds, period },
    hasTikTok: args.hasTikTok,
    tiktokFollowers: { min: args.minTikTokFollowers, max: args.maxTikTokFollowers },
    tiktokActiveAds: { min: args.minTikTokActiveAds, max: args.maxTikTokActiveAds },
    tiktokTotalPosts: { min: args.minTikTokTotalPosts, max: args.maxTikTokTotalPosts },
    isShopifyPlus: args.isShopifyPlus,
    displayInTrending: q.displayInTrending,
    dtcRegion: q.dtcRegion,
    trustpilotRating: { min: args.minTrustpilotRating, max: args.maxTrustpilotRating },
    trustpilotReviews: { min: args.minTrustpilotReviewCount, max: args.maxTrustpilotReviewCount },
    trafficGrowth: q.trafficGrowth as GrowthCondition[] | undefined,
    adsGrowth: q.adsGrowth as GrowthCondition[] | undefined,
    pageReachGrowth: q.pageReachGrowth as GrowthCondition[] | undefined,
    adReachGrowth: q.adReachGrowth as GrowthCondition[] | undefined,
  };
  const sort: ShopSort = { sortBy: args.sortBy ?? 'monthlyVisits', order: args.order ?? 'desc', adsPeriod: period };
  return { filter, sort, page: { limit: args.limit ?? SHOP_LIMITS.defaultLimit, offset: args.offset ?? 0 } };
}
