import { randomBytes } from 'node:crypto';
import type { Context } from '../../../context.js';
import { apiError, notFound, validationError } from '../../../errors.js';
import { Prisma, type PrismaClient, type Webhook } from '../../../generated/prisma/client.js';
import { checkWebhookUrl, WebhookTargetRefused } from '../../../net/webhook-target.js';
import { writeAudited } from '../../shared/audit.js';
import { findModelPage, type PageRequest } from '../../shared/list.js';
import { inWorkspace, workspaceDb } from '../../shared/workspace.js';
import { deliveriesQueued } from './signal.js';
import { webhookSettings } from './settings.js';

// A workspace's webhook endpoints: create (the signing secret shown once), list, read, change (re-enabling one that
// was disabled), delete (its deliveries still to make go with it) and rotate the secret (the previous one keeps
// signing for WEBHOOK_SECRET_OVERLAP_MS). Every statement names the caller's workspace: another workspace's webhook is
// answered as a missing one, before anything changes. Every change is audited, without the secrets.

/** What narrows an endpoint's events (README: Webhooks); null: every event of its types that concerns the workspace. */
export type WebhookFilter = { brandtrackerIds?: string[]; advertiserIds?: string[]; shopIds?: string[] };

export type WebhookInput = { url: string; eventTypes: string[]; filter?: WebhookFilter | null; description?: string | null };
export type WebhookChange = { url?: string | null; eventTypes?: string[] | null; filter?: WebhookFilter | null; description?: string | null; enabled?: boolean | null };

/** A webhook as answered: without its secrets. */
export type WebhookView = Omit<Webhook, 'secret' | 'previousSecret' | 'filter'> & { filter: WebhookFilter | null };
/** The answer of a creation or a rotation: the new secret, shown this once. */
export type WebhookWithSecret = WebhookView & { secret: string };

/** A new signing secret in the Standard Webhooks form: `whsec_` and 32 random bytes in base64. */
const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

export function viewOf(row: Webhook): WebhookView {
  const { secret: _secret, previousSecret: _previous, filter, ...rest } = row;
  return { ...rest, filter: (filter as WebhookFilter | null) ?? null };
}

const filterValue = (filter: WebhookFilter | null | undefined) => {
  const kept = Object.fromEntries(Object.entries(filter ?? {}).filter(([, ids]) => Array.isArray(ids) && ids.length > 0));
  return Object.keys(kept).length ? (kept as Prisma.InputJsonValue) : Prisma.DbNull;
};

async function workspaceIdOf(context: Context): Promise<string> {
  return (await context.principal()).workspace.id;
}

/** The URL checked where it resolves now (its form is checked with the arguments); a refusal is the argument's 400. */
async function checkedUrl(url: string): Promise<string> {
  try {
    return (await checkWebhookUrl(url)).toString();
  } catch (error) {
    if (error instanceof WebhookTargetRefused) throw validationError([{ argument: 'url', expected: [error.message] }]);
    throw error;
  }
}

/** Locks the caller's webhook of that id for the transaction and reads it, or 404. */
export async function lockWebhook(tx: PrismaClient, workspaceId: string, id: string): Promise<Webhook> {
  const locked = await tx.$queryRaw<{ id: string }[]>(Prisma.sql`
    SELECT w."id" FROM "webhooks" w WHERE w."id" = ${id}::uuid AND ${inWorkspace('w', workspaceId)} FOR NO KEY UPDATE`);
  if (!locked.length) throw notFound('The webhook');
  return tx.webhook.findUniqueOrThrow({ where: { id } });
}

/** The caller's webhook of that id, or 404. */
export async function findWebhook(context: Context, id: string): Promise<Webhook> {
  const row = await (await workspaceDb(context)).webhook.findFirst({ where: { id, workspaceId: await workspaceIdOf(context) } });
  if (!row) throw notFound('The webhook');
  return row;
}

export async function webhookDetail(context: Context, id: string): Promise<WebhookView> {
  return viewOf(await findWebhook(context, id));
}

/** A page of the workspace's webhooks, newest first. */
export async function webhookPage(context: Context, page: PageRequest) {
  const db = await workspaceDb(context);
  const where = { workspaceId: await workspaceIdOf(context) };
  const found = await findModelPage(page, {
    rows: (skip, take) => db.webhook.findMany({ where, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], skip, take }),
    count: () => db.webhook.count({ where }),
  });
  return { ...found, data: found.data.map(viewOf) };
}

export async function webhookCreate(context: Context, input: WebhookInput): Promise<WebhookWithSecret> {
  const url = await checkedUrl(input.url);
  const workspaceId = await workspaceIdOf(context);
  return writeAudited(context, async (tx, audit) => {
    const row = await tx.webhook.create({
      data: { workspaceId, url, eventTypes: input.eventTypes, filter: filterValue(input.filter), description: input.description ?? null, secret: newSecret() },
    });
    await audit({ action: 'webhook.create', entityType: 'webhook', entityId: row.id, after: viewOf(row) });
    return { ...viewOf(row), secret: row.secret };
  });
}

