import type { InputShapeFromFields } from '@pothos/core';
import { z } from 'zod';
import { builder } from '../builder.js';
import { countries, countryFilterInput } from '../shared/countries.js';
import { KeywordMode, SortOrder } from '../shared/enums.js';
import { amount, bigCount, count } from '../shared/ranges.js';
import { termsOf } from '../shared/text-search.js';
import { daysAgo, endOfDay } from '../shared/time.js';
import { AdMediaTypeFilter, AdQueryPlatform, AdQuerySearchType, AdQuerySort, AdStatusFilter, AdsTimePeriod, AudienceSex, ReachPeriod } from './enums.js';
import { DEFAULT_CPM } from './figures.js';
import type { AdFilter, AdSort, RankFilter } from './search.js';

const strings = (max: number) => z.array(z.string().min(1).max(500)).max(max);

export const CountryFilterInput = countryFilterInput('CountryFilterInput', 'ISO 3166-1 alpha-2 country codes to include and/or exclude.');

export const MarketFilterInput = builder.inputType('MarketFilterInput', {
  fields: (t) => ({
    main: t.stringList({ description: 'Countries that must be the primary market (EU/UK transparency data).', validate: countries }),
    among: t.stringList({ description: 'Countries that may appear among the markets.', validate: countries }),
    exclude: t.stringList({ description: 'Countries to exclude from the markets.', validate: countries }),
  }),
});

const RankDirection = builder.enumType('RankDirection', { values: ['rising', 'falling', 'stable'] as const });
const AdRankMode = builder.enumType('AdRankMode', { values: ['percentile', 'rank'] as const });
const AdRankBasis = builder.enumType('AdRankBasis', { values: ['current', 'alltime'] as const });

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

const PERIOD_DAYS = { last24h: 1, last7d: 7, last30d: 30 } as const;

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
    sex: t.field({ type: AudienceSex }),
    adCountries: t.field({ type: CountryFilterInput }),
    mainCountries: t.stringList({ validate: countries }),
    minDescriptionLength: t.int({ validate: count }),
    maxDescriptionLength: t.int({ validate: count }),
    adCopyHashes: t.stringList({ description: '12-character MD5 prefixes of ad copy.', validate: z.array(z.string().regex(/^[0-9a-fA-F]{12}$/, '{name} must be 12-character hexadecimal MD5 prefixes')).max(100) }),
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

type Args = InputShapeFromFields<ReturnType<typeof adsQueryArgs>>;

const startOfPeriod = (period: keyof typeof PERIOD_DAYS) => daysAgo(PERIOD_DAYS[period]);

const WINDOWS = { '7d': 7, '14d': 14, '30d': 30 } as const;

function rankFilter(args: Args): RankFilter {
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
export function filterFromQueryArgs(args: Args) {
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
    shop: { traffic: { min: args.minTraffic, max: args.maxTraffic }, products: { min: args.minProducts, max: args.maxProducts }, categoryIds: args.categoryIds },
    rank: rankFilter(args),
    maxAdsPerBrand: args.maxAdsPerBrand,
  };
  const sort: AdSort = { sortBy: args.sortBy ?? (filter.search ? 'relevance' : 'newest'), order: args.order, reachPeriod: args.reachPeriod };
  return { filter, sort, page: { page: args.page ?? 1, limit: args.limit ?? 25 }, cpm };
}
