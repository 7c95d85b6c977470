import { queryFromInfo } from '@pothos/plugin-prisma';
import type { GraphQLResolveInfo } from 'graphql';
import { z } from 'zod';
import type { Context } from '../../context.js';
import type { Ad } from '../../generated/prisma/client.js';
import { adsByIds, DEFAULT_CPM, normaliseAdId, withCpm } from '../ads/service.js';
import { builder } from '../builder.js';
import { PublicAd } from '../ads/types.js';
import { actorOf, scopeKey } from '../boards/access.js';
import { LIST_LIMITS, uuid } from '../boards/args.js';
import { BoardScopeEnum } from '../boards/enums.js';
import { saveItem } from '../boards/store.js';
import { findTarget } from '../boards/targets.js';
import { pageArgs, PagePaginationRef, type PagePagination } from '../shared/pagination.js';
import { ADS, placeOf } from './family.js';
import { defineFolderFields } from './folder-fields.js';
import { deleteSaved, favoritePage, loadFavorites, moveSaved, removeSaved, type FavoriteRow } from './items.js';
import { NestedFolderRef, SCOPE_DESCRIPTION } from './types.js';

// Favorite ads: board items of type ad. A favorite's public id is the item's number.

type FavoriteAdRow = FavoriteRow & { ad: Ad | null };

export const FavoriteAdFolder = NestedFolderRef('FavoriteAdFolder');

const FavoriteAd = builder.objectRef<FavoriteAdRow>('FavoriteAd').implement({
  description: 'A saved ad. Its id is the saved row (board item) number; its folder a board.',
  fields: (t) => ({
    id: t.int({ resolve: (row) => row.number }),
    scope: t.field({ type: BoardScopeEnum, resolve: (row) => row.scope }),
    savedAt: t.field({ type: 'DateTime', resolve: (row) => row.createdAt }),
    folder: t.field({ type: FavoriteAdFolder, nullable: true, description: 'Null at the root.', resolve: (row) => row.board }),
    ad: t.field({ type: PublicAd, nullable: true, description: 'The ad summary; null when the ad is no longer indexed.', resolve: (row) => row.ad as never }),
  }),
});

const FavoriteAdPage = builder.objectRef<{ data: FavoriteAdRow[]; pagination: PagePagination }>('FavoriteAdPage').implement({
  fields: (t) => ({ data: t.field({ type: [FavoriteAd], resolve: (page) => page.data }), pagination: t.field({ type: PagePaginationRef, resolve: (page) => page.pagination }) }),
});

const FavoriteAdAddResult = builder.objectRef<{ data: FavoriteAdRow; created: boolean }>('FavoriteAdAddResult').implement({
  fields: (t) => ({
    data: t.field({ type: FavoriteAd, resolve: (result) => result.data }),
    created: t.exposeBoolean('created', { description: 'False when the ad was already saved there (returned unchanged, no audit event).' }),
  }),
});

type AdRemoval = { removed: boolean; adId: string; scope: 'workspace' | 'personal'; folderId: string | null };
const FavoriteAdRemoval = builder.objectRef<AdRemoval>('FavoriteAdRemoval').implement({
  fields: (t) => ({
    removed: t.exposeBoolean('removed', { description: 'False when the ad was not saved there.' }),
    adId: t.exposeString('adId'),
    scope: t.field({ type: BoardScopeEnum, resolve: (r) => r.scope }),
    folderId: t.exposeString('folderId', { nullable: true }),
  }),
});

/** The rows with their ad summaries, loaded in one statement with the selection at `path` (… → ad). */
async function withAds(context: Context, info: GraphQLResolveInfo, path: string[], rows: FavoriteRow[]): Promise<FavoriteAdRow[]> {
  const ids = [...new Set(rows.flatMap((row) => (row.adId ? [row.adId] : [])))];
  const ads = ids.length
    ? withCpm(await adsByIds(context.prisma, ids, queryFromInfo({ context, info, path })), DEFAULT_CPM)
    : [];
  const byId = new Map(ads.map((ad) => [ad.id, ad]));
  return rows.map((row) => ({ ...row, ad: (row.adId && byId.get(row.adId)) || null }));
}

const adId = z.string().min(1).max(128);
const favoriteId = z.number().int().min(1);

