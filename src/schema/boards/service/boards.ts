import { randomUUID } from 'node:crypto';
import type { Context } from '../../../context.js';
import { apiError, notFound, validationError } from '../../../errors.js';
import type { Board, Prisma } from '../../../generated/prisma/client.js';
import { writeAudited } from '../../shared/audit.js';
import { findModelPage, type PageRequest } from '../../shared/list.js';
import { workspaceDb } from '../../shared/workspace.js';
import { actorOf, scopeKey, visibleBoards, visibleBoardsAnyScope, type Actor } from '../access.js';
import type { BoardScope } from '../enums.js';
import { lockBoardTrees, subtreeIds } from './tree.js';

// Boards: finding the one the caller sees, listing a scope's, and the board state machine: active → archived with
// its whole subtree (DELETE), archived → active (restore, bringing back what was archived with it), any → any with new
// fields (PATCH) or a new parent (a move under the board itself or a descendant is refused). Every change is audited
// with the state before and after.

/** The selection Pothos asks for (a prismaField's `query`, or queryFromInfo), spread into the statement that loads the answer. */
export type BoardQuery = { include?: Prisma.BoardInclude; select?: Prisma.BoardSelect };

/**
 * A board the caller sees, or 404: a board of another workspace, another user's personal board and a private
 * board of someone else are all answered as a missing one, before anything changes.
 */
export async function findBoard(context: Context, actor: Actor, boardId: string): Promise<Board> {
  const db = await workspaceDb(context);
  const board = await db.board.findFirst({ where: seenBoard(actor, boardId) });
  if (!board) throw notFound('The board');
  return board;
}

/** The board of that id, if the caller sees it. */
function seenBoard(actor: Actor, boardId: string): Prisma.BoardWhereInput {
  return { AND: [{ id: boardId }, visibleBoardsAnyScope(actor)] };
}

/** An active board of the same scope and owner as `board`, to be its parent (404 otherwise). */
export async function parentFor(context: Context, actor: Actor, board: Pick<Board, 'scope' | 'ownerUserId'>, parentId: string): Promise<Board> {
  const db = await workspaceDb(context);
  const parent = await db.board.findFirst({ where: { AND: [{ id: parentId, archivedAt: null }, visibleBoards(actor, { scope: board.scope, ownerUserId: board.ownerUserId })] } });
  if (!parent) throw notFound('The parent board');
  return parent;
}

const BOARD_ORDER: Prisma.BoardOrderByWithRelationInput[] = [{ position: 'asc' }, { createdAt: 'asc' }, { id: 'asc' }];

export type BoardFilter = {
  scope?: BoardScope | null;
  state?: 'active' | 'archived' | null;
  kind?: 'folder' | 'collection' | null;
  surface?: Board['surface'] | null;
  parentBoardId?: string | null;
};

/** A page of the boards of a scope the caller sees, by position then creation. */
export async function boardPage(context: Context, filter: BoardFilter, page: PageRequest, select: BoardQuery) {
  const actor = await actorOf(context);
  const where: Prisma.BoardWhereInput = {
    AND: [
      visibleBoards(actor, scopeKey(actor, filter.scope ?? 'workspace')),
      { archivedAt: filter.state === 'archived' ? { not: null } : null },
      filter.kind === 'collection' ? { kind: 'folder', surface: 'mixed' } : filter.kind ? { kind: filter.kind } : {},
      filter.surface ? { surface: filter.surface } : {},
      filter.parentBoardId ? { parentBoardId: filter.parentBoardId } : {},
    ],
  };
  const db = await workspaceDb(context);
  return findModelPage(page, {
    rows: (skip, take) => db.board.findMany({ ...select, where, orderBy: BOARD_ORDER, skip, take }),
    count: () => db.board.count({ where }),
  });
}

/** One board the caller sees, active or archived, or 404. */
export async function boardDetail(context: Context, boardId: string, query: BoardQuery) {
  const board = await (await workspaceDb(context)).board.findFirst({ ...query, where: seenBoard(await actorOf(context), boardId) });
  if (!board) throw notFound('The board');
  return board;
}

export type BoardInput = {
  name: string;
  kind?: 'folder' | 'collection' | null;
  surface?: Board['surface'] | null;
  description?: string | null;
  visibility?: Board['visibility'] | null;
  parentBoardId?: string | null;
  scope?: BoardScope | null;
};

/** Creates a board; kind collection (deprecated) makes a mixed folder, an omitted surface a mixed one. */
export async function boardCreate(context: Context, input: BoardInput, query: BoardQuery) {
  const actor = await actorOf(context);
  const key = scopeKey(actor, input.scope ?? 'workspace');
  if (input.parentBoardId) await parentFor(context, actor, key, input.parentBoardId);
  const surface = input.kind === 'collection' ? 'mixed' : input.surface ?? 'mixed';
  return writeAudited(context, async (tx, audit) => {
    const board = await tx.board.create({
      data: {
        id: randomUUID(), workspaceId: actor.workspaceId, ...key, name: input.name, kind: 'folder', surface,
        description: input.description ?? null, visibility: input.visibility ?? 'workspace', createdByUserId: actor.userId, parentBoardId: input.parentBoardId ?? null,
      },
    });
    await audit({ action: 'board.create', entityType: 'board', entityId: board.id, after: board });
    return tx.board.findUniqueOrThrow({ ...query, where: { id: board.id } });
  });
}

