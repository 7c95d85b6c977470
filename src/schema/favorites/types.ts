import type { ObjectRef } from '@pothos/core';
import type { Board, BoardItem } from '../../generated/prisma/client.js';
import { builder } from '../builder.js';
import { BoardScopeEnum } from '../boards/types.js';
import { listRef } from '../shared/list.js';
import type { Family } from './family.js';
import type { FolderDeletion } from './service.js';

// What the three families share: folder visibility and delete modes, the folder shapes, and the object types of a
// family's folder routes (a page, a deletion, a reorder), made once per family.

export const FavoriteFolderVisibilityEnum = builder.enumType('FavoriteFolderVisibility', {
  values: ['private', 'organization'] as const,
  description: "organization: the workspace's favorites (scope workspace); private: the delegated user's own (scope personal).",
});

export const FavoriteFolderDeleteModeEnum = builder.enumType('FavoriteFolderDeleteMode', {
  values: ['delete_items', 'move_items_to_root', 'move_items_to_folder'] as const,
  description: 'What happens to the favorites in the deleted folder tree; move_items_to_folder needs targetFolderId.',
});

export const FolderOrderInput = builder.inputType('FavoriteFolderOrder', {
  fields: (t) => ({
    id: t.string({ required: true, description: 'Folder uuid.' }),
    order: t.int({ required: true, description: 'Position among its siblings, from 0.' }),
  }),
});

/** `{ id, name, parentId }`: a folder of a family with hierarchy (ads, emails). */
export const NestedFolderRef = (name: string) =>
  builder.objectRef<Board>(name).implement({
    description: 'A favorite folder: its id is a board id (uuid).',
    fields: (t) => ({
      id: t.exposeString('id'),
      name: t.exposeString('name'),
      parentId: t.exposeString('parentBoardId', { nullable: true, description: 'Null for a root folder.' }),
    }),
  });

/** `{ id, name }`: a flat folder (shops). */
export const FlatFolderRef = (name: string) =>
  builder.objectRef<Board>(name).implement({
    description: 'A favorite folder: its id is a board id (uuid). Shop folders are flat.',
    fields: (t) => ({ id: t.exposeString('id'), name: t.exposeString('name') }),
  });

export type FolderRef = ObjectRef<typeof builder.$inferSchemaTypes, Board>;

/** A family's folders in the schema: field names `favoriteAd…`, type names `FavoriteAd…`, its folder shape and favorite id. */
export type FolderFamily = {
  family: Family;
  prefix: string;
  typePrefix: string;
  folder: FolderRef;
  /** The public id of a favorite in the delete answer (the number for ads, the uuid otherwise). */
  affectedId: { type: 'Int'; of: (item: BoardItem) => number } | { type: 'String'; of: (item: BoardItem) => string };
};

type Reordered = { reordered: boolean; scope: 'workspace' | 'personal'; folders: Board[] };

/** The object types of a family's folder routes, in the order the schema lists them. */
function folderTypes({ family, typePrefix, folder, affectedId }: Omit<FolderFamily, 'prefix'>) {
  const FolderPage = listRef<Board>(`${typePrefix}FolderPage`, folder, { style: 'page' });
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
  return { FolderPage, Deletion, Reorder };
}

/** A family's folders with their object types (made here, at the place the schema lists them). */
export const folderFamily = (folders: FolderFamily) => ({ ...folders, types: folderTypes(folders) });

export type FolderFamilyTypes = ReturnType<typeof folderFamily>;
