import { randomBytes } from 'node:crypto';
import type { Context } from '../../context.js';
import { apiError } from '../../errors.js';
import type { Board, BoardShare } from '../../generated/prisma/client.js';
import { builder } from '../builder.js';
import { writeAudited } from '../shared/audit.js';
import { actorOf } from './access.js';
import { boardId } from './args.js';
import { findBoard } from './find.js';

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

export const BoardShareRef = builder.prismaObject('BoardShare', {
  description: 'The share link of a board: its URL answers without a key while the board is public and active.',
  fields: (t) => ({
    boardId: t.exposeString('boardId'),
    id: t.exposeID('id', { description: 'uuid' }),
    slug: t.exposeString('slug'),
    shareUrl: t.string({ select: { slug: true }, resolve: (share, _args, context) => `${context.publicBaseUrl}${boardSharePath(share.slug)}` }),
    sharePath: t.string({ select: { slug: true }, resolve: (share) => boardSharePath(share.slug) }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

type Revoked = { revoked: boolean; boardId: string };
const BoardShareRevokeResult = builder.objectRef<Revoked>('BoardShareRevokeResult').implement({
  fields: (t) => ({ revoked: t.exposeBoolean('revoked', { description: 'False when the board had no share link.' }), boardId: t.exposeString('boardId') }),
});

builder.mutationFields((t) => ({
  boardShare: t.prismaField({
    type: BoardShareRef,
    authScopes: { writer: true },
    description: 'Creates the share link of a board, or returns the existing one (POST /v1/boards/{boardId}/share). The board becomes public.',
    args: { boardId: t.arg.string({ required: true, validate: boardId }) },
    // The share as the write left it (a share has no relations to select): a revoke right after cannot fail this answer.
    resolve: async (_query, _root, args, context) => shareBoard(context, await findBoard(context, await actorOf(context), args.boardId)),
  }),
  boardShareRevoke: t.field({
    type: BoardShareRevokeResult,
    authScopes: { writer: true },
    description: 'Revokes the share link of a board (DELETE /v1/boards/{boardId}/share): its URL stops answering. The board keeps its visibility.',
    args: { boardId: t.arg.string({ required: true, validate: boardId }) },
    resolve: async (_root, args, context) => {
      const board = await findBoard(context, await actorOf(context), args.boardId);
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
    },
  }),
}));
