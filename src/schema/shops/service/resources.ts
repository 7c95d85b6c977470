import type { Context } from '../../../context.js';
import { notFound } from '../../../errors.js';
import { latestHistoryDay } from '../../../db/partitions.js';
import { Prisma } from '../../../generated/prisma/client.js';
import { findRowsPage, type OffsetPagination, type OffsetRequest, type OrderKey } from '../../shared/list.js';
import { LINKED_ADVERTISERS_SELECT, linkedAdvertisers, type LinkedAdvertiser, type LinkedAdvertiserLink } from '../linked.js';
import type { SeriesPoint } from './figures-loader.js';
import { findShop, requireShopId } from './find.js';

// The shop sub-resources: sales readings, linked advertisers, social follower history and products.

export type SalesReading = { date: Date; revenueUsd: number; revenueMinUsd: number; revenueMaxUsd: number; unitsSold: number; ordersCount: number };
export type ShopProduct = { shopifyId: string; title: string; handle: string; imageUrl: string | null; url: string; price: Prisma.Decimal; currency: string; bestSellerPosition: number | null; createdAt: Date; publishedAt: Date | null };
export type Socials = { facebook: SeriesPoint[]; instagram: SeriesPoint[] };
export type ShopProductPage = { data: ShopProduct[]; pagination: OffsetPagination };

const point = (date: Date, value: number): SeriesPoint => ({ period: date.toISOString().slice(0, 10), value });

/** GET /v1/shops/{shopId}/sales/history: the shop's sales readings, oldest first. */
export async function shopSalesHistory(context: Pick<Context, 'prisma'>, shopId: string): Promise<SalesReading[]> {
  const shop = await findShop(context.prisma, shopId, { select: { id: true, salesReadings: { orderBy: { date: 'asc' } } } });
  if (!shop) throw notFound(`Shop "${shopId}"`);
  return shop.salesReadings;
}

/** GET /v1/shops/{shopId}/advertisers: the Facebook pages linked to the shop, its main page first. */
export async function shopAdvertisers(context: Pick<Context, 'prisma'>, shopId: string, limit: number): Promise<LinkedAdvertiser[]> {
  const shop = await findShop(context.prisma, shopId, { select: { id: true, advertisers: { ...LINKED_ADVERTISERS_SELECT, take: limit } } });
  if (!shop) throw notFound(`Shop "${shopId}"`);
  return linkedAdvertisers(shop.advertisers as unknown as LinkedAdvertiserLink[]);
}

/** GET /v1/shops/{shopId}/socials/history: Facebook and Instagram followers over the `days` before the latest snapshot. */
export async function shopSocialsHistory(context: Pick<Context, 'prisma'>, shopId: string, period: string | null | undefined, days: number): Promise<Socials> {
  const id = await requireShopId(context.prisma, shopId);
  const unit = period === 'week' ? 'week' : period === 'month' ? 'month' : 'day';
  // Each bucket keeps its last snapshot; a bucket is named by its first day (Monday for weeks).
  const rows = await context.prisma.$queryRaw<{ bucket: Date; facebook: number | null; instagram: number | null }[]>`
        SELECT DISTINCT ON (bucket) date_trunc(${unit}, d."date")::date AS bucket, d."facebook", d."instagram"
        FROM "shop_social_days" d
        WHERE d."shopId" = ${id}::uuid AND d."date" > ${latestHistoryDay('shop_social_days', Prisma.sql`"shopId" = ${id}::uuid`)} - ${days}::int
        ORDER BY bucket, d."date" DESC`;
  return {
    facebook: rows.flatMap((row) => (row.facebook === null ? [] : [point(row.bucket, row.facebook)])),
    instagram: rows.flatMap((row) => (row.instagram === null ? [] : [point(row.bucket, row.instagram)])),
  };
}

/** GET /v1/shops/{shopId}/products: a page of the shop's products in `sortBy` order, then by id. */
export async function shopProducts(
  context: Pick<Context, 'prisma'>,
  shopId: string,
  sort: { sortBy: 'popularity' | 'price' | 'createdAt'; order: 'asc' | 'desc' },
  page: OffsetRequest,
): Promise<ShopProductPage> {
  const id = await requireShopId(context.prisma, shopId);
  const direction = sort.order === 'asc' ? 'ASC' : 'DESC';
  const first: OrderKey =
    sort.sortBy === 'popularity'
      ? { key: Prisma.sql`p."bestSellerPosition"`, direction: `${direction} NULLS LAST` }
      : { key: sort.sortBy === 'price' ? Prisma.sql`p."price"` : Prisma.sql`p."createdAt"`, direction };
  return findRowsPage<ShopProduct>(context.prisma, {
    select: Prisma.sql`p."shopifyId", p."title", p."handle", p."imageUrl", p."url", p."price", p."currency", p."bestSellerPosition", p."createdAt", p."publishedAt"`,
    from: Prisma.sql`FROM "products" p WHERE p."shopId" = ${id}::uuid`,
    order: [first, { key: Prisma.sql`p."id"`, direction: 'ASC' }],
    page,
  });
}
