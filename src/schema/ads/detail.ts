import type { Ad } from '../../generated/prisma/client.js';
import { builder } from '../builder.js';
import { DETAIL } from './service/detail.js';
import { AdSummaryInterface, Provenance, provenanceOf } from './types.js';

const RESOLVED_FROM = Symbol('resolvedFrom');
type Resolved = { [RESOLVED_FROM]?: string };

/** Marks the group lead returned for another member of its duplicate group. */
export function resolvedFromMember<T extends object>(lead: T, requestedId: string): T {
  (lead as Resolved)[RESOLVED_FROM] = requestedId;
  return lead;
}

type Segment = { start: number; end: number; text: string };

const TranscriptSegment = builder.objectRef<Segment>('TranscriptSegment').implement({
  fields: (t) => ({ start: t.exposeFloat('start'), end: t.exposeFloat('end'), text: t.exposeString('text') }),
});

const AdTranscript = builder.prismaObject('AdTranscript', {
  fields: (t) => ({
    language: t.exposeString('language'),
    languageConfidence: t.exposeFloat('languageConfidence'),
    segments: t.field({ type: [TranscriptSegment], resolve: (transcript) => transcript.segments as Segment[] }),
    fullText: t.exposeString('fullText'),
  }),
});

const AdHook = builder.prismaObject('AdHook', {
  fields: (t) => ({
    text: t.exposeString('text'),
    source: t.exposeString('source'),
    sourceDescription: t.exposeString('sourceDescription'),
    isFallback: t.exposeBoolean('isFallback'),
  }),
});

const CreativeAnalysis = builder.objectRef<{ hook: { adId: string } | null }>('CreativeAnalysis');

const AdLinks = builder.objectRef<Ad>('AdLinks').implement({
  fields: (t) => ({
    adLibraryUrl: t.string({ resolve: (ad) => `https://www.facebook.com/ads/library/?id=${ad.id.replace(/^[a-z]+_/, '')}` }),
    landingPageUrl: t.exposeString('landingPageUrl', { nullable: true }),
  }),
});

type LinkedShop = { isPrimary: boolean; shop: { id: string; domain: string; name: string; monthlyVisits: number; categories: string[] } };

const AdShop = builder.objectRef<LinkedShop>('AdShop').implement({
  fields: (t) => ({
    shopId: t.id({ resolve: (link) => link.shop.id }),
    domain: t.string({ resolve: (link) => link.shop.domain }),
    name: t.string({ resolve: (link) => link.shop.name }),
    isPrimary: t.exposeBoolean('isPrimary'),
    traffic: t.int({ description: 'Monthly visits.', resolve: (link) => link.shop.monthlyVisits }),
    categories: t.stringList({ resolve: (link) => link.shop.categories }),
  }),
});

type MetricDay = { date: Date; facebookLikes: number; instagramFollowers: number; totalImpressions: bigint };

const ImpressionsPoint = builder.objectRef<MetricDay>('PageImpressionsPoint').implement({
  fields: (t) => ({ date: t.expose('date', { type: 'Date' }), totalImpressions: t.expose('totalImpressions', { type: 'SafeInt' }) }),
});
const ValuePoint = builder.objectRef<{ date: Date; value: number }>('PageValuePoint').implement({
  fields: (t) => ({ date: t.expose('date', { type: 'Date' }), value: t.exposeInt('value') }),
});

const PageAnalytics = builder.objectRef<MetricDay[]>('PageAnalytics').implement({
  description: "Daily history of the advertiser's page, oldest first.",
  fields: (t) => ({
    impressionsHistory: t.field({ type: [ImpressionsPoint], resolve: (days) => days }),
    facebookLikesHistory: t.field({ type: [ValuePoint], resolve: (days) => days.map((d) => ({ date: d.date, value: d.facebookLikes })) }),
    instagramFollowersHistory: t.field({ type: [ValuePoint], resolve: (days) => days.map((d) => ({ date: d.date, value: d.instagramFollowers })) }),
  }),
});

const ResolvedFrom = builder.objectRef<{ requestedId: string; reason: string }>('ResolvedFrom').implement({
  fields: (t) => ({ requestedId: t.exposeString('requestedId'), reason: t.exposeString('reason') }),
});

export const AdDetail = builder.prismaObject('Ad', {
  variant: 'AdDetail',
  interfaces: [AdSummaryInterface],
  // Everything the detail shows is loaded with the ad (DETAIL: one JSON statement), AD_SUMMARY_INCLUDE among it: its
  // fields read the row rather than each declaring a selection whose loader mapping Pothos looks up on every request.
  include: DETAIL.include,
  description: 'The full ad record; one ad per duplicate group, with the group figures.',
  fields: (t) => ({
    transcript: t.field({ type: AdTranscript, nullable: true, resolve: (ad) => ad.transcript }),
    creativeAnalysis: t.field({ type: CreativeAnalysis, resolve: (ad) => ({ hook: ad.hook }) }),
    links: t.field({ type: AdLinks, resolve: (ad) => ad }),
    shops: t.field({ type: [AdShop], resolve: (ad) => ad.advertiser.shops }),
    pageAnalytics: t.field({ type: PageAnalytics, resolve: (ad) => ad.advertiser.metricDays }),
    resolvedFrom: t.field({
      type: ResolvedFrom,
      nullable: true,
      description: 'Present only when the ad returned is another member of the requested ad\'s duplicate group.',
      resolve: (ad) => {
        const requestedId = (ad as Resolved)[RESOLVED_FROM];
        return requestedId ? { requestedId, reason: 'duplicate_group' } : null;
      },
    }),
    provenance: t.field({
      type: Provenance,
      description: 'lastFetchedAt is the latest fetch of its reach snapshots.',
      resolve: (ad) => provenanceOf(ad.fetchedFrom, ad.firstFetchedAt, ad.reachDays[0]?.fetchedAt ?? null),
    }),
  }),
});

CreativeAnalysis.implement({
  fields: (t) => ({
    hook: t.field({ type: AdHook, nullable: true, resolve: (analysis) => analysis.hook as never }),
  }),
});
