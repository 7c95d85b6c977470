import { z } from 'zod';
import type { Board } from '../../generated/prisma/client.js';
import { builder } from '../builder.js';
import { boardName, uuid } from '../boards/args.js';

// What the three families share: the scope argument, folder visibility and delete modes, and the folder shapes.

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

/** Validation of a reorder list: folder uuids with integer positions, at most 100 at once. */
export const folderOrders = z.array(z.object({ id: uuid, order: z.number().int().min(0) })).min(1).max(100);

export const folderName = boardName;

export const SCOPE_DESCRIPTION = 'workspace or personal. personal needs a delegated-user key (a full_access key gets 403).';

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
