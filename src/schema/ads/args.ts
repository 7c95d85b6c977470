import type { InputShapeFromFields } from '@pothos/core';
import { z } from 'zod';
import { builder } from '../builder.js';
import { languageCode } from '../shared/codes.js';
import { countries, countryFilterInput } from '../shared/countries.js';
import { KeywordMode, SortOrder } from '../shared/enums.js';
import { AdReachGrowthFilter, AdsGrowthFilter, growthFilter, PageReachGrowthFilter, TrafficGrowthFilter } from '../shared/growth-filter.js';
import { pageArgs, pageRequest, termsOf } from '../shared/list.js';
import { amount, bigCount, count } from '../shared/ranges.js';
import { daysAgo, endOfDay } from '../shared/time.js';
import { notSupportedYet } from '../shared/unsupported.js';
import type { AdFilter, AdSort, RankFilter } from './service/search.js';
import {
  AdListSort, AdMediaTypeFilter, AdPlatform, AdQueryPlatform, AdQuerySearchType, AdQuerySort, AdSearchType, AdStatusFilter, AdsTimePeriod,
  AudienceGender, DEFAULT_CPM, ReachPeriod,
} from './types.js';

// The arguments of the ads routes, their validation, and their reading into the lists' filter, sort and page
// (service/search.ts runs them).

/** An ad id as sent (`facebook_<number>`, or the bare number). */
export const adIdArg = z.string().min(1).max(128);

/** An ad id as the API shows it, or a bare Meta ad number (read as a Facebook ad). */
export function normaliseAdId(adId: string): string {
  return /^\d+$/.test(adId) ? `facebook_${adId}` : adId;
}

/** Up to `max` strings of 1..500 characters (labels, URLs, ids). */
export const strings = (max: number) => z.array(z.string().min(1).max(500)).max(max);
/** Facet values (GET /v1/facets/*): UUIDs of themes and pixels, numeric ids of Shopify apps. */
const facetUuids = z.array(z.uuid('{name} must be UUIDs')).max(50);
const appIds = z.array(count).max(50);
/** 12-character MD5 prefixes of ad copy. */
export const adCopyHashes = z.array(z.string().regex(/^[0-9a-fA-F]{12}$/, '{name} must be 12-character hexadecimal MD5 prefixes')).max(100);
const searchText = z.string().trim().min(1).max(500);
/** The technology slugs the reference lists for the ads index. */
export const AD_TECHNOLOGIES = [
  'checkoutchamp', 'clickfunnels', 'funnelish', 'gempages', 'magento', 'odoo', 'pagefly', 'prestashop', 'shopify', 'shoplazza', 'shopline',
  'squarespace', 'wheelio', 'wix', 'woocommerce', 'wordpress', 'zipify-pages',
] as const;
const oneOf = <T extends readonly [string, ...string[]]>(values: T) => z.enum(values, { message: `{name} must be one of the following values: ${values.join(', ')}` });
const technologySlugs = z.array(oneOf(AD_TECHNOLOGIES)).max(AD_TECHNOLOGIES.length);
const CURRENCIES = new Set(Intl.supportedValuesOf('currency'));
const currencyCodes = z.array(z.string().transform((code) => code.trim().toUpperCase()).refine((code) => CURRENCIES.has(code), '{name} must be ISO 4217 currency codes')).max(50);
const rating = z.number().min(0).max(5);

// The input objects of POST /v1/ads/query.

export const CountryFilterInput = countryFilterInput('CountryFilterInput', 'ISO 3166-1 alpha-2 country codes to include and/or exclude.');

export const MarketFilterInput = builder.inputType('MarketFilterInput', {
  fields: (t) => ({
    main: t.stringList({ description: 'Countries that must be the primary market (EU/UK transparency data).', validate: countries }),
    among: t.stringList({ description: 'Countries that may appear among the markets.', validate: countries }),
    exclude: t.stringList({ description: 'Countries to exclude from the markets.', validate: countries }),
  }),
});

export const RankDirection = builder.enumType('RankDirection', { values: ['rising', 'falling', 'stable'] as const });
export const AdRankMode = builder.enumType('AdRankMode', { values: ['percentile', 'rank'] as const });
export const AdRankBasis = builder.enumType('AdRankBasis', { values: ['current', 'alltime'] as const });

