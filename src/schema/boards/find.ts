import type { Context } from '../../context.js';
import { notFound } from '../../errors.js';
import type { Board, Prisma } from '../../generated/prisma/client.js';
import { workspaceDb } from '../shared/workspace.js';
import { visibleBoardsAnyScope, type Actor } from './access.js';

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
export function seenBoard(actor: Actor, boardId: string): Prisma.BoardWhereInput {
  return { AND: [{ id: boardId }, visibleBoardsAnyScope(actor)] };
}
