import type { Context } from '../../context.js';
import type { Prisma } from '../../generated/prisma/client.js';

// TEMPORARY: stands in for the coordinator's audit-event writer until it lands on main.

export type AuditChange = { action: string; entityType: string; entityId: string; before: unknown; after: unknown };

export async function writeAudit(tx: Prisma.TransactionClient, context: Context, changes: AuditChange[]): Promise<void> {
  if (!changes.length) return;
  const principal = await context.principal();
  const json = (value: unknown) => (value === null || value === undefined ? undefined : (JSON.parse(JSON.stringify(value)) as Prisma.InputJsonValue));
  await tx.auditEvent.createMany({
    data: changes.map((change) => ({
      workspaceId: principal.workspace.id,
      credentialId: principal.credential.id,
      userId: principal.delegatedUser?.id ?? null,
      requestId: context.requestId,
      action: change.action,
      entityType: change.entityType,
      entityId: change.entityId,
      before: json(change.before),
      after: json(change.after),
    })),
  });
}
