import { randomUUID } from 'node:crypto';
import type { Context } from '../../../context.js';
import { apiError, notFound, validationError } from '../../../errors.js';
import type { Board, Prisma, PrismaClient } from '../../../generated/prisma/client.js';
import { actorOf, moveBoard, scopeKey, subtreeIds, type Actor, type ScopeKey } from '../../boards/service.js';
import { writeAudited } from '../../shared/audit.js';
import { workspaceDb } from '../../shared/workspace.js';
import { findModelPage, type PageRequest } from '../../shared/list.js';
import { folderNamed, folderWhere, type Family } from '../family.js';

// Favorite folders of every family: they are boards of the family's surface. Created at the root or under a
// folder (families with hierarchy), renamed, moved, reordered, deleted with their subtree, and switched between
// private (personal scope) and organization (workspace scope) visibility.

/** The caller, and the rows of the scope it asks for (personal without a delegated user is a 403). */
export async function scoped(context: Context, scope: ScopeKey['scope']): Promise<{ actor: Actor; key: ScopeKey }> {
  const actor = await actorOf(context);
  return { actor, key: scopeKey(actor, scope) };
}

/** A folder of the family in the scope, or 404 (another scope's, workspace's or family's folder alike). */
export async function findFolder(context: Context, actor: Actor, key: ScopeKey, family: Family, folderId: string): Promise<Board> {
  return findFolderIn(await workspaceDb(context), actor, key, family, folderId);
}

/** findFolder through a given workspace-filtered client (a write's transaction). */
export async function findFolderIn(db: PrismaClient, actor: Actor, key: ScopeKey, family: Family, folderId: string): Promise<Board> {
  const folder = await db.board.findFirst({ where: { AND: [{ id: folderId.toLowerCase() }, folderWhere(actor, key, family)] } });
  if (!folder) throw notFound(folderNamed(family));
  return folder;
}

/** The folder id as a place to save in: null (the root) when omitted or null. */
export async function placeOf(context: Context, actor: Actor, key: ScopeKey, family: Family, folderId: string | null | undefined) {
  return { ...key, boardId: folderId ? (await findFolder(context, actor, key, family, folderId)).id : null };
}

const FOLDER_ORDER: Prisma.BoardOrderByWithRelationInput[] = [{ position: 'asc' }, { createdAt: 'asc' }, { id: 'asc' }];

async function folderPage(context: Context, actor: Actor, key: ScopeKey, family: Family, page: PageRequest, filter: { parentId?: string | null; rootOnly?: boolean | null } = {}) {
  if (filter.parentId && filter.rootOnly) throw validationError([{ argument: 'rootOnly', expected: ['rootOnly must not be true together with parentId'] }]);
  const where: Prisma.BoardWhereInput = {
    AND: [folderWhere(actor, key, family), filter.parentId ? { parentBoardId: filter.parentId.toLowerCase() } : filter.rootOnly ? { parentBoardId: null } : {}],
  };
  const db = await workspaceDb(context);
  return findModelPage(page, { rows: (skip, take) => db.board.findMany({ where, orderBy: FOLDER_ORDER, skip, take }), count: () => db.board.count({ where }) });
}

async function createFolder(context: Context, actor: Actor, key: ScopeKey, family: Family, name: string, parentId?: string | null): Promise<Board> {
  const parent = parentId ? await findFolder(context, actor, key, family, parentId) : null;
  return writeAudited(context, async (tx, audit) => {
    const folder = await tx.board.create({
      data: { id: randomUUID(), workspaceId: actor.workspaceId, ...key, name, kind: 'folder', surface: family.surface, createdByUserId: actor.userId, parentBoardId: parent?.id ?? null },
    });
    await audit({ action: 'board.create', entityType: 'board', entityId: folder.id, after: folder });
    return folder;
  });
}

/** Renames and/or moves a folder: `parentId` undefined keeps the parent, null moves it to the root. */
async function updateFolder(context: Context, actor: Actor, key: ScopeKey, family: Family, folderId: string, change: { name?: string | null; parentId?: string | null }): Promise<Board> {
  let folder = await findFolder(context, actor, key, family, folderId);
  if (change.parentId !== undefined) {
    const parentId = change.parentId === null ? null : (await findFolder(context, actor, key, family, change.parentId)).id;
    folder = await moveBoard(context, actor, folder, parentId, 'parentId', {});
  }
  const name = change.name;
  if (name == null || name === folder.name) return folder;
  return writeAudited(context, async (tx, audit, lock) => {
    const before = await lock.one('board', folder.id, folderNamed(family));
    if (before.name === name) return before;
    const after = await tx.board.update({ where: { id: before.id }, data: { name } });
    await audit({ action: 'board.update', entityType: 'board', entityId: before.id, before, after });
    return after;
  });
}