const GrowthRankRuleInput = builder.inputType('GrowthRankRuleInput', {
  fields: (t) => ({
    direction: t.field({ type: RankDirection, required: true }),
    period: t.string({ description: 'A rank-delta window (7d, 14d, 30d); used when every rule names the same one.' }),
    minChange: t.float({ description: 'Accepted for forward compatibility; use minRankDelta.' }),
    unit: t.string({ description: 'Accepted for forward compatibility.' }),
  }),
});
const GrowthRankGroupInput = builder.inputType('GrowthRankGroupInput', {
  fields: (t) => ({ all: t.field({ type: [GrowthRankRuleInput], required: true }) }),
});
export const GrowthRankFilterInput = builder.inputType('GrowthRankFilterInput', {
  description: 'Rank trend: every direction named in any rule is accepted (ORed); grouping, minChange and unit are ignored.',
  fields: (t) => ({ anyOf: t.field({ type: [GrowthRankGroupInput], required: true }) }),
});

/** GET /v1/ads. */
export const adsArgs = () =>
  builder.args((t) => ({
    search: t.string({ description: 'Text query (required unless the deprecated `query` is sent).' }),
    query: t.string({ deprecationReason: 'Use search.' }),
    searchType: t.field({ type: AdSearchType, defaultValue: 'adCopy' }),
    platform: t.field({ type: AdPlatform, description: 'Meta/Facebook only; all returns Meta ads too.' }),
    status: t.field({ type: AdStatusFilter }),
    mediaType: t.field({ type: AdMediaTypeFilter }),
    sortBy: t.field({ type: AdListSort, defaultValue: 'relevance' }),
    ...pageArgs({ defaultLimit: 25, maxLimit: 100 }),
  }));

/**
 * GET /v1/ads needs `search` or its deprecated alias `query`, not both. looseObject: the validated value replaces
 * the arguments, so the other arguments (page, limit, sortBy, …) must pass through.
 */
export const adsArgsRule = z
  .looseObject({ search: searchText.nullish(), query: searchText.nullish() })
  .superRefine((args, ctx) => {
    if (args.search != null && args.query != null) {
      ctx.addIssue({ code: 'custom', path: ['query'], message: '{name} must not be sent together with search (query is a deprecated alias of search)' });
    } else if (args.search == null && args.query == null) {
      ctx.addIssue({ code: 'custom', path: ['search'], message: '{name} should not be empty' });
    }
  });

