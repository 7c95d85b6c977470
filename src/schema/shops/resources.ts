import { z } from 'zod';
import { SortOrder } from '../shared/enums.js';
import { builder } from '../builder.js';
import { listRef, offsetArgs } from '../shared/list.js';
import { ShopProductSort, SocialPeriod } from './enums.js';
import { LinkedAdvertiserRef } from './linked.js';
import { shopAdvertisers, shopProducts, shopSalesHistory, shopSocialsHistory, type SalesReading, type ShopProduct, type ShopProductPage as ProductPage, type Socials } from './service/resources.js';
import { SeriesPointRef } from './types.js';
import { resolveMediaUrl } from '../shared/media-url.js';

// The shop sub-resources: sales readings, linked advertisers, social follower history and products.

const ShopSalesReadingRef = builder.objectRef<SalesReading>('ShopSalesReading').implement({
  description: 'Revenue, units and orders estimated over the 30 days before `date` (USD). Readings overlap: never sum them.',
  fields: (t) => ({
    date: t.expose('date', { type: 'Date' }),
    revenueUsd: t.exposeInt('revenueUsd'),
    revenueMinUsd: t.exposeInt('revenueMinUsd'),
    revenueMaxUsd: t.exposeInt('revenueMaxUsd'),
    unitsSold: t.exposeInt('unitsSold'),
    ordersCount: t.exposeInt('ordersCount'),
  }),
});

const ShopSocialsHistoryRef = builder.objectRef<Socials>('ShopSocialsHistory').implement({
  fields: (t) => ({
    facebook: t.field({ type: [SeriesPointRef], description: 'Facebook followers, oldest first; empty without a Facebook page.', resolve: (s) => s.facebook }),
    instagram: t.field({ type: [SeriesPointRef], description: 'Instagram followers, oldest first; empty without an Instagram account.', resolve: (s) => s.instagram }),
  }),
});

const ShopProductRef = builder.objectRef<ShopProduct>('ShopProduct').implement({
  fields: (t) => ({
    id: t.exposeString('shopifyId', { description: 'The Shopify product id.' }),
    title: t.exposeString('title'),
    handle: t.exposeString('handle'),
    imageUrl: t.string({ nullable: true, resolve: resolveMediaUrl((p) => p.imageUrl) }),
    productUrl: t.exposeString('url'),
    price: t.float({ description: "In the shop's currency.", resolve: (p) => p.price.toNumber() }),
    currency: t.exposeString('currency'),
    rank: t.exposeInt('bestSellerPosition', { nullable: true, description: 'Best-seller position (1 = best seller).' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    publishedAt: t.expose('publishedAt', { type: 'DateTime', nullable: true }),
  }),
});

const ShopProductPage = listRef<ShopProduct, ProductPage>('ShopProductPage', ShopProductRef, { style: 'offset' });

const PRODUCT_LIMITS = { defaultLimit: 25, maxLimit: 100 };

const shopIdArg = z.string().min(1).max(128);

builder.queryFields((t) => ({
  shopSalesHistory: t.field({
    type: [ShopSalesReadingRef],
    nullable: true,
    authScopes: { workspace: true },
    description: "A shop's weekly sales readings, oldest first (GET /v1/shops/{shopId}/sales/history). Each estimates the 30 days before its date, in USD: never sum them.",
    args: { shopId: t.arg.string({ required: true, validate: shopIdArg }) },
    resolve: (_root, args, context) => shopSalesHistory(context, args.shopId),
  }),
  shopAdvertisers: t.field({
    type: [LinkedAdvertiserRef],
    nullable: true,
    authScopes: { workspace: true },
    description: "The Facebook pages linked to a shop, its main page first (GET /v1/shops/{shopId}/advertisers). isPrimary marks the shop's main page.",
    args: {
      shopId: t.arg.string({ required: true, validate: shopIdArg }),
      limit: t.arg.int({ defaultValue: 20, description: 'Pages to return, 1..100 (default 20).', validate: z.number().int().min(1).max(100) }),
    },
    resolve: (_root, args, context) => shopAdvertisers(context, args.shopId, args.limit ?? 20),
  }),
  shopSocialsHistory: t.field({
    type: ShopSocialsHistoryRef,
    nullable: true,
    authScopes: { workspace: true },
    description: "A shop's Facebook and Instagram followers over the `days` before its latest snapshot (GET /v1/shops/{shopId}/socials/history).",
    args: {
      shopId: t.arg.string({ required: true, validate: shopIdArg }),
      period: t.arg({ type: SocialPeriod, defaultValue: 'day' }),
      days: t.arg.int({ defaultValue: 90, description: 'Lookback window in days, 7..365 (default 90).', validate: z.number().int().min(7).max(365) }),
    },
    resolve: (_root, args, context) => shopSocialsHistory(context, args.shopId, args.period, args.days ?? 90),
  }),
  shopProducts: t.field({
    type: ShopProductPage,
    nullable: true,
    authScopes: { workspace: true },
    description: "A shop's products (GET /v1/shops/{shopId}/products): popularity (best-seller rank, default), price or createdAt; order defaults to asc for popularity, desc otherwise.",
    args: {
      shopId: t.arg.string({ required: true, validate: shopIdArg }),
      ...offsetArgs(PRODUCT_LIMITS),
      // Bounded: a deep page of a shop's products costs its skipped rows.
      offset: t.arg.int({ defaultValue: 0, description: 'Rows to skip, 0..10000.', validate: z.number().int().min(0).max(10_000) }),
      sortBy: t.arg({ type: ShopProductSort, defaultValue: 'popularity' }),
      order: t.arg({ type: SortOrder }),
    },
    resolve: (_root, args, context) => {
      const sortBy = args.sortBy ?? 'popularity';
      const order = args.order ?? (sortBy === 'popularity' ? 'asc' : 'desc');
      return shopProducts(context, args.shopId, { sortBy, order }, { limit: args.limit ?? PRODUCT_LIMITS.defaultLimit, offset: args.offset ?? 0 });
    },
  }),
}));