/**
 * Changes an endpoint. Re-enabling a disabled one clears its failures and sends what it had still to receive at once,
 * each delivery with a new retry window; disabling one by hand stops its deliveries (they wait, pending).
 */
export async function webhookUpdate(context: Context, id: string, change: WebhookChange): Promise<WebhookView> {
  const url = change.url != null ? await checkedUrl(change.url) : undefined;
  const workspaceId = await workspaceIdOf(context);
  let reenabled = false;
  const view = await writeAudited(context, async (tx, audit) => {
    const before = await lockWebhook(tx, workspaceId, id);
    const data: Prisma.WebhookUpdateInput = {
      ...(url !== undefined ? { url } : {}),
      ...(change.eventTypes != null ? { eventTypes: change.eventTypes } : {}),
      ...(change.filter !== undefined ? { filter: filterValue(change.filter) } : {}),
      ...(change.description !== undefined ? { description: change.description } : {}),
    };
    if (change.enabled === true && !before.enabled) {
      Object.assign(data, { enabled: true, disabledAt: null, disabledReason: null, failingSince: null, consecutiveFailures: 0 });
      reenabled = true;
    } else if (change.enabled === false && before.enabled) {
      Object.assign(data, { enabled: false, disabledAt: new Date(), disabledReason: 'disabled by the workspace' });
    }
    if (!Object.keys(data).length) return viewOf(before);
    const after = await tx.webhook.update({ where: { id }, data });
    if (reenabled) {
      await tx.$executeRaw(Prisma.sql`
        UPDATE "webhook_deliveries" d SET "status" = 'pending', "nextAttemptAt" = now(), "queuedAt" = now()
        FROM "webhooks" w WHERE w."id" = d."webhookId" AND ${inWorkspace('w', workspaceId)} AND d."webhookId" = ${id}::uuid
          AND d."status" = 'pending'`);
    }
    const unchanged = JSON.stringify(viewOf(before)) === JSON.stringify({ ...viewOf(after), updatedAt: before.updatedAt });
    if (!unchanged) await audit({ action: 'webhook.update', entityType: 'webhook', entityId: id, before: viewOf(before), after: viewOf(after) });
    return viewOf(after);
  });
  if (reenabled) deliveriesQueued([id]);
  return view;
}

/** Deletes an endpoint; its deliveries still to make are cancelled (deleted with it). */
export async function webhookDelete(context: Context, id: string): Promise<{ id: string; deleted: boolean; cancelledDeliveries: number }> {
  const workspaceId = await workspaceIdOf(context);
  return writeAudited(context, async (tx, audit) => {
    const before = await lockWebhook(tx, workspaceId, id);
    const [{ open }] = await tx.$queryRaw<{ open: number }[]>(Prisma.sql`
      SELECT count(*)::int AS "open" FROM "webhook_deliveries" d JOIN "webhooks" w ON w."id" = d."webhookId"
      WHERE d."webhookId" = ${id}::uuid AND ${inWorkspace('w', workspaceId)} AND d."status" IN ('pending', 'sending')`);
    await tx.webhook.delete({ where: { id } });
    await audit({ action: 'webhook.delete', entityType: 'webhook', entityId: id, before: viewOf(before), after: { cancelledDeliveries: open } });
    return { id, deleted: true, cancelledDeliveries: open };
  });
}

/** A new signing secret, shown once; the one it replaces still signs (a second signature) until the overlap ends. */
export async function webhookSecretRotate(context: Context, id: string): Promise<WebhookWithSecret> {
  const workspaceId = await workspaceIdOf(context);
  const overlapMs = webhookSettings().secretOverlapMs;
  return writeAudited(context, async (tx, audit) => {
    const before = await lockWebhook(tx, workspaceId, id);
    const after = await tx.webhook.update({
      where: { id },
      data: {
        secret: newSecret(),
        previousSecret: overlapMs > 0 ? before.secret : null,
        previousSecretExpiresAt: overlapMs > 0 ? new Date(Date.now() + overlapMs) : null,
      },
    });
    await audit({ action: 'webhook.rotate_secret', entityType: 'webhook', entityId: id, before: { previousSecretExpiresAt: before.previousSecretExpiresAt }, after: { previousSecretExpiresAt: after.previousSecretExpiresAt } });
    return { ...viewOf(after), secret: after.secret };
  });
}

/** Refuses a replay to an endpoint that cannot take it now. */
export function refuseDisabled(webhook: Pick<Webhook, 'enabled'>): void {
  if (!webhook.enabled) throw apiError('conflict', 'The webhook is disabled: enable it (PATCH enabled: true) first.');
}
