import { queryFromInfo } from '@pothos/plugin-prisma';
import type { GraphQLResolveInfo } from 'graphql';
import type { Context } from '../../context.js';
import type { Shop } from '../../generated/prisma/client.js';
import { builder } from '../builder.js';
import { actorOf, scopeKey } from '../boards/access.js';
import { LIST_LIMITS, uuid } from '../boards/args.js';
import { BoardScopeEnum } from '../boards/enums.js';
import { saveItem } from '../boards/store.js';
import { findTarget } from '../boards/targets.js';
import { pageArgs, PagePaginationRef, type PagePagination } from '../shared/pagination.js';
import { placeOf, SHOPS } from './family.js';
import { defineFolderFields } from './folder-fields.js';
import { deleteSaved, favoritePage, loadFavorites, moveSaved, removeSaved, type FavoriteRow } from './items.js';
import { FavoriteShopSummary, loadFavoriteShops } from './summaries.js';
import { FlatFolderRef, SCOPE_DESCRIPTION } from './types.js';

// Favorite shops: board items of type shop, in flat folders. A favorite's public id is the item's uuid.

type FavoriteShopRow = FavoriteRow & { shop: Shop | null };

const FavoriteShopFolder = FlatFolderRef('FavoriteShopFolder');

const FavoriteShop = builder.objectRef<FavoriteShopRow>('FavoriteShop').implement({
  description: 'A saved shop. Its id is the saved row (board item) uuid; its folder a board.',
  fields: (t) => ({
    id: t.string({ resolve: (row) => row.id }),
    scope: t.field({ type: BoardScopeEnum, resolve: (row) => row.scope }),
    savedAt: t.field({ type: 'DateTime', resolve: (row) => row.createdAt }),
    folder: t.field({ type: FavoriteShopFolder, nullable: true, description: 'Null at the root.', resolve: (row) => row.board }),
    shop: t.field({ type: FavoriteShopSummary, nullable: true, resolve: (row) => row.shop as never }),
  }),
});

const FavoriteShopPage = builder.objectRef<{ data: FavoriteShopRow[]; pagination: PagePagination }>('FavoriteShopPage').implement({
  fields: (t) => ({ data: t.field({ type: [FavoriteShop], resolve: (page) => page.data }), pagination: t.field({ type: PagePaginationRef, resolve: (page) => page.pagination }) }),
});

const FavoriteShopAddResult = builder.objectRef<{ data: FavoriteShopRow; created: boolean }>('FavoriteShopAddResult').implement({
  fields: (t) => ({
    data: t.field({ type: FavoriteShop, resolve: (result) => result.data }),
    created: t.exposeBoolean('created', { description: 'False when the shop was already saved there (returned unchanged, no audit event).' }),
  }),
});

type ShopRemoval = { removed: boolean; websiteId: string; scope: 'workspace' | 'personal'; folderId: string | null; savedFavoriteId: string | null };
const FavoriteShopRemoval = builder.objectRef<ShopRemoval>('FavoriteShopRemoval').implement({
  fields: (t) => ({
    removed: t.exposeBoolean('removed', { description: 'False when the shop was not saved there.' }),
    websiteId: t.exposeString('websiteId'),
    scope: t.field({ type: BoardScopeEnum, resolve: (r) => r.scope }),
    folderId: t.exposeString('folderId', { nullable: true }),
    savedFavoriteId: t.exposeString('savedFavoriteId', { nullable: true }),
  }),
});

async function withShops(context: Context, info: GraphQLResolveInfo, path: string[], rows: FavoriteRow[]): Promise<FavoriteShopRow[]> {
  const ids = [...new Set(rows.flatMap((row) => (row.shopId ? [row.shopId] : [])))];
  const shops = await loadFavoriteShops(context.prisma, ids, queryFromInfo({ context, info, path }));
  const byId = new Map(shops.map((shop) => [shop.id, shop]));
  return rows.map((row) => ({ ...row, shop: (row.shopId && byId.get(row.shopId)) || null }));
}

builder.queryFields((t) => ({
  favoriteShops: t.field({
    type: FavoriteShopPage,
    authScopes: { workspace: true },
    description: 'Saved shops of a scope, newest first (GET /v1/favorites/shops). Deprecated: use boards.',
    args: {
      scope: t.arg({ type: BoardScopeEnum, required: true, description: SCOPE_DESCRIPTION }),
      folderId: t.arg.string({ description: 'Only the shops saved in this folder (uuid).', validate: uuid }),
      ...pageArgs(LIST_LIMITS),
    },
    resolve: async (_root, args, context, info) => {
      const actor = await actorOf(context);
      const page = { page: args.page ?? 1, limit: args.limit ?? LIST_LIMITS.defaultLimit };
      const { rows, pagination } = await favoritePage(context, actor, scopeKey(actor, args.scope), SHOPS, args.folderId, page);
      return { data: await withShops(context, info, ['data', 'shop'], rows), pagination };
    },
  }),
}));

