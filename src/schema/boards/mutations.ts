import { randomUUID } from 'node:crypto';
import { apiError, notFound, validationError } from '../../errors.js';
import type { Board } from '../../generated/prisma/client.js';
import { builder } from '../builder.js';
import { writeAudited } from '../shared/audit.js';
import { workspaceDb } from '../shared/workspace.js';
import { actorOf, scopeKey, visibleBoards, type Actor } from './access.js';
import { boardDescription, boardId, boardName } from './args.js';
import { BoardKindEnum, BoardScopeEnum, BoardSurfaceEnum, BoardVisibilityEnum } from './enums.js';
import { findBoard } from './find.js';
import { lockBoardTrees, subtreeIds } from './tree.js';
import { BoardRef } from './types.js';

// The board state machine: active → archived with its whole subtree (DELETE), archived → active (restore,
// bringing back what was archived with it), any → any with new fields (PATCH) or a new parent (a move under
// the board itself or a descendant is refused). Every change is audited with the state before and after.

/** An active board of the same scope and owner as `board`, to be its parent (404 otherwise). */
export async function parentFor(context: Parameters<typeof findBoard>[0], actor: Actor, board: Pick<Board, 'scope' | 'ownerUserId'>, parentId: string): Promise<Board> {
  const db = await workspaceDb(context);
  const parent = await db.board.findFirst({ where: { AND: [{ id: parentId, archivedAt: null }, visibleBoards(actor, { scope: board.scope, ownerUserId: board.ownerUserId })] } });
  if (!parent) throw notFound('The parent board');
  return parent;
}

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
    resolve: async (query, _root, args, context) => {
      const actor = await actorOf(context);
      const key = scopeKey(actor, args.scope ?? 'workspace');
      if (args.parentBoardId) await parentFor(context, actor, key, args.parentBoardId);
      const surface = args.kind === 'collection' ? 'mixed' : args.surface ?? 'mixed';
      return writeAudited(context, async (tx, audit) => {
        const board = await tx.board.create({
          data: {
            id: randomUUID(), workspaceId: actor.workspaceId, ...key, name: args.name, kind: 'folder', surface,
            description: args.description ?? null, visibility: args.visibility ?? 'workspace', createdByUserId: actor.userId, parentBoardId: args.parentBoardId ?? null,
          },
        });
        await audit({ action: 'board.create', entityType: 'board', entityId: board.id, after: board });
        return tx.board.findUniqueOrThrow({ ...query, where: { id: board.id } });
      });
    },
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
    resolve: async (query, _root, args, context) => {
      const { id } = await findBoard(context, await actorOf(context), args.boardId);
      const data = {
        ...(args.name != null ? { name: args.name } : {}),
        ...(args.description !== undefined ? { description: args.description } : {}),
        ...(args.visibility != null ? { visibility: args.visibility } : {}),
      };
      return writeAudited(context, async (tx, audit, lock) => {
        const before = await lock.one('board', id, 'The board');
        if (Object.entries(data).some(([field, value]) => before[field as keyof typeof data] !== value)) {
          const after = await tx.board.update({ where: { id }, data });
          await audit({ action: 'board.update', entityType: 'board', entityId: id, before, after });
        }
        return tx.board.findUniqueOrThrow({ ...query, where: { id } });
      });
    },
  }),
  boardArchive: t.prismaField({
    type: BoardRef,
    authScopes: { writer: true },
    description: 'Archives a board and its whole subtree (DELETE /v1/boards/{boardId}); reversible with restore. An archived board is returned as it is.',
    args: { boardId: t.arg.string({ required: true, validate: boardId }) },
    resolve: async (query, _root, args, context) => {
      const actor = await actorOf(context);
      const { id } = await findBoard(context, actor, args.boardId);
      return writeAudited(context, async (tx, audit, lock) => {
        const before = await lock.one('board', id, 'The board');
        if (!before.archivedAt) {
          const ids = await subtreeIds(tx, actor.workspaceId, id);
          const archivedAt = new Date();
          await tx.board.updateMany({ where: { id: { in: ids }, archivedAt: null }, data: { archivedAt } });
          await audit({ action: 'board.archive', entityType: 'board', entityId: id, before: { archivedAt: null }, after: { archivedAt, boardIds: ids } });
        }
        return tx.board.findUniqueOrThrow({ ...query, where: { id } });
      });
    },
  }),
  boardRestore: t.prismaField({
    type: BoardRef,
    authScopes: { writer: true },
    description: 'Restores an archived board with the descendants archived with it (POST /v1/boards/{boardId}/restore). Its parent must be active (409 otherwise).',
    args: { boardId: t.arg.string({ required: true, validate: boardId }) },
    resolve: async (query, _root, args, context) => {
      const actor = await actorOf(context);
      const { id } = await findBoard(context, actor, args.boardId);
      return writeAudited(context, async (tx, audit, lock) => {
        const before = await lock.one('board', id, 'The board');
        if (before.archivedAt) {
          if (before.parentBoardId && (await tx.board.count({ where: { id: before.parentBoardId, archivedAt: { not: null } } }))) {
            throw apiError('conflict', `The parent board "${before.parentBoardId}" is archived: restore it first, or move this board.`);
          }
          const ids = await subtreeIds(tx, actor.workspaceId, id);
          await tx.board.updateMany({ where: { id: { in: ids }, archivedAt: before.archivedAt }, data: { archivedAt: null } });
          await audit({ action: 'board.restore', entityType: 'board', entityId: id, before: { archivedAt: before.archivedAt }, after: { archivedAt: null } });
        }
        return tx.board.findUniqueOrThrow({ ...query, where: { id } });
      });
    },
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
      const actor = await actorOf(context);
      const before = await findBoard(context, actor, args.boardId);
      return moveBoard(context, actor, before, args.parentBoardId ?? null, 'parentBoardId', query);
    },
  }),
}));

/**
 * Moves a board (and its subtree) under `parentId` or to the root; a cycle is a 400 naming `argument`. The check
 * runs in the move's transaction under a lock of the workspace's board trees, so two crossing moves cannot both pass.
 */
export async function moveBoard<Q extends object>(context: Parameters<typeof findBoard>[0], actor: Actor, board: Board, parentId: string | null, argument: string, query: Q) {
  if (parentId) await parentFor(context, actor, board, parentId);
  return writeAudited(context, async (tx, audit, lock) => {
    await lockBoardTrees(tx, actor.workspaceId);
    const before = await lock.one('board', board.id, 'The board');
    if (before.parentBoardId !== parentId) {
      if (parentId && (await subtreeIds(tx, actor.workspaceId, board.id)).includes(parentId)) {
        throw validationError([{ argument, expected: [`${argument} must not be the board itself or one of its descendants`] }]);
      }
      const after = await tx.board.update({ where: { id: board.id }, data: { parentBoardId: parentId } });
      await audit({ action: 'board.move', entityType: 'board', entityId: board.id, before, after });
    }
    return tx.board.findUniqueOrThrow({ ...query, where: { id: board.id } });
  });
}
