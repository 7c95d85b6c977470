import type { Shop } from '../../generated/prisma/client.js';
import { builder } from '../builder.js';
import { OffsetPaginationRef, type OffsetPagination } from '../shared/pagination.js';
import { ProductRef, type ProductRow } from '../products/types.js';
import { ShopSummary } from '../shops/types.js';

export type SearchMeta = { searchId: string; expiresAt: Date };
export type ProductMatch = { score: number; product: ProductRow };
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

const ShopImageMatch = builder.objectRef<ShopMatch>('ShopImageMatch').implement({
  fields: (t) => ({
    score: t.exposeFloat('score', { description: "Visual similarity of the shop's closest product image, 0..1." }),
    shop: t.field({ type: ShopSummary, resolve: (match) => match.shop }),
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
