import type { InputShapeFromFields } from '@pothos/core';
import { z } from 'zod';
import { builder } from '../builder.js';
import { languageCode } from '../shared/codes.js';
import { countries, countryFilterInput } from '../shared/countries.js';
import { AdsGrowthFilter, growthFilter, PageReachGrowthFilter } from '../shared/growth-filter.js';
import { KeywordMode, SortOrder } from '../shared/enums.js';
import { offsetArgs, offsetRequest, searchTerms, termsOf } from '../shared/list.js';
import { amount, bigCount, count, percent } from '../shared/ranges.js';
import { endOfDay } from '../shared/time.js';
import {
  AdsLaunchedPeriod, AdvertiserAdsWindow, AdvertiserQuerySearchType, AdvertiserReachPeriod, AdvertiserSearchType, AdvertiserSort, CountryFilterMode,
  PageAudienceGender, PageType, ShopifyLinked,
} from './enums.js';
import type { AdvertiserFilter, AdvertiserSort as Sort } from './service/search.js';

export const ADVERTISER_LIMITS = { defaultLimit: 20, maxLimit: 100 };
const DEFAULT_CPM = 9;
const categoryIds = z.array(count).max(100);

/** The arguments GET /v1/advertisers and POST /v1/advertisers/query share. */
const listArgs = (t: PothosSchemaTypes.InputFieldBuilder<typeof builder.$inferSchemaTypes, 'Arg'>) => ({
  search: t.stringList({ description: 'Search keywords, combined by keywordMode.', validate: searchTerms(50) }),
  keywordMode: t.field({ type: KeywordMode, defaultValue: 'any' }),
  sortBy: t.field({ type: AdvertiserSort, defaultValue: 'relevance' }),
  order: t.field({ type: SortOrder, description: 'Ignored for relevance, which is always descending.' }),
  ...offsetArgs(ADVERTISER_LIMITS),
  minFbPageCreationDate: t.field({ type: 'Date', description: 'Facebook page created on or after this date.' }),
  maxFbPageCreationDate: t.field({ type: 'Date', description: 'Facebook page created on or before this date.' }),
  minActiveAds: t.int({ validate: count }),
  maxActiveAds: t.int({ validate: count }),
  adsTimePeriod: t.field({ type: AdvertiserAdsWindow, description: 'When minActiveAds/maxActiveAds count ads as active (default current).' }),
  reachWindow: t.field({ type: AdvertiserAdsWindow, description: 'Window of the reach sort: current is the all-time reach (default: reachPeriod, else current).' }),
  minFacebookLikes: t.int({ validate: count }),
  maxFacebookLikes: t.int({ validate: count }),
  minInstagramFollowers: t.int({ validate: count }),
  maxInstagramFollowers: t.int({ validate: count }),
  minAdsLaunched: t.int({ description: 'Ads (one per duplicate group) first seen within adsLaunchedPeriod.', validate: count }),
  maxAdsLaunched: t.int({ validate: count }),
  adsLaunchedPeriod: t.field({ type: AdsLaunchedPeriod, description: 'Window of minAdsLaunched/maxAdsLaunched and of the newAds sort (default last30d).' }),
  minReach: t.float({ validate: bigCount }),
  maxReach: t.float({ validate: bigCount }),
  reachPeriod: t.field({ type: AdvertiserReachPeriod, description: 'Window of minReach/maxReach (default total).' }),
  pageType: t.field({ type: [PageType] }),
  categoryIds: t.intList({ description: 'Google category ids (GET /v1/facets/categories) of a linked shop.', validate: categoryIds }),
  shopifyLinked: t.field({ type: ShopifyLinked }),
  gender: t.field({ type: PageAudienceGender }),
});

export const advertisersArgs = () =>
  builder.args((t) => ({ ...listArgs(t), searchType: t.field({ type: AdvertiserSearchType, defaultValue: 'brand' }) }));

const PageNichesInput = builder.inputType('PageNichesInput', {
  description: 'Page niches as Google category ids: of the primary shop (main), of any linked shop (among), of none of them (exclude).',
  fields: (t) => ({ main: t.intList({ validate: categoryIds }), among: t.intList({ validate: categoryIds }), exclude: t.intList({ validate: categoryIds }) }),
});
const AdCountriesInput = countryFilterInput('AdvertiserAdCountriesInput', 'Countries the advertiser\'s ads target (ISO 3166-1 alpha-2): any of include, none of exclude.');
const AGE_RANGE = /^(\d{2})(?:-(\d{2})|\+)$/;

