import { apiError } from '../errors.js';
import type { AccessLevel, ApiAccessStatus, PrismaClient, WorkspaceRole } from '../generated/prisma/client.js';
import { generateKey } from './keys.js';

// Operator actions behind the CLI and the demo bootstrap. Each returns plain JSON-able data and throws
// apiError (not_found, validation_error, conflict) for a bad request, so callers report one shape.

export type ApiAccessOption = ApiAccessStatus | 'none';

function currentMonth(now = new Date()): { start: Date; end: Date } {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  return { start, end };
}

async function workspaceBySlug(prisma: PrismaClient, slug: string) {
  const workspace = await prisma.workspace.findUnique({ where: { slug } });
  if (!workspace) throw apiError('not_found', `No workspace with slug "${slug}".`);
  return workspace;
}

export async function createWorkspace(
  prisma: PrismaClient,
  input: { slug: string; name?: string; plan?: string; credits?: number; apiAccess?: ApiAccessOption },
): Promise<{ workspaceId: string; slug: string }> {
  if (!/^[a-z0-9][a-z0-9-]{0,62}$/.test(input.slug)) {
    throw apiError('validation_error', 'slug must be 1-63 lowercase letters, digits or dashes, starting with a letter or digit');
  }
  if (await prisma.workspace.findUnique({ where: { slug: input.slug } })) {
    throw apiError('conflict', `A workspace with slug "${input.slug}" already exists.`);
  }
  const period = currentMonth();
  const recurringLimit = input.credits ?? 10000;
  const access = input.apiAccess ?? 'enabled';
  const workspace = await prisma.workspace.create({
    data: {
      slug: input.slug,
      name: input.name ?? input.slug,
      apiAccess: access === 'none' ? undefined : { create: { status: access } },
      credits: {
        create: {
          planCode: input.plan ?? null,
          billingConfigured: input.plan !== undefined,
          currentPeriodStart: period.start,
          currentPeriodEnd: period.end,
          recurringLimit,
          updatedAt: new Date(),
        },
      },
      ledger: { create: { pool: 'recurring', amount: recurringLimit, reason: 'period_grant' } },
    },
  });
  return { workspaceId: workspace.id, slug: workspace.slug };
}

export async function setApiAccess(prisma: PrismaClient, slug: string, status: ApiAccessStatus) {
  const workspace = await workspaceBySlug(prisma, slug);
  await prisma.workspaceApiAccess.upsert({
    where: { workspaceId: workspace.id },
    create: { workspaceId: workspace.id, status },
    update: { status },
  });
  return { workspaceId: workspace.id, slug, apiAccess: status };
}

export async function createUser(prisma: PrismaClient, input: { workspace: string; name: string; role: WorkspaceRole }) {
  const workspace = await workspaceBySlug(prisma, input.workspace);
  const user = await prisma.workspaceUser.create({ data: { workspaceId: workspace.id, fullName: input.name, role: input.role } });
  return { userId: user.id };
}

export async function revokeUser(prisma: PrismaClient, userId: string) {
  const { count } = await prisma.workspaceUser.updateMany({ where: { id: userId, revokedAt: null }, data: { revokedAt: new Date() } });
  if (count === 0 && !(await prisma.workspaceUser.findUnique({ where: { id: userId } }))) {
    throw apiError('not_found', `No user with id "${userId}".`);
  }
  return { userId, revoked: true };
}

export async function createKey(
  prisma: PrismaClient,
  input: { workspace: string; name?: string; description?: string; access?: AccessLevel; user?: string; expiresAt?: Date },
): Promise<{ apiKey: string; credentialId: string; workspaceId: string }> {
  const workspace = await workspaceBySlug(prisma, input.workspace);
  const access = input.access ?? 'full_access';
  if (access === 'delegated_user' && !input.user) throw apiError('validation_error', 'a delegated_user key needs --user');
  if (access === 'full_access' && input.user) throw apiError('validation_error', '--user is only for delegated_user keys');
  if (input.user) {
    const user = await prisma.workspaceUser.findUnique({ where: { id: input.user } });
    if (!user || user.workspaceId !== workspace.id) throw apiError('not_found', `No user "${input.user}" in workspace "${workspace.slug}".`);
  }
  const { key, prefix, hash } = generateKey();
  const credential = await prisma.credential.create({
    data: {
      workspaceId: workspace.id,
      name: input.name ?? 'API key',
      description: input.description ?? null,
      keyPrefix: prefix,
      keyHash: new Uint8Array(hash),
      accessLevel: access,
      delegatedUserId: input.user ?? null,
      expiresAt: input.expiresAt ?? null,
    },
  });
  return { apiKey: key, credentialId: credential.id, workspaceId: workspace.id };
}

async function updateCredential(prisma: PrismaClient, id: string, data: { revokedAt?: Date; deletedAt?: Date }) {
  const { count } = await prisma.credential.updateMany({ where: { id }, data });
  if (count === 0) throw apiError('not_found', `No credential with id "${id}".`);
  return { credentialId: id };
}

export const revokeKey = (prisma: PrismaClient, id: string) =>
  updateCredential(prisma, id, { revokedAt: new Date() }).then((r) => ({ ...r, revoked: true }));

export const deleteKey = (prisma: PrismaClient, id: string) =>
  updateCredential(prisma, id, { deletedAt: new Date() }).then((r) => ({ ...r, deleted: true }));

/** Sets credit pools to the given figures and records each change in the ledger. */
export async function setCredits(
  prisma: PrismaClient,
  input: { workspace: string; recurringLimit?: number; recurringUsed?: number; topup?: number },
) {
  const workspace = await workspaceBySlug(prisma, input.workspace);
  return prisma.$transaction(async (tx) => {
    const period = currentMonth();
    const before = await tx.creditAccount.upsert({
      where: { workspaceId: workspace.id },
      create: { workspaceId: workspace.id, currentPeriodStart: period.start, currentPeriodEnd: period.end },
      update: {},
    });
    const after = await tx.creditAccount.update({
      where: { workspaceId: workspace.id },
      data: {
        recurringLimit: input.recurringLimit ?? before.recurringLimit,
        recurringUsed: input.recurringUsed ?? before.recurringUsed,
        topupBalance: input.topup ?? before.topupBalance,
        updatedAt: new Date(),
      },
    });
    const movements = [
      { pool: 'recurring', amount: after.recurringLimit - before.recurringLimit, reason: 'operator_limit' },
      { pool: 'recurring', amount: before.recurringUsed - after.recurringUsed, reason: 'operator_used' },
      { pool: 'topup', amount: after.topupBalance - before.topupBalance, reason: 'operator_topup' },
    ].filter((movement) => movement.amount !== 0);
    if (movements.length) await tx.creditLedgerEntry.createMany({ data: movements.map((m) => ({ ...m, workspaceId: workspace.id })) });
    return {
      workspaceId: workspace.id,
      recurring: { limit: after.recurringLimit, used: after.recurringUsed },
      topup: { balance: after.topupBalance },
    };
  });
}
