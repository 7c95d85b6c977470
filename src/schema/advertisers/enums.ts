import { builder } from '../builder.js';

export const AdvertiserSort = builder.enumType('AdvertiserSort', {
  values: ['relevance', 'newest', 'activeAds', 'newAds', 'euAdsShare', 'reach', 'reach14d', 'followers'] as const,
  description:
    'relevance: text rank of the brand search (without one, the most active ads); newest: the newest Facebook pages; activeAds: live ads; ' +
    'newAds: ads launched in adsLaunchedPeriod; euAdsShare: share of the live ads shown in the EU/UK; reach: reach over reachWindow; ' +
    'reach14d: reach over the last 14 days; followers: Facebook page likes.',
});
export const AdvertiserSearchType = builder.enumType('AdvertiserSearchType', {
  values: ['brand', 'domain'] as const,
  description: "brand: words of the page's name; domain: a linked shop on the domain (or a subdomain of it).",
});
export const AdvertiserQuerySearchType = builder.enumType('AdvertiserQuerySearchType', {
  values: ['brand', 'domain', 'adCopy', 'websiteCopy', 'urlContains'] as const,
  description: "adCopy: words of the page's ads; websiteCopy and urlContains: text inside the ads' landing-page URLs.",
});
export const AdvertiserAdsWindow = builder.enumType('AdvertiserAdsWindow', {
  values: ['current', 'last24h', 'last7d', 'last14d', 'last30d'] as const,
  description: 'current: now; lastN: at any time in the last N days.',
});
export const AdsLaunchedPeriod = builder.enumType('AdsLaunchedPeriod', { values: ['last24h', 'last7d', 'last14d', 'last30d', 'last90d'] as const });
export const AdvertiserReachPeriod = builder.enumType('AdvertiserReachPeriod', {
  values: ['last24h', 'last7d', 'last14d', 'last30d', 'last90d', 'total'] as const,
  description: "The page's reach (Meta's impressions-style figure) over a window ending at the latest daily snapshot; total is all-time.",
});
export const PageType = builder.enumType('PageType', { values: ['influencer', 'brand'] as const });
export const ShopifyLinked = builder.enumType('ShopifyLinked', {
  values: ['yes', 'no', 'all'] as const,
  description: 'yes: a linked shop runs on Shopify; no: none does; all: no filter.',
});
export const PageAudienceGender = builder.enumType('PageAudienceGender', {
  values: ['male', 'female', 'all'] as const,
  description: "The gender the page's audience leans to; all: no filter.",
});

export const AdvertiserAdsSort = builder.enumType('AdvertiserAdsSort', {
  values: ['newest', 'createdAt', 'longestRunning', 'reach', 'duplicates'] as const,
  description: 'newest: first seen; createdAt: created; longestRunning: days running; reach: the ad reach; duplicates: ads in the duplicate group.',
});
export const AdvertiserAdMediaType = builder.enumType('AdvertiserAdMediaType', { values: ['all', 'image', 'video'] as const });

export type AdsWindow = 'current' | 'last24h' | 'last7d' | 'last14d' | 'last30d';
export type LaunchedPeriod = 'last24h' | 'last7d' | 'last14d' | 'last30d' | 'last90d';
export type ReachPeriodValue = LaunchedPeriod | 'total';

/** Days of each window name. */
export const WINDOW_DAYS = { last24h: 1, last7d: 7, last14d: 14, last30d: 30, last90d: 90 } as const;
export const CountryFilterMode = builder.enumType('CountryFilterMode', {
  values: ['reach', 'adCount'] as const,
  description: 'adCount: a country counts when an ad targets it; reach: when an ad has reach there (EU/UK transparency data).',
});
