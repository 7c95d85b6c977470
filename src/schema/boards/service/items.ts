import type { Context } from '../../../context.js';
import { apiError, notFound, validationError } from '../../../errors.js';
import type { Prisma } from '../../../generated/prisma/client.js';
import { findModelPage, type PageRequest } from '../../shared/list.js';
import { workspaceDb } from '../../shared/workspace.js';
import { actorOf } from '../access.js';
import { SURFACE_ITEM_TYPE, type BoardItemType } from '../enums.js';
import { findBoard, seenBoard } from './boards.js';
import { removeItem, saveItem, type Saved } from './store.js';
import { findTarget } from './targets.js';

// The items of a board: a page of them, newest first; saving one the board accepts; removing one.

/** The selection Pothos asks for (a prismaField's `query`, or queryFromInfo). */
export type BoardItemQuery = { include?: Prisma.BoardItemInclude; select?: Prisma.BoardItemSelect };

/**
 * A page of the items saved on a board the caller sees, newest first: the board, its page of items and their number
 * in one statement (the board's row with its items joined, relationJoins), 404 for a board the caller does not see.
 */
export async function boardItemPage(context: Context, boardId: string, page: PageRequest, select: BoardItemQuery) {
  const [actor, db] = await Promise.all([actorOf(context), workspaceDb(context)]);
  // The items are the board's, so of its workspace; the filter is stated for them too (the workspace check of the
  // statement wants every mention of a workspace table filtered).
  const items = { workspaceId: actor.workspaceId };
  return findModelPage(page, {
    both: async (skip, take) => {
      const board = await db.board.findFirst({
        where: seenBoard(actor, boardId),
        relationLoadStrategy: 'join',
        select: {
          items: { ...select, where: items, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], skip, take },
          _count: { select: { items: { where: items } } },
        },
      });
      if (!board) throw notFound('The board');
      return { rows: board.items, total: board._count.items };
    },
  });
}

/** One saved item, by id, with the selection asked for. */
export async function boardItemDetail(context: Context, itemId: string, query: BoardItemQuery) {
  return (await workspaceDb(context)).boardItem.findUniqueOrThrow({ ...query, where: { id: itemId } });
}

export type BoardItemInput = { boardId: string; type: BoardItemType; targetId: string; note?: string | null };

/** Saves an item on an active board that accepts its type; one already there is returned with created false. */
export async function boardItemAdd(context: Context, input: BoardItemInput): Promise<Saved> {
  const actor = await actorOf(context);
  const board = await findBoard(context, actor, input.boardId);
  if (board.archivedAt) throw apiError('conflict', `Board "${board.id}" is archived: restore it before adding items.`);
  if (board.surface !== 'mixed' && SURFACE_ITEM_TYPE[board.surface] !== input.type) {
    throw validationError([{ argument: 'type', expected: [`type must be ${SURFACE_ITEM_TYPE[board.surface]}: the board accepts ${board.surface} only`] }]);
  }
  const target = await findTarget(context, input.type, input.targetId);
  return saveItem(context, actor, { scope: board.scope, ownerUserId: board.ownerUserId, boardId: board.id }, target, input.note);
}

/** Removes an item from a board the caller sees (404 for an item not on it). */
export async function boardItemRemove(context: Context, boardId: string, itemId: string) {
  const board = await findBoard(context, await actorOf(context), boardId);
  // The item is read in the removal's write (a keyed retry of a removal that committed gets the removed item).
  const item = (await removeItem(context, (tx) => tx.boardItem.findFirst({ where: { id: itemId.toLowerCase(), boardId: board.id } }), 'The item on this board'))!;
  return { removed: true, itemId: item.id, boardId: board.id };
}
