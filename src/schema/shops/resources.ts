import { z } from 'zod';
import { notFound } from '../../errors.js';
import type { Prisma } from '../../generated/prisma/client.js';
import { SortOrder } from '../shared/enums.js';
import { builder } from '../builder.js';
import { OffsetPaginationRef, offsetPagination, type OffsetPagination } from '../shared/pagination.js';
import { ShopProductSort, SocialPeriod } from './enums.js';
import { findShop, findShopId } from './find.js';
import { LINKED_ADVERTISERS_SELECT, LinkedAdvertiserRef, linkedAdvertisers, type LinkedAdvertiserLink } from './linked.js';
import type { SeriesPoint } from './figures.js';
import { SeriesPointRef } from './types.js';
import { resolveMediaUrl } from '../shared/media-url.js';

// The shop sub-resources: sales readings, linked advertisers, social follower history and products.

type SalesReading = { date: Date; revenueUsd: number; revenueMinUsd: number; revenueMaxUsd: number; unitsSold: number; ordersCount: number };
type ShopProduct = { shopifyId: string; title: string; handle: string; imageUrl: string | null; url: string; price: Prisma.Decimal; currency: string; bestSellerPosition: number | null; createdAt: Date; publishedAt: Date | null };
type Socials = { facebook: SeriesPoint[]; instagram: SeriesPoint[] };

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

const ShopProductPage = builder.objectRef<{ data: ShopProduct[]; pagination: OffsetPagination }>('ShopProductPage').implement({
  fields: (t) => ({
    data: t.field({ type: [ShopProductRef], resolve: (page) => page.data }),
    pagination: t.field({ type: OffsetPaginationRef, resolve: (page) => page.pagination }),
  }),
});

const shopIdArg = z.string().min(1).max(128);
const point = (date: Date, value: number): SeriesPoint => ({ period: date.toISOString().slice(0, 10), value });

async function requireShopId(prisma: Parameters<typeof findShopId>[0], shopId: string): Promise<string> {
  const id = await findShopId(prisma, shopId);
  if (!id) throw notFound(`Shop "${shopId}"`);
  return id;
}

builder.queryFields((t) => ({
  shopSalesHistory: t.field({
    type: [ShopSalesReadingRef],
    nullable: true,
    authScopes: { workspace: true },
    description: "A shop's weekly sales readings, oldest first (GET /v1/shops/{shopId}/sales/history). Each estimates the 30 days before its date, in USD: never sum them.",
    args: { shopId: t.arg.string({ required: true, validate: shopIdArg }) },
    resolve: async (_root, args, context) => {
      const shop = await findShop(context.prisma, args.shopId, { select: { id: true, salesReadings: { orderBy: { date: 'asc' } } } });
      if (!shop) throw notFound(`Shop "${args.shopId}"`);
      return shop.salesReadings;
    },
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
    resolve: async (_root, args, context) => {
      const shop = await findShop(context.prisma, args.shopId, { select: { id: true, advertisers: { ...LINKED_ADVERTISERS_SELECT, take: args.limit ?? 20 } } });
      if (!shop) throw notFound(`Shop "${args.shopId}"`);
      return linkedAdvertisers(shop.advertisers as unknown as LinkedAdvertiserLink[]);
    },
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
    resolve: async (_root, args, context) => {
      const id = await requireShopId(context.prisma, args.shopId);
      const unit = args.period === 'week' ? 'week' : args.period === 'month' ? 'month' : 'day';
      // Each bucket keeps its last snapshot; a bucket is named by its first day (Monday for weeks).
      const rows = await context.prisma.$queryRaw<{ bucket: Date; facebook: number | null; instagram: number | null }[]>`
        SELECT DISTINCT ON (bucket) date_trunc(${unit}, d."date")::date AS bucket, d."facebook", d."instagram"
        FROM "shop_social_days" d
        WHERE d."shopId" = ${id}::uuid AND d."date" > (SELECT max("date") FROM "shop_social_days" WHERE "shopId" = ${id}::uuid) - ${args.days ?? 90}::int
        ORDER BY bucket, d."date" DESC`;
      return {
        facebook: rows.flatMap((row) => (row.facebook === null ? [] : [point(row.bucket, row.facebook)])),
        instagram: rows.flatMap((row) => (row.instagram === null ? [] : [point(row.bucket, row.instagram)])),
      };
    },
  }),
  shopProducts: t.field({
    type: ShopProductPage,
    nullable: true,
    authScopes: { workspace: true },
    description: "A shop's products (GET /v1/shops/{shopId}/products): popularity (best-seller rank, default), price or createdAt; order defaults to asc for popularity, desc otherwise.",
    args: {
      shopId: t.arg.string({ required: true, validate: shopIdArg }),
      limit: t.arg.int({ defaultValue: 25, description: 'Rows to return, 1..100 (default 25).', validate: z.number().int().min(1).max(100) }),
      offset: t.arg.int({ defaultValue: 0, description: 'Rows to skip, 0..10000.', validate: z.number().int().min(0).max(10_000) }),
      sortBy: t.arg({ type: ShopProductSort, defaultValue: 'popularity' }),
      order: t.arg({ type: SortOrder }),
    },
    resolve: async (_root, args, context) => {
      const id = await requireShopId(context.prisma, args.shopId);
      const sortBy = args.sortBy ?? 'popularity';
      const sort = args.order ?? (sortBy === 'popularity' ? 'asc' : 'desc');
      const first: Prisma.ProductOrderByWithRelationInput =
        sortBy === 'popularity' ? { bestSellerPosition: { sort, nulls: 'last' } } : sortBy === 'price' ? { price: sort } : { createdAt: sort };
      const page = { limit: args.limit ?? 25, offset: args.offset ?? 0 };
      const [data, total] = await Promise.all([
        context.prisma.product.findMany({
          where: { shopId: id },
          orderBy: [first, { id: 'asc' }],
          skip: page.offset,
          take: page.limit,
          select: { shopifyId: true, title: true, handle: true, imageUrl: true, url: true, price: true, currency: true, bestSellerPosition: true, createdAt: true, publishedAt: true },
        }),
        context.prisma.product.count({ where: { shopId: id } }),
      ]);
      return { data, pagination: offsetPagination(page, total) };
    },
  }),
}));
