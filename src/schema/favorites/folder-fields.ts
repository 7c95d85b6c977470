import { builder } from '../builder.js';
import { BoardScopeEnum } from '../boards/types.js';
import { pageArgs } from '../shared/list.js';
import { folderName, folderOrders, LIST_LIMITS, pageOf, SCOPE_DESCRIPTION, uuid } from './args.js';
import {
  favoriteFolderCreate,
  favoriteFolderDelete,
  favoriteFolders,
  favoriteFoldersReorder,
  favoriteFolderUpdate,
  favoriteFolderVisibility,
} from './service.js';
import { FavoriteFolderDeleteModeEnum, FavoriteFolderVisibilityEnum, FolderOrderInput, type FolderFamilyTypes } from './types.js';

// The folder routes of a family, written once: list, create, rename (and move, with hierarchy), delete with a mode,
// reorder (with hierarchy), visibility. Field names follow the family: favoriteAdFolders, favoriteEmailFolderCreate…
// queries.ts and mutations.ts call these where the family's fields go in the schema.

/** The folder list of a family (`favoriteAdFolders`, …). */
export function favoriteFolderQueries({ family, prefix, folder, types: { FolderPage } }: FolderFamilyTypes): void {
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
      resolve: (_root, args, context) => favoriteFolders(context, family, args, pageOf(args)),
    }),
  }));
}

/** The folder mutations of a family: create, update, delete, visibility, and reorder for a family with hierarchy. */
export function favoriteFolderMutations({ family, prefix, folder, types: { Deletion, Reorder } }: FolderFamilyTypes): void {
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
      resolve: (_root, args, context) => favoriteFolderCreate(context, family, args),
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
      resolve: (_root, args, context) => favoriteFolderUpdate(context, family, args),
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
      resolve: (_root, args, context) => favoriteFolderDelete(context, family, args),
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
      resolve: (_root, args, context) => favoriteFolderVisibility(context, family, args),
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
            resolve: (_root, args, context) => favoriteFoldersReorder(context, family, args),
          }),
        }
      : {}),
  }));
}
