import type { Board, BoardShare } from '../../generated/prisma/client.js';
import { builder } from '../builder.js';
import { actorOf, scopeKey } from '../boards/access.js';
import { uuid } from '../boards/args.js';
import { BoardScopeEnum } from '../boards/enums.js';
import { boardSharePath, shareBoard } from '../boards/share.js';
import { FavoriteAdFolder } from './ads.js';
import { ADS, findFolder } from './family.js';
import { SCOPE_DESCRIPTION } from './types.js';

// Sharing a favorite ad folder is sharing its board: the same link, the same rules (it answers while the folder is
// public and exists).

type FolderShare = { share: BoardShare; folder: Board };

const FavoriteAdFolderShare = builder.objectRef<FolderShare>('FavoriteAdFolderShare').implement({
  fields: (t) => ({
    folderId: t.string({ resolve: (s) => s.folder.id }),
    folder: t.field({ type: FavoriteAdFolder, resolve: (s) => s.folder }),
    id: t.string({ description: 'The share (uuid).', resolve: (s) => s.share.id }),
    slug: t.string({ resolve: (s) => s.share.slug }),
    shareUrl: t.string({ resolve: (s, _args, context) => `${context.publicBaseUrl}${boardSharePath(s.share.slug)}` }),
    sharePath: t.string({ resolve: (s) => boardSharePath(s.share.slug) }),
    createdAt: t.field({ type: 'DateTime', resolve: (s) => s.share.createdAt }),
  }),
});

builder.mutationFields((t) => ({
  favoriteAdFolderShare: t.field({
    type: FavoriteAdFolderShare,
    authScopes: { writer: true },
    description: 'Creates the share link of a favorite ad folder, or returns the existing one (POST /v1/favorites/ads/folders/{folderId}/share).',
    args: {
      folderId: t.arg.string({ required: true, validate: uuid }),
      scope: t.arg({ type: BoardScopeEnum, required: true, description: SCOPE_DESCRIPTION }),
    },
    resolve: async (_root, args, context) => {
      const actor = await actorOf(context);
      const folder = await findFolder(context, actor, scopeKey(actor, args.scope), ADS, args.folderId);
      const share = await shareBoard(context, folder);
      return { share, folder };
    },
  }),
}));
