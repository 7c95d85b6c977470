import type { Context } from '../../../context.js';
import { notFound, validationError } from '../../../errors.js';
import type { BoardItem, PrismaClient } from '../../../generated/prisma/client.js';
import { subtreeIds, targetIdOf, type Actor, type ScopeKey } from '../../boards/service.js';
import { writeAudited, type Audit } from '../../shared/audit.js';
import { folderNamed, type Family } from '../family.js';
import { findFolderIn, scoped } from './folders.js';

// Deleting a favorite folder deletes its whole tree, with explicit handling of the favorites inside: deleted with
// it, moved to the root, or moved to another folder of the same scope outside the tree. A favorite already saved
// at the destination is not saved twice: the copy inside the tree is removed.

export type DeleteMode = 'delete_items' | 'move_items_to_root' | 'move_items_to_folder';

export type FolderDeletion = {
  deleted: boolean;
  folderId: string;
  scope: ScopeKey['scope'];
  mode: DeleteMode;
  targetFolderId: string | null;
  deletedFolderIds: string[];
  affected: BoardItem[];
};

async function moveItems(tx: PrismaClient, audit: Audit, items: BoardItem[], boardId: string | null): Promise<void> {
  if (!items.length) return;
  const { scope, ownerUserId } = items[0];
  const there = await tx.boardItem.findMany({ where: { scope, ownerUserId, boardId, itemType: { in: [...new Set(items.map((item) => item.itemType))] } } });
  const saved = new Set(there.map((item) => `${item.itemType}:${targetIdOf(item)}`));
  for (const item of items) {
    const keyOf = `${item.itemType}:${targetIdOf(item)}`;
    if (saved.has(keyOf)) {
      await tx.boardItem.delete({ where: { id: item.id } });
      await audit({ action: 'board_item.remove', entityType: 'board_item', entityId: item.id, before: item, after: null });
      continue;
    }
    saved.add(keyOf);
    const after = await tx.boardItem.update({ where: { id: item.id }, data: { boardId } });
    await audit({ action: 'board_item.move', entityType: 'board_item', entityId: item.id, before: item, after });
  }
}

async function deleteFolder(
  context: Context, actor: Actor, key: ScopeKey, family: Family, folderId: string, mode: DeleteMode, targetFolderId: string | null | undefined,
): Promise<FolderDeletion> {
  // The folders are read inside the write, in the order the checks answered before: a keyed retry of a deletion that
  // committed reaches writeAudited first and is handed its result, not a 404 for the folder it deleted.
  return writeAudited(context, async (tx, audit, lock) => {
    const folder = await findFolderIn(tx, actor, key, family, folderId);
    if (mode === 'move_items_to_folder' && !targetFolderId) {
      throw validationError([{ argument: 'targetFolderId', expected: ['targetFolderId should not be empty when mode is move_items_to_folder'] }]);
    }
    const target = mode === 'move_items_to_folder' ? await findFolderIn(tx, actor, key, family, targetFolderId!) : null;
    // A concurrent delete of the same folder waits here, then finds it gone (404); the destination stays while items move into it.
    const locked = await lock.all('board', target ? [folder.id, target.id] : [folder.id]);
    if (locked.length < (target ? 2 : 1)) throw notFound(folderNamed(family));
    const ids = await subtreeIds(tx, actor.workspaceId, folder.id);
    if (target && ids.includes(target.id)) {
      throw validationError([{ argument: 'targetFolderId', expected: ['targetFolderId must be a folder outside the deleted folder tree'] }]);
    }
    const inTree = await tx.boardItem.findMany({ where: { boardId: { in: ids } }, orderBy: [{ createdAt: 'asc' }, { number: 'asc' }], select: { id: true } });
    const affected = (await lock.all('boardItem', inTree.map((item) => item.id))).filter((item) => item.boardId !== null && ids.includes(item.boardId));
    if (mode === 'delete_items') {
      await tx.boardItem.deleteMany({ where: { id: { in: affected.map((item) => item.id) } } });
      for (const item of affected) await audit({ action: 'board_item.remove', entityType: 'board_item', entityId: item.id, before: item, after: null });
    } else {
      await moveItems(tx, audit, affected, target?.id ?? null);
    }
    const folders = await tx.board.findMany({ where: { id: { in: ids } } });
    await tx.board.deleteMany({ where: { id: { in: ids } } });
    for (const before of folders) await audit({ action: 'board.delete', entityType: 'board', entityId: before.id, before, after: null });
    return { deleted: true, folderId: folder.id, scope: key.scope, mode, targetFolderId: target?.id ?? null, deletedFolderIds: ids, affected };
  });
}

/** Deletes a folder tree of the family in the caller's scope, its favorites deleted or moved as `mode` says. */
export async function favoriteFolderDelete(
  context: Context, family: Family, args: { scope: ScopeKey['scope']; folderId: string; mode: DeleteMode; targetFolderId?: string | null },
): Promise<FolderDeletion> {
  const { actor, key } = await scoped(context, args.scope);
  return deleteFolder(context, actor, key, family, args.folderId, args.mode, args.targetFolderId);
}
