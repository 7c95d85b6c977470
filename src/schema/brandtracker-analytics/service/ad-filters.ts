import { Prisma } from '../../../generated/prisma/client.js';
import type { AdFilter, ReachPeriodValue } from '../../ads/service.js';
import { isCountryCode } from '../../shared/codes.js';
import type { CountryFilter } from '../../shared/countries.js';
import type { KeywordModeValue } from '../../shared/enums.js';
import { range } from '../../shared/ranges.js';
import { termsOf } from '../../shared/list.js';
import { endOfDay } from '../../shared/time.js';
import { adsOf, windowSql, type Frame, type FrameRequest } from './frame.js';

// The one filter of a brand's ads, for every route that lists them: GET /v1/brandtrackers/{id}/ads,
// /partnership-ads, /partnership-ads/count, /timeline, /timeline/metadata and /testing. Each route's arguments
// (ad-list-args.ts) become the ads list's filter (the ads search's conditions write the SQL). What the routes do differently
// is in ROUTES; their argument names, defaults and accepted values stay in their own argument builders, as the
// reference and gaps-filled.md give them per route.

const sql = Prisma.sql;
type Bound = number | null | undefined;
type Day = Date | null | undefined;

/** The filters under the ads routes' names; a route with other names (testing) renames them when it calls. */
export type BrandAdFilterArgs = {
  status?: 'all' | 'active' | 'inactive' | null;
  mediaType?: 'all' | 'image' | 'video' | null;
  keywords?: string[] | null;
  keywordMode?: KeywordModeValue | null;
  /** The first-seen day, or on the timeline the Ad Library creation time (ROUTES). */
  createdAfter?: Day; createdBefore?: Day;
  /** The start (first-seen) day. */
  startedAfter?: Day; startedBefore?: Day;
  /** The timeline's effective end day (effectiveEnd). */
  lastSeenAfter?: Day; lastSeenBefore?: Day;
  minDaysRunning?: Bound; maxDaysRunning?: Bound;
  minDuplicates?: Bound; maxDuplicates?: Bound;
  landingPages?: string[] | null;
  adLanguage?: string[] | null;
  cta?: string[] | null;
  adCopyHashes?: string[] | null;
  /** "US,DE,-FR" as the ads and timeline routes take it (validated by their arguments), or its lists. */
  adCountries?: string | CountryFilter | null;
  mainCountries?: string[] | null;
  partners?: boolean | null;
  partnerIds?: string[] | null;
  /** The partnership routes' single creator id, merged with partnerIds. */
  partnerId?: string | null;
  minReach?: Bound; maxReach?: Bound; reachPeriod?: ReachPeriodValue | null;
  minSpend?: Bound; maxSpend?: Bound; spendPeriod?: ReachPeriodValue | null;
  minSpendPerPage?: Bound; maxSpendPerPage?: Bound; spendPerPagePeriod?: ReachPeriodValue | null;
  hideLowReach?: boolean | null;
  minAge?: Bound; maxAge?: Bound;
  sex?: AdFilter['sex'];
  minFacebookLikes?: Bound; maxFacebookLikes?: Bound;
  minInstagramFollowers?: Bound; maxInstagramFollowers?: Bound;
  minVideoDuration?: Bound; maxVideoDuration?: Bound;
  minDescriptionLength?: Bound; maxDescriptionLength?: Bound;
  linkedDomain?: string | null;
  growthRank?: ('rising' | 'falling' | 'stable')[] | null;
};

/** What the timeline and its metadata read of their arguments: the frame's and the filters. */
export type TimelineArgs = FrameRequest & BrandAdFilterArgs;

/** What testing reads of its arguments: the filters under gaps-filled.md's names (partnership, the countries as two lists). */
export type TestingArgs = Omit<BrandAdFilterArgs, 'adCountries'> & {
  partnership?: boolean | null;
  adCountries?: string[] | null;
  excludeAdCountries?: string[] | null;
};

type Route = {
  /** Membership: the timeline and testing lists keep ads with media and, with snapshotDate, first seen by that day's end. */
  withMedia: boolean;
  /** Testing keeps Facebook ads only; the timeline, whose membership the reference words alike, never filtered on it. */
  facebookOnly: boolean;
  /** Only ads with the partner badge (the partnership routes). */
  partnership: boolean;
  /** What createdAfter/createdBefore bound: the first-seen day, or on the timeline the Ad Library creation time. */
  created: 'firstSeenAt' | 'createdAt';
  /** `status: active` at a snapshot day: a reach row that day, or (timeline) still active or last seen on or after it. */
  activeAtSnapshot: 'reachRow' | 'lastSeen';
};

const ROUTES = {
  ads: { withMedia: false, facebookOnly: false, partnership: false, created: 'firstSeenAt', activeAtSnapshot: 'reachRow' },
  partnershipAds: { withMedia: false, facebookOnly: false, partnership: true, created: 'firstSeenAt', activeAtSnapshot: 'reachRow' },
  timeline: { withMedia: true, facebookOnly: false, partnership: false, created: 'createdAt', activeAtSnapshot: 'lastSeen' },
  testing: { withMedia: true, facebookOnly: true, partnership: false, created: 'firstSeenAt', activeAtSnapshot: 'reachRow' },
} as const satisfies Record<string, Route>;

