import type { Ad, Advertiser } from '../../generated/prisma/client.js';
import { AdMediaType, AdStatus } from '../../generated/prisma/enums.js';
import { builder } from '../builder.js';
import { daysRunning as running } from '../shared/days-running.js';
import { resolveMediaUrl } from '../shared/media-url.js';

// The ads object types, the ads' enums (what an ad record stores, and the value sets of the lists' filters and sorts),
// and the figures derived from an ad row; Provenance, which the TikTok item and shop details show too. This file registers the ads' enums and object types before the list
// toolkit's (the SDL's order): it imports no argument or service file.

export const AdStatusEnum = builder.enumType(AdStatus, { name: 'AdStatus' });
export const AdMediaTypeEnum = builder.enumType(AdMediaType, { name: 'AdMediaType' });
/** The audience's gender in an ad record, and the `sex` filter of the lists. */
export const AudienceGender = builder.enumType('AudienceGender', { values: ['men', 'women', 'all'] as const });
/** The window of an ad's reach (and of the spend derived from it): its total, or its gain over the period. */
export const ReachPeriod = builder.enumType('ReachPeriod', { values: ['total', 'last24h', 'last7d', 'last30d'] as const });

// The value sets of the lists' filters and sorts (args.ts).

export const AdStatusFilter = builder.enumType('AdStatusFilter', { values: ['active', 'inactive', 'all'] as const });
export const AdMediaTypeFilter = builder.enumType('AdMediaTypeFilter', {
  values: ['image', 'video', 'carousel'] as const,
  description: 'carousel means indexed carousel creatives, not DCO.',
});
export const AdSearchType = builder.enumType('AdSearchType', { values: ['adCopy', 'brand'] as const });
export const AdQuerySearchType = builder.enumType('AdQuerySearchType', {
  values: ['adCopy', 'brand', 'website', 'domain', 'urlContains'] as const,
});
export const AdPlatform = builder.enumType('AdPlatform', { values: ['facebook', 'all'] as const });
export const AdQueryPlatform = builder.enumType('AdQueryPlatform', { values: ['facebook'] as const });
export const AdListSort = builder.enumType('AdListSort', { values: ['relevance', 'newest', 'longestRunning', 'reach'] as const });
export const AdQuerySort = builder.enumType('AdQuerySort', {
  values: [
    'createdAt', 'longestRunning', 'relevance', 'relevanceScore', 'newest', 'mostDuplicates', 'reach',
    'reachDelta1d', 'reachDelta7d', 'reachDelta30d', 'rankDelta7d', 'rankDelta14d', 'rankDelta30d', 'adOrder',
  ] as const,
});
export const AdsTimePeriod = builder.enumType('AdsTimePeriod', { values: ['last24h', 'last7d', 'last30d'] as const });

export const DEFAULT_CPM = 9;
const CPM = Symbol('cpm');

type WithCpm = { [CPM]?: number };

/** The request's CPM travels with the rows it loaded. */
export function withCpm<T extends object>(rows: T[], cpm: number): T[] {
  for (const row of rows) (row as WithCpm)[CPM] = cpm;
  return rows;
}

const cpmOf = (ad: object): number => (ad as WithCpm)[CPM] ?? DEFAULT_CPM;

export function estimatedSpend(reach: bigint | number, cpm: number): number {
  return Math.round((Number(reach) * cpm) / 1000);
}

/** A row stands for a duplicate group when the group has more than one ad. */
const isCollated = (ad: Pick<Ad, 'duplicates'>) => ad.duplicates > 1;

export function lastSeenAt(ad: Pick<Ad, 'duplicates' | 'status' | 'lastSeenAt'>): Date | null {
  return isCollated(ad) && ad.status === 'active' ? null : ad.lastSeenAt;
}

/** Calendar days from first seen (not before 2018-01-01) to today while active, else to last seen. */
export function daysRunning(ad: Pick<Ad, 'status' | 'firstSeenAt' | 'lastSeenAt'>, now = Date.now()): number {
  return running({ status: ad.status, start: ad.firstSeenAt, lastSeenAt: ad.lastSeenAt, since2018: true }, now);
}

export const AdMedia = builder.objectRef<Ad>('AdMedia').implement({
  fields: (t) => ({
    type: t.expose('mediaType', { type: AdMediaTypeEnum, description: 'carousel is the carousel creative format, not DCO.' }),
    thumbnailUrl: t.string({ nullable: true, resolve: resolveMediaUrl((p) => p.thumbnailUrl) }),
    mediaUrl: t.string({ nullable: true, resolve: resolveMediaUrl((p) => p.mediaUrl) }),
  }),
});