builder.queryFields((t) => ({
  favoriteAds: t.field({
    type: FavoriteAdPage,
    authScopes: { workspace: true },
    description: 'Saved ads of a scope, newest first (GET /v1/favorites/ads). Deprecated: use boards.',
    args: {
      scope: t.arg({ type: BoardScopeEnum, required: true, description: SCOPE_DESCRIPTION }),
      folderId: t.arg.string({ description: 'Only the ads saved in this folder (uuid).', validate: uuid }),
      ...pageArgs(LIST_LIMITS),
    },
    resolve: async (_root, args, context, info) => {
      const actor = await actorOf(context);
      const page = { page: args.page ?? 1, limit: args.limit ?? LIST_LIMITS.defaultLimit };
      const { rows, pagination } = await favoritePage(context, actor, scopeKey(actor, args.scope), ADS, args.folderId, page);
      return { data: await withAds(context, info, ['data', 'ad'], rows), pagination };
    },
  }),
}));

builder.mutationFields((t) => ({
  favoriteAdAdd: t.field({
    type: FavoriteAdAddResult,
    authScopes: { writer: true },
    description: 'Saves an ad (POST /v1/favorites/ads) at the root or in folderId. An already saved ad is returned unchanged with created false.',
    args: {
      scope: t.arg({ type: BoardScopeEnum, required: true, description: SCOPE_DESCRIPTION }),
      adId: t.arg.string({ required: true, description: 'Composite ad id, e.g. facebook_123.', validate: adId }),
      folderId: t.arg.string({ description: 'A folder of the scope; null or omitted: the root.', validate: uuid }),
    },
    resolve: async (_root, args, context, info) => {
      const actor = await actorOf(context);
      const key = scopeKey(actor, args.scope);
      const place = await placeOf(context, actor, key, ADS, args.folderId);
      const { id, created } = await saveItem(context, actor, place, await findTarget(context, 'ad', args.adId, 'adId'));
      const [data] = await withAds(context, info, ['data', 'ad'], await loadFavorites(context, [id]));
      return { data, created };
    },
  }),
  favoriteAdRemove: t.field({
    type: FavoriteAdRemoval,
    authScopes: { writer: true },
    description: 'Removes a saved ad from the root or folderId (DELETE /v1/favorites/ads/{adId}); audited before/null.',
    args: {
      adId: t.arg.string({ required: true, validate: adId }),
      scope: t.arg({ type: BoardScopeEnum, required: true, description: SCOPE_DESCRIPTION }),
      folderId: t.arg.string({ description: 'The folder it is saved in; omitted: the root.', validate: uuid }),
    },
    resolve: async (_root, args, context) => {
      const actor = await actorOf(context);
      const key = scopeKey(actor, args.scope);
      const id = normaliseAdId(args.adId);
      const { removed, folderId } = await removeSaved(context, actor, key, ADS, { adId: id }, args.folderId);
      return { removed, adId: id, scope: key.scope, folderId };
    },
  }),
  favoriteAdMove: t.field({
    type: FavoriteAd,
    authScopes: { writer: true },
    description: 'Moves one saved ad to a folder, or to the root with folderId null (PATCH /v1/favorites/ads/saved/{favoriteId}/folder).',
    args: {
      favoriteId: t.arg.int({ required: true, validate: favoriteId }),
      scope: t.arg({ type: BoardScopeEnum, required: true, description: SCOPE_DESCRIPTION }),
      folderId: t.arg.string({ description: 'The destination folder; null: the root.', validate: uuid }),
    },
    resolve: async (_root, args, context, info) => {
      const actor = await actorOf(context);
      const id = await moveSaved(context, actor, scopeKey(actor, args.scope), ADS, { number: args.favoriteId }, args.folderId);
      return (await withAds(context, info, ['ad'], await loadFavorites(context, [id])))[0];
    },
  }),
  favoriteAdDelete: t.field({
    type: FavoriteAdRemoval,
    authScopes: { writer: true },
    description: 'Deletes one saved ad by its saved id (DELETE /v1/favorites/ads/saved/{favoriteId}); audited before/null.',
    args: {
      favoriteId: t.arg.int({ required: true, validate: favoriteId }),
      scope: t.arg({ type: BoardScopeEnum, required: true, description: SCOPE_DESCRIPTION }),
    },
    resolve: async (_root, args, context) => {
      const actor = await actorOf(context);
      const key = scopeKey(actor, args.scope);
      const item = await deleteSaved(context, actor, key, ADS, { number: args.favoriteId });
      return { removed: true, adId: item.adId!, scope: key.scope, folderId: item.boardId };
    },
  }),
}));

defineFolderFields({ family: ADS, prefix: 'favoriteAd', typePrefix: 'FavoriteAd', folder: FavoriteAdFolder, affectedId: { type: 'Int', of: (item) => item.number } });
