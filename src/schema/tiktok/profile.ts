import type { TikTokPageSnapshot, TikTokPin } from '../../generated/prisma/client.js';
import { builder } from '../builder.js';
import { shopFaviconUrl, shopLogoUrl } from './figures.js';
import { mediaUrl, resolveMediaUrl } from '../shared/media-url.js';

// Who posted an item: the profile, its latest daily snapshot and the item's pin history on it, and the shop.

export const TikTokProfile = builder.prismaObject('TikTokProfile', {
  description: 'The TikTok account that posted the item; `id` is the tiktokPageId.',
  fields: (t) => ({
    id: t.exposeString('id'),
    handle: t.exposeString('handle'),
    name: t.exposeString('name'),
    avatarUrl: t.string({ nullable: true, resolve: resolveMediaUrl((p) => p.avatarUrl) }),
    bio: t.exposeString('bio', { nullable: true }),
    bioUrl: t.exposeString('bioUrl', { nullable: true }),
    accountType: t.exposeString('accountType', { description: 'business, creator or personal.' }),
    secUid: t.exposeString('secUid'),
    followers: t.expose('followers', { type: 'SafeInt' }),
    following: t.exposeInt('following'),
    totalTikToks: t.exposeInt('totalTikToks'),
    newTikToks: t.exposeInt('newTikToks', { description: 'Published in the last 30 days.' }),
    percentAds: t.exposeFloat('percentAds'),
    views: t.expose('views', { type: 'SafeInt' }),
    likes: t.expose('likes', { type: 'SafeInt' }),
    pageCreation: t.expose('pageCreation', { type: 'DateTime', nullable: true }),
  }),
});

export const TikTokShop = builder.prismaObject('Shop', {
  variant: 'TikTokShop',
  description: 'The shop the item promotes or belongs to.',
  fields: (t) => ({
    id: t.exposeID('id'),
    domain: t.exposeString('domain'),
    name: t.exposeString('name'),
    logoUrl: t.string({ resolve: (shop, _args, context) => mediaUrl(shop.logoUrl ?? shopLogoUrl(shop.id), context.publicBaseUrl) }),
    faviconUrl: t.string({ resolve: (shop, _args, context) => mediaUrl(shop.faviconUrl ?? shopFaviconUrl(shop.domain), context.publicBaseUrl) }),
    countryCode: t.exposeString('countryCode', { nullable: true }),
    monthlyVisits: t.exposeInt('monthlyVisits'),
    trafficGrowth30d: t.exposeFloat('trafficGrowth30d', { nullable: true, description: 'Fraction: 0.18 = +18%.' }),
    productsCount: t.exposeInt('productsCount'),
    googleCategoryIds: t.exposeIntList('categoryIds'),
  }),
});

type Pin = Pick<TikTokPin, 'isCurrent' | 'firstPinnedAt' | 'lastPinnedAt' | 'lastUnpinnedAt'>;
export const NEVER_PINNED: Pin = { isCurrent: false, firstPinnedAt: null as never, lastPinnedAt: null as never, lastUnpinnedAt: null };

export const TikTokPinRef = builder.objectRef<Pin>('TikTokPin').implement({
  description: 'Pin history on the profile; the dates are null for an item never pinned.',
  fields: (t) => ({
    isCurrent: t.exposeBoolean('isCurrent'),
    firstPinnedAt: t.expose('firstPinnedAt', { type: 'DateTime', nullable: true }),
    lastPinnedAt: t.expose('lastPinnedAt', { type: 'DateTime', nullable: true }),
    lastUnpinnedAt: t.expose('lastUnpinnedAt', { type: 'DateTime', nullable: true }),
  }),
});

export const TikTokPageSnapshotRef = builder.objectRef<TikTokPageSnapshot>('TikTokPageSnapshot').implement({
  description: "The profile's latest daily snapshot: live ads and organic items, and the day's gains.",
  fields: (t) => ({
    recordedAt: t.expose('recordedAt', { type: 'DateTime' }),
    adsCount: t.exposeInt('adsCount'),
    organicCount: t.exposeInt('organicCount'),
    totalTikToks: t.exposeInt('totalTikToks'),
    dailyViews: t.expose('dailyViews', { type: 'SafeInt' }),
    dailyLikes: t.expose('dailyLikes', { type: 'SafeInt' }),
    dailyFollowers: t.exposeInt('dailyFollowers'),
  }),
});
