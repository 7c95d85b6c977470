import { queryFromInfo } from '@pothos/plugin-prisma';
import { z } from 'zod';
import type { Prisma, Shop } from '../../generated/prisma/client.js';
import { builder } from '../builder.js';
import { CATALOG_SELECT, CountryShareRef, SeriesPointRef, ShopBestSeller, ShopLatestAd, ShopTikTok, TRAFFIC_SELECT } from './types.js';
import { shopFigures, type ShopFigures } from './service/figures-loader.js';
import { LINKED_ADVERTISERS_SELECT, LinkedAdvertiserRef, linkedAdvertisers, type LinkedAdvertiserLink } from './linked.js';
import { SimilarShopRef } from './queries.js';
import { ShopSocials, type SocialDay } from './socials.js';
import { shopDetail, shopProvenance } from './service/find.js';
import { Provenance } from '../ads/types.js';
import { similarShopsById } from './service/similar.js';
import { resolveMediaUrl } from '../shared/media-url.js';

// GET /v1/shops/{shopId}: the summary's figures plus trustpilot, socials, technology and a similar-shops preview.

type App = { app: { id: number; label: string; iconUrl: string | null; shopifyUrl: string | null } };
type Pixel = { pixel: { id: string; slug: string; name: string; iconUrl: string | null } };
type ShopDetailRow = Shop & {
  socialDays: SocialDay[];
  theme: { name: string } | null;
  apps: App[];
  pixels: Pixel[];
  advertisers: LinkedAdvertiserLink[];
};

export const ShopDetailProfile = builder.objectRef<Shop>('ShopDetailProfile').implement({
  fields: (t) => ({
    countryCode: t.exposeString('countryCode', { nullable: true }),
    currency: t.exposeString('currency', { nullable: true }),
    isShopifyPlus: t.exposeBoolean('isShopifyPlus'),
    defaultLanguage: t.exposeString('defaultLanguage', { nullable: true, description: 'ISO 639-1.' }),
  }),
});

export const ShopTrustpilot = builder.objectRef<Shop>('ShopTrustpilot').implement({
  fields: (t) => ({
    rating: t.exposeFloat('trustpilotRating', { nullable: true, description: '0..5.' }),
    reviewCount: t.exposeInt('trustpilotReviews', { nullable: true }),
    brandName: t.exposeString('name'),
    brandLogo: t.string({ nullable: true, resolve: resolveMediaUrl((p) => p.logoUrl) }),
    url: t.exposeString('trustpilotUrl', { nullable: true }),
  }),
});

const ShopDetailCatalog = builder.objectRef<ShopDetailRow & { products: never[] }>('ShopDetailCatalog').implement({
  fields: (t) => ({
    productsCount: t.exposeInt('productsCount'),
    mainCategory: t.string({ nullable: true, resolve: (shop) => shop.categories[0] ?? null }),
    bestSellers: t.field({ type: [ShopBestSeller], description: 'Up to 3 best-selling products, best first.', resolve: (shop) => shop.products }),
    categories: t.exposeStringList('categories'),
    myShopifyDomain: t.exposeString('myShopifyDomain', { nullable: true }),
  }),
});

type TrafficRow = ShopDetailRow & { trafficMonths: { month: Date; visits: number }[]; trafficCountries: { countryCode: string; share: number }[] };

const ShopDetailTraffic = builder.objectRef<TrafficRow>('ShopDetailTraffic').implement({
  fields: (t) => ({
    monthlyVisits: t.exposeInt('monthlyVisits'),
    growth30d: t.exposeFloat('trafficGrowth30d', { nullable: true, description: 'Fraction: 0.18 = +18%.' }),
    history: t.field({ type: [SeriesPointRef], description: 'Monthly visits, the 6 latest months, oldest first.', resolve: (shop) => shop.trafficMonths.map((m) => ({ period: m.month.toISOString().slice(0, 10), value: m.visits })).reverse() }),
    topCountries: t.field({ type: [CountryShareRef], resolve: (shop) => shop.trafficCountries }),
    growth90d: t.exposeFloat('trafficGrowth90d', { nullable: true }),
    growth180d: t.exposeFloat('trafficGrowth180d', { nullable: true }),
    mainMarkets: t.field({ type: [CountryShareRef], description: 'Alias of topCountries.', resolve: (shop) => shop.trafficCountries }),
  }),
});

type AdvertisingDetail = ShopFigures & { links: LinkedAdvertiserLink[] };

const ShopAdvertisingSummary = builder.objectRef<LinkedAdvertiserLink[]>('ShopAdvertisingSummary').implement({
  description: "Totals of the shop's linked Facebook pages.",
  fields: (t) => ({
    liveAdsCount: t.int({ resolve: (links) => links.reduce((sum, l) => sum + l.advertiser.liveAdsCount, 0) }),
    reach30d: t.field({ type: 'SafeInt', resolve: (links) => links.reduce((sum, l) => sum + Number(l.advertiser.reach30d), 0) }),
    totalReach: t.field({ type: 'SafeInt', resolve: (links) => links.reduce((sum, l) => sum + Number(l.advertiser.totalReach), 0) }),
    facebookLikes: t.int({ resolve: (links) => links.reduce((sum, l) => sum + l.advertiser.facebookLikes, 0) }),
    instagramFollowers: t.int({ resolve: (links) => links.reduce((sum, l) => sum + l.advertiser.instagramFollowers, 0) }),
  }),
});

