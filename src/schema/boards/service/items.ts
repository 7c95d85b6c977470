import type { Context } from '../../../context.js';
import { apiError, notFound, validationError } from '../../../errors.js';
import { Prisma, type BoardItem } from '../../../generated/prisma/client.js';
import { findModelPage, rawRows, type PageRequest } from '../../shared/list.js';
import { inWorkspace, workspaceDb } from '../../shared/workspace.js';
import { actorOf, type Actor } from '../access.js';
import { SURFACE_ITEM_TYPE, type BoardItemType } from '../enums.js';
import { findBoard } from './boards.js';
import { removeItem, saveItem, type Saved } from './store.js';
import { findTarget } from './targets.js';

// The items of a board: a page of them, newest first; saving one the board accepts; removing one.

/** The selection Pothos asks for (a prismaField's `query`, or queryFromInfo). */
export type BoardItemQuery = { include?: Prisma.BoardItemInclude; select?: Prisma.BoardItemSelect };

/**
 * A page of the items saved on a board the caller sees, newest first: the board, its page of items and their number
 * in one statement on the pool (the board's row, its count and its page joined; Prisma's relation join cost more CPU
 * than the rest of the request), 404 for a board the caller does not see. Every column is read, so each item is the
 * BoardItem row Pothos resolves whatever the selection.
 */
export async function boardItemPage(context: Context, boardId: string, page: PageRequest) {
  const actor = await actorOf(context);
  const workspaceId = actor.workspaceId;
  return findModelPage(page, {
    both: async (skip, take) => {
      // The items are the board's, so of its workspace; the filter is stated for them too (the workspace check of the
      // statement wants every mention of a workspace table filtered).
      const rows = await rawRows<ItemRow>(context.pool, Prisma.sql`
        SELECT t."total", i.* FROM "boards" b
        CROSS JOIN LATERAL (SELECT count(*)::int AS "total" FROM "board_items" c WHERE c."boardId" = b."id" AND ${inWorkspace('c', workspaceId)}) t
        LEFT JOIN LATERAL (
          SELECT * FROM "board_items" i WHERE i."boardId" = b."id" AND ${inWorkspace('i', workspaceId)}
          ORDER BY i."createdAt" DESC, i."id" DESC LIMIT ${take} OFFSET ${skip}) i ON TRUE
        WHERE b."id" = ${boardId} AND ${inWorkspace('b', workspaceId)} AND ${visibleBoardsAnyScopeSql(actor, 'b')}
        ORDER BY i."createdAt" DESC, i."id" DESC`, { prepared: true });
      if (!rows.length) throw notFound('The board');
      // A board without items on this page is one row of nulls beside its count.
      return { rows: rows.filter((row) => row.id !== null).map(({ total: _, ...item }) => item), total: rows[0].total };
    },
  });
}

type ItemRow = BoardItem & { total: number };

/**
 * access.ts's visibleBoardsAnyScope as SQL on the board alias `b`, for the items page's raw statement. The same rule:
 * the workspace's boards, a private one only for its creator or a full-access key, and the delegated user's own
 * personal boards (test/boards/access.test.ts holds the two forms to the same boards for every kind of caller).
 */
function visibleBoardsAnyScopeSql(actor: Actor, b: string): Prisma.Sql {
  const column = (name: string) => Prisma.raw(`${b}."${name}"`);
  const creator = actor.fullAccess
    ? Prisma.empty
    : Prisma.sql` AND (${column('visibility')} <> 'private' OR ${column('createdByUserId')} IS NOT DISTINCT FROM ${actor.userId}::uuid)`;
  const workspace = Prisma.sql`(${column('scope')} = 'workspace' AND ${column('ownerUserId')} IS NULL${creator})`;
  if (!actor.userId) return workspace;
  return Prisma.sql`(${workspace} OR (${column('scope')} = 'personal' AND ${column('ownerUserId')} = ${actor.userId}::uuid))`;
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
