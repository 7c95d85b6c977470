import { z } from 'zod';
import { builder } from '../builder.js';
import { boardId, uuid } from './args.js';
import { BoardItemTypeEnum } from './enums.js';
import { boardItemAdd, boardItemDetail, boardItemRemove } from './service.js';
import { BoardItemRef } from './types.js';

type Added = { id: string; created: boolean };

const BoardItemAddResult = builder.objectRef<Added>('BoardItemAddResult').implement({
  fields: (t) => ({
    data: t.prismaField({
      type: BoardItemRef,
      resolve: (query, result, _args, context) => boardItemDetail(context, result.id, query),
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
    resolve: (_root, args, context) => boardItemAdd(context, args),
  }),
  boardItemRemove: t.field({
    type: BoardItemRemoveResult,
    authScopes: { writer: true },
    description: 'Removes an item from a board (DELETE /v1/boards/{boardId}/items/{itemId}); audited with the item before.',
    args: { boardId: t.arg.string({ required: true, validate: boardId }), itemId: t.arg.string({ required: true, validate: uuid }) },
    resolve: (_root, args, context) => boardItemRemove(context, args.boardId, args.itemId),
  }),
}));