export const AdAdvertiser = builder.prismaObject('Advertiser', {
  variant: 'AdAdvertiser',
  description: 'The Facebook page that runs the ad.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Equals the Facebook page id.' }),
    name: t.exposeString('name'),
    logoUrl: t.string({ nullable: true, resolve: resolveMediaUrl((p) => p.logoUrl) }),
    facebookPageId: t.exposeString('id'),
    liveAdsCount: t.exposeInt('liveAdsCount'),
    reach30d: t.expose('reach30d', { type: 'SafeInt' }),
    totalReach: t.expose('totalReach', { type: 'SafeInt' }),
    countriesCount: t.exposeInt('countriesCount'),
    facebookLikes: t.exposeInt('facebookLikes'),
    instagramFollowers: t.exposeInt('instagramFollowers'),
  }),
});

/** An ad as the ad object types load it: its fields, its advertiser and its transcript's text (AD_SUMMARY_INCLUDE). */
export type AdSummaryRow = Ad & { advertiser: Advertiser; transcript: { fullText: string } | null };

export const AdContent = builder.objectRef<AdSummaryRow>('AdContent').implement({
  fields: (t) => ({
    title: t.exposeString('title', { nullable: true }),
    body: t.exposeString('body', { nullable: true }),
    transcript: t.string({ nullable: true, description: 'Plain transcript text.', resolve: (ad) => ad.transcript?.fullText ?? null }),
    callToAction: t.exposeString('callToAction', { nullable: true }),
    landingPageUrl: t.exposeString('landingPageUrl', { nullable: true }),
    landingPageDomain: t.exposeString('landingPageDomain', { nullable: true }),
    ctaDescription: t.exposeString('ctaDescription', { nullable: true }),
    ctaLinkDescription: t.exposeString('ctaLinkDescription', { nullable: true }),
  }),
});

export const AdMetrics = builder.objectRef<Ad>('AdMetrics').implement({
  description: 'Reach is the public impressions-style metric of the Meta Ad Library.',
  fields: (t) => ({
    reach: t.expose('reach', { type: 'SafeInt' }),
    aggregatedReach: t.expose('aggregatedReach', { type: 'SafeInt', description: 'Reach summed over the duplicate group.' }),
    estimatedSpend: t.field({
      type: 'SafeInt',
      description: 'Estimated spend in euros: round(reach * cpm / 1000), CPM 9 unless the request sets cpm.',
      resolve: (ad) => estimatedSpend(ad.reach, cpmOf(ad)),
    }),
    duplicates: t.exposeInt('duplicates', { description: 'Number of ads in the duplicate group.' }),
    reachDelta1d: t.expose('reachDelta1d', { type: 'SafeInt' }),
    reachDelta7d: t.expose('reachDelta7d', { type: 'SafeInt' }),
    reachDelta30d: t.expose('reachDelta30d', { type: 'SafeInt' }),
  }),
});

export const AdAudience = builder.objectRef<Ad>('AdAudience').implement({
  fields: (t) => ({
    targetedCountries: t.exposeStringList('targetedCountries', { description: 'ISO 3166-1 alpha-2 codes.' }),
    mainCountry: t.exposeString('mainCountry', { nullable: true, description: 'From EU/UK transparency data; null outside the EU/UK.' }),
    gender: t.field({ type: AudienceGender, resolve: (ad) => ad.gender as typeof AudienceGender.$inferType }),
    ageMin: t.exposeInt('ageMin', { nullable: true }),
    ageMax: t.exposeInt('ageMax', { nullable: true }),
  }),
});

export const AdRank = builder.objectRef<Ad>('AdRank').implement({
  fields: (t) => ({
    positionInPage: t.exposeInt('positionInPage', { nullable: true }),
    currentRank: t.exposeInt('currentRank', { nullable: true, description: 'Rank within the page (1 = best); page-local.' }),
    rankDelta: t.exposeInt('rankDelta', { nullable: true, description: 'previous rank - current rank over 7 days; positive = improved.' }),
    improvementPct: t.exposeFloat('improvementPct', { nullable: true }),
  }),
});

export const AdFlags = builder.objectRef<Ad>('AdFlags').implement({
  fields: (t) => ({
    isEuAd: t.exposeBoolean('isEuAd'),
    isLowReach: t.exposeBoolean('isLowReach'),
    isMediaChanged: t.exposeBoolean('isMediaChanged'),
    hasPartnerBadge: t.exposeBoolean('hasPartnerBadge'),
  }),
});

