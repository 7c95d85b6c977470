import { z } from 'zod';
import { AdStatusFilter, AudienceGender, ReachPeriod } from '../ads/types.js';
import { adCopyHashes, adsQueryArgs, RankDirection, strings, type AdSortValue } from '../ads/service.js';
import { AdvertiserAdMediaType } from '../advertisers/service.js';
import { builder } from '../builder.js';
import { hostOf } from '../shared/codes.js';
import { countries, type CountryFilter } from '../shared/countries.js';
import { KeywordMode } from '../shared/enums.js';
import { pageArgs, searchTerms } from '../shared/list.js';
import { amount, bigCount, count } from '../shared/ranges.js';
import { cpmArg, frameArgs } from './args.js';
import { BRANDTRACKER_ADS_SORTS, TimelineStatus } from './enums.js';
import { adCountriesOf } from './service.js';

// The filters of the brand's ad lists, with their validation: they take the filters of POST /v1/ads/query under the
// reference's names: GET /v1/brandtrackers/{id}/ads, /partnership-ads and /partnership-ads/count
// (brandtrackerAdFilterArgs), the timeline and its metadata (timelineFilterArgs), testing (testingFilterArgs,
// gaps-filled.md's names); service/ad-filters.ts turns them into the ads filter.

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
 * them by name (testingFilterArgs), so a bound means and refuses the same on each.
 */
