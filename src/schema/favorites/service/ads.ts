import type { Context } from '../../../context.js';
import type { Ad } from '../../../generated/prisma/client.js';
import { adsByIds, DEFAULT_CPM, normaliseAdId, withCpm } from '../../ads/service.js';
import { findTarget, saveItem, shareBoard } from '../../boards/service.js';
import type { PageRequest } from '../../shared/list.js';
import { ADS } from '../family.js';
import { deleteSaved, favoritePage, loadFavorites, moveSaved, removeSaved, type FavoriteRow } from './favorites.js';
import { findFolder, placeOf, scoped } from './folders.js';

// Favorite ads: board items of type ad. A favorite's public id is the item's number.

export type FavoriteAdRow = FavoriteRow & { ad: Ad | null };
type Scope = 'workspace' | 'personal';

/** The rows with their ad summaries, loaded in one statement with `select` (a queryFromInfo selection of … → ad). */
async function withAds(context: Context, select: object, rows: FavoriteRow[]): Promise<FavoriteAdRow[]> {
  const ids = [...new Set(rows.flatMap((row) => (row.adId ? [row.adId] : [])))];
  const ads = ids.length ? withCpm(await adsByIds(context.prisma, ids, select), DEFAULT_CPM) : [];
  const byId = new Map(ads.map((ad) => [ad.id, ad]));
  return rows.map((row) => ({ ...row, ad: (row.adId && byId.get(row.adId)) || null }));
}

/** Saved ads of a scope, newest first. */
export async function favoriteAds(context: Context, args: { scope: Scope; folderId?: string | null }, page: PageRequest, adSelect: object) {
  const { actor, key } = await scoped(context, args.scope);
  const { rows, pagination } = await favoritePage(context, actor, key, ADS, args.folderId, page);
  return { data: await withAds(context, adSelect, rows), pagination };
}

/** Saves an ad at the root or in a folder; an ad already saved there is returned with created false. */
export async function favoriteAdAdd(context: Context, args: { scope: Scope; adId: string; folderId?: string | null }, adSelect: object) {
  const { actor, key } = await scoped(context, args.scope);
  const place = await placeOf(context, actor, key, ADS, args.folderId);
  const { id, created } = await saveItem(context, actor, place, await findTarget(context, 'ad', args.adId, 'adId'));
  const [data] = await withAds(context, adSelect, await loadFavorites(context, [id]));
  return { data, created };
}

/** Removes the save of an ad at the root or in a folder: removed false when it was not saved there. */
export async function favoriteAdRemove(context: Context, args: { scope: Scope; adId: string; folderId?: string | null }) {
  const { actor, key } = await scoped(context, args.scope);
  const id = normaliseAdId(args.adId);
  const { removed, folderId } = await removeSaved(context, actor, key, ADS, { adId: id }, args.folderId);
  return { removed, adId: id, scope: key.scope, folderId };
}

/** Moves one saved ad (by its number) to a folder, or to the root (null). */
export async function favoriteAdMove(context: Context, args: { scope: Scope; favoriteId: number; folderId?: string | null }, adSelect: object) {
  const { actor, key } = await scoped(context, args.scope);
  const id = await moveSaved(context, actor, key, ADS, { number: args.favoriteId }, args.folderId);
  return (await withAds(context, adSelect, await loadFavorites(context, [id])))[0];
}

/** Deletes one saved ad by its number. */
export async function favoriteAdDelete(context: Context, args: { scope: Scope; favoriteId: number }) {
  const { actor, key } = await scoped(context, args.scope);
  const item = await deleteSaved(context, actor, key, ADS, { number: args.favoriteId });
  return { removed: true, adId: item.adId!, scope: key.scope, folderId: item.boardId };
}

/**
 * The share link of a favorite ad folder, created or the existing one: sharing the folder is sharing its board (the
 * same link, the same rules: it answers while the folder is public and exists).
 */
export async function favoriteAdFolderShare(context: Context, args: { scope: Scope; folderId: string }) {
  const { actor, key } = await scoped(context, args.scope);
  const folder = await findFolder(context, actor, key, ADS, args.folderId);
  const share = await shareBoard(context, folder);
  return { share, folder };
}