builder.mutationFields((t) => ({
  favoriteShopAdd: t.field({
    type: FavoriteShopAddResult,
    authScopes: { writer: true },
    description: 'Saves a shop (POST /v1/favorites/shops) by websiteId (the shop uuid), at the root or in folderId. An already saved shop is returned with created false.',
    args: {
      scope: t.arg({ type: BoardScopeEnum, required: true, description: SCOPE_DESCRIPTION }),
      websiteId: t.arg.string({ required: true, description: 'The shop id (uuid).', validate: uuid }),
      folderId: t.arg.string({ description: 'A folder of the scope; null or omitted: the root.', validate: uuid }),
    },
    resolve: async (_root, args, context, info) => {
      const actor = await actorOf(context);
      const place = await placeOf(context, actor, scopeKey(actor, args.scope), SHOPS, args.folderId);
      const { id, created } = await saveItem(context, actor, place, await findTarget(context, 'shop', args.websiteId, 'websiteId'));
      const [data] = await withShops(context, info, ['data', 'shop'], await loadFavorites(context, [id]));
      return { data, created };
    },
  }),
  favoriteShopRemove: t.field({
    type: FavoriteShopRemoval,
    authScopes: { writer: true },
    description: 'Removes a saved shop from the root or folderId (DELETE /v1/favorites/shops/{websiteId}); audited before/null.',
    args: {
      websiteId: t.arg.string({ required: true, validate: uuid }),
      scope: t.arg({ type: BoardScopeEnum, required: true, description: SCOPE_DESCRIPTION }),
      folderId: t.arg.string({ description: 'The folder it is saved in; omitted: the root.', validate: uuid }),
    },
    resolve: async (_root, args, context) => {
      const actor = await actorOf(context);
      const key = scopeKey(actor, args.scope);
      const websiteId = args.websiteId.toLowerCase();
      const { removed, item, folderId } = await removeSaved(context, actor, key, SHOPS, { shopId: websiteId }, args.folderId);
      return { removed, websiteId, scope: key.scope, folderId, savedFavoriteId: item?.id ?? null };
    },
  }),
  favoriteShopMove: t.field({
    type: FavoriteShop,
    authScopes: { writer: true },
    description: 'Moves one saved shop to a flat folder, or to the root with folderId null (PATCH /v1/favorites/shops/saved/{favoriteId}/folder).',
    args: {
      favoriteId: t.arg.string({ required: true, validate: uuid }),
      scope: t.arg({ type: BoardScopeEnum, required: true, description: SCOPE_DESCRIPTION }),
      folderId: t.arg.string({ description: 'The destination folder; null: the root.', validate: uuid }),
    },
    resolve: async (_root, args, context, info) => {
      const actor = await actorOf(context);
      const id = await moveSaved(context, actor, scopeKey(actor, args.scope), SHOPS, { id: args.favoriteId.toLowerCase() }, args.folderId);
      return (await withShops(context, info, ['shop'], await loadFavorites(context, [id])))[0];
    },
  }),
  favoriteShopDelete: t.field({
    type: FavoriteShopRemoval,
    authScopes: { writer: true },
    description: 'Deletes one saved shop by its saved id (DELETE /v1/favorites/shops/saved/{favoriteId}); audited before/null.',
    args: {
      favoriteId: t.arg.string({ required: true, validate: uuid }),
      scope: t.arg({ type: BoardScopeEnum, required: true, description: SCOPE_DESCRIPTION }),
    },
    resolve: async (_root, args, context) => {
      const actor = await actorOf(context);
      const key = scopeKey(actor, args.scope);
      const item = await deleteSaved(context, actor, key, SHOPS, { id: args.favoriteId.toLowerCase() });
      return { removed: true, websiteId: item.shopId!, scope: key.scope, folderId: item.boardId, savedFavoriteId: item.id };
    },
  }),
}));

defineFolderFields({ family: SHOPS, prefix: 'favoriteShop', typePrefix: 'FavoriteShop', folder: FavoriteShopFolder, affectedId: { type: 'String', of: (item) => item.id } });
