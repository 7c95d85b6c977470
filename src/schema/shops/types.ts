import type { Prisma, Shop } from '../../generated/prisma/client.js';
import { builder } from '../builder.js';
import { shopFigures, type CountryShare, type LatestAd, type SeriesPoint, type ShopFigures, type ShopTikTokFigures } from './service/figures-loader.js';
import { resolveMediaUrl } from '../shared/media-url.js';

// The Shop summary (list rows, similar shops, favorites, image search): a Prisma object whose nested
// objects read the shop row, its loaded relations (best sellers, traffic) and its figures (shopFigures).

type BestSeller = { imageUrl: string | null; title: string; price: { toNumber(): number }; currency: string };
type ShopWithCatalog = Shop & { products: BestSeller[] };
type ShopWithTraffic = Shop & { trafficMonths: { month: Date; visits: number }[]; trafficCountries: CountryShare[] };

export const ShopProfile = builder.objectRef<Shop>('ShopProfile').implement({
  fields: (t) => ({
    countryCode: t.exposeString('countryCode', { nullable: true, description: 'Where the shop is based (ISO 3166-1 alpha-2).' }),
    currency: t.exposeString('currency', { nullable: true, description: 'ISO 4217 default currency.' }),
    isShopifyPlus: t.exposeBoolean('isShopifyPlus'),
  }),
});

export const ShopBestSeller = builder.objectRef<BestSeller>('ShopBestSeller').implement({
  fields: (t) => ({
    imageUrl: t.string({ nullable: true, resolve: resolveMediaUrl((p) => p.imageUrl) }),
    title: t.exposeString('title'),
    price: t.float({ description: "In the shop's currency.", resolve: (product) => product.price.toNumber() }),
    currency: t.exposeString('currency'),
  }),
});

export const ShopCatalog = builder.objectRef<ShopWithCatalog>('ShopCatalog').implement({
  fields: (t) => ({
    productsCount: t.exposeInt('productsCount'),
    mainCategory: t.string({ nullable: true, resolve: (shop) => shop.categories[0] ?? null }),
    bestSellers: t.field({ type: [ShopBestSeller], description: 'Up to 3 best-selling products, best first.', resolve: (shop) => shop.products }),
  }),
});

export const SeriesPointRef = builder.objectRef<SeriesPoint>('ShopSeriesPoint').implement({
  description: 'One point of a time series: `period` is the first day (YYYY-MM-DD) of the day, week or month.',
  fields: (t) => ({ period: t.exposeString('period'), value: t.exposeFloat('value') }),
});

export const CountryShareRef = builder.objectRef<CountryShare>('ShopCountryShare').implement({
  fields: (t) => ({
    countryCode: t.exposeString('countryCode', { description: 'ISO 3166-1 alpha-2.' }),
    share: t.exposeFloat('share', { description: 'Fraction 0..1.' }),
  }),
});

const monthPoint = (row: { month: Date; visits: number }): SeriesPoint => ({ period: row.month.toISOString().slice(0, 10), value: row.visits });

export const ShopTraffic = builder.objectRef<ShopWithTraffic>('ShopTraffic').implement({
  fields: (t) => ({
    monthlyVisits: t.exposeInt('monthlyVisits'),
    growth30d: t.exposeFloat('trafficGrowth30d', { nullable: true, description: 'Fraction: 0.18 = +18%.' }),
    history: t.field({ type: [SeriesPointRef], description: 'Monthly visits, the 6 latest months, oldest first.', resolve: (shop) => shop.trafficMonths.map(monthPoint).reverse() }),
    topCountries: t.field({ type: [CountryShareRef], description: 'Visitor countries by share of traffic, largest first (up to 5).', resolve: (shop) => shop.trafficCountries }),
  }),
});

export const ShopAdvertising = builder.objectRef<ShopFigures>('ShopAdvertising').implement({
  description: "Meta/Facebook ads of the shop's linked Facebook pages.",
  fields: (t) => ({
    activeAds: t.exposeInt('activeAds'),
    linkedAdvertisersCount: t.exposeInt('linkedAdvertisersCount'),
    history: t.field({ type: [SeriesPointRef], description: 'Active ads per week (Monday), the 26 latest weeks, oldest first.', resolve: (f) => f.history }),
    topCountries: t.field({ type: [CountryShareRef], description: 'Targeted countries of the active ads by share (up to 5).', resolve: (f) => f.topCountries }),
  }),
});