const ShopDetailAdvertising = builder.objectRef<AdvertisingDetail>('ShopDetailAdvertising').implement({
  fields: (t) => ({
    activeAds: t.exposeInt('activeAds'),
    linkedAdvertisersCount: t.exposeInt('linkedAdvertisersCount'),
    history: t.field({ type: [SeriesPointRef], description: 'Active ads per week (Monday), the 26 latest weeks, oldest first.', resolve: (f) => f.history }),
    topCountries: t.field({ type: [CountryShareRef], resolve: (f) => f.topCountries }),
    linkedAdvertisers: t.field({ type: [LinkedAdvertiserRef], resolve: (f) => linkedAdvertisers(f.links) }),
    summary: t.field({ type: ShopAdvertisingSummary, resolve: (f) => f.links }),
    adsCountryStats: t.field({ type: [CountryShareRef], description: 'Targeted countries of the active ads by share.', resolve: (f) => f.topCountries }),
  }),
});

const ShopApp = builder.objectRef<App['app']>('ShopApp').implement({
  fields: (t) => ({ id: t.exposeInt('id'), label: t.exposeString('label'), iconUrl: t.string({ nullable: true, resolve: resolveMediaUrl((p) => p.iconUrl) }), shopifyUrl: t.exposeString('shopifyUrl', { nullable: true }) }),
});
const ShopPixel = builder.objectRef<Pixel['pixel']>('ShopPixel').implement({
  fields: (t) => ({ id: t.exposeString('id'), slug: t.exposeString('slug'), name: t.exposeString('name'), iconUrl: t.string({ nullable: true, resolve: resolveMediaUrl((p) => p.iconUrl) }) }),
});
export const ShopTechnology = builder.objectRef<ShopDetailRow>('ShopTechnology').implement({
  fields: (t) => ({
    theme: t.string({ nullable: true, description: 'Shopify theme name.', resolve: (shop) => shop.theme?.name ?? null }),
    apps: t.field({ type: [ShopApp], resolve: (shop) => shop.apps.map((a) => a.app) }),
    pixels: t.field({ type: [ShopPixel], resolve: (shop) => shop.pixels.map((p) => p.pixel) }),
  }),
});

export const TECHNOLOGY_SELECT = {
  theme: { select: { name: true } },
  apps: { select: { app: true }, orderBy: { appId: 'asc' } },
  pixels: { select: { pixel: true }, orderBy: { pixelId: 'asc' } },
} satisfies Prisma.ShopSelect;

/** A trustpilot object for a shop that has a Trustpilot page, else null. */
export const trustpilotOf = (shop: Shop) => (shop.trustpilotUrl || shop.trustpilotRating != null ? shop : null);

const SIMILAR_PREVIEW = 6;

export const ShopDetail = builder.prismaObject('Shop', {
  variant: 'ShopDetail',
  description: 'A shop with its detail.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'uuid' }),
    domain: t.exposeString('domain'),
    name: t.exposeString('name'),
    screenshotUrl: t.string({ nullable: true, resolve: resolveMediaUrl((p) => p.screenshotUrl) }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    profile: t.field({ type: ShopDetailProfile, resolve: (shop) => shop }),
    trustpilot: t.field({ type: ShopTrustpilot, nullable: true, description: 'Null when the shop has no Trustpilot page.', resolve: trustpilotOf }),
    socials: t.field({ type: ShopSocials, select: { socialDays: { orderBy: { date: 'desc' }, take: 1 } }, resolve: (shop) => shop as unknown as ShopDetailRow }),
    catalog: t.field({ type: ShopDetailCatalog, select: CATALOG_SELECT, resolve: (shop) => shop as never }),
    traffic: t.field({ type: ShopDetailTraffic, select: TRAFFIC_SELECT, resolve: (shop) => shop as never }),
    advertising: t.field({
      type: ShopDetailAdvertising,
      select: { advertisers: LINKED_ADVERTISERS_SELECT },
      resolve: async (shop, _args, context) => ({ ...(await shopFigures(context).load(shop.id)), links: shop.advertisers as unknown as LinkedAdvertiserLink[] }),
    }),
    technology: t.field({
      type: ShopTechnology,
      select: TECHNOLOGY_SELECT,
      resolve: (shop) => shop as unknown as ShopDetailRow,
    }),
    tiktok: t.field({ type: ShopTikTok, nullable: true, resolve: async (shop, _args, context) => (await shopFigures(context).load(shop.id)).tiktok }),
    latestAds: t.field({ type: [ShopLatestAd], resolve: async (shop, _args, context) => (await shopFigures(context).load(shop.id)).latestAds }),
    similarShops: t.field({
      type: [SimilarShopRef],
      description: 'Up to 6 most similar shops (GET /v1/shops/{identifier}/similar has them all).',
      resolve: async (shop, _args, context, info) =>
        (await similarShopsById(context, queryFromInfo({ context, info, path: ['shop'] }), shop.id, { sortBy: 'relevance', order: 'desc' }, { limit: SIMILAR_PREVIEW, offset: 0 })).data,
    }),
    provenance: t.field({
      type: Provenance,
      description: "Where the shop's products come from: the first imported product's source and first fetch, and the store's latest complete fetch.",
      resolve: (shop, _args, context) => shopProvenance(context.prisma, shop),
    }),
  }),
});

builder.queryFields((t) => ({
  shop: t.prismaField({
    type: ShopDetail,
    nullable: true,
    authScopes: { workspace: true },
    description: 'One shop with its detail (GET /v1/shops/{shopId}).',
    args: { shopId: t.arg.string({ required: true, validate: z.string().min(1).max(128) }) },
    resolve: (query, _root, args, context) => shopDetail(context, args.shopId, query),
  }),
}));
