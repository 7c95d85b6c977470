import type { Context } from '../../../context.js';
import type { Email, Prisma } from '../../../generated/prisma/client.js';
import { findTarget, saveOrMoveItem } from '../../boards/service.js';
import type { PageRequest } from '../../shared/list.js';
import { EMAILS, favoriteWhere } from '../family.js';
import { deleteSaved, favoritePage, loadFavorites, moveSaved, removeSaved, type FavoriteRow } from './favorites.js';
import { placeOf, scoped } from './folders.js';

// Favorite emails: board items of type email, in nested folders. A favorite's public id is the item's uuid; an email
// is saved once per scope (adding it again with another folder moves it there).

export type FavoriteEmailRow = FavoriteRow & { email: Email | null };
type Scope = 'workspace' | 'personal';

/** Emails by id with a queryFromInfo selection. */
async function loadFavoriteEmails(context: Context, ids: readonly number[], select: object) {
  return ids.length ? context.prisma.email.findMany({ where: { id: { in: [...ids] } }, relationLoadStrategy: 'join', ...(select as Prisma.EmailFindManyArgs) }) : [];
}

/** The rows with their email summaries, with `select` (a queryFromInfo selection of … → email). */
async function withEmails(context: Context, select: object, rows: FavoriteRow[]): Promise<FavoriteEmailRow[]> {
  const ids = [...new Set(rows.flatMap((row) => (row.emailId ? [row.emailId] : [])))];
  const emails = await loadFavoriteEmails(context, ids, select);
  const byId = new Map(emails.map((email) => [email.id, email]));
  return rows.map((row) => ({ ...row, email: (row.emailId && byId.get(row.emailId)) || null }));
}

/** Saved emails of a scope, newest first. */
export async function favoriteEmails(context: Context, args: { scope: Scope; folderId?: string | null }, page: PageRequest, emailSelect: object) {
  const { actor, key } = await scoped(context, args.scope);
  const { rows, pagination } = await favoritePage(context, actor, key, EMAILS, args.folderId, page);
  return { data: await withEmails(context, emailSelect, rows), pagination };
}

/** Saves an email at the root or in a folder; one already saved in the scope is returned with created false, moved there when elsewhere. */
export async function favoriteEmailAdd(context: Context, args: { scope: Scope; emailId: number; folderId?: string | null }, emailSelect: object) {
  const { actor, key } = await scoped(context, args.scope);
  const place = await placeOf(context, actor, key, EMAILS, args.folderId);
  const target = await findTarget(context, 'email', String(args.emailId), 'emailId');
  // The email saved in the scope is looked for inside the save's write: a keyed retry of an add that committed is
  // handed its created true, not the created false of finding what its first call saved.
  const { id, created } = await saveOrMoveItem(context, actor, place, target, { AND: [favoriteWhere(actor, key, EMAILS), { emailId: args.emailId }] });
  const [data] = await withEmails(context, emailSelect, await loadFavorites(context, [id]));
  return { data, created };
}

/** Removes the save of an email at the root or in a folder: removed false when it was not saved there. */
export async function favoriteEmailRemove(context: Context, args: { scope: Scope; emailId: number; folderId?: string | null }) {
  const { actor, key } = await scoped(context, args.scope);
  const { removed, item, folderId } = await removeSaved(context, actor, key, EMAILS, { emailId: args.emailId }, args.folderId);
  return { removed, emailId: args.emailId, scope: key.scope, folderId, savedFavoriteId: item?.id ?? null };
}

/** Moves one saved email (by its uuid) to a folder, or to the root (null). */
export async function favoriteEmailMove(context: Context, args: { scope: Scope; favoriteId: string; folderId?: string | null }, emailSelect: object) {
  const { actor, key } = await scoped(context, args.scope);
  const id = await moveSaved(context, actor, key, EMAILS, { id: args.favoriteId.toLowerCase() }, args.folderId);
  return (await withEmails(context, emailSelect, await loadFavorites(context, [id])))[0];
}

/** Deletes one saved email by its uuid. */
export async function favoriteEmailDelete(context: Context, args: { scope: Scope; favoriteId: string }) {
  const { actor, key } = await scoped(context, args.scope);
  const item = await deleteSaved(context, actor, key, EMAILS, { id: args.favoriteId.toLowerCase() });
  return { removed: true, emailId: item.emailId!, scope: key.scope, folderId: item.boardId, savedFavoriteId: item.id };
}
