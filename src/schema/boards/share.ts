import { randomBytes } from 'node:crypto';
import type { Context } from '../../context.js';
import { apiError } from '../../errors.js';
import type { Board, BoardShare } from '../../generated/prisma/client.js';
import { builder } from '../builder.js';
import { writeAudited } from '../shared/audit.js';
import { workspaceDb } from '../shared/workspace.js';
import { actorOf } from './access.js';
import { boardId } from './args.js';
import { findBoard } from './find.js';

// A share link publishes a board: sharing makes it `public`, and its URL (GET /share/boards/{slug}, no key)
// answers read-only while the board stays public and active. Revoking the share, making the board workspace
// or private again, or archiving it stops the link.

export const boardSharePath = (slug: string) => `/share/boards/${slug}`;

/** The board's share (created with the board made public, or the existing one returned as it is). */
export async function shareBoard(context: Context, board: Board): Promise<BoardShare> {
  if (board.archivedAt) throw apiError('conflict', `Board "${board.id}" is archived: restore it before sharing it.`);
  const db = await workspaceDb(context);
  const existing = await db.boardShare.findUnique({ where: { boardId: board.id } });
  if (existing && board.visibility === 'public') return existing;
  try {
    return await writeAudited(context, async (tx, audit) => {
      const share = existing ?? (await tx.boardShare.create({ data: { workspaceId: board.workspaceId, boardId: board.id, slug: randomBytes(12).toString('base64url') } }));
      if (board.visibility !== 'public') {
        const after = await tx.board.update({ where: { id: board.id }, data: { visibility: 'public' } });
        await audit({ action: 'board.update', entityType: 'board', entityId: board.id, before: board, after });
      }
      if (!existing) await audit({ action: 'board.share', entityType: 'board_share', entityId: share.id, after: share });
      return share;
    });
  } catch (error) {
    // A concurrent first share of the same board won the insert: return that share.
    if ((error as { code?: unknown }).code === 'P2002') return db.boardShare.findUniqueOrThrow({ where: { boardId: board.id } });
    throw error;
  }
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
    resolve: async (query, _root, args, context) => {
      const share = await shareBoard(context, await findBoard(context, await actorOf(context), args.boardId));
      return (await workspaceDb(context)).boardShare.findUniqueOrThrow({ ...query, where: { id: share.id } });
    },
  }),
  boardShareRevoke: t.field({
    type: BoardShareRevokeResult,
    authScopes: { writer: true },
    description: 'Revokes the share link of a board (DELETE /v1/boards/{boardId}/share): its URL stops answering. The board keeps its visibility.',
    args: { boardId: t.arg.string({ required: true, validate: boardId }) },
    resolve: async (_root, args, context) => {
      const board = await findBoard(context, await actorOf(context), args.boardId);
      const share = await (await workspaceDb(context)).boardShare.findUnique({ where: { boardId: board.id } });
      if (!share) return { revoked: false, boardId: board.id };
      await writeAudited(context, async (tx, audit) => {
        await tx.boardShare.delete({ where: { id: share.id } });
        await audit({ action: 'board.unshare', entityType: 'board_share', entityId: share.id, before: share, after: null });
      });
      return { revoked: true, boardId: board.id };
    },
  }),
}));