/**
 * What every ad object loads besides its fields: its advertiser and the transcript's text that `content.transcript`
 * shows. Declared on the object types (as `include`) rather than as a relation field and the `content` field's
 * selection, which made Pothos look up both fields' loader mappings for every row of a list.
 */
export const AD_SUMMARY_INCLUDE = { advertiser: true, transcript: { select: { fullText: true } } } as const;

/** The fields every ad record has, in list rows and in the detail alike. */
export const AdSummaryInterface = builder.prismaInterface('Ad', {
  name: 'AdSummary',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Composite id `<platform>_<number>`.' }),
    collationId: t.string({
      nullable: true,
      description: 'Set when the row stands for a duplicate group of ads sharing one creative.',
      resolve: (ad) => (isCollated(ad) ? ad.collationId : null),
    }),
    platform: t.exposeString('platform'),
    status: t.expose('status', { type: AdStatusEnum }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    firstSeenAt: t.expose('firstSeenAt', { type: 'DateTime' }),
    lastSeenAt: t.field({ type: 'DateTime', nullable: true, description: 'Null while a duplicate group is still active.', resolve: lastSeenAt }),
    daysRunning: t.int({ resolve: (ad) => daysRunning(ad) }),
    media: t.field({ type: AdMedia, resolve: (ad) => ad }),
    advertiser: t.field({ type: AdAdvertiser, resolve: (ad) => (ad as AdSummaryRow).advertiser }),
    content: t.field({ type: AdContent, resolve: (ad) => ad as AdSummaryRow }),
    metrics: t.field({ type: AdMetrics, resolve: (ad) => ad }),
    audience: t.field({ type: AdAudience, resolve: (ad) => ad }),
    rank: t.field({ type: AdRank, resolve: (ad) => ad }),
    flags: t.field({ type: AdFlags, resolve: (ad) => ad }),
  }),
});

export const PublicAd = builder.prismaObject('Ad', {
  variant: 'PublicAd',
  interfaces: [AdSummaryInterface],
  include: AD_SUMMARY_INCLUDE,
  description: 'An ad summary, one row per duplicate group.',
  fields: () => ({}),
});

/** Where an ad's share link answers, below the server's address (src/plugins/use-share-pages.ts). */
export const adSharePath = (slug: string) => `/share/ads/${slug}`;

export const AdShare = builder.prismaObject('AdShare', {
  description: 'A public share link of an ad, stable per workspace and ad.',
  fields: (t) => ({
    adId: t.exposeString('adId'),
    id: t.exposeID('id'),
    slug: t.exposeString('slug'),
    shareUrl: t.string({ resolve: (share, _args, context) => `${context.publicBaseUrl}${adSharePath(share.slug)}` }),
    sharePath: t.string({ resolve: (share) => adSharePath(share.slug) }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

/** Where a market record comes from (additive on the detail records of ads, TikTok items and shops). */
export type ProvenanceView = { source: string; firstFetchedAt: Date | null; lastFetchedAt: Date | null };

/**
 * A record's provenance from its insert-only columns and its latest fetch: `demo` for the demo market's rows, and the
 * first fetch when no later one is known. A snapshot stands for its import's `asOf`, which a backfill sets before the
 * row's first fetch: the last fetch is never shown before the first.
 */
export function provenanceOf(fetchedFrom: string | null, firstFetchedAt: Date | null, lastFetchedAt: Date | null): ProvenanceView {
  const last = lastFetchedAt === null || (firstFetchedAt !== null && lastFetchedAt < firstFetchedAt) ? firstFetchedAt : lastFetchedAt;
  return { source: fetchedFrom ?? 'demo', firstFetchedAt, lastFetchedAt: last };
}

export const Provenance = builder.objectRef<ProvenanceView>('Provenance').implement({
  description: 'Where the record comes from: the source that first brought it in, and when it was fetched first and last.',
  fields: (t) => ({
    source: t.exposeString('source', { description: 'meta-ads, tiktok-ads, shopify or google-ads; demo for the demo market.' }),
    firstFetchedAt: t.expose('firstFetchedAt', { type: 'DateTime', nullable: true, description: 'When a source first brought the record in; null for the demo market.' }),
    lastFetchedAt: t.expose('lastFetchedAt', {
      type: 'DateTime',
      nullable: true,
      description: "The latest fetch: an ad's latest reach snapshot, a TikTok item's profile snapshot, a shop's latest complete fetch; else the first fetch.",
    }),
  }),
});
