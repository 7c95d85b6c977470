import type { InputShapeFromFields } from '@pothos/core';
import { z } from 'zod';
import { builder } from '../builder.js';
import { languageCode } from '../shared/codes.js';
import { countries } from '../shared/countries.js';
import { KeywordMode, SortOrder } from '../shared/enums.js';
import { AdReachGrowthFilter, AdsGrowthFilter, growthFilter, PageReachGrowthFilter, TrafficGrowthFilter } from '../shared/growth-filter.js';
import { pageArgs } from '../shared/pagination.js';
import { amount, bigCount, count } from '../shared/ranges.js';
import { notSupportedYet } from '../shared/unsupported.js';
import {
  AdListSort, AdMediaTypeFilter, AdPlatform, AdQueryPlatform, AdQuerySearchType, AdQuerySort, AdSearchType, AdStatusFilter, AdsTimePeriod,
  AudienceGender, ReachPeriod,
} from './enums.js';
import { AdRankBasis, AdRankMode, CountryFilterInput, GrowthRankFilterInput, MarketFilterInput } from './inputs.js';

// The arguments of the ads routes and their validation; filter.ts turns them into the list's filter.

/** An ad id as sent (`facebook_<number>`, or the bare number). */
export const adIdArg = z.string().min(1).max(128);

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
