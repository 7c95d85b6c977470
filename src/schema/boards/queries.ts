import { queryFromInfo } from '@pothos/plugin-prisma';
import { builder } from '../builder.js';
import { listRef, pageArgs, pageRequest } from '../shared/list.js';
import { boardId, LIST_LIMITS } from './args.js';
import { BoardKindEnum, BoardScopeEnum, BoardStateEnum, BoardSurfaceEnum } from './enums.js';
import { boardDetail, boardItemPage, boardPage } from './service.js';
import { BoardItemRef, BoardRef } from './types.js';

const BoardPage = listRef('BoardPage', BoardRef, { style: 'page', description: 'A page of boards, by position then creation.' });
const BoardItemPage = listRef('BoardItemPage', BoardItemRef, { style: 'page', description: 'A page of the items of a board, newest first.' });

const pageOf = (args: { page?: number | null; limit?: number | null }) => pageRequest(args, LIST_LIMITS.defaultLimit);

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
    resolve: (_root, args, context, info) => boardPage(context, args, pageOf(args), queryFromInfo({ context, info, path: ['data'] })),
  }),
  board: t.prismaField({
    type: BoardRef,
    authScopes: { workspace: true },
    description: 'One board the key can see, active or archived (GET /v1/boards/{boardId}).',
    args: { boardId: t.arg.string({ required: true, validate: boardId }) },
    resolve: (query, _root, args, context) => boardDetail(context, args.boardId, query),
  }),
  boardItems: t.field({
    type: BoardItemPage,
    authScopes: { workspace: true },
    description: 'The items saved on a board, newest first (GET /v1/boards/{boardId}/items).',
    args: { boardId: t.arg.string({ required: true, validate: boardId }), ...pageArgs(LIST_LIMITS) },
    resolve: (_root, args, context) => boardItemPage(context, args.boardId, pageOf(args)),
  }),
}));
