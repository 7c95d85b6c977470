import { apiError } from '../../../errors.js';
import type { PrismaClient } from '../../../generated/prisma/client.js';
import { inWorkspace } from '../../shared/workspace.js';

// The plan's brandtracker quotas: active brandtracker slots, and create/delete operations per calendar month
// (UTC). A create or reactivation takes one operation and one slot; a bulk delete, or a folder deleted with its
// brandtrackers, takes one operation however many links it deactivates. Plan settings live in
// brandtracker_quotas (a workspace without a row has the defaults below).

export const DEFAULT_ACTIVE_LIMIT = 100;
export const DEFAULT_OPERATIONS_LIMIT = 200;

/** The workspace's client (workspaceDb) or its transaction (writeAudited). */
type Tx = PrismaClient;

export type QuotaState = {
  active: { limit: number; used: number; remaining: number };
  operations: { limit: number; used: number; remaining: number; periodStart: Date; periodEnd: Date };
};

function monthOf(now = new Date()) {
  return { start: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)), end: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)) };
}

/** The workspace's quotas as they stand (one statement). */
export async function quotaState(db: Pick<Tx, '$queryRaw'>, workspaceId: string): Promise<QuotaState> {
  const period = monthOf();
  const [row] = await db.$queryRaw<{ activeLimit: number | null; operationsLimit: number | null; active: number; operations: number }[]>`
    SELECT q."activeLimit", q."operationsLimit",
           (SELECT count(*)::int FROM "brandtracker_links" l WHERE ${inWorkspace('l', workspaceId)} AND l."isActive") AS active,
           (SELECT count(*)::int FROM "brandtracker_quota_operations" o WHERE ${inWorkspace('o', workspaceId)} AND o."createdAt" >= ${period.start}) AS operations
    FROM (SELECT 1) one LEFT JOIN "brandtracker_quotas" q ON ${inWorkspace('q', workspaceId)}`;
  const activeLimit = row.activeLimit ?? DEFAULT_ACTIVE_LIMIT;
  const operationsLimit = row.operationsLimit ?? DEFAULT_OPERATIONS_LIMIT;
  return {
    active: { limit: activeLimit, used: row.active, remaining: Math.max(0, activeLimit - row.active) },
    operations: { limit: operationsLimit, used: row.operations, remaining: Math.max(0, operationsLimit - row.operations), periodStart: period.start, periodEnd: period.end },
  };
}

/** Serialises the quota-taking writes of one workspace until the transaction ends. */
export async function lockWorkspaceQuota(tx: Tx, workspaceId: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`brandtracker-quota:${workspaceId}`}, 0))`;
}

function exceeded(quota: 'activeBrandtrackers' | 'createDeleteOperations', limit: number, used: number, message: string) {
  return apiError('conflict', message, { details: { quota, limit, used } });
}

/**
 * Takes one create/delete operation (and, for a create, one active slot) or refuses with 409 `conflict` naming
 * the quota, before anything changes. Call inside the write's transaction, after lockWorkspaceQuota.
 */
export async function takeOperation(
  tx: Tx,
  workspaceId: string,
  operation: { action: string; slots: number; affectedCount: number; requestId: string },
): Promise<void> {
  const state = await quotaState(tx, workspaceId);
  if (state.operations.remaining < 1) {
    throw exceeded('createDeleteOperations', state.operations.limit, state.operations.used,
      `The workspace has used its ${state.operations.limit} brandtracker create/delete operations of this month; nothing was changed.`);
  }
  if (operation.slots > state.active.remaining) {
    throw exceeded('activeBrandtrackers', state.active.limit, state.active.used,
      `The workspace already tracks ${state.active.used} brandtrackers, its plan's limit of ${state.active.limit}; delete one first.`);
  }
  await tx.brandtrackerQuotaOperation.create({
    data: { workspaceId, action: operation.action, affectedCount: operation.affectedCount, requestId: operation.requestId },
  });
}
