import { builder } from '../builder.js';
import { actorOf, capabilitiesOf, type Capabilities } from './access.js';
import { BoardItemTypeEnum, BoardKindEnum, BoardSurfaceEnum, BoardVisibilityEnum } from './enums.js';
import { targetIdOf } from './service.js';

// What favorites declares with boards' GraphQL building blocks: the scope enum and the bounds of board input.
export { BoardScopeEnum } from './enums.js';
export { boardName, LIST_LIMITS, uuid } from './args.js';

const BoardCapabilities = builder.objectRef<Capabilities>('BoardCapabilities').implement({
  description: "What the caller may do with the board: computed from the key's role and the board's state.",
  fields: (t) => ({
    canAddItems: t.exposeBoolean('canAddItems', { description: 'A writer, on an active board.' }),
    canManage: t.exposeBoolean('canManage', { description: 'A writer: rename, move, archive, restore, share.' }),
  }),
});

export const BoardRef = builder.prismaObject('Board', {
  description: 'A board (folder) of saved items. Favorite folders are boards: a folder id is a board id.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'A-Z a-z 0-9 _ -, up to 128 characters (a uuid for boards made here).' }),
    name: t.exposeString('name'),
    kind: t.expose('kind', { type: BoardKindEnum }),
    surface: t.expose('surface', { type: BoardSurfaceEnum }),
    description: t.exposeString('description', { nullable: true }),
    createdByUserId: t.exposeString('createdByUserId', { nullable: true, description: 'The delegated user who made it; null for a full-access key.' }),
    workspaceId: t.exposeString('workspaceId'),
    parentBoardId: t.exposeString('parentBoardId', { nullable: true }),
    visibility: t.expose('visibility', { type: BoardVisibilityEnum }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    archivedAt: t.expose('archivedAt', { type: 'DateTime', nullable: true }),
    capabilities: t.field({
      type: BoardCapabilities,
      select: { archivedAt: true },
      resolve: async (board, _args, context) => capabilitiesOf(await actorOf(context), board),
    }),
  }),
});

export const BoardItemRef = builder.prismaObject('BoardItem', {
  description: 'A saved item on a board. A favorite is a board item: a saved favorite id is a board item id.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'uuid' }),
    boardId: t.exposeString('boardId', { nullable: true, description: 'Null for a favorite saved at the root of its family.' }),
    type: t.expose('itemType', { type: BoardItemTypeEnum }),
    targetId: t.string({
      description: 'The saved thing: an ad id, a shop uuid, an email id, a product id, an advertiser (Facebook page) id or a landing-page URL.',
      // Its columns are scalars, which a BoardItem always carries (no `select` here: an item read by raw SQL, as a
      // board's items page reads them, would be loaded again through Prisma for it).
      resolve: (item) => targetIdOf(item),
    }),
    note: t.exposeString('note', { nullable: true }),
    createdByUserId: t.exposeString('createdByUserId', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});
