import type { PrismaClient, Product, Shop } from '../../generated/prisma/client.js';
import { builder } from '../builder.js';
import { OffsetPaginationRef, type OffsetPagination } from '../shared/pagination.js';
import { ProductRef } from '../products/types.js';
import { mediaUrl } from '../shared/media-url.js';

export type SearchMeta = { searchId: string; expiresAt: Date };
export type ProductMatch = { score: number; product: Product };
export type ShopMatch = { score: number; shop: Shop };

const ImageSearchMeta = builder.objectRef<SearchMeta>('ImageSearchMeta').implement({
  fields: (t) => ({
    searchId: t.exposeString('searchId', { description: 'Send it back with `offset` for more results of this search.' }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime', description: 'Until when the search can be continued.' }),
  }),
});

const ProductImageMatch = builder.objectRef<ProductMatch>('ProductImageMatch').implement({
  fields: (t) => ({
    score: t.exposeFloat('score', { description: 'Visual similarity, 0..1 (1: the same picture).' }),
    product: t.field({ type: ProductRef, resolve: (match) => match.product }),
  }),
});

/**
 * The shop fields an image match shows. A stand-in for the shops domain's Shop summary (src/schema/shops/types.ts,
 * on its own branch when this was written): once that is on main, ShopImageMatch.shop becomes a ShopSummary
 * loaded with loadShopSummaries, and this type and loadImageSearchShops go.
 */
export const ImageSearchShop = builder.prismaObject('Shop', {
  variant: 'ImageSearchShop',
  fields: (t) => ({
    id: t.exposeID('id'),
    domain: t.exposeString('domain'),
    name: t.exposeString('name'),
    screenshotUrl: t.string({ nullable: true, resolve: (shop, _args, context) => mediaUrl(shop.screenshotUrl, context.publicBaseUrl) }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    countryCode: t.exposeString('countryCode', { nullable: true }),
    currency: t.exposeString('currency', { nullable: true }),
    productsCount: t.exposeInt('productsCount'),
    monthlyVisits: t.exposeInt('monthlyVisits'),
  }),
});

/** Shops by id with a queryFromInfo selection, in the order of `ids` (missing ids are skipped). */
export async function loadImageSearchShops(prisma: PrismaClient, ids: readonly string[], select: object): Promise<Shop[]> {
  if (!ids.length) return [];
  const rows = await prisma.shop.findMany({ where: { id: { in: [...ids] } }, ...select });
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

const ShopImageMatch = builder.objectRef<ShopMatch>('ShopImageMatch').implement({
  fields: (t) => ({
    score: t.exposeFloat('score', { description: "Visual similarity of the shop's closest product image, 0..1." }),
    shop: t.field({ type: ImageSearchShop, resolve: (match) => match.shop }),
  }),
});

type Page<T> = { data: T[]; pagination: OffsetPagination; meta: SearchMeta };

export const ProductImageSearchRef = builder.objectRef<Page<ProductMatch>>('ProductImageSearch').implement({
  fields: (t) => ({
    data: t.field({ type: [ProductImageMatch], resolve: (page) => page.data }),
    pagination: t.field({ type: OffsetPaginationRef, resolve: (page) => page.pagination }),
    meta: t.field({ type: ImageSearchMeta, resolve: (page) => page.meta }),
  }),
});

export const ShopImageSearchRef = builder.objectRef<Page<ShopMatch>>('ShopImageSearch').implement({
  fields: (t) => ({
    data: t.field({ type: [ShopImageMatch], resolve: (page) => page.data }),
    pagination: t.field({ type: OffsetPaginationRef, resolve: (page) => page.pagination }),
    meta: t.field({ type: ImageSearchMeta, resolve: (page) => page.meta }),
  }),
});
