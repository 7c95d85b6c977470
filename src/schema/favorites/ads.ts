import type { Board, BoardShare } from '../../generated/prisma/client.js';
import { PublicAd } from '../ads/types.js';
import { builder } from '../builder.js';
import { boardSharePath } from '../boards/service.js';
import { BoardScopeEnum } from '../boards/types.js';
import { listRef } from '../shared/list.js';
import { ADS } from './family.js';
import type { FavoriteAdRow } from './service.js';
import { folderFamily, NestedFolderRef } from './types.js';

// The object types of favorite ads: a saved ad (its id the item's number), its pages and answers, its folders and
// their share link. Sharing a favorite ad folder is sharing its board: the same link, the same rules.

export const FavoriteAdFolder = NestedFolderRef('FavoriteAdFolder');

export const FavoriteAd = builder.objectRef<FavoriteAdRow>('FavoriteAd').implement({
  description: 'A saved ad. Its id is the saved row (board item) number; its folder a board.',
  fields: (t) => ({
    id: t.int({ resolve: (row) => row.number }),
    scope: t.field({ type: BoardScopeEnum, resolve: (row) => row.scope }),
    savedAt: t.field({ type: 'DateTime', resolve: (row) => row.createdAt }),
    folder: t.field({ type: FavoriteAdFolder, nullable: true, description: 'Null at the root.', resolve: (row) => row.board }),
    ad: t.field({ type: PublicAd, nullable: true, description: 'The ad summary; null when the ad is no longer indexed.', resolve: (row) => row.ad as never }),
  }),
});

export const FavoriteAdPage = listRef<FavoriteAdRow>('FavoriteAdPage', FavoriteAd, { style: 'page' });

export const FavoriteAdAddResult = builder.objectRef<{ data: FavoriteAdRow; created: boolean }>('FavoriteAdAddResult').implement({
  fields: (t) => ({
    data: t.field({ type: FavoriteAd, resolve: (result) => result.data }),
    created: t.exposeBoolean('created', { description: 'False when the ad was already saved there (returned unchanged, no audit event).' }),
  }),
});

type AdRemoval = { removed: boolean; adId: string; scope: 'workspace' | 'personal'; folderId: string | null };
export const FavoriteAdRemoval = builder.objectRef<AdRemoval>('FavoriteAdRemoval').implement({
  fields: (t) => ({
    removed: t.exposeBoolean('removed', { description: 'False when the ad was not saved there.' }),
    adId: t.exposeString('adId'),
    scope: t.field({ type: BoardScopeEnum, resolve: (r) => r.scope }),
    folderId: t.exposeString('folderId', { nullable: true }),
  }),
});

export const AD_FOLDERS = folderFamily({ family: ADS, prefix: 'favoriteAd', typePrefix: 'FavoriteAd', folder: FavoriteAdFolder, affectedId: { type: 'Int', of: (item) => item.number } });

type FolderShare = { share: BoardShare; folder: Board };

export const FavoriteAdFolderShare = builder.objectRef<FolderShare>('FavoriteAdFolderShare').implement({
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
