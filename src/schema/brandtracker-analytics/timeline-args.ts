import type { InputShapeFromFields } from '@pothos/core';
import { z } from 'zod';
import { adCopyHashes, strings } from '../ads/args.js';
import { AudienceGender, ReachPeriod } from '../ads/enums.js';
import { RankDirection } from '../ads/inputs.js';
import { AdvertiserAdMediaType } from '../advertisers/service.js';
import { builder } from '../builder.js';
import { hostOf } from '../shared/codes.js';
import { countries } from '../shared/countries.js';
import { KeywordMode } from '../shared/enums.js';
import { amount, bigCount, count } from '../shared/ranges.js';
import { searchTerms } from '../shared/text-search.js';
import { adCountriesOf } from './ad-filters.js';
import { age } from './ads-args.js';
import { cpmArg, frameArgs } from './args.js';

// The filters of the brandtracker timeline and its metadata (the same membership): the reference's list, with the
// ads query's names and bounds where they share one (POST /v1/ads/query).

export const TimelineStatus = builder.enumType('BrandtrackerTimelineStatus', {
  description: 'active: running at the snapshot day (with snapshotDate: first seen on or before it and still active or last seen on or after it), else active now.',
  values: ['all', 'active', 'inactive'] as const,
});

/** Bounds of an ad's effective end day (effectiveEnd in ad-filters.ts), as the timeline and testing take them. */
export const lastSeenArgs = () =>
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

export type TimelineFilterArgs = InputShapeFromFields<ReturnType<typeof timelineFilterArgs>>;
