import type { Shop } from '../../generated/prisma/client.js';
import { builder } from '../builder.js';
import { listRef, type OffsetPagination } from '../shared/list.js';
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

// Their meta is their own (ImageSearchMeta), not a ListMeta: declared as an extra field.
type Page<T> = { data: T[]; pagination: OffsetPagination; meta: SearchMeta };

export const ProductImageSearchRef = listRef<ProductMatch, Page<ProductMatch>>('ProductImageSearch', ProductImageMatch, {
  style: 'offset',
  fields: (t) => ({ meta: t.field({ type: ImageSearchMeta, resolve: (page) => page.meta }) }),
});

export const ShopImageSearchRef = listRef<ShopMatch, Page<ShopMatch>>('ShopImageSearch', ShopImageMatch, {
  style: 'offset',
  fields: (t) => ({ meta: t.field({ type: ImageSearchMeta, resolve: (page) => page.meta }) }),
});
