import type { Context } from '../../../context.js';
import { notFound } from '../../../errors.js';
import type { Board, BoardItem, Prisma } from '../../../generated/prisma/client.js';
import { moveItem, removeItem, type Actor, type ScopeKey } from '../../boards/service.js';
import { workspaceDb } from '../../shared/workspace.js';
import { inIdOrder, offsetOf, pagePagination, type PagePagination, type PageRequest } from '../../shared/list.js';
import { favoriteWhere, type Family } from '../family.js';
import { findFolder, placeOf, scoped } from './folders.js';

// The favorites operations of every family, over board items: a page of favorites (one statement for the page
// with its folders, one count), remove by target or by saved id, move a saved favorite to a folder or the root.

export type FavoriteRow = BoardItem & { board: Board | null };

const ORDER: Prisma.BoardItemOrderByWithRelationInput[] = [{ createdAt: 'desc' }, { number: 'desc' }];

export async function favoritePage(
  context: Context, actor: Actor, key: ScopeKey, family: Family, folderId: string | null | undefined, page: PageRequest,
): Promise<{ rows: FavoriteRow[]; pagination: PagePagination }> {
  const folder = folderId ? await findFolder(context, actor, key, family, folderId) : null;
  const where: Prisma.BoardItemWhereInput = { AND: [favoriteWhere(actor, key, family), folder ? { boardId: folder.id } : {}] };
  const db = await workspaceDb(context);
  const [rows, total] = await Promise.all([
    db.boardItem.findMany({ where, include: { board: true }, relationLoadStrategy: 'join', orderBy: ORDER, skip: offsetOf(page), take: page.limit }),
    db.boardItem.count({ where }),
  ]);
  return { rows, pagination: pagePagination(page, total) };
}

/** Saved favorites with their folders, by item id, in the order given. */
export async function loadFavorites(context: Context, ids: readonly string[]): Promise<FavoriteRow[]> {
  const rows = await (await workspaceDb(context)).boardItem.findMany({ where: { id: { in: [...ids] } }, include: { board: true }, relationLoadStrategy: 'join' });
  return inIdOrder(ids, rows);
}

/** The saved favorite of the family in the scope of that public id, with its folder. */
const savedArgs = (actor: Actor, key: ScopeKey, family: Family, saved: { number: number } | { id: string }) =>
  ({ where: { AND: [saved, favoriteWhere(actor, key, family)] }, include: { board: true } }) satisfies Prisma.BoardItemFindFirstArgs;

/** A saved favorite of the family in the scope, by its public id, or 404. */
export async function findSaved(context: Context, actor: Actor, key: ScopeKey, family: Family, saved: { number: number } | { id: string }): Promise<FavoriteRow> {
  const db = await workspaceDb(context);
  const item = await db.boardItem.findFirst(savedArgs(actor, key, family, saved));
  if (!item) throw notFound('The saved favorite');
  return item;
}

export type Removal = { removed: boolean; item: BoardItem | null; folderId: string | null };

// Removals read the favorite inside their write (removeItem): a keyed retry of a removal that committed is handed the
// removed favorite, and answers as its first call did, rather than not finding it any more.

/** Removes the save of a target at a folder (or the root): removed false when it was not saved there. */
export async function removeSaved(
  context: Context, actor: Actor, key: ScopeKey, family: Family, target: Prisma.BoardItemWhereInput, folderId: string | null | undefined,
): Promise<Removal> {
  const place = await placeOf(context, actor, key, family, folderId);
  const item = await removeItem(context, (tx) => tx.boardItem.findFirst({ where: { ...place, itemType: family.itemType, ...target } }));
  return { removed: item !== null, item, folderId: place.boardId };
}

/** Deletes one saved favorite by its public id. */
export async function deleteSaved(context: Context, actor: Actor, key: ScopeKey, family: Family, saved: { number: number } | { id: string }): Promise<FavoriteRow> {
  return (await removeItem(context, (tx) => tx.boardItem.findFirst(savedArgs(actor, key, family, saved)), 'The saved favorite'))!;
}

/** Moves one saved favorite to a folder of its scope and family, or to the root (null). */
export async function moveSaved(
  context: Context, actor: Actor, key: ScopeKey, family: Family, saved: { number: number } | { id: string }, folderId: string | null | undefined,
): Promise<string> {
  const item = await findSaved(context, actor, key, family, saved);
  const place = await placeOf(context, actor, key, family, folderId);
  await moveItem(context, item, place.boardId);
  return item.id;
}
