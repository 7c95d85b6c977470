import { randomBytes } from 'node:crypto';
import type { Context } from '../../../context.js';
import { apiError } from '../../../errors.js';
import type { Board, BoardShare, PrismaClient } from '../../../generated/prisma/client.js';
import { writeAudited } from '../../shared/audit.js';
import { findModelPage, type PagePagination, type PageRequest } from '../../shared/list.js';
import { scopeToWorkspace } from '../../shared/workspace.js';
import { actorOf } from '../access.js';
import { findBoard } from './boards.js';
import { targetIdOf } from './targets.js';

// A share link publishes a board: sharing makes it `public`, and its URL (GET /share/boards/{slug}, no key)
// answers read-only while the board stays public and active. Revoking the share, making the board workspace
// or private again, or archiving it stops the link.

export const boardSharePath = (slug: string) => `/share/boards/${slug}`;

/** The board's share (created with the board made public, or the existing one returned as it is). */
export async function shareBoard(context: Context, board: Board): Promise<BoardShare> {
  // Concurrent shares of one board take its row in turn: the first creates the share and makes the board public,
  // the others find both done. The share is looked for inside the write, never before it: a keyed retry of a share
  // that committed is handed the share it created, even if that one was revoked since (not a second share).
  return writeAudited(context, async (tx, audit, lock) => {
    const before = await lock.one('board', board.id, 'The board');
    if (before.archivedAt) throw apiError('conflict', `Board "${board.id}" is archived: restore it before sharing it.`);
    const found = await tx.boardShare.findUnique({ where: { boardId: board.id } });
    const share = found ?? (await tx.boardShare.create({ data: { workspaceId: board.workspaceId, boardId: board.id, slug: randomBytes(12).toString('base64url') } }));
    if (before.visibility !== 'public') {
      const after = await tx.board.update({ where: { id: board.id }, data: { visibility: 'public' } });
      await audit({ action: 'board.update', entityType: 'board', entityId: board.id, before, after });
    }
    if (!found) await audit({ action: 'board.share', entityType: 'board_share', entityId: share.id, after: share });
    return share;
  });
}

/** The share of a board the caller sees, created if it has none (the board becomes public). */
export async function boardShare(context: Context, boardId: string): Promise<BoardShare> {
  return shareBoard(context, await findBoard(context, await actorOf(context), boardId));
}

/** Revokes the share link of a board the caller sees: revoked false when it had none. The board keeps its visibility. */
export async function boardShareRevoke(context: Context, boardId: string) {
  const board = await findBoard(context, await actorOf(context), boardId);
  // The board's row first, as a share takes it: a revoke and a share of one board never cross.
  const revoked = await writeAudited(context, async (tx, audit, lock) => {
    await lock.one('board', board.id, 'The board');
    const share = await tx.boardShare.findUnique({ where: { boardId: board.id } });
    if (!share) return false;
    await tx.boardShare.delete({ where: { id: share.id } });
    await audit({ action: 'board.unshare', entityType: 'board_share', entityId: share.id, before: share, after: null });
    return true;
  });
  return { revoked, boardId: board.id };
}

// What a share link shows, without a key: the board and a page of its items, read-only. The slug is the only
// credential, so it is looked up across workspaces; everything after it is read through the filter of the
// board's own workspace. A link answers only while its share exists and its board is public and not archived.

export type SharedBoardPage = {
  data: {
    board: { id: string; name: string; description: string | null; surface: string; createdAt: Date; updatedAt: Date };
    items: { id: string; type: string; targetId: string; note: string | null; createdAt: Date }[];
  };
  pagination: PagePagination;
};

export async function sharedBoardPage(base: PrismaClient, slug: string, page: PageRequest): Promise<SharedBoardPage | null> {
  const share = await base.boardShare.findUnique({ where: { slug }, include: { board: true } });
  if (!share || share.board.archivedAt !== null || share.board.visibility !== 'public') return null;
  const db = scopeToWorkspace(base, share.workspaceId);
  const where = { boardId: share.boardId };
  const { data: items, pagination } = await findModelPage(page, {
    rows: (skip, take) => db.boardItem.findMany({ where, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], skip, take }),
    count: () => db.boardItem.count({ where }),
  });
  const { id, name, description, surface, createdAt, updatedAt } = share.board;
  return {
    data: {
      board: { id, name, description, surface, createdAt, updatedAt },
      items: items.map((item) => ({ id: item.id, type: item.itemType, targetId: targetIdOf(item), note: item.note, createdAt: item.createdAt })),
    },
    pagination,
  };
}
