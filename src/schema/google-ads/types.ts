import type { GoogleAd, GoogleAdvertiser } from '../../generated/prisma/client.js';
import { builder } from '../builder.js';
import { GoogleAdMediaTypeEnum, GoogleAdNetworkEnum, GoogleAdStatusEnum } from './enums.js';
import { daysRunning } from './figures.js';
import { resolveMediaUrl } from '../shared/media-url.js';

const GoogleAdMedia = builder.objectRef<GoogleAd>('GoogleAdMedia').implement({
  fields: (t) => ({
    type: t.expose('mediaType', { type: GoogleAdMediaTypeEnum }),
    url: t.string({ nullable: true, resolve: resolveMediaUrl((p) => p.mediaUrl) }),
    format: t.exposeString('format', { description: 'text, shopping, image or video.' }),
  }),
});

const GoogleAdLiveAds = builder.objectRef<GoogleAdvertiser>('GoogleAdLiveAds').implement({
  description: "The advertiser's active Google ads, in all and per network.",
  fields: (t) => ({
    all: t.exposeInt('liveAdsAll'),
    search: t.exposeInt('liveAdsSearch'),
    shopping: t.exposeInt('liveAdsShopping'),
    maps: t.exposeInt('liveAdsMaps'),
    youtube: t.exposeInt('liveAdsYoutube'),
    other: t.exposeInt('liveAdsOther'),
  }),
});

export const GoogleAdAdvertiser = builder.prismaObject('GoogleAdvertiser', {
  variant: 'GoogleAdAdvertiser',
  description: 'The Google Ads Transparency advertiser; websiteId and shopName are set when it is a known shop.',
  fields: (t) => ({
    id: t.exposeString('id'),
    name: t.exposeString('name'),
    shopName: t.exposeString('shopName', { nullable: true }),
    domain: t.exposeString('domain', { nullable: true }),
    websiteId: t.exposeString('websiteId', { nullable: true }),
    logoUrl: t.string({ nullable: true, resolve: resolveMediaUrl((p) => p.logoUrl) }),
    liveAds: t.field({ type: GoogleAdLiveAds, resolve: (advertiser) => advertiser }),
  }),
});

const GoogleAdReach = builder.objectRef<GoogleAd>('GoogleAdReach').implement({
  description: 'Impressions as Google reports them: a range and the estimate inside it.',
  fields: (t) => ({
    value: t.expose('reach', { type: 'SafeInt' }),
    lowerBound: t.expose('reachLowerBound', { type: 'SafeInt' }),
    upperBound: t.expose('reachUpperBound', { type: 'SafeInt' }),
  }),
});

type CountryShare = { countryCode: string; share: number };

const GoogleAdCountry = builder.objectRef<CountryShare>('GoogleAdCountry').implement({
  fields: (t) => ({
    countryCode: t.exposeString('countryCode', { description: 'ISO 3166-1 alpha-2.' }),
    share: t.exposeFloat('share', { description: 'Share of the impressions, 0..1; the shares of an ad add up to 1.' }),
  }),
});

const GoogleAdAudience = builder.objectRef<GoogleAd>('GoogleAdAudience').implement({
  fields: (t) => ({
    mainCountry: t.exposeString('mainCountry', { nullable: true, description: 'The targeted country with the largest share.' }),
    countries: t.field({ type: [GoogleAdCountry], description: 'Targeted countries, largest share first.', resolve: (ad) => ad.countryShares as CountryShare[] }),
    remarketing: t.exposeBoolean('remarketing'),
    interest: t.exposeBoolean('interest'),
  }),
});

export const GoogleAdRef = builder.prismaObject('GoogleAd', {
  description: 'A Google ad of the Google Ads Transparency library.',
  fields: (t) => ({
    id: t.exposeString('id', { description: 'Composite id `google_<googleAdId>`.' }),
    googleAdId: t.exposeString('googleAdId'),
    status: t.expose('status', { type: GoogleAdStatusEnum }),
    network: t.expose('network', { type: GoogleAdNetworkEnum }),
    firstSeenAt: t.expose('firstSeenAt', { type: 'DateTime' }),
    lastSeenAt: t.expose('lastSeenAt', { type: 'DateTime' }),
    daysRunning: t.int({ resolve: (ad) => daysRunning(ad) }),
    media: t.field({ type: GoogleAdMedia, resolve: (ad) => ad }),
    advertiser: t.relation('advertiser', { type: GoogleAdAdvertiser }),
    reach: t.field({ type: GoogleAdReach, resolve: (ad) => ad }),
    audience: t.field({ type: GoogleAdAudience, resolve: (ad) => ad }),
  }),
});