export type BoardChange = { name?: string | null; description?: string | null; visibility?: Board['visibility'] | null };

/** Renames a board, sets or clears its description, sets its visibility; audited only when something changes. */
export async function boardUpdate(context: Context, boardId: string, change: BoardChange, query: BoardQuery) {
  const { id } = await findBoard(context, await actorOf(context), boardId);
  const data = {
    ...(change.name != null ? { name: change.name } : {}),
    ...(change.description !== undefined ? { description: change.description } : {}),
    ...(change.visibility != null ? { visibility: change.visibility } : {}),
  };
  return writeAudited(context, async (tx, audit, lock) => {
    const before = await lock.one('board', id, 'The board');
    if (Object.entries(data).some(([field, value]) => before[field as keyof typeof data] !== value)) {
      const after = await tx.board.update({ where: { id }, data });
      await audit({ action: 'board.update', entityType: 'board', entityId: id, before, after });
    }
    return tx.board.findUniqueOrThrow({ ...query, where: { id } });
  });
}

/** Archives a board and its whole subtree; an archived board is returned as it is. */
export async function boardArchive(context: Context, boardId: string, query: BoardQuery) {
  const actor = await actorOf(context);
  const { id } = await findBoard(context, actor, boardId);
  return writeAudited(context, async (tx, audit, lock) => {
    const before = await lock.one('board', id, 'The board');
    if (!before.archivedAt) {
      const ids = await subtreeIds(tx, actor.workspaceId, id);
      const archivedAt = new Date();
      await tx.board.updateMany({ where: { id: { in: ids }, archivedAt: null }, data: { archivedAt } });
      await audit({ action: 'board.archive', entityType: 'board', entityId: id, before: { archivedAt: null }, after: { archivedAt, boardIds: ids } });
    }
    return tx.board.findUniqueOrThrow({ ...query, where: { id } });
  });
}

/** Restores an archived board with the descendants archived with it; its parent must be active (409 otherwise). */
export async function boardRestore(context: Context, boardId: string, query: BoardQuery) {
  const actor = await actorOf(context);
  const { id } = await findBoard(context, actor, boardId);
  return writeAudited(context, async (tx, audit, lock) => {
    const before = await lock.one('board', id, 'The board');
    if (before.archivedAt) {
      if (before.parentBoardId && (await tx.board.count({ where: { id: before.parentBoardId, archivedAt: { not: null } } }))) {
        throw apiError('conflict', `The parent board "${before.parentBoardId}" is archived: restore it first, or move this board.`);
      }
      const ids = await subtreeIds(tx, actor.workspaceId, id);
      await tx.board.updateMany({ where: { id: { in: ids }, archivedAt: before.archivedAt }, data: { archivedAt: null } });
      await audit({ action: 'board.restore', entityType: 'board', entityId: id, before: { archivedAt: before.archivedAt }, after: { archivedAt: null } });
    }
    return tx.board.findUniqueOrThrow({ ...query, where: { id } });
  });
}

/** Moves a board the caller sees under another board of its scope, or to the root (null). */
export async function boardMove(context: Context, boardId: string, parentBoardId: string | null, query: BoardQuery) {
  const actor = await actorOf(context);
  const before = await findBoard(context, actor, boardId);
  return moveBoard(context, actor, before, parentBoardId, 'parentBoardId', query);
}

/**
 * Moves a board (and its subtree) under `parentId` or to the root; a cycle is a 400 naming `argument`. The check
 * runs in the move's transaction under a lock of the workspace's board trees, so two crossing moves cannot both pass.
 */
export async function moveBoard(context: Context, actor: Actor, board: Board, parentId: string | null, argument: string, query: BoardQuery) {
  if (parentId) await parentFor(context, actor, board, parentId);
  return writeAudited(context, async (tx, audit, lock) => {
    await lockBoardTrees(tx, actor.workspaceId);
    const before = await lock.one('board', board.id, 'The board');
    if (before.parentBoardId !== parentId) {
      if (parentId && (await subtreeIds(tx, actor.workspaceId, board.id)).includes(parentId)) {
        throw validationError([{ argument, expected: [`${argument} must not be the board itself or one of its descendants`] }]);
      }
      const after = await tx.board.update({ where: { id: board.id }, data: { parentBoardId: parentId } });
      await audit({ action: 'board.move', entityType: 'board', entityId: board.id, before, after });
    }
    return tx.board.findUniqueOrThrow({ ...query, where: { id: board.id } });
  });
}
