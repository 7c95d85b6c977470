import { queryFromInfo } from '@pothos/plugin-prisma';
import type { GraphQLResolveInfo } from 'graphql';
import { z } from 'zod';
import type { Context } from '../../context.js';
import { SortOrder } from '../shared/enums.js';
import { builder } from '../builder.js';
import { listMeta, ListMetaRef, OffsetPaginationRef, offsetArgs, offsetPagination, type ListMeta, type OffsetPagination } from '../shared/pagination.js';
import { SHOP_LIMITS, shopListArgs, shopListFilter, shopQueryArgs } from './args.js';
import { SimilarShopSort } from './enums.js';
import { resolveShopId, SIMILARITY_DESCRIPTION, similarShops, type SimilarSort } from './similar.js';
import { searchShopIds, type ShopFilter, type ShopSort } from './sql.js';
import { loadShopSummaries, ShopSummary } from './types.js';

type Row = { id: string };
type ShopPage = { data: Row[]; pagination: OffsetPagination; meta: ListMeta };
export type SimilarRow = { shop: Row; similarityScore: number };
type SimilarPage = { data: SimilarRow[]; pagination: OffsetPagination; meta: { shopExists: boolean } };

const ShopPageRef = builder.objectRef<ShopPage>('ShopPage').implement({
  description: 'An offset-style page of shop summaries.',
  fields: (t) => ({
    data: t.field({ type: [ShopSummary], resolve: (page) => page.data as never }),
    pagination: t.field({ type: OffsetPaginationRef, resolve: (page) => page.pagination }),
    meta: t.field({ type: ListMetaRef, resolve: (page) => page.meta }),
  }),
});

export const SimilarShopRef = builder.objectRef<SimilarRow>('SimilarShop').implement({
  fields: (t) => ({
    shop: t.field({ type: ShopSummary, resolve: (row) => row.shop as never }),
    similarityScore: t.exposeFloat('similarityScore', { description: SIMILARITY_DESCRIPTION }),
  }),
});

const SimilarMeta = builder.objectRef<SimilarPage['meta']>('SimilarShopsMeta').implement({
  fields: (t) => ({ shopExists: t.exposeBoolean('shopExists', { description: 'false when the identifier names no known shop (data is then empty).' }) }),
});

const SimilarShopPageRef = builder.objectRef<SimilarPage>('SimilarShopPage').implement({
  fields: (t) => ({
    data: t.field({ type: [SimilarShopRef], resolve: (page) => page.data }),
    pagination: t.field({ type: OffsetPaginationRef, resolve: (page) => page.pagination }),
    meta: t.field({ type: SimilarMeta, resolve: (page) => page.meta }),
  }),
});

async function shopPage(context: Context, info: GraphQLResolveInfo, filter: ShopFilter, sort: ShopSort, page: { limit: number; offset: number }): Promise<ShopPage> {
  const found = await searchShopIds(context.prisma, filter, sort, page);
  const data = await loadShopSummaries<Row>(context.prisma, found.ids, queryFromInfo({ context, info, path: ['data'] }));
  return { data, pagination: offsetPagination(page, found.total), meta: listMeta(found) };
}

/** A page of similar shops, each with its summary loaded for the selection at `path` (… → shop). */
export async function similarPage(
  context: Context,
  info: GraphQLResolveInfo,
  path: string[],
  shopId: string | null,
  sort: { sortBy: SimilarSort; order: 'asc' | 'desc' },
  page: { limit: number; offset: number },
): Promise<SimilarPage> {
  if (!shopId) return { data: [], pagination: offsetPagination(page, 0), meta: { shopExists: false } };
  const found = await similarShops(context.prisma, shopId, sort, page);
  const shops = await loadShopSummaries<Row>(context.prisma, found.rows.map((row) => row.id), queryFromInfo({ context, info, path }));
  const byId = new Map(shops.map((shop) => [shop.id, shop]));
  const data = found.rows.flatMap((row) => (byId.has(row.id) ? [{ shop: byId.get(row.id)!, similarityScore: row.score }] : []));
  return { data, pagination: offsetPagination(page, found.total), meta: { shopExists: true } };
}

builder.queryFields((t) => ({
  shops: t.field({
    type: ShopPageRef,
    nullable: true,
    authScopes: { workspace: true },
    description: 'Browse shops (GET /v1/shops): a broad search, sorting and the stable filters. POST /v1/shops/query has every filter.',
    args: shopListArgs(),
    resolve: (_root, args, context, info) => {
      const { filter, sort, page } = shopListFilter(args);
      return shopPage(context, info, filter, sort, page);
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
      return shopPage(context, info, filter, sort, page);
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
    resolve: async (_root, args, context, info) =>
      similarPage(
        context,
        info,
        ['data', 'shop'],
        await resolveShopId(context.prisma, args.identifier),
        { sortBy: args.sortBy ?? 'relevance', order: args.order ?? 'desc' },
        { limit: args.limit ?? SHOP_LIMITS.defaultLimit, offset: args.offset ?? 0 },
      ),
  }),
}));