/** POST /v1/ads/query: every field optional. */
export const adsQueryArgs = () =>
  builder.args((t) => ({
    search: t.stringList({ description: 'Search terms, combined by keywordMode.', validate: strings(50) }),
    searchType: t.field({ type: AdQuerySearchType, defaultValue: 'adCopy' }),
    keywordMode: t.field({ type: KeywordMode, defaultValue: 'any' }),
    sortBy: t.field({ type: AdQuerySort, description: 'Default relevance with search terms, newest otherwise.' }),
    order: t.field({ type: SortOrder, description: 'Ignored for relevance, which is always descending.' }),
    page: t.int({ defaultValue: 1, validate: z.number().int().min(1) }),
    limit: t.int({ defaultValue: 25, validate: z.number().int().min(1).max(100) }),
    platforms: t.field({ type: [AdQueryPlatform] }),
    mediaType: t.field({ type: AdMediaTypeFilter }),
    status: t.field({ type: AdStatusFilter }),
    createdAfter: t.field({ type: 'Date', description: 'First seen on or after this date.' }),
    createdBefore: t.field({ type: 'Date', description: 'First seen on or before this date.' }),
    adsTimePeriod: t.field({ type: AdsTimePeriod, description: 'First-seen window when createdAfter is omitted.' }),
    minLastSeenDate: t.field({ type: 'Date' }),
    maxLastSeenDate: t.field({ type: 'Date' }),
    minDaysRunning: t.int({ validate: count }),
    maxDaysRunning: t.int({ validate: count }),
    minFbPageCreationDate: t.field({ type: 'Date' }),
    maxFbPageCreationDate: t.field({ type: 'Date' }),
    minDuplicates: t.int({ validate: count }),
    maxDuplicates: t.int({ validate: count }),
    adLanguage: t.stringList({ validate: strings(50) }),
    cta: t.stringList({ validate: strings(50) }),
    landingPages: t.stringList({ validate: strings(50) }),
    hideLowReach: t.boolean(),
    hideNonEuUkAds: t.boolean(),
    trackedPages: t.stringList({ description: 'Facebook page ids.', validate: strings(100) }),
    partners: t.boolean({ description: 'true: partnership ads only; false: non-partnership only.' }),
    maxAdOrder: t.int({ validate: z.number().int().min(1) }),
    minReach: t.float({ validate: bigCount }),
    maxReach: t.float({ validate: bigCount }),
    reachPeriod: t.field({ type: ReachPeriod, description: 'Window of minReach/maxReach and of a reach sort; filters nothing alone.' }),
    minSpend: t.float({ validate: amount }),
    maxSpend: t.float({ validate: amount }),
    spendPeriod: t.field({ type: ReachPeriod, description: 'Window of minSpend/maxSpend; filters nothing alone.' }),
    cpm: t.float({ description: 'EUR per 1,000 reach for spend filters and estimatedSpend (default 9).', validate: z.number().min(0.01).max(10000) }),
    minAge: t.int({ validate: z.number().int().min(13).max(65) }),
    maxAge: t.int({ validate: z.number().int().min(13).max(65) }),
    sex: t.field({ type: AudienceGender }),
    adCountries: t.field({ type: CountryFilterInput }),
    mainCountries: t.stringList({ validate: countries }),
    minDescriptionLength: t.int({ validate: count }),
    maxDescriptionLength: t.int({ validate: count }),
    adCopyHashes: t.stringList({ description: '12-character MD5 prefixes of ad copy.', validate: adCopyHashes }),
    market: t.field({ type: MarketFilterInput }),
    minReachPerPage: t.float({ validate: bigCount }),
    maxReachPerPage: t.float({ validate: bigCount }),
    reachPerPagePeriod: t.field({ type: ReachPeriod, description: 'Window of minReachPerPage/maxReachPerPage; filters nothing alone.' }),
    minSpendPerPage: t.float({ validate: amount }),
    maxSpendPerPage: t.float({ validate: amount }),
    spendPerPagePeriod: t.field({ type: ReachPeriod, description: 'Window of minSpendPerPage/maxSpendPerPage; filters nothing alone.' }),
    minAds: t.int({ description: "The advertiser's ads: launched within adsTimePeriod when it is set, else live.", validate: count }),
    maxAds: t.int({ validate: count }),
    maxAdsPerBrand: t.int({ validate: z.number().int().min(1).max(100) }),
    minTraffic: t.int({ description: "Monthly visits of the advertiser's primary shop.", validate: count }),
    maxTraffic: t.int({ validate: count }),
    minProducts: t.int({ validate: count }),
    maxProducts: t.int({ validate: count }),
    categoryIds: t.intList({ description: 'Google product taxonomy ids of the primary shop.', validate: z.array(z.number().int().min(1)).max(50) }),
    themes: t.stringList({ description: 'Theme ids (GET /v1/facets/themes) of the primary shop.', validate: facetUuids }),
    pixels: t.stringList({ description: 'Pixel ids (GET /v1/facets/pixels): the primary shop uses one of them.', validate: facetUuids }),
    excludePixels: t.stringList({ description: 'Pixel ids the primary shop must not use.', validate: facetUuids }),
    shopifyApps: t.intList({ description: 'Shopify app ids (GET /v1/facets/shopify-apps): the primary shop uses one of them.', validate: appIds }),
    excludeShopifyApps: t.intList({ description: 'Shopify app ids the primary shop must not use.', validate: appIds }),
    adRankMode: t.field({ type: AdRankMode, defaultValue: 'rank' }),
    adRankBasis: t.field({ type: AdRankBasis, defaultValue: 'current' }),
    maxAdRankValue: t.float({ description: 'Best rank (or percentile, with adRankMode percentile) to keep.', validate: z.number().min(0).max(2_147_483_647) }),
    rankDeltaWindow: t.string({ description: 'Rank-delta window of minRankDelta and growthRank: 7d, 14d or 30d.', validate: z.enum(['7d', '14d', '30d'], { message: '{name} must be one of the following values: 7d, 14d, 30d' }) }),
    minRankDelta: t.int({ description: 'Minimum rank improvement over the rank-delta window.' }),
    growthRank: t.field({ type: GrowthRankFilterInput }),
    hideDecliningRankAds: t.boolean(),
    minFacebookLikes: t.int({ validate: count }),
    maxFacebookLikes: t.int({ validate: count }),
    minInstagramFollowers: t.int({ validate: count }),
    maxInstagramFollowers: t.int({ validate: count }),
    minVideoDuration: t.float({ description: 'Video length in seconds (video ads).', validate: amount }),
    maxVideoDuration: t.float({ validate: amount }),
    partnerIds: t.stringList({ description: 'Creator page ids of partnership ads: the ad is a partnership ad with one of them.', validate: strings(100) }),
    spender: t.string({
      description: "The advertiser's spender segment: big-spender or rising-star; brandtracker: a page some brandtracker tracks.",
      validate: oneOf(['big-spender', 'rising-star', 'brandtracker']),
    }),
    technologies: t.stringList({ description: 'Technology slugs (GET /v1/facets/technologies): the primary shop uses one of them.', validate: technologySlugs }),
    creationCountry: t.field({ type: CountryFilterInput, description: "The country the advertiser's primary shop is based in (ISO 3166-1 alpha-2); exclude keeps advertisers without one." }),
    languages: t.stringList({ description: "Default storefront language of the primary shop: ISO 639-1 codes or English names.", validate: z.array(languageCode).max(50) }),
    currencies: t.stringList({ description: 'Default currency of the primary shop (ISO 4217).', validate: currencyCodes }),
    shopifyPlus: t.string({ description: 'plus: the primary shop is on Shopify Plus; non-plus: it is not; all: no filter.', validate: oneOf(['plus', 'non-plus', 'all']) }),
    minTrustpilotScore: t.float({ description: "Trustpilot rating (0..5) of the primary shop.", validate: rating }),
    maxTrustpilotScore: t.float({ validate: rating }),
    minTrustpilotReviews: t.int({ description: 'Trustpilot review count of the primary shop.', validate: count }),
    maxTrustpilotReviews: t.int({ validate: count }),
    minBestSellerPrice: t.float({ description: "Price (USD) of the primary shop's best-selling product.", validate: amount }),
    maxBestSellerPrice: t.float({ validate: amount }),
    hideSavedAds: t.boolean({ description: "true: leave out the ads the caller saved (the workspace's favorites and board items, and a delegated user's personal ones), with their duplicates." }),
    minDate: t.field({ type: 'Date', description: 'Not supported by this server yet (a validation_error).', validate: notSupportedYet }),
    maxDate: t.field({ type: 'Date', description: 'Not supported by this server yet (a validation_error).', validate: notSupportedYet }),
    trafficGrowth: t.field({ type: TrafficGrowthFilter, validate: growthFilter }),
    adsGrowth: t.field({ type: AdsGrowthFilter, validate: growthFilter }),
    pageReachGrowth: t.field({ type: PageReachGrowthFilter, validate: growthFilter }),
    adReachGrowth: t.field({ type: AdReachGrowthFilter, validate: growthFilter }),
  }));

