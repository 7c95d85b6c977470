import { z } from 'zod';
import { adCopyHashes, strings } from '../ads/args.js';
import { AdStatusFilter, AudienceGender, ReachPeriod } from '../ads/enums.js';
import { RankDirection } from '../ads/inputs.js';
import type { AdSortValue } from '../ads/sql/search.js';
import { AdvertiserAdMediaType } from '../advertisers/service.js';
import { builder } from '../builder.js';
import { hostOf } from '../shared/codes.js';
import { countries, type CountryFilter } from '../shared/countries.js';
import { KeywordMode } from '../shared/enums.js';
import { pageArgs } from '../shared/pagination.js';
import { amount, bigCount, count } from '../shared/ranges.js';
import { searchTerms } from '../shared/text-search.js';
import { adCountriesOf } from './ad-filters.js';
import { cpmArg, frameArgs } from './args.js';

// The arguments of GET /v1/brandtrackers/{id}/ads, /partnership-ads and /partnership-ads/count: the filters of
// POST /v1/ads/query under the reference's names, on one brand's ads. ad-filters.ts turns them into the ads filter.

export const BRANDTRACKER_ADS_SORTS = ['newest', 'createdAt', 'longestRunning', 'reach', 'duplicates', 'adOrder', 'relevance'] as const;
export type BrandtrackerAdsSort = (typeof BRANDTRACKER_ADS_SORTS)[number];
/** The ads list's order of each sort key (the timeline's sort takes the same keys). */
export const BRANDTRACKER_ADS_ORDER: Record<BrandtrackerAdsSort, AdSortValue> = {
  newest: 'newest', createdAt: 'createdAt', longestRunning: 'longestRunning', reach: 'reach', duplicates: 'mostDuplicates', adOrder: 'adOrder', relevance: 'relevance',
};

/** A sort key; `ad_order` and `ad-order` read as adOrder (a string argument: GraphQL enum values cannot hold a hyphen). */
const sortKey = z.string().transform((value, ctx) => {
  const key = value === 'ad_order' || value === 'ad-order' ? 'adOrder' : value;
  if ((BRANDTRACKER_ADS_SORTS as readonly string[]).includes(key)) return key as BrandtrackerAdsSort;
  ctx.addIssue({ code: 'custom', message: `{name} must be one of the following values: ${BRANDTRACKER_ADS_SORTS.join(', ')}` });
  return z.NEVER;
});

/** `US,DE,-FR`: comma-separated ISO codes; one with a leading `-` or `!` is excluded. */
const countryList = z.string().max(2000).transform((value, ctx): CountryFilter => {
  const parsed = adCountriesOf(value);
  if (parsed) return parsed;
  ctx.addIssue({ code: 'custom', message: '{name} must be comma-separated ISO 3166-1 alpha-2 codes, each optionally prefixed by - (exclude)' });
  return z.NEVER;
});

/** A domain or URL, reduced to its host ("https://www.Shop.com/a" → "shop.com"), which must then look like a domain. */
const domain = z.string().max(500).transform((value, ctx) => {
  const host = hostOf(value);
  if (/^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}$/.test(host)) return host;
  ctx.addIssue({ code: 'custom', message: '{name} must be a domain or a URL' });
  return z.NEVER;
});

/** The targeted age bounds of Meta ads. */
export const age = z.number().int().min(13).max(65);

export const BRANDTRACKER_ADS_LIMITS = { defaultLimit: 25, maxLimit: 100 };

/**
 * The filters the brand's ad lists take alike, validated once: the ads and partnership-ads routes and testing pick
 * them by name (testing-args.ts), so a bound means and refuses the same on each.
 */
export function brandAdSharedArgs() {
  return builder.args((t) => ({
    minDaysRunning: t.int({ validate: count }),
    maxDaysRunning: t.int({ validate: count }),
    minDuplicates: t.int({ validate: count }),
    maxDuplicates: t.int({ validate: count }),
    partners: t.boolean({ description: 'true: partnership ads only; false: non-partnership ads only.' }),
    minSpendPerPage: t.float({ description: "The brand page's estimated spend over spendPerPagePeriod.", validate: amount }),
    maxSpendPerPage: t.float({ validate: amount }),
    spendPerPagePeriod: t.field({ type: ReachPeriod, defaultValue: 'total' }),
    minAge: t.int({ validate: age }),
    maxAge: t.int({ validate: age }),
    minFacebookLikes: t.int({ validate: count }),
    maxFacebookLikes: t.int({ validate: count }),
    minInstagramFollowers: t.int({ validate: count }),
    maxInstagramFollowers: t.int({ validate: count }),
    minVideoDuration: t.float({ description: 'Video length in seconds.', validate: amount }),
    maxVideoDuration: t.float({ validate: amount }),
    minDescriptionLength: t.int({ description: 'Characters of the ad copy.', validate: count }),
    maxDescriptionLength: t.int({ validate: count }),
  }));
}

