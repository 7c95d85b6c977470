import type { Product, ProductWeek, Shop } from '../../generated/prisma/client.js';
import { builder } from '../builder.js';
import { euSpend, viewOf } from './figures.js';
import { mediaUrl } from '../shared/media-url.js';

// The Product record of the specification, one object per nested group; every group reads the loaded row.

const num = (value: { toNumber(): number } | null) => (value === null ? null : value.toNumber());
type CountryReach = { countryCode: string; reach: number };

const ProductPrice = builder.objectRef<Product>('ProductPrice').implement({
  fields: (t) => ({
    amount: t.float({ resolve: (p) => num(p.price)! }),
    currency: t.exposeString('currency', { description: "ISO 4217; the shop's storefront currency." }),
    amountUsd: t.float({ resolve: (p) => num(p.priceUsd)! }),
    compareAtAmount: t.float({ nullable: true, resolve: (p) => num(p.compareAtPrice) }),
    onSale: t.boolean({ resolve: (p) => p.compareAtPrice !== null && p.compareAtPrice.gt(p.price) }),
    discountPercent: t.float({
      nullable: true,
      resolve: (p) => (p.compareAtPrice !== null && p.compareAtPrice.gt(0) && p.compareAtPrice.gt(p.price) ? Math.round((1 - p.price.toNumber() / p.compareAtPrice.toNumber()) * 1000) / 10 : null),
    }),
    isSubscription: t.exposeBoolean('isSubscription'),
    promoTypes: t.exposeStringList('promoTypes', { description: 'Promotions seen on the product; percent-off is the one the filter matches.' }),
  }),
});

const ProductReviews = builder.objectRef<Product>('ProductReviews').implement({
  fields: (t) => ({ rating: t.exposeFloat('rating', { nullable: true }), count: t.exposeInt('reviewCount') }),
});

const ProductBestSellerRank = builder.objectRef<Product>('ProductBestSellerRank').implement({
  fields: (t) => ({
    position: t.exposeInt('bestSellerPosition', { nullable: true, description: "Rank among the shop's products by sales (1 = best seller)." }),
    percentile: t.exposeFloat('bestSellerPercentile', { nullable: true, description: '100 = the top of the shop.' }),
  }),
});

const RevenueRange = builder.objectRef<Product>('ProductRevenueRange').implement({
  fields: (t) => ({
    min: t.exposeFloat('dailyRevenueMinUsd'),
    mean: t.exposeFloat('dailyRevenueUsd'),
    max: t.exposeFloat('dailyRevenueMaxUsd'),
  }),
});

const ProductSales = builder.objectRef<Product>('ProductSales').implement({
  description: 'Estimates (USD) from the shop’s sales readings.',
  fields: (t) => ({
    dailyRevenueUsd: t.exposeFloat('dailyRevenueUsd'),
    dailyRevenueRangeUsd: t.field({ type: RevenueRange, resolve: (p) => p }),
    monthlyRevenueUsd: t.exposeFloat('monthlyRevenueUsd'),
    dailyUnitsSold: t.exposeFloat('dailyUnitsSold'),
    monthlyUnitsSold: t.exposeInt('monthlyUnitsSold'),
  }),
});

const CountryActiveAds = builder.objectRef<{ countryCode: string; activeAds: number }>('ProductCountryActiveAds').implement({
  fields: (t) => ({ countryCode: t.exposeString('countryCode'), activeAds: t.exposeInt('activeAds') }),
});

const ProductAds = builder.objectRef<Product>('ProductAds').implement({
  description: 'The Meta ads promoting the product.',
  fields: (t) => ({
    active: t.exposeInt('activeAds'),
    total: t.exposeInt('totalAds'),
    launched30d: t.exposeInt('adsLaunched30d'),
    weekOverWeekGrowth: t.exposeFloat('weekOverWeekGrowth', { nullable: true }),
    adShare: t.exposeFloat('adShare', { description: "Percent of the shop's active ads." }),
    advertisersCount: t.exposeInt('advertisersCount'),
    hasPartnershipAds: t.exposeBoolean('hasPartnershipAds'),
    previewUrls: t.exposeStringList('previewUrls'),
    activeByCountry: t.field({ type: [CountryActiveAds], resolve: (p) => p.activeByCountry as { countryCode: string; activeAds: number }[] }),
    sellingCountries: t.exposeStringList('sellingCountries'),
  }),
});

