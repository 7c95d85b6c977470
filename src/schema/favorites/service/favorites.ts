import type { Context } from '../../../context.js';
import { notFound } from '../../../errors.js';
import type { Board, BoardItem, BoardShare, Prisma } from '../../../generated/prisma/client.js';
import { findTarget, moveItem, removeItem, saveItem, saveOrMoveItem, shareBoard, type Actor, type ScopeKey } from '../../boards/service.js';
import { findModelPage, inIdOrder, type PageOf, type PageRequest } from '../../shared/list.js';
import { workspaceDb } from '../../shared/workspace.js';
import { favoriteWhere, type Family } from '../family.js';
import type { FavoriteFamily, FavoriteRowOf, SavedKey } from './families.js';
import { findFolder, placeOf, scoped } from './folders.js';

// The favorites operations, written once for every family (its descriptor, families.ts, says what differs): a page
// of favorites (one statement for the page with its folders, one count), add, remove by target, move or delete by
// saved id, each answering with the summary the favorite embeds; and the share link of a folder.

export type FavoriteRow = BoardItem & { board: Board | null };

type Scope = ScopeKey['scope'];
type Place = { scope: Scope; folderId?: string | null };

const ORDER: Prisma.BoardItemOrderByWithRelationInput[] = [{ createdAt: 'desc' }, { number: 'desc' }];

/**
 * The rows with the summary of what each saves under `key` (null when it is no longer there): the distinct targets
 * loaded at once by `load`, nothing loaded when there are none.
 */
async function withTargets<Key extends string, Summary extends { id: string | number }>(
  rows: FavoriteRow[],
  key: { name: Key; of(item: BoardItem): Summary['id'] | null },
  load: (ids: Summary['id'][]) => Promise<Summary[]>,
): Promise<FavoriteRowOf<Key, Summary>[]> {
  const ids = [...new Set(rows.flatMap((row) => { const id = key.of(row); return id === null ? [] : [id]; }))];
  const byId = new Map((ids.length ? await load(ids) : []).map((summary) => [summary.id, summary]));
  return rows.map((row) => { const id = key.of(row); return Object.assign({}, row, { [key.name]: (id !== null && byId.get(id)) || null }) as FavoriteRowOf<Key, Summary>; });
}

/** Saved favorites with their folders and summaries, by item id, in the order given. */
async function loadFavorites<K extends string, T extends { id: string | number }, A extends string, N extends string | number>(
  context: Context, family: FavoriteFamily<K, T, A, N>, ids: readonly string[], select: object,
): Promise<FavoriteRowOf<K, T>[]> {
  const rows = await (await workspaceDb(context)).boardItem.findMany({ where: { id: { in: [...ids] } }, include: { board: true }, relationLoadStrategy: 'join' });
  return summarised(context, family, inIdOrder(ids, rows), select);
}

/** The rows with their family's summaries, loaded with `select` (a queryFromInfo selection of … → key). */
function summarised<K extends string, T extends { id: string | number }, A extends string, N extends string | number>(
  context: Context, family: FavoriteFamily<K, T, A, N>, rows: FavoriteRow[], select: object,
): Promise<FavoriteRowOf<K, T>[]> {
  return withTargets(rows, { name: family.summary.key, of: family.target.of }, (ids) => family.summary.load(context, ids, select));
}

/** The saved favorite of the family in the scope of that public id, with its folder. */
const savedArgs = (actor: Actor, key: ScopeKey, family: Family, saved: SavedKey) =>
  ({ where: { AND: [saved, favoriteWhere(actor, key, family)] }, include: { board: true } }) satisfies Prisma.BoardItemFindFirstArgs;

/** Saved favorites of a scope (in one folder, when given), newest first. */
export async function favoriteList<K extends string, T extends { id: string | number }, A extends string, N extends string | number>(
  context: Context, family: FavoriteFamily<K, T, A, N>, args: Place, page: PageRequest, select: object,
): Promise<PageOf<FavoriteRowOf<K, T>>> {
  const { actor, key } = await scoped(context, args.scope);
  const folder = args.folderId ? await findFolder(context, actor, key, family, args.folderId) : null;
  const where: Prisma.BoardItemWhereInput = { AND: [favoriteWhere(actor, key, family), folder ? { boardId: folder.id } : {}] };
  const db = await workspaceDb(context);
  const found = await findModelPage(page, {
    rows: (skip, take) => db.boardItem.findMany({ where, include: { board: true }, relationLoadStrategy: 'join', orderBy: ORDER, skip, take }),
    count: () => db.boardItem.count({ where }),
  });
  return { data: await summarised(context, family, found.data, select), pagination: found.pagination, meta: found.meta };
}

