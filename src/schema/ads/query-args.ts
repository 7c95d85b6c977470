import type { InputShapeFromFields } from '@pothos/core';
import { z } from 'zod';
import { builder } from '../builder.js';
import { AdMediaTypeFilter, AdQueryPlatform, AdQuerySearchType, AdQuerySort, AdStatusFilter, AdsTimePeriod, AudienceSex, KeywordMode, ReachPeriod, SortOrder } from './enums.js';
import { DEFAULT_CPM } from './figures.js';
import type { AdFilter, AdSort } from './search.js';

const country = z.string().regex(/^[A-Za-z]{2}$/, '{name} must be ISO 3166-1 alpha-2 country codes').transform((code) => code.toUpperCase());
const countries = z.array(country).max(250);
const nonNegative = z.number().min(0);
const count = z.number().int().min(0);
const strings = (max: number) => z.array(z.string().min(1).max(500)).max(max);

export const CountryFilterInput = builder.inputType('CountryFilterInput', {
  description: 'ISO 3166-1 alpha-2 country codes to include and/or exclude.',
  fields: (t) => ({
    include: t.stringList({ validate: countries }),
    exclude: t.stringList({ validate: countries }),
  }),
});

const DAY_MS = 86_400_000;
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
    minReach: t.float({ validate: nonNegative }),
    maxReach: t.float({ validate: nonNegative }),
    reachPeriod: t.field({ type: ReachPeriod, description: 'Window of minReach/maxReach and of a reach sort; filters nothing alone.' }),
    minSpend: t.float({ validate: nonNegative }),
    maxSpend: t.float({ validate: nonNegative }),
    spendPeriod: t.field({ type: ReachPeriod, description: 'Window of minSpend/maxSpend; filters nothing alone.' }),
    cpm: t.float({ description: 'EUR per 1,000 reach for spend filters and estimatedSpend (default 9).', validate: z.number().min(0.01).max(10000) }),
    minAge: t.int({ validate: z.number().int().min(13).max(65) }),
    maxAge: t.int({ validate: z.number().int().min(13).max(65) }),
    sex: t.field({ type: AudienceSex }),
    adCountries: t.field({ type: CountryFilterInput }),
    mainCountries: t.stringList({ validate: countries }),
    minFacebookLikes: t.int({ validate: count }),
    maxFacebookLikes: t.int({ validate: count }),
    minInstagramFollowers: t.int({ validate: count }),
    maxInstagramFollowers: t.int({ validate: count }),
  }));

type Args = InputShapeFromFields<ReturnType<typeof adsQueryArgs>>;

const endOfDay = (date: Date | null | undefined) => (date ? new Date(date.getTime() + DAY_MS - 1) : date);

function startOfPeriod(period: keyof typeof PERIOD_DAYS, now = new Date()): Date {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return new Date(today - PERIOD_DAYS[period] * DAY_MS);
}

/** Turns the POST /v1/ads/query body into the list engine's filter, sort and page. */
export function filterFromQueryArgs(args: Args) {
  const cpm = args.cpm ?? DEFAULT_CPM;
  const terms = (args.search ?? []).map((term) => term.trim()).filter(Boolean);
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
  };
  const sort: AdSort = { sortBy: args.sortBy ?? (filter.search ? 'relevance' : 'newest'), order: args.order, reachPeriod: args.reachPeriod };
  return { filter, sort, page: { page: args.page ?? 1, limit: args.limit ?? 25 }, cpm };
}