export type AdsArgs = InputShapeFromFields<ReturnType<typeof adsArgs>>;
export type AdsQueryArgs = InputShapeFromFields<ReturnType<typeof adsQueryArgs>>;

// The arguments of the ads lists as the list's filter, sort and page.

const PERIOD_DAYS = { last24h: 1, last7d: 7, last30d: 30 } as const;
const startOfPeriod = (period: keyof typeof PERIOD_DAYS) => daysAgo(PERIOD_DAYS[period]);

const WINDOWS = { '7d': 7, '14d': 14, '30d': 30 } as const;

/** GET /v1/ads: one search string (or its deprecated alias `query`), a few filters. */
export function filterFromListArgs(args: AdsArgs) {
  const filter: AdFilter = { search: { websearch: (args.search ?? args.query)!, type: args.searchType ?? 'adCopy' }, status: args.status, mediaType: args.mediaType };
  const sort: AdSort = { sortBy: args.sortBy ?? 'relevance' };
  return { filter, sort, page: pageRequest(args, 25), cpm: DEFAULT_CPM };
}

function rankFilter(args: AdsQueryArgs): RankFilter {
  const rules = (args.growthRank?.anyOf ?? []).flatMap((group) => group.all);
  const periods = new Set(rules.map((rule) => rule.period));
  const rulePeriod = periods.size === 1 ? [...periods][0] : undefined;
  const requested = args.rankDeltaWindow ?? rulePeriod;
  const window = requested && requested in WINDOWS ? (requested as keyof typeof WINDOWS) : '7d';
  return {
    window: WINDOWS[window],
    minDelta: args.minRankDelta,
    directions: rules.length ? [...new Set(rules.map((rule) => rule.direction))] : null,
    hideDeclining: args.hideDecliningRankAds,
    max: args.maxAdRankValue != null ? { value: args.maxAdRankValue, mode: args.adRankMode ?? 'rank', basis: args.adRankBasis ?? 'current' } : null,
  };
}