const CountryReachRef = builder.objectRef<CountryReach>('ProductCountryReach').implement({
  fields: (t) => ({ countryCode: t.exposeString('countryCode'), reach: t.field({ type: 'SafeInt', resolve: (c) => c.reach }) }),
});

const ProductEuMetrics = builder.objectRef<Product>('ProductEuMetrics').implement({
  description: 'EU/UK delivery (Pro plans and above). Below Pro, locked is true and every figure is null. Spend is EU reach priced at the request cpm.',
  fields: (t) => ({
    locked: t.boolean({ resolve: (p) => !viewOf(p).euAccess }),
    spendUsd: t.float({ nullable: true, resolve: (p) => euSpend(p, p.euSpendUsd) }),
    dailySpendUsd: t.float({ nullable: true, resolve: (p) => euSpend(p, p.euDailySpendUsd) }),
    reach: t.field({ type: 'SafeInt', nullable: true, resolve: (p) => (viewOf(p).euAccess ? p.euReach : null) }),
    spendShare: t.float({ nullable: true, description: "Percent of the shop's EU spend.", resolve: (p) => (viewOf(p).euAccess ? p.spendShare : null) }),
    reachByCountry: t.field({ type: [CountryReachRef], nullable: true, resolve: (p) => (viewOf(p).euAccess ? (p.euReachByCountry as CountryReach[]) : null) }),
  }),
});

const WEEK_SELECT = { weekStart: true, weekEnd: true, activeAds: true, euDailySpendUsd: true, euDailyReach: true } as const;
type Week = Pick<ProductWeek, keyof typeof WEEK_SELECT>;
type WeekView = Week & { product: Product };

/**
 * What every product object loads besides its fields: its weeks (weeklyHistory) and its shop. Declared on the object
 * type (as `include`) rather than as a relation field and a field's selection, which made Pothos look up both fields'
 * loader mappings for every row of a list; products/load.ts loads the same in one JSON statement.
 */
export const PRODUCT_INCLUDE = { weeks: { orderBy: { weekStart: 'asc' }, select: WEEK_SELECT }, shop: true } as const;

/** A product as the product object type loads it (PRODUCT_INCLUDE). */
export type ProductRow = Product & { weeks: Week[]; shop: Shop };

const ProductWeekRef = builder.objectRef<WeekView>('ProductWeek').implement({
  description: 'One week (Monday to Sunday) of ads; the EU figures are null below the Pro plan.',
  fields: (t) => ({
    from: t.field({ type: 'Date', resolve: (w) => w.weekStart }),
    to: t.field({ type: 'Date', resolve: (w) => w.weekEnd }),
    activeAds: t.exposeInt('activeAds'),
    euDailySpendUsd: t.float({ nullable: true, resolve: (w) => euSpend(w.product, w.euDailySpendUsd) }),
    euDailyReach: t.int({ nullable: true, resolve: (w) => (viewOf(w.product).euAccess ? w.euDailyReach : null) }),
  }),
});

export const ProductShop = builder.prismaObject('Shop', {
  variant: 'ProductShop',
  fields: (t) => ({
    id: t.exposeID('id'),
    domain: t.exposeString('domain'),
    name: t.exposeString('name'),
    avatarUrl: t.exposeString('logoUrl', { nullable: true }),
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
    publishedAt: t.field({ type: 'DateTime', nullable: true, resolve: (p) => p.publishedAt }),
    price: t.field({ type: ProductPrice, resolve: (p) => p }),
    reviews: t.field({ type: ProductReviews, resolve: (p) => p }),
    bestSellerRank: t.field({ type: ProductBestSellerRank, resolve: (p) => p }),
    optionNames: t.exposeStringList('optionNames'),
    sales: t.field({ type: ProductSales, resolve: (p) => p }),
    ads: t.field({ type: ProductAds, resolve: (p) => p }),
    euMetrics: t.field({ type: ProductEuMetrics, resolve: (p) => p }),
    weeklyHistory: t.field({ type: [ProductWeekRef], resolve: (p) => p.weeks.map((week) => ({ ...week, product: p })) }),
    shop: t.field({ type: ProductShop, resolve: (p) => p.shop }),
  }),
});
