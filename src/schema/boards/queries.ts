import { queryFromInfo } from '@pothos/plugin-prisma';
import { notFound } from '../../errors.js';
import type { Prisma } from '../../generated/prisma/client.js';
import { builder } from '../builder.js';
import { offsetOf, pageArgs, pageListRef, pagePagination } from '../shared/pagination.js';
import { workspaceDb } from '../shared/workspace.js';
import { actorOf, scopeKey, visibleBoards } from './access.js';
import { boardId, LIST_LIMITS } from './args.js';
import { BoardKindEnum, BoardScopeEnum, BoardStateEnum, BoardSurfaceEnum } from './enums.js';
import { findBoard, seenBoard } from './find.js';
import { BoardItemRef, BoardRef } from './types.js';

const BoardPage = pageListRef('BoardPage', BoardRef, 'A page of boards, by position then creation.');
const BoardItemPage = pageListRef('BoardItemPage', BoardItemRef, 'A page of the items of a board, newest first.');

const BOARD_ORDER: Prisma.BoardOrderByWithRelationInput[] = [{ position: 'asc' }, { createdAt: 'asc' }, { id: 'asc' }];

builder.queryFields((t) => ({
  boards: t.field({
    type: BoardPage,
    authScopes: { workspace: true },
    description: 'Boards of a scope (GET /v1/boards): active ones by default, archived ones with state=archived.',
    args: {
      scope: t.arg({ type: BoardScopeEnum, defaultValue: 'workspace', description: 'personal needs a delegated-user key.' }),
      state: t.arg({ type: BoardStateEnum, defaultValue: 'active' }),
      kind: t.arg({ type: BoardKindEnum, description: 'collection (deprecated) lists mixed folders.' }),
      surface: t.arg({ type: BoardSurfaceEnum, description: 'mixed lists only the boards that accept every content type.' }),
      parentBoardId: t.arg.string({ description: 'Only the direct children of this board.', validate: boardId }),
      ...pageArgs(LIST_LIMITS),
    },
    resolve: async (_root, args, context, info) => {
      const actor = await actorOf(context);
      const page = { page: args.page ?? 1, limit: args.limit ?? LIST_LIMITS.defaultLimit };
      const where: Prisma.BoardWhereInput = {
        AND: [
          visibleBoards(actor, scopeKey(actor, args.scope ?? 'workspace')),
          { archivedAt: args.state === 'archived' ? { not: null } : null },
          args.kind === 'collection' ? { kind: 'folder', surface: 'mixed' } : args.kind ? { kind: args.kind } : {},
          args.surface ? { surface: args.surface } : {},
          args.parentBoardId ? { parentBoardId: args.parentBoardId } : {},
        ],
      };
      const db = await workspaceDb(context);
      const [data, total] = await Promise.all([
        db.board.findMany({ ...queryFromInfo({ context, info, path: ['data'] }), where, orderBy: BOARD_ORDER, skip: offsetOf(page), take: page.limit }),
        db.board.count({ where }),
      ]);
      return { data, pagination: pagePagination(page, total) };
    },
  }),
  board: t.prismaField({
    type: BoardRef,
    authScopes: { workspace: true },
    description: 'One board the key can see, active or archived (GET /v1/boards/{boardId}).',
    args: { boardId: t.arg.string({ required: true, validate: boardId }) },
    resolve: async (query, _root, args, context) => {
      const board = await (await workspaceDb(context)).board.findFirst({ ...query, where: seenBoard(await actorOf(context), args.boardId) });
      if (!board) throw notFound('The board');
      return board;
    },
  }),
  boardItems: t.field({
    type: BoardItemPage,
    authScopes: { workspace: true },
    description: 'The items saved on a board, newest first (GET /v1/boards/{boardId}/items).',
    args: { boardId: t.arg.string({ required: true, validate: boardId }), ...pageArgs(LIST_LIMITS) },
    resolve: async (_root, args, context, info) => {
      const board = await findBoard(context, await actorOf(context), args.boardId);
      const page = { page: args.page ?? 1, limit: args.limit ?? LIST_LIMITS.defaultLimit };
      const db = await workspaceDb(context);
      const where = { boardId: board.id };
      const [data, total] = await Promise.all([
        db.boardItem.findMany({ ...queryFromInfo({ context, info, path: ['data'] }), where, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], skip: offsetOf(page), take: page.limit }),
        db.boardItem.count({ where }),
      ]);
      return { data, pagination: pagePagination(page, total) };
    },
  }),
}));
