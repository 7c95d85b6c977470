import { Prisma, type PrismaClient } from '../../generated/prisma/client.js';
import type { Context } from '../../context.js';
import { workspaceDb } from './workspace.js';

// Every workspace write records who did what, with the state before and after (null for a creation or a
// removal), in the transaction of the write itself: a change and its audit event commit together or not at all.

export type AuditChange = { action: string; entityType: string; entityId: string | number; before?: unknown; after?: unknown };

/** Writes the audit event of a change. */
export type Audit = (change: AuditChange) => Promise<void>;

const json = (value: unknown) => (value === undefined || value === null ? Prisma.DbNull : (JSON.parse(JSON.stringify(value)) as Prisma.InputJsonValue));

/**
 * Runs a write on the caller's workspace (through the workspace filter) in one transaction with its audit events.
 * `write` gets the transaction's client and `audit`, which records one change.
 */
export async function writeAudited<T>(context: Context, write: (tx: PrismaClient, audit: Audit) => Promise<T>): Promise<T> {
  const [db, principal] = await Promise.all([workspaceDb(context), context.principal()]);
  return db.$transaction(async (tx) => {
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
    return write(tx as unknown as PrismaClient, audit);
  });
}