function brandAdSharedArgs() {
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

/** Bounds of an ad's effective end day (effectiveEnd in service/ad-filters.ts), as the timeline and testing take them. */
const lastSeenArgs = () =>
  builder.args((t) => ({
    lastSeenAfter: t.field({ type: 'Date', description: 'Effective end day on or after this day: today for active ads (the snapshot day with snapshotDate), else the last-seen day.' }),
    lastSeenBefore: t.field({ type: 'Date', description: 'Effective end day on or before this day.' }),
  }));

const hostLike = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$/;

export const timelineFilterArgs = () =>
  builder.args((t) => ({
    ...frameArgs({ euOnly: false, snapshot: true }),
    status: t.field({ type: TimelineStatus, defaultValue: 'all' }),
    mediaType: t.field({ type: AdvertiserAdMediaType, defaultValue: 'all' }),
    keywords: t.stringList({ description: 'Search terms in the ad copy, combined by keywordMode.', validate: searchTerms(50) }),
    keywordMode: t.field({ type: KeywordMode, defaultValue: 'any' }),
    createdAfter: t.field({ type: 'Date', description: 'Created (Ad Library creation time) on or after this day.' }),
    createdBefore: t.field({ type: 'Date', description: 'Created on or before this day.' }),
    startedAfter: t.field({ type: 'Date', description: 'Started (first seen) on or after this day.' }),
    startedBefore: t.field({ type: 'Date', description: 'Started (first seen) on or before this day.' }),
    ...lastSeenArgs(),
    minDaysRunning: t.int({ validate: count }),
    maxDaysRunning: t.int({ validate: count }),
    minDuplicates: t.int({ validate: count }),
    maxDuplicates: t.int({ validate: count }),
    landingPages: t.stringList({ description: 'Landing page URLs (matched on their host and path, as the ads query does).', validate: strings(50) }),
    adLanguage: t.stringList({ description: 'Transcript languages (ISO 639-1).', validate: strings(50) }),
    cta: t.stringList({ description: 'Call-to-action labels (case-insensitive).', validate: strings(50) }),
    adCopyHashes: t.stringList({ description: '12-character MD5 prefixes of ad copy.', validate: adCopyHashes }),
    adCountries: t.string({
      description: 'Targeted countries: comma-separated ISO codes to include; a code prefixed with "-" is excluded ("FR,DE,-US").',
      validate: z.string().max(1000).refine((text) => adCountriesOf(text) !== null, '{name} must be comma-separated ISO 3166-1 alpha-2 codes, "-" before a code to exclude it'),
    }),
    mainCountries: t.stringList({ validate: countries }),
    partners: t.boolean({ description: 'true: partnership ads only; false: non-partnership only.' }),
    partnerIds: t.stringList({ description: 'Facebook page ids of the creators of partnership ads.', validate: strings(50) }),
    minReach: t.float({ validate: bigCount }),
    maxReach: t.float({ validate: bigCount }),
    ...cpmArg({ min: 0.01, max: 10000 }),
    minSpend: t.float({ description: 'Estimated spend: round(reach × cpm / 1000) over spendPeriod.', validate: amount }),
    maxSpend: t.float({ validate: amount }),
    spendPeriod: t.field({ type: ReachPeriod, defaultValue: 'total' }),
    minSpendPerPage: t.float({ description: "The brand page's estimated spend over spendPerPagePeriod.", validate: amount }),
    maxSpendPerPage: t.float({ validate: amount }),
    spendPerPagePeriod: t.field({ type: ReachPeriod, defaultValue: 'total' }),
    hideLowReach: t.boolean(),
    minAge: t.int({ validate: age }),
    maxAge: t.int({ validate: age }),
    sex: t.field({ type: AudienceGender }),
    minFacebookLikes: t.int({ validate: count }),
    maxFacebookLikes: t.int({ validate: count }),
    minInstagramFollowers: t.int({ validate: count }),
    maxInstagramFollowers: t.int({ validate: count }),
    minVideoDuration: t.float({ description: 'Seconds (video ads).', validate: z.number().min(0).max(86400) }),
    maxVideoDuration: t.float({ validate: z.number().min(0).max(86400) }),
    minDescriptionLength: t.int({ validate: count }),
    maxDescriptionLength: t.int({ validate: count }),
    linkedDomain: t.string({
      description: 'The landing page domain or one of its subdomains; a URL is reduced to its hostname.',
      validate: z.string().max(2048).refine((value) => hostLike.test(hostOf(value)), '{name} must be a domain or a URL'),
    }),
    growthRank: t.field({ type: [RankDirection], description: 'Rank trend over 7 days: rising, falling or stable (any of them).' }),
  }));

const pageIds = z.array(z.string().min(1).max(64)).max(50);
const testingDomain = z.string().trim().min(1).max(500)
  .refine((value) => /^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(hostOf(value)), { message: '{name} must be a domain or a URL' });

export function testingFilterArgs() {
  const q = adsQueryArgs();
  const shared = brandAdSharedArgs();
  return builder.args((t) => ({
    status: t.field({ type: AdStatusFilter, defaultValue: 'all', description: 'With snapshotDate, active means running on the resolved snapshot day.' }),
    mediaType: t.field({ type: AdvertiserAdMediaType, defaultValue: 'all' }),
    keywords: q.search,
    keywordMode: q.keywordMode,
    createdAfter: q.createdAfter,
    createdBefore: q.createdBefore,
    minDaysRunning: shared.minDaysRunning,
    maxDaysRunning: shared.maxDaysRunning,
    minDuplicates: shared.minDuplicates,
    maxDuplicates: shared.maxDuplicates,
    minReach: q.minReach,
    maxReach: q.maxReach,
    reachPeriod: q.reachPeriod,
    minSpend: q.minSpend,
    maxSpend: q.maxSpend,
    spendPeriod: q.spendPeriod,
    minSpendPerPage: shared.minSpendPerPage,
    maxSpendPerPage: shared.maxSpendPerPage,
    spendPerPagePeriod: shared.spendPerPagePeriod,
    cpm: q.cpm,
    hideLowReach: q.hideLowReach,
    minAge: shared.minAge,
    maxAge: shared.maxAge,
    sex: q.sex,
    minFacebookLikes: shared.minFacebookLikes,
    maxFacebookLikes: shared.maxFacebookLikes,
    minInstagramFollowers: shared.minInstagramFollowers,
    maxInstagramFollowers: shared.maxInstagramFollowers,
    minVideoDuration: shared.minVideoDuration,
    maxVideoDuration: shared.maxVideoDuration,
    minDescriptionLength: shared.minDescriptionLength,
    maxDescriptionLength: shared.maxDescriptionLength,
    landingPages: q.landingPages,
    adLanguage: q.adLanguage,
    cta: q.cta,
    adCopyHashes: q.adCopyHashes,
    adCountries: t.stringList({ description: 'Ads targeting any of these countries (ISO codes).', validate: countries }),
    excludeAdCountries: t.stringList({ description: 'Ads targeting none of these countries (ISO codes).', validate: countries }),
    mainCountries: q.mainCountries,
    partners: shared.partners,
    partnership: t.boolean({ description: 'The same filter as partners, under the name gaps-filled.md gives it; given with partners, it must agree.' }),
    partnerIds: t.stringList({ description: 'Facebook page ids of partners (creators) of partnership ads.', validate: pageIds }),
    linkedDomain: t.string({ description: 'Ads linking to this domain or its subdomains; a URL is reduced to its hostname.', validate: testingDomain }),
    growthRank: t.field({ type: [RankDirection], description: 'Rank trend over 7 days: rising, falling or stable (any of them).' }),
    startedAfter: t.field({ type: 'Date', description: 'Start date (UTC day first seen) on or after this date.' }),
    startedBefore: t.field({ type: 'Date', description: 'Start date (UTC day first seen) on or before this date.' }),
    ...lastSeenArgs(),
  }));
}

/** partners (the reference's name) and partnership (gaps-filled.md's) are one filter: given together, they must agree. */
export const testingArgsRule = z.looseObject({ partners: z.boolean().nullish(), partnership: z.boolean().nullish() }).superRefine((args, ctx) => {
  if (args.partners != null && args.partnership != null && args.partners !== args.partnership) {
    ctx.addIssue({ code: 'custom', path: ['partners'], message: '{name} must equal partnership when both are given (they are one filter)' });
  }
});