/** Turns the POST /v1/ads/query body into the list engine's filter, sort and page. */
export function filterFromQueryArgs(args: AdsQueryArgs, caller?: { workspaceId: string; userId: string | null }) {
  const cpm = args.cpm ?? DEFAULT_CPM;
  const terms = termsOf(args.search);
  const filter: AdFilter = {
    search: terms.length ? { terms, keywordMode: args.keywordMode ?? 'any', type: args.searchType ?? 'adCopy' } : undefined,
    status: args.status,
    mediaType: args.mediaType,
    firstSeen: {
      min: args.createdAfter ?? (args.adsTimePeriod ? startOfPeriod(args.adsTimePeriod) : null),
      max: endOfDay(args.createdBefore),
    },
    lastSeen: { min: args.minLastSeenDate, max: endOfDay(args.maxLastSeenDate) },
    daysRunning: { min: args.minDaysRunning, max: args.maxDaysRunning },
    duplicates: { min: args.minDuplicates, max: args.maxDuplicates },
    reach: { min: args.minReach, max: args.maxReach, period: args.reachPeriod ?? 'total' },
    spend: { min: args.minSpend, max: args.maxSpend, period: args.spendPeriod ?? 'total', cpm },
    age: { min: args.minAge, max: args.maxAge },
    facebookLikes: { min: args.minFacebookLikes, max: args.maxFacebookLikes },
    instagramFollowers: { min: args.minInstagramFollowers, max: args.maxInstagramFollowers },
    pageCreated: { min: args.minFbPageCreationDate, max: endOfDay(args.maxFbPageCreationDate) },
    maxAdOrder: args.maxAdOrder,
    hideLowReach: args.hideLowReach,
    euOnly: args.hideNonEuUkAds,
    partnership: args.partners,
    partnerIds: args.partnerIds,
    videoDuration: { min: args.minVideoDuration, max: args.maxVideoDuration },
    spender: args.spender as AdFilter['spender'],
    hideSavedBy: args.hideSavedAds ? caller : null,
    sex: args.sex,
    adCountries: args.adCountries,
    mainCountries: args.mainCountries,
    callToActions: args.cta,
    landingPages: args.landingPages,
    advertiserIds: args.trackedPages,
    languages: args.adLanguage,
    descriptionLength: { min: args.minDescriptionLength, max: args.maxDescriptionLength },
    adCopyHashes: args.adCopyHashes,
    market: args.market,
    page: {
      reach: { min: args.minReachPerPage, max: args.maxReachPerPage, period: args.reachPerPagePeriod ?? 'total' },
      spend: { min: args.minSpendPerPage, max: args.maxSpendPerPage, period: args.spendPerPagePeriod ?? 'total', cpm },
      ads: { min: args.minAds, max: args.maxAds, since: args.adsTimePeriod ? startOfPeriod(args.adsTimePeriod) : null },
    },
    shop: {
      traffic: { min: args.minTraffic, max: args.maxTraffic },
      products: { min: args.minProducts, max: args.maxProducts },
      categoryIds: args.categoryIds,
      themes: args.themes,
      pixels: args.pixels,
      excludePixels: args.excludePixels,
      shopifyApps: args.shopifyApps,
      excludeShopifyApps: args.excludeShopifyApps,
      technologies: args.technologies,
      country: args.creationCountry,
      languages: args.languages,
      currencies: args.currencies,
      shopifyPlus: args.shopifyPlus === 'plus' ? true : args.shopifyPlus === 'non-plus' ? false : null,
      trustpilotRating: { min: args.minTrustpilotScore, max: args.maxTrustpilotScore },
      trustpilotReviews: { min: args.minTrustpilotReviews, max: args.maxTrustpilotReviews },
      bestSellerPrice: { min: args.minBestSellerPrice, max: args.maxBestSellerPrice },
      trafficGrowth: args.trafficGrowth,
    },
    growth: {
      ads: args.adsGrowth,
      pageReach: args.pageReachGrowth,
      adReach: args.adReachGrowth,
    },
    rank: rankFilter(args),
    maxAdsPerBrand: args.maxAdsPerBrand,
  };
  const sort: AdSort = { sortBy: args.sortBy ?? (filter.search ? 'relevance' : 'newest'), order: args.order, reachPeriod: args.reachPeriod };
  return { filter, sort, page: pageRequest(args, 25), cpm };
}