async function reorderFolders(context: Context, actor: Actor, key: ScopeKey, family: Family, entries: readonly { id: string; order: number }[]): Promise<Board[]> {
  const ids = entries.map((entry) => entry.id.toLowerCase());
  if (new Set(ids).size !== ids.length) throw validationError([{ argument: 'folders', expected: ['folders must not name a folder twice'] }]);
  const db = await workspaceDb(context);
  const found = await db.board.findMany({ where: { AND: [folderWhere(actor, key, family), { id: { in: ids } }] } });
  const missing = ids.find((id) => !found.some((folder) => folder.id === id));
  if (missing) throw notFound(`A favorite ${family.name} folder of the list`);
  const positionOf = (folder: Board) => entries[ids.indexOf(folder.id)].order;
  const changed = found.filter((folder) => folder.position !== positionOf(folder));
  if (changed.length) {
    await writeAudited(context, async (tx, audit, lock) => {
      for (const before of await lock.all('board', changed.map((folder) => folder.id))) {
        if (before.position === positionOf(before)) continue;
        const after = await tx.board.update({ where: { id: before.id }, data: { position: positionOf(before) } });
        await audit({ action: 'board.reorder', entityType: 'board', entityId: before.id, before: { position: before.position }, after: { position: after.position } });
      }
    });
  }
  return db.board.findMany({ where: { id: { in: ids } }, orderBy: FOLDER_ORDER });
}

/**
 * Switches a root folder tree between organization (workspace scope) and private (the delegated user's personal
 * scope), its saved items with it. Private conversion is refused (403) when the tree holds folders or favorites
 * another user saved: they would leave the workspace for one person's scope.
 */
async function setFolderVisibility(context: Context, actor: Actor, key: ScopeKey, family: Family, folderId: string, visibility: 'private' | 'organization'): Promise<Board> {
  const target: ScopeKey = visibility === 'organization' ? { scope: 'workspace', ownerUserId: null } : { scope: 'personal', ownerUserId: actor.userId };
  // The folder is read inside the write (in the scope it is in before the switch): a keyed retry of a switch that
  // committed reaches writeAudited first and is handed its result, not a 404 for a folder no longer in that scope.
  return writeAudited(context, async (tx, audit, lock) => {
    const found = await findFolderIn(tx, actor, key, family, folderId);
    if (found.parentBoardId) throw apiError('conflict', 'Only a root folder sets the visibility of its tree: set it on the root folder.');
    if (target.scope === found.scope) return found;
    if (target.scope === 'personal' && !actor.userId) throw apiError('forbidden', 'private visibility needs a delegated-user API key.');
    const folder = await lock.one('board', found.id, folderNamed(family));
    if (target.scope === folder.scope) return folder;
    const ids = await subtreeIds(tx, actor.workspaceId, folder.id);
    if (target.scope === 'personal') {
      // Rows a full-access key made (no user) belong to the workspace: they are someone else's too.
      const others = { OR: [{ createdByUserId: null }, { createdByUserId: { not: actor.userId! } }] };
      const foreign = (await tx.board.count({ where: { id: { in: ids }, ...others } })) + (await tx.boardItem.count({ where: { boardId: { in: ids }, ...others } }));
      if (foreign) throw apiError('forbidden', "This folder tree holds folders or favorites other users saved: it cannot become private.");
    }
    await tx.board.updateMany({ where: { id: { in: ids } }, data: target });
    await tx.boardItem.updateMany({ where: { boardId: { in: ids } }, data: target });
    const after = await tx.board.findUniqueOrThrow({ where: { id: folder.id } });
    await audit({ action: 'board.visibility', entityType: 'board', entityId: folder.id, before: folder, after: { ...after, boardIds: ids } });
    return after;
  });
}

type Scope = ScopeKey['scope'];

/** The family's folders of the caller's scope, by position then creation. */
export async function favoriteFolders(context: Context, family: Family, args: { scope: Scope; parentId?: string | null; rootOnly?: boolean | null }, page: PageRequest) {
  const { actor, key } = await scoped(context, args.scope);
  return folderPage(context, actor, key, family, page, args);
}

export async function favoriteFolderCreate(context: Context, family: Family, args: { scope: Scope; name: string; parentId?: string | null }): Promise<Board> {
  const { actor, key } = await scoped(context, args.scope);
  return createFolder(context, actor, key, family, args.name, args.parentId);
}

/** Renames a folder and, for a family with hierarchy, moves it when parentId is sent (null: to the root). */
export async function favoriteFolderUpdate(context: Context, family: Family, args: { scope: Scope; folderId: string; name?: string | null; parentId?: string | null }): Promise<Board> {
  const { actor, key } = await scoped(context, args.scope);
  const change = family.hierarchy && args.parentId !== undefined ? { name: args.name, parentId: args.parentId ?? null } : { name: args.name };
  return updateFolder(context, actor, key, family, args.folderId, change);
}

export async function favoriteFolderVisibility(context: Context, family: Family, args: { scope: Scope; folderId: string; visibility: 'private' | 'organization' }): Promise<Board> {
  const { actor, key } = await scoped(context, args.scope);
  return setFolderVisibility(context, actor, key, family, args.folderId, args.visibility);
}

export async function favoriteFoldersReorder(context: Context, family: Family, args: { scope: Scope; folders: readonly { id: string; order: number }[] }) {
  const { actor, key } = await scoped(context, args.scope);
  return { reordered: true, scope: key.scope, folders: await reorderFolders(context, actor, key, family, args.folders) };
}
