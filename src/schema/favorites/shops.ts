import { builder } from '../builder.js';
import { BoardScopeEnum } from '../boards/types.js';
import { listRef } from '../shared/list.js';
import { ShopSummary as FavoriteShopSummary } from '../shops/types.js';
import { SHOPS } from './family.js';
import type { FavoriteShopRow } from './service.js';
import { FlatFolderRef, folderFamily } from './types.js';

// The object types of favorite shops: a saved shop (its id the item's uuid, its summary the shops domain's), its pages
// and answers, and its flat folders.

const FavoriteShopFolder = FlatFolderRef('FavoriteShopFolder');

export const FavoriteShop = builder.objectRef<FavoriteShopRow>('FavoriteShop').implement({
  description: 'A saved shop. Its id is the saved row (board item) uuid; its folder a board.',
  fields: (t) => ({
    id: t.string({ resolve: (row) => row.id }),
    scope: t.field({ type: BoardScopeEnum, resolve: (row) => row.scope }),
    savedAt: t.field({ type: 'DateTime', resolve: (row) => row.createdAt }),
    folder: t.field({ type: FavoriteShopFolder, nullable: true, description: 'Null at the root.', resolve: (row) => row.board }),
    shop: t.field({ type: FavoriteShopSummary, nullable: true, resolve: (row) => row.shop as never }),
  }),
});

export const FavoriteShopPage = listRef<FavoriteShopRow>('FavoriteShopPage', FavoriteShop, { style: 'page' });

export const FavoriteShopAddResult = builder.objectRef<{ data: FavoriteShopRow; created: boolean }>('FavoriteShopAddResult').implement({
  fields: (t) => ({
    data: t.field({ type: FavoriteShop, resolve: (result) => result.data }),
    created: t.exposeBoolean('created', { description: 'False when the shop was already saved there (returned unchanged, no audit event).' }),
  }),
});

type ShopRemoval = { removed: boolean; websiteId: string; scope: 'workspace' | 'personal'; folderId: string | null; savedFavoriteId: string | null };
export const FavoriteShopRemoval = builder.objectRef<ShopRemoval>('FavoriteShopRemoval').implement({
  fields: (t) => ({
    removed: t.exposeBoolean('removed', { description: 'False when the shop was not saved there.' }),
    websiteId: t.exposeString('websiteId'),
    scope: t.field({ type: BoardScopeEnum, resolve: (r) => r.scope }),
    folderId: t.exposeString('folderId', { nullable: true }),
    savedFavoriteId: t.exposeString('savedFavoriteId', { nullable: true }),
  }),
});

export const SHOP_FOLDERS = folderFamily({ family: SHOPS, prefix: 'favoriteShop', typePrefix: 'FavoriteShop', folder: FavoriteShopFolder, affectedId: { type: 'String', of: (item) => item.id } });