/** The filters the three routes share; `partnership`: the partnership-ads routes (no `partners`, a `partnerId` alias). */
export function brandtrackerAdFilterArgs(options: { partnership: boolean }) {
  const shared = brandAdSharedArgs();
  return builder.args((t) => ({
    ...frameArgs({ euOnly: false, snapshot: true }),
    status: t.field({
      type: AdStatusFilter,
      defaultValue: 'all',
      description: 'all (default), active or inactive. With snapshotDate, active means running on the resolved snapshot day (a reach row that day), inactive the rest; snapshotDate changes nothing else.',
    }),
    mediaType: t.field({ type: AdvertiserAdMediaType, defaultValue: 'all' }),
    keywords: t.stringList({ description: 'Words of the ad copy, combined by keywordMode (repeated or comma-separated).', validate: searchTerms(50) }),
    keywordMode: t.field({ type: KeywordMode, defaultValue: 'any' }),
    createdAfter: t.field({ type: 'Date', description: 'First seen on or after this date.' }),
    createdBefore: t.field({ type: 'Date', description: 'First seen on or before this date.' }),
    minDaysRunning: shared.minDaysRunning,
    maxDaysRunning: shared.maxDaysRunning,
    minDuplicates: shared.minDuplicates,
    maxDuplicates: shared.maxDuplicates,
    landingPages: t.stringList({ description: 'Landing-page URLs: the ad links to one of their hosts.', validate: strings(50) }),
    adLanguage: t.stringList({ description: 'Transcript languages (ISO 639-1).', validate: strings(50) }),
    cta: t.stringList({ description: 'Call-to-action labels (case-insensitive).', validate: strings(50) }),
    adCopyHashes: t.stringList({ description: '12-character MD5 prefixes of the ad copy.', validate: adCopyHashes }),
    adCountries: t.string({ description: 'Targeted countries, comma-separated ISO codes: any of the plain ones, none of those prefixed by - (or !), e.g. US,DE,-FR.', validate: countryList }),
    mainCountries: t.stringList({ description: 'Main countries (EU/UK transparency data), ISO codes.', validate: countries }),
    ...(options.partnership ? {} : { partners: shared.partners }),
    partnerIds: t.stringList({ description: 'Creator page ids of partnership ads (partnerPageId).', validate: strings(50) }),
    ...(options.partnership ? { partnerId: t.string({ description: 'One creator page id; merged with partnerIds.', validate: z.string().min(1).max(500) }) } : {}),
    minReach: t.float({ validate: bigCount }),
    maxReach: t.float({ validate: bigCount }),
    ...cpmArg({ min: 0.01, max: 10000 }),
    minSpend: t.float({ description: 'Estimated spend in euros (reach × cpm / 1000) over spendPeriod.', validate: amount }),
    maxSpend: t.float({ validate: amount }),
    spendPeriod: t.field({ type: ReachPeriod, defaultValue: 'total', description: 'Window of minSpend/maxSpend (default total).' }),
    minSpendPerPage: shared.minSpendPerPage,
    maxSpendPerPage: shared.maxSpendPerPage,
    spendPerPagePeriod: shared.spendPerPagePeriod,
    hideLowReach: t.boolean({ description: 'Hide ads flagged as low reach.' }),
    minAge: shared.minAge,
    maxAge: shared.maxAge,
    sex: t.field({ type: AudienceGender }),
    minFacebookLikes: shared.minFacebookLikes,
    maxFacebookLikes: shared.maxFacebookLikes,
    minInstagramFollowers: shared.minInstagramFollowers,
    maxInstagramFollowers: shared.maxInstagramFollowers,
    minVideoDuration: shared.minVideoDuration,
    maxVideoDuration: shared.maxVideoDuration,
    minDescriptionLength: shared.minDescriptionLength,
    maxDescriptionLength: shared.maxDescriptionLength,
    linkedDomain: t.string({ description: 'A domain or URL (reduced to its host): the ad links to it or a subdomain of it.', validate: domain }),
    growthRank: t.field({ type: [RankDirection], description: 'Rank trend over 7 days: any of rising, falling, stable (repeated or comma-separated).' }),
  }));
}

/** The list routes add the page and the order. */
export function brandtrackerAdListArgs(options: { partnership: boolean }) {
  return builder.args((t) => ({
    ...brandtrackerAdFilterArgs(options),
    ...pageArgs(BRANDTRACKER_ADS_LIMITS),
    sortBy: t.string({
      defaultValue: 'newest',
      description: `${BRANDTRACKER_ADS_SORTS.join(', ')} (default newest; ad_order and ad-order read as adOrder). Descending, adOrder ascending; relevance ranks by the keywords, else by reach.`,
      validate: sortKey,
    }),
  }));
}
