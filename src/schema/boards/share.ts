import { builder } from '../builder.js';
import { boardId } from './args.js';
import { boardShare, boardSharePath, boardShareRevoke } from './service.js';

// The share link's root fields; what sharing does (the board made public, the link's life) is in service/share.ts.

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
    resolve: (_query, _root, args, context) => boardShare(context, args.boardId),
  }),
  boardShareRevoke: t.field({
    type: BoardShareRevokeResult,
    authScopes: { writer: true },
    description: 'Revokes the share link of a board (DELETE /v1/boards/{boardId}/share): its URL stops answering. The board keeps its visibility.',
    args: { boardId: t.arg.string({ required: true, validate: boardId }) },
    resolve: (_root, args, context) => boardShareRevoke(context, args.boardId),
  }),
}));