const ShopTikTokProfileMetrics = builder.objectRef<ShopTikTokFigures>('ShopTikTokProfileMetrics').implement({
  fields: (t) => ({
    followers: t.expose('followers', { type: 'SafeInt' }),
    totalPosts: t.exposeInt('totalPosts'),
    newPosts: t.exposeInt('newPosts', { description: 'Published in the last 30 days.' }),
    totalViews: t.expose('totalViews', { type: 'SafeInt' }),
    totalLikes: t.expose('totalLikes', { type: 'SafeInt' }),
  }),
});

const ShopTikTokActivity = builder.objectRef<ShopTikTokFigures>('ShopTikTokActivity').implement({
  fields: (t) => ({
    activeAds: t.exposeInt('activeAds'),
    totalAds: t.exposeInt('totalAds'),
    avgActiveAds7d: t.exposeFloat('avgActiveAds7d', { nullable: true, description: 'Mean of the live ads of the 7 latest daily snapshots.' }),
    avgActiveAds30d: t.exposeFloat('avgActiveAds30d', { nullable: true, description: 'Mean of the live ads of the 30 latest daily snapshots.' }),
  }),
});

export const ShopTikTok = builder.objectRef<ShopTikTokFigures>('ShopTikTok').implement({
  description: "The shop's TikTok account (its most followed one), when indexed.",
  fields: (t) => ({
    hasTikTok: t.boolean({ resolve: () => true }),
    pageId: t.exposeString('pageId'),
    handle: t.exposeString('handle'),
    profileMetrics: t.field({ type: ShopTikTokProfileMetrics, resolve: (f) => f }),
    activity: t.field({ type: ShopTikTokActivity, resolve: (f) => f }),
    lastUpdatedAt: t.field({ type: 'DateTime', nullable: true, resolve: (f) => (f.lastUpdatedAt ? new Date(f.lastUpdatedAt) : null) }),
  }),
});

export const ShopLatestAd = builder.objectRef<LatestAd>('ShopLatestAd').implement({
  fields: (t) => ({
    id: t.exposeString('id'),
    mediaType: t.string({ description: 'image or video (carousels read as image).', resolve: (ad) => (ad.mediaType === 'video' ? 'video' : 'image') }),
    mediaUrl: t.string({ nullable: true, resolve: resolveMediaUrl((p) => p.mediaUrl) }),
    thumbnailUrl: t.string({ nullable: true, resolve: resolveMediaUrl((p) => p.thumbnailUrl) }),
  }),
});

/** The relations a summary loads with the shop row (one statement with relationLoadStrategy join). */
export const CATALOG_SELECT = {
  products: { where: { bestSellerPosition: { not: null } }, orderBy: [{ bestSellerPosition: 'asc' }, { id: 'asc' }], take: 3, select: { imageUrl: true, title: true, price: true, currency: true } },
} satisfies Prisma.ShopSelect;
export const TRAFFIC_SELECT = {
  trafficMonths: { orderBy: { month: 'desc' }, take: 6, select: { month: true, visits: true } },
  trafficCountries: { orderBy: [{ share: 'desc' }, { countryCode: 'asc' }], take: 5, select: { countryCode: true, share: true } },
} satisfies Prisma.ShopSelect;

/** A Shop summary. Other domains embed it (favorite shops, image search): load the rows with queryFromInfo. */
export const ShopSummary = builder.prismaObject('Shop', {
  variant: 'ShopSummary',
  description: 'A shop (store) summary.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'uuid' }),
    domain: t.exposeString('domain'),
    name: t.exposeString('name'),
    screenshotUrl: t.string({ nullable: true, resolve: resolveMediaUrl((p) => p.screenshotUrl) }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    profile: t.field({ type: ShopProfile, resolve: (shop) => shop }),
    catalog: t.field({ type: ShopCatalog, select: CATALOG_SELECT, resolve: (shop) => shop as ShopWithCatalog }),
    traffic: t.field({ type: ShopTraffic, select: TRAFFIC_SELECT, resolve: (shop) => shop as ShopWithTraffic }),
    advertising: t.field({ type: ShopAdvertising, resolve: (shop, _args, context) => shopFigures(context).load(shop.id) }),
    tiktok: t.field({
      type: ShopTikTok,
      nullable: true,
      description: 'Present when the shop has an indexed TikTok account (REST omits the key otherwise).',
      resolve: async (shop, _args, context) => (await shopFigures(context).load(shop.id)).tiktok,
    }),
    latestAds: t.field({ type: [ShopLatestAd], description: 'Up to 3 most recent Meta ads of the shop, newest first.', resolve: async (shop, _args, context) => (await shopFigures(context).load(shop.id)).latestAds }),
  }),
});
