import type { InputShapeFromFields } from '@pothos/core';
import { z } from 'zod';
import { builder } from '../builder.js';
import { countries } from '../shared/countries.js';
import { KeywordMode, SortOrder } from '../shared/enums.js';
import { pageArgs } from '../shared/pagination.js';
import { amount, bigCount, count } from '../shared/ranges.js';
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
  }));

export type AdsArgs = InputShapeFromFields<ReturnType<typeof adsArgs>>;
export type AdsQueryArgs = InputShapeFromFields<ReturnType<typeof adsQueryArgs>>;
