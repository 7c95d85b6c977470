import type { ObjectRef } from '@pothos/core';
import type { Board, BoardItem } from '../../generated/prisma/client.js';
import { builder } from '../builder.js';
import { actorOf, scopeKey } from '../boards/access.js';
import { LIST_LIMITS, uuid } from '../boards/args.js';
import { BoardScopeEnum } from '../boards/enums.js';
import { pageArgs, PagePaginationRef, type PagePagination } from '../shared/pagination.js';
import { deleteFolder, type FolderDeletion } from './folder-delete.js';
import { createFolder, folderPage, reorderFolders, setFolderVisibility, updateFolder } from './folders.js';
import type { Family } from './family.js';
import { FavoriteFolderDeleteModeEnum, FavoriteFolderVisibilityEnum, folderName, folderOrders, FolderOrderInput, SCOPE_DESCRIPTION } from './types.js';

// The folder routes of a family, written once: list, create, rename (and move, with hierarchy), delete with a mode,
// reorder (with hierarchy), visibility. Field names follow the family: favoriteAdFolders, favoriteEmailFolderCreate…

type Options = {
  family: Family;
  /** `favoriteAd`, `favoriteShop`, `favoriteEmail` (field names) and `FavoriteAd`, … (type names). */
  prefix: string;
  typePrefix: string;
  folder: ObjectRef<typeof builder.$inferSchemaTypes, Board>;
  /** The public id of a favorite in the delete answer (the number for ads, the uuid otherwise). */
  affectedId: { type: 'Int'; of: (item: BoardItem) => number } | { type: 'String'; of: (item: BoardItem) => string };
};

type Reordered = { reordered: boolean; scope: 'workspace' | 'personal'; folders: Board[] };

