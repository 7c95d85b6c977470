import type { Product, ProductWeek, Shop } from '../../generated/prisma/client.js';
import { builder } from '../builder.js';
import { mediaUrl } from '../shared/media-url.js';
import {
  adsView, bestSellerRankView, euMetricsView, priceView, reviewsView, salesView, weekViews,
  type AdsView, type BestSellerRankView, type CountryActiveAdsView, type CountryReach, type EuMetricsView, type PriceView, type ReviewsView,
  type RevenueRangeView, type SalesView, type WeekView,
} from './views.js';
import { resolveMediaUrl, resolveMediaUrls } from '../shared/media-url.js';

// The Product record of the specification, one object per nested group. Each group's resolver builds the group
// from the loaded row once (views.ts), as plain fields: a page of products runs one resolver per group, not per field.

const ProductPrice = builder.objectRef<PriceView>('ProductPrice').implement({
  fields: (t) => ({
    amount: t.exposeFloat('amount'),
    currency: t.exposeString('currency', { description: "ISO 4217; the shop's storefront currency." }),
    amountUsd: t.exposeFloat('amountUsd'),
    compareAtAmount: t.exposeFloat('compareAtAmount', { nullable: true }),
    onSale: t.exposeBoolean('onSale'),
    discountPercent: t.exposeFloat('discountPercent', { nullable: true }),
    isSubscription: t.exposeBoolean('isSubscription'),
    promoTypes: t.exposeStringList('promoTypes', { description: 'Promotions seen on the product; percent-off is the one the filter matches.' }),
  }),
});

const ProductReviews = builder.objectRef<ReviewsView>('ProductReviews').implement({
  fields: (t) => ({ rating: t.exposeFloat('rating', { nullable: true }), count: t.exposeInt('count') }),
});

const ProductBestSellerRank = builder.objectRef<BestSellerRankView>('ProductBestSellerRank').implement({
  fields: (t) => ({
    position: t.exposeInt('position', { nullable: true, description: "Rank among the shop's products by sales (1 = best seller)." }),
    percentile: t.exposeFloat('percentile', { nullable: true, description: '100 = the top of the shop.' }),
  }),
});

const RevenueRange = builder.objectRef<RevenueRangeView>('ProductRevenueRange').implement({
  fields: (t) => ({ min: t.exposeFloat('min'), mean: t.exposeFloat('mean'), max: t.exposeFloat('max') }),
});

const ProductSales = builder.objectRef<SalesView>('ProductSales').implement({
  description: 'Estimates (USD) from the shop’s sales readings.',
  fields: (t) => ({
    dailyRevenueUsd: t.exposeFloat('dailyRevenueUsd'),
    dailyRevenueRangeUsd: t.expose('dailyRevenueRangeUsd', { type: RevenueRange }),
    monthlyRevenueUsd: t.exposeFloat('monthlyRevenueUsd'),
    dailyUnitsSold: t.exposeFloat('dailyUnitsSold'),
    monthlyUnitsSold: t.exposeInt('monthlyUnitsSold'),
  }),
});

const CountryActiveAds = builder.objectRef<CountryActiveAdsView>('ProductCountryActiveAds').implement({
  fields: (t) => ({ countryCode: t.exposeString('countryCode'), activeAds: t.exposeInt('activeAds') }),
});

const ProductAds = builder.objectRef<AdsView>('ProductAds').implement({
  description: 'The Meta ads promoting the product.',
  fields: (t) => ({
    active: t.exposeInt('active'),
    total: t.exposeInt('total'),
    launched30d: t.exposeInt('launched30d'),
    weekOverWeekGrowth: t.exposeFloat('weekOverWeekGrowth', { nullable: true }),
    adShare: t.exposeFloat('adShare', { description: "Percent of the shop's active ads." }),
    advertisersCount: t.exposeInt('advertisersCount'),
    hasPartnershipAds: t.exposeBoolean('hasPartnershipAds'),
    previewUrls: t.stringList({ resolve: resolveMediaUrls((p) => p.previewUrls) }),
    activeByCountry: t.expose('activeByCountry', { type: [CountryActiveAds] }),
    sellingCountries: t.exposeStringList('sellingCountries'),
  }),
});

const CountryReachRef = builder.objectRef<CountryReach>('ProductCountryReach').implement({
  fields: (t) => ({ countryCode: t.exposeString('countryCode'), reach: t.expose('reach', { type: 'SafeInt' }) }),
});

