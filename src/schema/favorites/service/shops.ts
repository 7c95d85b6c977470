import type { Context } from '../../../context.js';
import type { Shop } from '../../../generated/prisma/client.js';
import { findTarget, saveItem } from '../../boards/service.js';
import type { PageRequest } from '../../shared/list.js';
import { shopsByIds } from '../../shops/service.js';
import { SHOPS } from '../family.js';
import { deleteSaved, favoritePage, loadFavorites, moveSaved, removeSaved, type FavoriteRow } from './favorites.js';
import { placeOf, scoped } from './folders.js';

// Favorite shops: board items of type shop, in flat folders. A favorite's public id is the item's uuid.

export type FavoriteShopRow = FavoriteRow & { shop: Shop | null };
type Scope = 'workspace' | 'personal';

/** The rows with their shop summaries (the shops domain's), with `select` (a queryFromInfo selection of … → shop). */
async function withShops(context: Context, select: object, rows: FavoriteRow[]): Promise<FavoriteShopRow[]> {
  const ids = [...new Set(rows.flatMap((row) => (row.shopId ? [row.shopId] : [])))];
  const shops = await shopsByIds<Shop>(context.prisma, ids, select);
  const byId = new Map(shops.map((shop) => [shop.id, shop]));
  return rows.map((row) => ({ ...row, shop: (row.shopId && byId.get(row.shopId)) || null }));
}

/** Saved shops of a scope, newest first. */
export async function favoriteShops(context: Context, args: { scope: Scope; folderId?: string | null }, page: PageRequest, shopSelect: object) {
  const { actor, key } = await scoped(context, args.scope);
  const { rows, pagination } = await favoritePage(context, actor, key, SHOPS, args.folderId, page);
  return { data: await withShops(context, shopSelect, rows), pagination };
}

/** Saves a shop (by websiteId, its uuid) at the root or in a folder; one already saved there is returned with created false. */
export async function favoriteShopAdd(context: Context, args: { scope: Scope; websiteId: string; folderId?: string | null }, shopSelect: object) {
  const { actor, key } = await scoped(context, args.scope);
  const place = await placeOf(context, actor, key, SHOPS, args.folderId);
  const { id, created } = await saveItem(context, actor, place, await findTarget(context, 'shop', args.websiteId, 'websiteId'));
  const [data] = await withShops(context, shopSelect, await loadFavorites(context, [id]));
  return { data, created };
}

/** Removes the save of a shop at the root or in a folder: removed false when it was not saved there. */
export async function favoriteShopRemove(context: Context, args: { scope: Scope; websiteId: string; folderId?: string | null }) {
  const { actor, key } = await scoped(context, args.scope);
  const websiteId = args.websiteId.toLowerCase();
  const { removed, item, folderId } = await removeSaved(context, actor, key, SHOPS, { shopId: websiteId }, args.folderId);
  return { removed, websiteId, scope: key.scope, folderId, savedFavoriteId: item?.id ?? null };
}

/** Moves one saved shop (by its uuid) to a flat folder, or to the root (null). */
export async function favoriteShopMove(context: Context, args: { scope: Scope; favoriteId: string; folderId?: string | null }, shopSelect: object) {
  const { actor, key } = await scoped(context, args.scope);
  const id = await moveSaved(context, actor, key, SHOPS, { id: args.favoriteId.toLowerCase() }, args.folderId);
  return (await withShops(context, shopSelect, await loadFavorites(context, [id])))[0];
}

/** Deletes one saved shop by its uuid. */
export async function favoriteShopDelete(context: Context, args: { scope: Scope; favoriteId: string }) {
  const { actor, key } = await scoped(context, args.scope);
  const item = await deleteSaved(context, actor, key, SHOPS, { id: args.favoriteId.toLowerCase() });
  return { removed: true, websiteId: item.shopId!, scope: key.scope, folderId: item.boardId, savedFavoriteId: item.id };
}
