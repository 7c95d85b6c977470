import type { Context } from '../../../context.js';
import { apiError, notFound } from '../../../errors.js';
import type { BoardItem, Prisma, PrismaClient } from '../../../generated/prisma/client.js';
import { writeAudited, type Audit, type Lock } from '../../shared/audit.js';
import { workspaceDb } from '../../shared/workspace.js';
import type { Actor, ScopeKey } from '../access.js';
import type { Target } from './targets.js';

// The one saving mechanism. Boards and the three favorites families all save through here: a saved item is a
// board item of a scope, on a board or at the root (boardId null), once per place (a unique index makes a
// concurrent second save of the same thing find the first).

const isUniqueViolation = (error: unknown) => (error as { code?: unknown }).code === 'P2002';

export type Saved = { id: string; created: boolean };

/**
 * Runs a save's write (writeAudited): a concurrent identical save that commits first makes this one's insert a unique
 * violation, and the one it saved is returned with created false. The check for an item already saved is made inside
 * the write, never before it: a retry under the Idempotency-Key of a save that committed reaches writeAudited first and
 * is handed the first call's { id, created: true }, not the created false of a second save.
 */
async function saveOnce(context: Context, where: Prisma.BoardItemWhereInput, write: (tx: PrismaClient, audit: Audit, lock: Lock) => Promise<Saved>): Promise<Saved> {
  try {
    return await writeAudited(context, write);
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    const first = await (await workspaceDb(context)).boardItem.findFirst({ where, select: { id: true } });
    if (!first) throw error;
    return { id: first.id, created: false };
  }
}

/** Creates the saved item with its null/after audit event. */
async function createItem(tx: PrismaClient, audit: Audit, actor: Actor, where: ScopeKey & { boardId: string | null } & Target, note: string | null): Promise<string> {
  const item = await tx.boardItem.create({ data: { ...where, workspaceId: actor.workspaceId, createdByUserId: actor.userId, note } });
  await audit({ action: 'board_item.add', entityType: 'board_item', entityId: item.id, after: item });
  return item.id;
}

/** Saves `target` at `boardId` (null: the family's root); an already saved one is returned unchanged, with no audit event. */
export async function saveItem(
  context: Context,
  actor: Actor,
  place: ScopeKey & { boardId: string | null },
  target: Target,
  note?: string | null,
): Promise<Saved> {
  const where = { ...place, ...target };
  return saveOnce(context, where, async (tx, audit) => {
    const existing = await tx.boardItem.findFirst({ where, select: { id: true } });
    if (existing) return { id: existing.id, created: false };
    return { id: await createItem(tx, audit, actor, where, note ?? null), created: true };
  });
}

/**
 * Saves `target` at `place` unless it is already saved where `saved` selects (a family saved once per scope): then the
 * first one saved is moved to `place` when it is elsewhere (audited as a move; the same item already saved in that
 * folder is a 409) and returned with created false.
 */
export async function saveOrMoveItem(
  context: Context,
  actor: Actor,
  place: ScopeKey & { boardId: string | null },
  target: Target,
  saved: Prisma.BoardItemWhereInput,
): Promise<Saved> {
  const where = { ...place, ...target };
  return saveOnce(context, where, async (tx, audit, lock) => {
    const existing = await tx.boardItem.findFirst({ where: saved, orderBy: { createdAt: 'asc' } });
    if (!existing) return { id: await createItem(tx, audit, actor, where, null), created: true };
    if (existing.boardId !== place.boardId) {
      const before = await lock.one('boardItem', existing.id, 'The saved favorite');
      if (before.boardId !== place.boardId) {
        const after = await tx.boardItem.update({ where: { id: existing.id }, data: { boardId: place.boardId } }).catch((error: unknown) => {
          // The write fails (and rolls back) as this 409, not as a concurrent save saveOnce answers created false.
          throw isUniqueViolation(error) ? apiError('conflict', 'The same item is already saved in that folder.') : error;
        });
        await audit({ action: 'board_item.move', entityType: 'board_item', entityId: existing.id, before, after });
      }
    }
    return { id: existing.id, created: false };
  });
}

/**
 * Removes the saved item `find` reads inside the write (through its workspace-filtered client), with a before/null
 * audit event, and returns it; null when it is not there (or no longer where it was read), or a 404 naming `missing`.
 * The item is found in the write, not before it: a retry under the Idempotency-Key of a removal that committed
 * reaches writeAudited first and is handed the item that was removed, not a 404 for the row its first call deleted.
 */
export async function removeItem<I extends BoardItem>(context: Context, find: (tx: PrismaClient) => Promise<I | null>, missing?: string): Promise<I | null> {
  return writeAudited(context, async (tx, audit, lock) => {
    const item = await find(tx);
    // Another removal of the same item may have won the race between the read and the lock: then it is gone here too.
    const before = item && (await lock.one('boardItem', item.id));
    if (!item || !before || before.boardId !== item.boardId) {
      if (missing) throw notFound(missing);
      return null;
    }
    await tx.boardItem.delete({ where: { id: item.id } });
    await audit({ action: 'board_item.remove', entityType: 'board_item', entityId: item.id, before, after: null });
    return item;
  });
}

/** Moves a saved item to another place of its scope; saving the same thing twice in one place is a 409. */
export async function moveItem(context: Context, item: BoardItem, boardId: string | null): Promise<void> {
  if (item.boardId === boardId) return;
  try {
    await writeAudited(context, async (tx, audit, lock) => {
      const before = await lock.one('boardItem', item.id, 'The saved favorite');
      if (before.boardId === boardId) return;
      const after = await tx.boardItem.update({ where: { id: item.id }, data: { boardId } });
      await audit({ action: 'board_item.move', entityType: 'board_item', entityId: item.id, before, after });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw apiError('conflict', 'The same item is already saved in that folder.');
    throw error;
  }
}