export const advertisersQueryArgs = () =>
  builder.args((t) => ({
    ...listArgs(t),
    searchType: t.field({ type: AdvertiserQuerySearchType, defaultValue: 'brand' }),
    pageNiches: t.field({ type: PageNichesInput, description: 'Not together with categoryIds.' }),
    technologies: t.stringList({ description: 'Technology slugs (GET /v1/facets/technologies) of a linked shop.', validate: z.array(z.string().min(1).max(100)).max(50) }),
    adCountries: t.field({ type: AdCountriesInput }),
    mainCountries: t.stringList({ description: 'Primary audience countries of an ad (EU/UK transparency data).', validate: countries }),
    adLanguage: t.stringList({ description: 'Languages of an ad (ISO 639-1 codes or English names).', validate: z.array(languageCode).max(50) }),
    ageRanges: t.stringList({ description: 'Audience age ranges such as 18-24 or 65+ an ad overlaps.', validate: z.array(z.string().regex(AGE_RANGE, '{name} must be age ranges such as 18-24 or 65+')).max(10) }),
    minPartnershipPercentage: t.float({ description: 'Partnership ads, in percent of the page\'s ads.', validate: percent }),
    minReachPerPage: t.float({ validate: bigCount }),
    maxReachPerPage: t.float({ validate: bigCount }),
    reachPerPagePeriod: t.field({ type: AdvertiserReachPeriod }),
    minSpendPerPage: t.float({ description: 'Estimated spend: round(reach * cpm / 1000).', validate: amount }),
    maxSpendPerPage: t.float({ validate: amount }),
    spendPerPagePeriod: t.field({ type: AdvertiserReachPeriod }),
    cpm: t.float({ description: 'CPM of the spend filters (default 9).', validate: z.number().min(0.01).max(10000) }),
    countryFilterMode: t.field({ type: CountryFilterMode, description: 'How adCountries reads a country: adCount (default), an ad targeting it; reach, an ad with reach there (EU/UK transparency data). Alone it filters nothing.' }),
    adsGrowth: t.field({ type: AdsGrowthFilter, validate: growthFilter }),
    pageReachGrowth: t.field({ type: PageReachGrowthFilter, validate: growthFilter }),
  }));

/** categoryIds and pageNiches filter the same linked categories two ways: one or the other. */
export const notBothCategoryFilters = z.looseObject({ categoryIds: z.unknown(), pageNiches: z.unknown() }).superRefine((args, ctx) => {
  if (args.categoryIds != null && args.pageNiches != null) {
    ctx.addIssue({ code: 'custom', path: ['pageNiches'], message: '{name} must not be sent together with categoryIds' });
  }
});

type QueryArgs = InputShapeFromFields<ReturnType<typeof advertisersQueryArgs>>;

function ageRange(text: string) {
  const [, min, max] = AGE_RANGE.exec(text)!;
  return { min: Number(min), max: max ? Number(max) : 65 };
}

/** Turns either route's arguments into the list engine's filter, sort and page. */
export function filterFromArgs(args: Partial<QueryArgs>) {
  const terms = termsOf(args.search);
  const query = args;
  const filter: AdvertiserFilter = {
    search: terms.length ? { terms, keywordMode: args.keywordMode ?? 'any', type: args.searchType ?? 'brand' } : undefined,
    pageCreated: { min: args.minFbPageCreationDate, max: endOfDay(args.maxFbPageCreationDate) },
    activeAds: { min: args.minActiveAds, max: args.maxActiveAds, window: args.adsTimePeriod ?? 'current' },
    facebookLikes: { min: args.minFacebookLikes, max: args.maxFacebookLikes },
    instagramFollowers: { min: args.minInstagramFollowers, max: args.maxInstagramFollowers },
    adsLaunched: { min: args.minAdsLaunched, max: args.maxAdsLaunched, period: args.adsLaunchedPeriod ?? 'last30d' },
    reach: { min: args.minReach, max: args.maxReach, period: args.reachPeriod ?? 'total' },
    pageTypes: args.pageType,
    categoryIds: args.categoryIds,
    shopifyLinked: args.shopifyLinked,
    gender: args.gender,
    pageNiches: query.pageNiches,
    technologies: query.technologies,
    adCountries: query.adCountries,
    mainCountries: query.mainCountries,
    adLanguages: query.adLanguage,
    ageRanges: query.ageRanges?.map(ageRange),
    minPartnershipPercentage: query.minPartnershipPercentage,
    reachPerPage: { min: query.minReachPerPage, max: query.maxReachPerPage, period: query.reachPerPagePeriod ?? 'total' },
    spendPerPage: { min: query.minSpendPerPage, max: query.maxSpendPerPage, period: query.spendPerPagePeriod ?? 'total', cpm: query.cpm ?? DEFAULT_CPM },
    countryFilterMode: query.countryFilterMode,
    adsGrowth: query.adsGrowth,
    pageReachGrowth: query.pageReachGrowth,
  };
  const window = args.reachWindow ?? args.reachPeriod ?? 'current';
  const sort: Sort = {
    sortBy: args.sortBy ?? 'relevance',
    order: args.order,
    reachWindow: window === 'current' ? 'total' : window,
    launchedPeriod: args.adsLaunchedPeriod ?? 'last30d',
  };
  return { filter, sort, page: offsetRequest(args, ADVERTISER_LIMITS.defaultLimit) };
}
