import { builder } from '../builder.js';
import { extrasOf, type PageProfile, type Statistics } from './service.js';
import { brandtrackerSelect, BrandtrackerSummary, globalOf } from './types.js';

// The detail of one brandtracker: the summary plus its page's profile and the statistics of its ads
// (service/detail.ts loads them).

const PageProfileRef = builder.objectRef<PageProfile>('BrandtrackerPageProfile').implement({
  description: "The brand's Facebook page (all null for a website tracked without a page).",
  fields: (t) => ({
    about: t.exposeString('about', { nullable: true }),
    category: t.exposeString('category', { nullable: true }),
    facebookLikes: t.exposeInt('facebookLikes', { nullable: true }),
    instagramFollowers: t.exposeInt('instagramFollowers', { nullable: true }),
    instagramUsername: t.exposeString('instagramUsername', { nullable: true }),
    profileUri: t.exposeString('profileUri', { nullable: true }),
    runningAds: t.exposeInt('runningAds', { nullable: true }),
  }),
});

const LiveAdCount = builder.objectRef<Statistics['liveAdCount']>('BrandtrackerLiveAdCount').implement({
  fields: (t) => ({ activeCount: t.exposeInt('activeCount'), inactiveCount: t.exposeInt('inactiveCount') }),
});

const StatisticsRef = builder.objectRef<Statistics>('BrandtrackerStatistics').implement({
  fields: (t) => ({
    urlCount: t.field({ type: 'JSON', description: 'Active ads per landing-page URL (the 20 most used).', resolve: (s) => s.urlCount }),
    ctaCount: t.field({ type: 'JSON', description: 'Active ads per call to action (the 20 most used).', resolve: (s) => s.ctaCount }),
    liveAdCount: t.field({ type: LiveAdCount, resolve: (s) => s.liveAdCount }),
    formatCount: t.field({ type: 'JSON', description: 'Active ads per media type.', resolve: (s) => s.formatCount }),
    euData: t.field({ type: 'JSON', nullable: true, description: '`{ adsCount, activeAdsCount, reach }` of the EU ads; null when there are none.', resolve: (s) => s.euData }),
  }),
});

export const BrandtrackerDetail = builder.prismaObject('BrandtrackerLink', {
  variant: 'BrandtrackerDetail',
  interfaces: [BrandtrackerSummary],
  description: 'One tracked brand with its page profile and ad statistics.',
  fields: (t) => ({
    createdAt: t.field({ type: 'DateTime', description: 'When the brand was first tracked (by any workspace).', select: brandtrackerSelect, resolve: (link) => globalOf(link).createdAt }),
    updatedAt: t.field({ type: 'DateTime', select: brandtrackerSelect, resolve: (link) => globalOf(link).updatedAt }),
    pageProfile: t.field({ type: PageProfileRef, resolve: (link) => extrasOf(link).pageProfile }),
    statistics: t.field({ type: StatisticsRef, resolve: (link) => extrasOf(link).statistics }),
  }),
});