/**
 * Saves a target at the root or in a folder; one already saved there is returned with created false. A family that
 * saves a target once per scope moves the one saved elsewhere instead (created false).
 */
export async function favoriteAdd<K extends string, T extends { id: string | number }, A extends string, N extends string | number>(
  context: Context, family: FavoriteFamily<K, T, A, N>, args: Place & Record<A, T['id']>, select: object,
): Promise<{ data: FavoriteRowOf<K, T>; created: boolean }> {
  const { actor, key } = await scoped(context, args.scope);
  const place = await placeOf(context, actor, key, family, args.folderId);
  const argument = family.target.argument;
  const target = await findTarget(context, family.itemType, String(args[argument]), argument);
  // The target saved in the scope is looked for inside the save's write: a keyed retry of an add that committed is
  // handed its created true, not the created false of finding what its first call saved.
  const { id, created } = family.oncePerScope
    ? await saveOrMoveItem(context, actor, place, target, { AND: [favoriteWhere(actor, key, family), family.target.where(args[argument])] })
    : await saveItem(context, actor, place, target);
  const [data] = await loadFavorites(context, family, [id], select);
  return { data, created };
}

type Removal<A extends string, Id> = { removed: boolean; scope: Scope; folderId: string | null; savedFavoriteId: string | null } & Record<A, Id>;

// Removals read the favorite inside their write (removeItem): a keyed retry of a removal that committed is handed the
// removed favorite, and answers as its first call did, rather than not finding it any more.

/** Removes the save of a target at the root or in a folder: removed false when it was not saved there. */
export async function favoriteRemove<K extends string, T extends { id: string | number }, A extends string, N extends string | number>(
  context: Context, family: FavoriteFamily<K, T, A, N>, args: Place & Record<A, T['id']>,
): Promise<Removal<A, T['id']>> {
  const { actor, key } = await scoped(context, args.scope);
  const targetId = family.target.normalise(args[family.target.argument]);
  const place = await placeOf(context, actor, key, family, args.folderId);
  const item = await removeItem(context, (tx) => tx.boardItem.findFirst({ where: { ...place, itemType: family.itemType, ...family.target.where(targetId) } }));
  const removal = { removed: item !== null, [family.target.argument]: targetId, scope: key.scope, folderId: place.boardId, savedFavoriteId: item?.id ?? null };
  return removal as Removal<A, T['id']>;
}

/** Moves one saved favorite (by its public id) to a folder of its scope and family, or to the root (null). */
export async function favoriteMove<K extends string, T extends { id: string | number }, A extends string, N extends string | number>(
  context: Context, family: FavoriteFamily<K, T, A, N>, args: Place & { favoriteId: N }, select: object,
): Promise<FavoriteRowOf<K, T>> {
  const { actor, key } = await scoped(context, args.scope);
  const item = await (await workspaceDb(context)).boardItem.findFirst(savedArgs(actor, key, family, family.saved(args.favoriteId)));
  if (!item) throw notFound('The saved favorite');
  const place = await placeOf(context, actor, key, family, args.folderId);
  await moveItem(context, item, place.boardId);
  return (await loadFavorites(context, family, [item.id], select))[0];
}

/** Deletes one saved favorite by its public id. */
export async function favoriteDelete<K extends string, T extends { id: string | number }, A extends string, N extends string | number>(
  context: Context, family: FavoriteFamily<K, T, A, N>, args: { scope: Scope; favoriteId: N },
): Promise<Removal<A, T['id']>> {
  const { actor, key } = await scoped(context, args.scope);
  const item = (await removeItem(context, (tx) => tx.boardItem.findFirst(savedArgs(actor, key, family, family.saved(args.favoriteId))), 'The saved favorite'))!;
  const removal = { removed: true, [family.target.argument]: family.target.of(item)!, scope: key.scope, folderId: item.boardId, savedFavoriteId: item.id };
  return removal as Removal<A, T['id']>;
}

/**
 * The share link of a favorite folder, created or the existing one: sharing the folder is sharing its board (the same
 * link, the same rules: it answers while the folder is public and exists). Only ad folders declare it.
 */
export async function favoriteFolderShare(context: Context, family: Family, args: { scope: Scope; folderId: string }): Promise<{ share: BoardShare; folder: Board }> {
  const { actor, key } = await scoped(context, args.scope);
  const folder = await findFolder(context, actor, key, family, args.folderId);
  const share = await shareBoard(context, folder);
  return { share, folder };
}
