import type { Context } from '../../context.js';
import { notFound } from '../../errors.js';
import { Prisma, type Board, type BoardItem, type BoardShare, type BrandtrackerFolder, type BrandtrackerLink, type PrismaClient } from '../../generated/prisma/client.js';
import { TRANSACTION, type IdempotentWrite } from '../../db/transaction.js';
import { inWorkspace, workspaceDb } from './workspace.js';

export { TRANSACTION, type IdempotentWrite };

// Every workspace write records who did what, with the state before and after (null for a creation or a
// removal), in the transaction of the write itself: a change and its audit event commit together or not at all.
// The "before" of a change is read inside that transaction, from the rows the write locked (`lock`): a concurrent
// identical write waits for this one, then reads what it committed and finds nothing left to change (no audit
// event), or finds the row gone (the route's 404 or its idempotent answer), never a stale row to change again.

export type AuditChange = { action: string; entityType: string; entityId: string | number; before?: unknown; after?: unknown };

/** Writes the audit event of a change. */
export type Audit = (change: AuditChange) => Promise<void>;

/** The workspace rows a write may lock, by Prisma model, and their tables. */
type Rows = { board: Board; boardItem: BoardItem; boardShare: BoardShare; brandtrackerLink: BrandtrackerLink; brandtrackerFolder: BrandtrackerFolder };
export type Lockable = keyof Rows;
const TABLES: Record<Lockable, string> = {
  board: 'boards', boardItem: 'board_items', boardShare: 'board_shares', brandtrackerLink: 'brandtracker_links', brandtrackerFolder: 'brandtracker_folders',
};

type Id<M extends Lockable> = Rows[M]['id'];

/**
 * Locks rows of the caller's workspace until the transaction ends (`SELECT … FOR NO KEY UPDATE`) and reads them
 * again inside it. Rows that are gone (or another workspace's) are left out.
 */
export type Lock = {
  /** The row, or null when it is gone; with `missing`, a 404 naming it instead of null. */
  one<M extends Lockable>(model: M, id: Id<M>): Promise<Rows[M] | null>;
  one<M extends Lockable>(model: M, id: Id<M>, missing: string): Promise<Rows[M]>;
  /** The rows still there, in the order of `ids`. */
  all<M extends Lockable>(model: M, ids: readonly Id<M>[]): Promise<Rows[M][]>;
};

const json = (value: unknown) => (value === undefined || value === null ? Prisma.DbNull : (JSON.parse(JSON.stringify(value)) as Prisma.InputJsonValue));

function locker(tx: PrismaClient, workspaceId: string): Lock {
  const all = async <M extends Lockable>(model: M, ids: readonly Id<M>[]): Promise<Rows[M][]> => {
    if (!ids.length) return [];
    // In id order, so two writes locking overlapping rows take them in the same order.
    const locked = await tx.$queryRaw<{ id: Id<M> }[]>(Prisma.sql`
      SELECT t."id" FROM ${Prisma.raw(`"${TABLES[model]}"`)} t
      WHERE t."id" IN (${Prisma.join(ids as unknown[])}) AND ${inWorkspace('t', workspaceId)}
      ORDER BY t."id" FOR NO KEY UPDATE`);
    if (!locked.length) return [];
    const delegate = tx[model] as unknown as { findMany(args: object): Promise<Rows[M][]> };
    const byId = new Map((await delegate.findMany({ where: { id: { in: locked.map((row) => row.id) } } })).map((row) => [row.id, row]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  };
  return {
    all,
    async one<M extends Lockable>(model: M, id: Id<M>, missing?: string) {
      const [row] = await all(model, [id]);
      if (!row && missing) throw notFound(missing);
      return (row ?? null) as Rows[M];
    },
  };
}

/**
 * Runs a write on the caller's workspace (through the workspace filter) in one transaction with its audit events.
 * `write` gets the transaction's client, `audit`, which records one change, and `lock`, which locks and re-reads
 * the rows it changes. A route reads the rows its write needs here, not before calling this, and builds its answer
 * from what this returns: under an Idempotency-Key, a retry of a write that committed is handed the committed result
 * before anything is read, where a read first would find a deleted row gone (a 404 instead of the first answer).
 */
export async function writeAudited<T>(context: Context, write: (tx: PrismaClient, audit: Audit, lock: Lock) => Promise<T>): Promise<T> {
  // Idempotency-Key: a retry of a request that committed this write gets its result.
  const once = context.idempotentWrite<T>();
  if (once.replayed) return once.value;
  const [db, principal] = await Promise.all([workspaceDb(context), context.principal()]);
  return db.$transaction(async (client) => {
    const tx = client as unknown as PrismaClient;
    const audit: Audit = async (change) => {
      await tx.auditEvent.create({
        data: {
          workspaceId: principal.workspace.id,
          credentialId: principal.credential.id,
          userId: principal.delegatedUser?.id ?? null,
          requestId: context.requestId,
          action: change.action,
          entityType: change.entityType,
          entityId: String(change.entityId),
          before: json(change.before),
          after: json(change.after),
        },
      });
    };
    return once.record(tx, await write(tx, audit, locker(tx, principal.workspace.id)));
  }, TRANSACTION);
}
