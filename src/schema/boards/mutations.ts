import { validationError } from '../../errors.js';
import { builder } from '../builder.js';
import { boardDescription, boardId, boardName } from './args.js';
import { BoardKindEnum, BoardScopeEnum, BoardSurfaceEnum, BoardVisibilityEnum } from './enums.js';
import { boardArchive, boardCreate, boardMove, boardRestore, boardUpdate } from './service.js';
import { BoardRef } from './types.js';

// The board state machine's root fields; the service (service/boards.ts) holds the rules and the writes.

builder.mutationFields((t) => ({
  boardCreate: t.prismaField({
    type: BoardRef,
    authScopes: { writer: true },
    description: 'Creates a board (POST /v1/boards). kind collection (deprecated) creates a mixed folder; an omitted surface means mixed.',
    args: {
      name: t.arg.string({ required: true, validate: boardName }),
      kind: t.arg({ type: BoardKindEnum, defaultValue: 'folder' }),
      surface: t.arg({ type: BoardSurfaceEnum, description: 'Omitted or null: mixed (every content type).' }),
      description: t.arg.string({ validate: boardDescription }),
      visibility: t.arg({ type: BoardVisibilityEnum, defaultValue: 'workspace' }),
      parentBoardId: t.arg.string({ description: 'An active board of the same scope; omitted: a root board.', validate: boardId }),
      scope: t.arg({ type: BoardScopeEnum, defaultValue: 'workspace', description: 'personal needs a delegated-user key.' }),
    },
    resolve: (query, _root, args, context) => boardCreate(context, args, query),
  }),
  boardUpdate: t.prismaField({
    type: BoardRef,
    authScopes: { writer: true },
    description: 'Renames a board, sets its description or its visibility (PATCH /v1/boards/{boardId}).',
    args: {
      boardId: t.arg.string({ required: true, validate: boardId }),
      name: t.arg.string({ validate: boardName }),
      description: t.arg.string({ description: 'null clears it.', validate: boardDescription }),
      visibility: t.arg({ type: BoardVisibilityEnum }),
    },
    resolve: (query, _root, args, context) => boardUpdate(context, args.boardId, args, query),
  }),
  boardArchive: t.prismaField({
    type: BoardRef,
    authScopes: { writer: true },
    description: 'Archives a board and its whole subtree (DELETE /v1/boards/{boardId}); reversible with restore. An archived board is returned as it is.',
    args: { boardId: t.arg.string({ required: true, validate: boardId }) },
    resolve: (query, _root, args, context) => boardArchive(context, args.boardId, query),
  }),
  boardRestore: t.prismaField({
    type: BoardRef,
    authScopes: { writer: true },
    description: 'Restores an archived board with the descendants archived with it (POST /v1/boards/{boardId}/restore). Its parent must be active (409 otherwise).',
    args: { boardId: t.arg.string({ required: true, validate: boardId }) },
    resolve: (query, _root, args, context) => boardRestore(context, args.boardId, query),
  }),
  boardMove: t.prismaField({
    type: BoardRef,
    authScopes: { writer: true },
    description: 'Moves a board under another board of its scope, or to the root with null (PATCH /v1/boards/{boardId}/parent).',
    args: {
      boardId: t.arg.string({ required: true, validate: boardId }),
      parentBoardId: t.arg.string({ description: 'The new parent; null moves the board to the root.', validate: boardId }),
    },
    resolve: async (query, _root, args, context) => {
      if (args.parentBoardId === undefined) throw validationError([{ argument: 'parentBoardId', expected: ['parentBoardId should be sent (null moves the board to the root)'] }]);
      return boardMove(context, args.boardId, args.parentBoardId ?? null, query);
    },
  }),
}));
