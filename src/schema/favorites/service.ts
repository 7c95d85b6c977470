// The favorites domain's public face and the only home of its SQL (test/unit/sql-layout.test.ts). Favorites are the
// deprecated vocabulary of three families over boards: folders are boards, favorites board items, saved and removed
// through the boards service. service/families.ts describes what differs between the families (the target a favorite
// saves, its public id, the summary it embeds); service/favorites.ts holds the operations, written once over those
// descriptors; service/folders.ts and service/folder-delete.ts the folders.

export {
  FAVORITE_ADS,
  FAVORITE_EMAILS,
  FAVORITE_SHOPS,
  type FavoriteAdRow,
  type FavoriteEmailRow,
  type FavoriteShopRow,
} from './service/families.js';
export { favoriteAdd, favoriteDelete, favoriteFolderShare, favoriteList, favoriteMove, favoriteRemove } from './service/favorites.js';
export { favoriteFolderDelete, type DeleteMode, type FolderDeletion } from './service/folder-delete.js';
export {
  favoriteFolderCreate,
  favoriteFolders,
  favoriteFoldersReorder,
  favoriteFolderUpdate,
  favoriteFolderVisibility,
} from './service/folders.js';
