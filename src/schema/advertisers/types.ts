import type { Advertiser } from '../../generated/prisma/client.js';
import { PublicAd } from '../ads/types.js';
import { builder } from '../builder.js';
import { countryDistribution, type AdReach } from './figures.js';
import { mainLandingPages, type LandingPageUse } from './service/landing-pages.js';
import { resolveMediaUrl } from '../shared/media-url.js';

// The Facebook page that advertises, as the specification shows it: a summary in lists, a detail on its own.

const LAST_ADS_IN_SUMMARY = 3;
const LAST_ADS_IN_DETAIL = 10;

export const AdvertiserProfile = builder.objectRef<Advertiser>('AdvertiserProfile').implement({
  fields: (t) => ({
    likes: t.exposeInt('facebookLikes', { description: 'Facebook page likes.' }),
    instagramFollowers: t.exposeInt('instagramFollowers'),
    createdAt: t.expose('pageCreatedAt', { type: 'DateTime', nullable: true, description: 'When the Facebook page was created (the page-creation filters use it).' }),
  }),
});

const AdvertiserAdvertising = builder.objectRef<Advertiser>('AdvertiserAdvertising').implement({
  fields: (t) => ({
    activeAds: t.exposeInt('liveAdsCount'),
    reach30d: t.expose('reach30d', { type: 'SafeInt', description: 'Page reach over the last 30 days.' }),
  }),
});

type AdPreview = { id: string; mediaUrl: string | null; thumbnailUrl: string | null };

const AdvertiserLastAd = builder.objectRef<AdPreview>('AdvertiserLastAd').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    mediaUrl: t.string({ nullable: true, resolve: resolveMediaUrl((p) => p.mediaUrl) }),
    thumbnailUrl: t.string({ nullable: true, resolve: resolveMediaUrl((p) => p.thumbnailUrl) }),
  }),
});

const AdvertiserLandingPage = builder.objectRef<LandingPageUse>('AdvertiserLandingPage').implement({
  fields: (t) => ({
    landingPage: t.exposeString('landingPage'),
    screenshotUrl: t.string({ nullable: true, resolve: resolveMediaUrl((p) => p.screenshotUrl) }),
  }),
});

/** What the summary and the detail share, in the specification's order. */
export const AdvertiserInterface = builder.prismaInterface('Advertiser', {
  name: 'AdvertiserRecord',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Equals the Facebook page id.' }),
    platform: t.string({ resolve: () => 'facebook' }),
    facebookPageId: t.exposeString('id'),
    name: t.exposeString('name'),
    logoUrl: t.string({ nullable: true, resolve: resolveMediaUrl((p) => p.logoUrl) }),
    profile: t.field({ type: AdvertiserProfile, resolve: (advertiser) => advertiser }),
  }),
});

const newestLeads = { where: { isGroupLead: true }, orderBy: [{ firstSeenAt: 'desc' as const }, { id: 'asc' as const }] };

export const AdvertiserSummary = builder.prismaObject('Advertiser', {
  variant: 'AdvertiserSummary',
  description: 'A Facebook page that advertises, as listed.',
  interfaces: [AdvertiserInterface],
  fields: (t) => ({
    advertising: t.field({ type: AdvertiserAdvertising, resolve: (advertiser) => advertiser }),
    lastAds: t.field({
      type: [AdvertiserLastAd],
      description: `The page's ${LAST_ADS_IN_SUMMARY} newest ads (one per duplicate group).`,
      select: { ads: { ...newestLeads, take: LAST_ADS_IN_SUMMARY, select: { id: true, mediaUrl: true, thumbnailUrl: true } } },
      resolve: (advertiser) => advertiser.ads,
    }),
    mainLandingPages: t.field({
      type: [AdvertiserLandingPage],
      description: "Where the page's ads lead (landing pages without query string), the most used first, at most 3.",
      resolve: (advertiser, _args, context) => mainLandingPages(context).load(advertiser.id),
    }),
  }),
});

type LinkedShop = { isPrimary: boolean; shop: { id: string; domain: string; name: string } };

const AdvertiserLinkedShop = builder.objectRef<LinkedShop>('AdvertiserLinkedShop').implement({
  fields: (t) => ({
    shopId: t.id({ resolve: (link) => link.shop.id }),
    domain: t.string({ resolve: (link) => link.shop.domain }),
    name: t.string({ resolve: (link) => link.shop.name }),
    isPrimary: t.exposeBoolean('isPrimary', { description: "The page's primary shop." }),
  }),
});

const CountryShare = builder.objectRef<{ countryCode: string; share: number }>('AdvertiserCountryShare').implement({
  fields: (t) => ({
    countryCode: t.exposeString('countryCode', { description: 'ISO 3166-1 alpha-2.' }),
    share: t.exposeFloat('share', { description: 'Share of the active ads\' reach, 0..1 (each ad\'s reach split evenly over its targeted countries).' }),
  }),
});

type DetailAdvertising = Advertiser & { ads: AdReach[] };

const AdvertiserDetailAdvertising = builder.objectRef<DetailAdvertising>('AdvertiserDetailAdvertising').implement({
  fields: (t) => ({
    activeAds: t.exposeInt('liveAdsCount'),
    reach30d: t.expose('reach30d', { type: 'SafeInt', description: 'Page reach over the last 30 days.' }),
    countryDistribution: t.field({ type: [CountryShare], resolve: (advertiser) => countryDistribution(advertiser.ads) }),
  }),
});

export const AdvertiserDetail = builder.prismaObject('Advertiser', {
  variant: 'AdvertiserDetail',
  description: 'A Facebook page that advertises, with its shops, where its ads reach and its newest ads.',
  interfaces: [AdvertiserInterface],
  fields: (t) => ({
    linkedShops: t.field({
      type: [AdvertiserLinkedShop],
      description: 'The primary shop first.',
      select: { shops: { select: { isPrimary: true, shop: { select: { id: true, domain: true, name: true } } }, orderBy: [{ isPrimary: 'desc' }, { shopId: 'asc' }] } },
      resolve: (advertiser) => advertiser.shops,
    }),
    advertising: t.field({
      type: AdvertiserDetailAdvertising,
      select: { ads: { where: { isGroupLead: true, status: 'active' }, select: { reach: true, targetedCountries: true } } },
      resolve: (advertiser) => advertiser as DetailAdvertising,
    }),
    lastAds: t.relation('ads', {
      type: PublicAd,
      description: `The page's ${LAST_ADS_IN_DETAIL} newest ads (one per duplicate group), as ad summaries.`,
      query: { ...newestLeads, take: LAST_ADS_IN_DETAIL },
    }),
  }),
});
