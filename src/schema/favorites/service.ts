// The favorites domain's public face and the only home of its SQL (test/unit/sql-layout.test.ts). Favorites are the
// deprecated vocabulary of three families over boards: folders are boards, favorites board items, saved and removed
// through the boards service. service/ads.ts, shops.ts and emails.ts hold each family's operations with the summaries
// they embed; service/favorites.ts the pages, moves and removals every family shares; service/folders.ts and
// service/folder-delete.ts the folders.

export {
  favoriteAdAdd,
  favoriteAdDelete,
  favoriteAdFolderShare,
  favoriteAdMove,
  favoriteAdRemove,
  favoriteAds,
  type FavoriteAdRow,
} from './service/ads.js';
export {
  favoriteEmailAdd,
  favoriteEmailDelete,
  favoriteEmailMove,
  favoriteEmailRemove,
  favoriteEmails,
  type FavoriteEmailRow,
} from './service/emails.js';
export { favoriteFolderDelete, type DeleteMode, type FolderDeletion } from './service/folder-delete.js';
export {
  favoriteFolderCreate,
  favoriteFolders,
  favoriteFoldersReorder,
  favoriteFolderUpdate,
  favoriteFolderVisibility,
} from './service/folders.js';
export {
  favoriteShopAdd,
  favoriteShopDelete,
  favoriteShopMove,
  favoriteShopRemove,
  favoriteShops,
  type FavoriteShopRow,
} from './service/shops.js';