export type BrandAdRoute = keyof typeof ROUTES;

/** "FR,DE,-US": codes to include, and codes prefixed with "-" (or "!") to exclude; null when a code is not ISO 3166-1. */
export function adCountriesOf(text: string): { include: string[]; exclude: string[] } | null {
  const include: string[] = [];
  const exclude: string[] = [];
  for (const token of text.split(',').map((part) => part.trim()).filter(Boolean)) {
    const excluded = token.startsWith('-') || token.startsWith('!');
    const code = (excluded ? token.slice(1) : token).trim().toUpperCase();
    if (!isCountryCode(code)) return null;
    (excluded ? exclude : include).push(code === 'UK' ? 'GB' : code);
  }
  return { include, exclude };
}

const day = (frame: Frame) => frame.day.toISOString().slice(0, 10);

/** The day an ad's timeline ends: the frame's day while it is active (at the snapshot), else its last-seen day. */
export function effectiveEnd(frame: Frame): Prisma.Sql {
  return sql`least(CASE WHEN a."status" = 'active' THEN ${day(frame)}::date ELSE (a."lastSeenAt" AT TIME ZONE 'UTC')::date END, ${day(frame)}::date)`;
}

/** Running at the frame's moment as the route reads it: active now, or at a snapshot day as ROUTES says. */
export function activeSql(frame: Frame, route: BrandAdRoute): Prisma.Sql {
  if (frame.snapshot.requested === null || ROUTES[route].activeAtSnapshot === 'reachRow') return windowSql(frame, 'live');
  return sql`(a."status" = 'active' OR a."lastSeenAt" >= ${frame.day})`;
}

/** The route's ads (group leads of the brand's page) matching the arguments, as the ads list's filter. */
export function brandAdFilter(frame: Frame, args: BrandAdFilterArgs, route: BrandAdRoute): AdFilter {
  const at: Route = ROUTES[route];
  const terms = termsOf(args.keywords);
  const partnerIds = [...(args.partnerIds ?? []), ...(args.partnerId ? [args.partnerId] : [])];
  const created = { min: args.createdAfter, max: endOfDay(args.createdBefore) };
  const where = [adsOf(frame)];
  if (at.facebookOnly) where.push(sql`a."platform" = 'facebook'`);
  if (at.withMedia) where.push(sql`a."mediaUrl" IS NOT NULL`);
  if (at.withMedia && frame.snapshot.requested !== null) where.push(sql`a."firstSeenAt" < ${frame.until}`);
  if (args.status === 'active') where.push(activeSql(frame, route));
  if (args.status === 'inactive') where.push(sql`NOT (${activeSql(frame, route)})`);
  if (at.created === 'createdAt') range(sql`a."createdAt"`, created, where);
  range(sql`a."firstSeenAt"`, { min: args.startedAfter, max: endOfDay(args.startedBefore) }, where);
  range(effectiveEnd(frame), { min: args.lastSeenAfter, max: args.lastSeenBefore }, where);
  return {
    search: terms.length ? { terms, keywordMode: args.keywordMode ?? 'any', type: 'adCopy' } : undefined,
    mediaType: !args.mediaType || args.mediaType === 'all' ? null : args.mediaType,
    firstSeen: at.created === 'firstSeenAt' ? created : undefined,
    daysRunning: { min: args.minDaysRunning, max: args.maxDaysRunning },
    duplicates: { min: args.minDuplicates, max: args.maxDuplicates },
    reach: { min: args.minReach, max: args.maxReach, period: args.reachPeriod ?? 'total' },
    spend: { min: args.minSpend, max: args.maxSpend, period: args.spendPeriod ?? 'total', cpm: frame.cpm },
    age: { min: args.minAge, max: args.maxAge },
    facebookLikes: { min: args.minFacebookLikes, max: args.maxFacebookLikes },
    instagramFollowers: { min: args.minInstagramFollowers, max: args.maxInstagramFollowers },
    hideLowReach: args.hideLowReach,
    partnership: at.partnership ? true : args.partners,
    partnerIds: partnerIds.length ? partnerIds : null,
    videoDuration: { min: args.minVideoDuration, max: args.maxVideoDuration },
    linkedDomain: args.linkedDomain,
    sex: args.sex,
    adCountries: typeof args.adCountries === 'string' ? adCountriesOf(args.adCountries) : args.adCountries,
    mainCountries: args.mainCountries,
    callToActions: args.cta,
    landingPages: args.landingPages,
    languages: args.adLanguage,
    descriptionLength: { min: args.minDescriptionLength, max: args.maxDescriptionLength },
    adCopyHashes: args.adCopyHashes,
    page: { spend: { min: args.minSpendPerPage, max: args.maxSpendPerPage, period: args.spendPerPagePeriod ?? 'total', cpm: frame.cpm } },
    rank: { window: 7, directions: args.growthRank?.length ? [...new Set(args.growthRank)] : null },
    where,
  };
}
