import { z } from 'zod';
import { apiError, validationError } from '../../errors.js';
import { builder } from '../builder.js';
import { workspaceDb } from '../shared/workspace.js';
import { actorOf } from './access.js';
import { boardId, uuid } from './args.js';
import { BoardItemTypeEnum, SURFACE_ITEM_TYPE } from './enums.js';
import { findBoard } from './find.js';
import { removeItem, saveItem } from './store.js';
import { findTarget } from './targets.js';
import { BoardItemRef } from './types.js';

type Added = { id: string; created: boolean };

const BoardItemAddResult = builder.objectRef<Added>('BoardItemAddResult').implement({
  fields: (t) => ({
    data: t.prismaField({
      type: BoardItemRef,
      resolve: async (query, result, _args, context) => (await workspaceDb(context)).boardItem.findUniqueOrThrow({ ...query, where: { id: result.id } }),
    }),
    created: t.exposeBoolean('created', { description: 'False when the item was already on the board (returned unchanged, nothing written).' }),
  }),
});

type Removed = { removed: boolean; itemId: string; boardId: string };

const BoardItemRemoveResult = builder.objectRef<Removed>('BoardItemRemoveResult').implement({
  fields: (t) => ({ removed: t.exposeBoolean('removed'), itemId: t.exposeString('itemId'), boardId: t.exposeString('boardId') }),
});

builder.mutationFields((t) => ({
  boardItemAdd: t.field({
    type: BoardItemAddResult,
    authScopes: { writer: true },
    description:
      'Saves an item on a board (POST /v1/boards/{boardId}/items): an ad, shop, email, product, advertiser or landing page the board accepts ' +
      '(a board of one surface takes only its type: another type is a 400). An item already on the board is returned with `created: false`.',
    args: {
      boardId: t.arg.string({ required: true, validate: boardId }),
      type: t.arg({ type: BoardItemTypeEnum, required: true }),
      targetId: t.arg.string({ required: true, description: 'The ad id, shop uuid, email id, product id, advertiser (Facebook page) id or landing-page URL.', validate: z.string().min(1).max(2048) }),
      note: t.arg.string({ validate: z.string().max(2000) }),
    },
    resolve: async (_root, args, context) => {
      const actor = await actorOf(context);
      const board = await findBoard(context, actor, args.boardId);
      if (board.archivedAt) throw apiError('conflict', `Board "${board.id}" is archived: restore it before adding items.`);
      if (board.surface !== 'mixed' && SURFACE_ITEM_TYPE[board.surface] !== args.type) {
        throw validationError([{ argument: 'type', expected: [`type must be ${SURFACE_ITEM_TYPE[board.surface]}: the board accepts ${board.surface} only`] }]);
      }
      const target = await findTarget(context, args.type, args.targetId);
      return saveItem(context, actor, { scope: board.scope, ownerUserId: board.ownerUserId, boardId: board.id }, target, args.note);
    },
  }),
  boardItemRemove: t.field({
    type: BoardItemRemoveResult,
    authScopes: { writer: true },
    description: 'Removes an item from a board (DELETE /v1/boards/{boardId}/items/{itemId}); audited with the item before.',
    args: { boardId: t.arg.string({ required: true, validate: boardId }), itemId: t.arg.string({ required: true, validate: uuid }) },
    resolve: async (_root, args, context) => {
      const board = await findBoard(context, await actorOf(context), args.boardId);
      // The item is read in the removal's write (a keyed retry of a removal that committed gets the removed item).
      const item = (await removeItem(context, (tx) => tx.boardItem.findFirst({ where: { id: args.itemId.toLowerCase(), boardId: board.id } }), 'The item on this board'))!;
      return { removed: true, itemId: item.id, boardId: board.id };
    },
  }),
}));
