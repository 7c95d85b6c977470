import { queryFromInfo } from '@pothos/plugin-prisma';
import { z } from 'zod';
import { SortOrder } from '../shared/enums.js';
import { builder } from '../builder.js';
import { listRef, offsetArgs } from '../shared/list.js';
import { SHOP_LIMITS, shopListArgs, shopListFilter, shopQueryArgs } from './args.js';
import { SimilarShopSort } from './enums.js';
import { searchShops, type ShopPage } from './service/search.js';
import { SIMILARITY_DESCRIPTION, similarShops, type SimilarPage, type SimilarRow } from './service/similar.js';
import { ShopSummary } from './types.js';

const ShopPageRef = listRef<unknown, ShopPage>('ShopPage', ShopSummary, { style: 'offset', description: 'An offset-style page of shop summaries.', searchable: true });

export const SimilarShopRef = builder.objectRef<SimilarRow>('SimilarShop').implement({
  fields: (t) => ({
    shop: t.field({ type: ShopSummary, resolve: (row) => row.shop as never }),
    similarityScore: t.exposeFloat('similarityScore', { description: SIMILARITY_DESCRIPTION }),
  }),
});

const SimilarMeta = builder.objectRef<SimilarPage['meta']>('SimilarShopsMeta').implement({
  fields: (t) => ({ shopExists: t.exposeBoolean('shopExists', { description: 'false when the identifier names no known shop (data is then empty).' }) }),
});

// Its meta is its own (SimilarShopsMeta), not a ListMeta: declared as an extra field.
const SimilarShopPageRef = listRef<SimilarRow, SimilarPage>('SimilarShopPage', SimilarShopRef, {
  style: 'offset',
  fields: (t) => ({ meta: t.field({ type: SimilarMeta, resolve: (page) => page.meta }) }),
});

builder.queryFields((t) => ({
  shops: t.field({
    type: ShopPageRef,
    nullable: true,
    authScopes: { workspace: true },
    description: 'Browse shops (GET /v1/shops): a broad search, sorting and the stable filters. POST /v1/shops/query has every filter.',
    args: shopListArgs(),
    resolve: (_root, args, context, info) => {
      const { filter, sort, page } = shopListFilter(args);
      return searchShops(context, queryFromInfo({ context, info, path: ['data'] }), filter, sort, page);
    },
  }),
  shopsQuery: t.field({
    type: ShopPageRef,
    nullable: true,
    authScopes: { workspace: true },
    description: 'Query shops with every filter (POST /v1/shops/query). searchType domain matches the exact domain or a related domain of a domain or URL, never text.',
    args: shopQueryArgs(),
    resolve: (_root, args, context, info) => {
      const { filter, sort, page } = shopListFilter(args);
      return searchShops(context, queryFromInfo({ context, info, path: ['data'] }), filter, sort, page);
    },
  }),
  shopSimilar: t.field({
    type: SimilarShopPageRef,
    nullable: true,
    authScopes: { workspace: true },
    description: `Shops similar to one shop (GET /v1/shops/{identifier}/similar); the identifier is a domain, a URL or a shop (website) id. An unknown shop answers an empty page with meta.shopExists false. ${SIMILARITY_DESCRIPTION}`,
    args: {
      identifier: t.arg.string({ required: true, validate: z.string().trim().min(1).max(500) }),
      sortBy: t.arg({ type: SimilarShopSort, defaultValue: 'relevance' }),
      order: t.arg({ type: SortOrder, defaultValue: 'desc' }),
      ...offsetArgs(SHOP_LIMITS),
    },
    resolve: (_root, args, context, info) =>
      similarShops(
        context,
        queryFromInfo({ context, info, path: ['data', 'shop'] }),
        args.identifier,
        { sortBy: args.sortBy ?? 'relevance', order: args.order ?? 'desc' },
        { limit: args.limit ?? SHOP_LIMITS.defaultLimit, offset: args.offset ?? 0 },
      ),
  }),
}));
