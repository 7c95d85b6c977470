import { Prisma } from '../../generated/prisma/client.js';
import type { AdFilter, AdSort } from '../ads/sql/search.js';
import type { CountryFilter } from '../shared/countries.js';
import type { KeywordModeValue } from '../shared/enums.js';
import { pageRequest, type PageRequest } from '../shared/pagination.js';
import { termsOf } from '../shared/text-search.js';
import { endOfDay } from '../shared/time.js';
import { BRANDTRACKER_ADS_LIMITS, type BrandtrackerAdsSort } from './ads-args.js';
import { adsOf, windowSql, type Frame } from './frame.js';

// The arguments of the brandtracker ads routes as the ads list's filter (src/schema/ads/sql): the brand's ads
// (its page, EU-only) and, with a snapshot date, the status at that day, as conditions the filter carries.

type Period = 'total' | 'last24h' | 'last7d' | 'last30d';
type Bound = number | null | undefined;

export type BrandtrackerAdArgs = {
  status?: 'all' | 'active' | 'inactive' | null;
  mediaType?: 'all' | 'image' | 'video' | null;
  keywords?: string[] | null;
  keywordMode?: KeywordModeValue | null;
  createdAfter?: Date | null;
  createdBefore?: Date | null;
  minDaysRunning?: Bound; maxDaysRunning?: Bound;
  minDuplicates?: Bound; maxDuplicates?: Bound;
  landingPages?: string[] | null;
  adLanguage?: string[] | null;
  cta?: string[] | null;
  adCopyHashes?: string[] | null;
  adCountries?: string | CountryFilter | null;
  mainCountries?: string[] | null;
  partners?: boolean | null;
  partnerIds?: string[] | null;
  partnerId?: string | null;
  minReach?: Bound; maxReach?: Bound;
  minSpend?: Bound; maxSpend?: Bound; spendPeriod?: Period | null;
  minSpendPerPage?: Bound; maxSpendPerPage?: Bound; spendPerPagePeriod?: Period | null;
  hideLowReach?: boolean | null;
  minAge?: Bound; maxAge?: Bound;
  sex?: 'men' | 'women' | 'all' | null;
  minFacebookLikes?: Bound; maxFacebookLikes?: Bound;
  minInstagramFollowers?: Bound; maxInstagramFollowers?: Bound;
  minVideoDuration?: Bound; maxVideoDuration?: Bound;
  minDescriptionLength?: Bound; maxDescriptionLength?: Bound;
  linkedDomain?: string | null;
  growthRank?: ('rising' | 'falling' | 'stable')[] | null;
};

/** Active at the frame: the ad's status, or, with a snapshot date, running on the resolved day. */
function statusSql(frame: Frame, status: 'active' | 'inactive'): Prisma.Sql {
  const active = frame.snapshot.requested === null ? Prisma.sql`a."status" = 'active'` : windowSql(frame, 'live');
  return status === 'active' ? active : Prisma.sql`NOT (${active})`;
}

/** The brand's ads matching the arguments; `partnership`: only ads with the partner badge. */
export function brandtrackerAdFilter(frame: Frame, args: BrandtrackerAdArgs, partnership: boolean): AdFilter {
  const terms = termsOf(args.keywords);
  const partnerIds = [...(args.partnerIds ?? []), ...(args.partnerId ? [args.partnerId] : [])];
  const status = args.status ?? 'all';
  const media = args.mediaType ?? 'all';
  return {
    search: terms.length ? { terms, keywordMode: args.keywordMode ?? 'any', type: 'adCopy' } : undefined,
    mediaType: media === 'all' ? null : media,
    firstSeen: { min: args.createdAfter, max: endOfDay(args.createdBefore) },
    daysRunning: { min: args.minDaysRunning, max: args.maxDaysRunning },
    duplicates: { min: args.minDuplicates, max: args.maxDuplicates },
    reach: { min: args.minReach, max: args.maxReach, period: 'total' },
    spend: { min: args.minSpend, max: args.maxSpend, period: args.spendPeriod ?? 'total', cpm: frame.cpm },
    age: { min: args.minAge, max: args.maxAge },
    facebookLikes: { min: args.minFacebookLikes, max: args.maxFacebookLikes },
    instagramFollowers: { min: args.minInstagramFollowers, max: args.maxInstagramFollowers },
    hideLowReach: args.hideLowReach,
    partnership: partnership ? true : args.partners,
    partnerIds: partnerIds.length ? partnerIds : null,
    videoDuration: { min: args.minVideoDuration, max: args.maxVideoDuration },
    linkedDomain: args.linkedDomain,
    sex: args.sex,
    adCountries: typeof args.adCountries === 'string' ? null : args.adCountries,
    mainCountries: args.mainCountries,
    callToActions: args.cta,
    landingPages: args.landingPages,
    languages: args.adLanguage,
    descriptionLength: { min: args.minDescriptionLength, max: args.maxDescriptionLength },
    adCopyHashes: args.adCopyHashes,
    page: { spend: { min: args.minSpendPerPage, max: args.maxSpendPerPage, period: args.spendPerPagePeriod ?? 'total', cpm: frame.cpm } },
    rank: { window: 7, directions: args.growthRank?.length ? args.growthRank : null },
    where: [adsOf(frame), ...(status === 'all' ? [] : [statusSql(frame, status)])],
  };
}

const SORT: Record<BrandtrackerAdsSort, AdSort['sortBy']> = {
  newest: 'newest', createdAt: 'createdAt', longestRunning: 'longestRunning', reach: 'reach', duplicates: 'mostDuplicates', adOrder: 'adOrder', relevance: 'relevance',
};

export function brandtrackerAdList(frame: Frame, args: BrandtrackerAdArgs & { page?: number | null; limit?: number | null; sortBy?: string | null }, partnership: boolean) {
  const filter = brandtrackerAdFilter(frame, args, partnership);
  const sort: AdSort = { sortBy: SORT[(args.sortBy ?? 'newest') as BrandtrackerAdsSort] };
  const page: PageRequest = pageRequest(args, BRANDTRACKER_ADS_LIMITS.defaultLimit);
  return { filter, sort, page, cpm: frame.cpm };
}