const ProductEuMetrics = builder.objectRef<EuMetricsView>('ProductEuMetrics').implement({
  description: 'EU/UK delivery (Pro plans and above). Below Pro, locked is true and every figure is null. Spend is EU reach priced at the request cpm.',
  fields: (t) => ({
    locked: t.exposeBoolean('locked'),
    spendUsd: t.exposeFloat('spendUsd', { nullable: true }),
    dailySpendUsd: t.exposeFloat('dailySpendUsd', { nullable: true }),
    reach: t.expose('reach', { type: 'SafeInt', nullable: true }),
    spendShare: t.exposeFloat('spendShare', { nullable: true, description: "Percent of the shop's EU spend." }),
    reachByCountry: t.expose('reachByCountry', { type: [CountryReachRef], nullable: true }),
  }),
});

/** The shop fields a product shows (ProductShop): the whole shop row was a third of a page's JSON. */
const SHOP_SELECT = {
  id: true, domain: true, name: true, logoUrl: true, countryCode: true, currency: true,
  productsCount: true, monthlyVisits: true, monthlyRevenueUsd: true, createdAt: true, categoryIds: true,
} as const;
type ShopRow = Pick<Shop, keyof typeof SHOP_SELECT>;

const WEEK_SELECT = { weekStart: true, weekEnd: true, activeAds: true, euDailySpendUsd: true, euDailyReach: true } as const;
type Week = Pick<ProductWeek, keyof typeof WEEK_SELECT>;

/**
 * What every product object loads besides its fields: its weeks (weeklyHistory) and its shop. Declared on the object
 * type (as `include`) rather than as a relation field and a field's selection, which made Pothos look up both fields'
 * loader mappings for every row of a list; products/service/by-ids.ts loads the same in one JSON statement.
 */
export const PRODUCT_INCLUDE = { weeks: { orderBy: { weekStart: 'asc' }, select: WEEK_SELECT }, shop: { select: SHOP_SELECT } } as const;

/** A product as the product object type loads it (PRODUCT_INCLUDE). */
export type ProductRow = Product & { weeks: Week[]; shop: ShopRow };

const ProductWeekRef = builder.objectRef<WeekView>('ProductWeek').implement({
  description: 'One week (Monday to Sunday) of ads; the EU figures are null below the Pro plan.',
  fields: (t) => ({
    from: t.expose('from', { type: 'Date' }),
    to: t.expose('to', { type: 'Date' }),
    activeAds: t.exposeInt('activeAds'),
    euDailySpendUsd: t.exposeFloat('euDailySpendUsd', { nullable: true }),
    euDailyReach: t.exposeInt('euDailyReach', { nullable: true }),
  }),
});

const ProductShop = builder.objectRef<ShopRow>('ProductShop').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    domain: t.exposeString('domain'),
    name: t.exposeString('name'),
    avatarUrl: t.string({ nullable: true, resolve: resolveMediaUrl((p) => p.logoUrl) }),
    countryCode: t.exposeString('countryCode', { nullable: true }),
    currency: t.exposeString('currency', { nullable: true }),
    productsCount: t.exposeInt('productsCount'),
    monthlyVisits: t.exposeInt('monthlyVisits'),
    monthlyRevenueUsd: t.exposeInt('monthlyRevenueUsd', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    categoryIds: t.exposeIntList('categoryIds'),
  }),
});

export const ProductRef = builder.prismaObject('Product', {
  variant: 'Product',
  include: PRODUCT_INCLUDE,
  description: 'A product of a shop, with its sales estimates, ads and (Pro) EU/UK delivery.',
  fields: (t) => ({
    id: t.exposeID('id', { description: '`<shop_uuid>:<shopify_product_id>`.' }),
    shopifyId: t.exposeString('shopifyId'),
    title: t.exposeString('title'),
    description: t.exposeString('description'),
    url: t.exposeString('url'),
    handle: t.exposeString('handle'),
    imageUrl: t.string({ nullable: true, resolve: (p, _args, context) => mediaUrl(p.imageUrl, context.publicBaseUrl) }),
    publishedAt: t.expose('publishedAt', { type: 'DateTime', nullable: true }),
    price: t.field({ type: ProductPrice, resolve: priceView }),
    reviews: t.field({ type: ProductReviews, resolve: reviewsView }),
    bestSellerRank: t.field({ type: ProductBestSellerRank, resolve: bestSellerRankView }),
    optionNames: t.exposeStringList('optionNames'),
    sales: t.field({ type: ProductSales, resolve: salesView }),
    ads: t.field({ type: ProductAds, resolve: adsView }),
    euMetrics: t.field({ type: ProductEuMetrics, resolve: euMetricsView }),
    weeklyHistory: t.field({ type: [ProductWeekRef], resolve: weekViews }),
    shop: t.field({ type: ProductShop, resolve: (p) => p.shop }),
  }),
});