export function defineFolderFields({ family, prefix, typePrefix, folder, affectedId }: Options): void {
  const FolderPage = builder.objectRef<{ data: Board[]; pagination: PagePagination }>(`${typePrefix}FolderPage`).implement({
    fields: (t) => ({ data: t.field({ type: [folder], resolve: (page) => page.data }), pagination: t.field({ type: PagePaginationRef, resolve: (page) => page.pagination }) }),
  });
  const Deletion = builder.objectRef<FolderDeletion>(`${typePrefix}FolderDeletion`).implement({
    fields: (t) => ({
      deleted: t.exposeBoolean('deleted'),
      folderId: t.exposeString('folderId'),
      scope: t.field({ type: BoardScopeEnum, resolve: (d) => d.scope }),
      mode: t.field({ type: FavoriteFolderDeleteModeEnum, resolve: (d) => d.mode }),
      targetFolderId: t.exposeString('targetFolderId', { nullable: true }),
      ...(family.hierarchy ? { deletedFolderIds: t.exposeStringList('deletedFolderIds', { description: 'The folder and its descendants.' }) } : {}),
      affectedFavoriteIds: affectedId.type === 'Int'
        ? t.intList({ description: 'The favorites that were in the tree (deleted or moved).', resolve: (d) => d.affected.map(affectedId.of) })
        : t.stringList({ description: 'The favorites that were in the tree (deleted or moved).', resolve: (d) => d.affected.map(affectedId.of) }),
    }),
  });
  const Reorder = builder.objectRef<Reordered>(`${typePrefix}FoldersReorder`).implement({
    fields: (t) => ({
      reordered: t.exposeBoolean('reordered'),
      scope: t.field({ type: BoardScopeEnum, resolve: (r) => r.scope }),
      folders: t.field({ type: [folder], resolve: (r) => r.folders }),
    }),
  });
  const page = (args: { page?: number | null; limit?: number | null }) => ({ page: args.page ?? 1, limit: args.limit ?? LIST_LIMITS.defaultLimit });

  builder.queryFields((t) => ({
    [`${prefix}Folders`]: t.field({
      type: FolderPage,
      authScopes: { workspace: true },
      description: `The ${family.name} favorite folders of a scope, by position then creation.`,
      args: {
        scope: t.arg({ type: BoardScopeEnum, required: true, description: SCOPE_DESCRIPTION }),
        ...pageArgs(LIST_LIMITS),
        parentId: t.arg.string({ description: 'Only the direct children of this folder.', validate: uuid }),
        rootOnly: t.arg.boolean({ description: 'Only root folders; not with parentId.' }),
      },
      resolve: async (_root, args, context) => {
        const actor = await actorOf(context);
        return folderPage(context, actor, scopeKey(actor, args.scope), family, page(args), args);
      },
    }),
  }));

  builder.mutationFields((t) => ({
    [`${prefix}FolderCreate`]: t.field({
      type: folder,
      authScopes: { writer: true },
      description: `Creates a ${family.name} favorite folder${family.hierarchy ? ' at the root or under parentId' : ' (flat)'}; audited null/after.`,
      args: {
        scope: t.arg({ type: BoardScopeEnum, required: true, description: SCOPE_DESCRIPTION }),
        name: t.arg.string({ required: true, validate: folderName }),
        ...(family.hierarchy ? { parentId: t.arg.string({ description: 'A folder of the same scope; null or omitted: a root folder.', validate: uuid }) } : {}),
      },
      resolve: async (_root, args, context) => {
        const actor = await actorOf(context);
        return createFolder(context, actor, scopeKey(actor, args.scope), family, args.name, (args as { parentId?: string | null }).parentId);
      },
    }),
    [`${prefix}FolderUpdate`]: t.field({
      type: folder,
      authScopes: { writer: true },
      description: family.hierarchy
        ? 'Renames and/or moves a folder: parentId null moves it to the root, omitted keeps its parent; a move under itself or a descendant is a 400.'
        : 'Renames a flat shop folder.',
      args: {
        folderId: t.arg.string({ required: true, validate: uuid }),
        scope: t.arg({ type: BoardScopeEnum, required: true, description: SCOPE_DESCRIPTION }),
        name: t.arg.string({ validate: folderName }),
        ...(family.hierarchy ? { parentId: t.arg.string({ description: 'The new parent folder; null: the root.', validate: uuid }) } : {}),
      },
      resolve: async (_root, args, context) => {
        const actor = await actorOf(context);
        const change = family.hierarchy && (args as { parentId?: string | null }).parentId !== undefined ? { name: args.name, parentId: (args as { parentId?: string | null }).parentId ?? null } : { name: args.name };
        return updateFolder(context, actor, scopeKey(actor, args.scope), family, args.folderId, change);
      },
    }),
    [`${prefix}FolderDelete`]: t.field({
      type: Deletion,
      authScopes: { writer: true },
      description: 'Deletes a folder tree, its favorites deleted (delete_items), moved to the root (move_items_to_root) or to targetFolderId (move_items_to_folder).',
      args: {
        folderId: t.arg.string({ required: true, validate: uuid }),
        scope: t.arg({ type: BoardScopeEnum, required: true, description: SCOPE_DESCRIPTION }),
        mode: t.arg({ type: FavoriteFolderDeleteModeEnum, required: true }),
        targetFolderId: t.arg.string({ description: 'With move_items_to_folder: a folder of the same scope outside the deleted tree.', validate: uuid }),
      },
      resolve: async (_root, args, context) => {
        const actor = await actorOf(context);
        return deleteFolder(context, actor, scopeKey(actor, args.scope), family, args.folderId, args.mode, args.targetFolderId);
      },
    }),
    [`${prefix}FolderVisibility`]: t.field({
      type: folder,
      authScopes: { writer: true },
      description:
        'Switches a root folder tree between organization (workspace scope) and private (personal scope), its favorites with it. ' +
        "Private needs a delegated-user key and is refused (403) when the tree holds other users' folders or favorites.",
      args: {
        folderId: t.arg.string({ required: true, validate: uuid }),
        scope: t.arg({ type: BoardScopeEnum, required: true, description: 'The scope the folder is in now.' }),
        visibility: t.arg({ type: FavoriteFolderVisibilityEnum, required: true }),
      },
      resolve: async (_root, args, context) => {
        const actor = await actorOf(context);
        return setFolderVisibility(context, actor, scopeKey(actor, args.scope), family, args.folderId, args.visibility);
      },
    }),
    ...(family.hierarchy
      ? {
          [`${prefix}FoldersReorder`]: t.field({
            type: Reorder,
            authScopes: { writer: true },
            description: 'Sets the order of folders among their siblings ({ folders: [{ id, order }] }, up to 100).',
            args: {
              scope: t.arg({ type: BoardScopeEnum, required: true, description: SCOPE_DESCRIPTION }),
              folders: t.arg({ type: [FolderOrderInput], required: true, validate: folderOrders }),
            },
            resolve: async (_root, args, context) => {
              const actor = await actorOf(context);
              const key = scopeKey(actor, args.scope);
              return { reordered: true, scope: key.scope, folders: await reorderFolders(context, actor, key, family, args.folders) };
            },
          }),
        }
      : {}),
  }));
}
