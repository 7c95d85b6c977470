import type pg from 'pg';
import type { Context } from '../../../context.js';
import type { Queryable } from '../../../data/bulk.js';
import { EVENT_ROW_COLUMNS, eventsCommitted, recordEvents, type EventRow } from '../../../data/events.js';
import { acrossWorkspaces } from '../../../db/workspace-check.js';
import { apiError, notFound } from '../../../errors.js';
import { Prisma } from '../../../generated/prisma/client.js';
import { writeAudited } from '../../shared/audit.js';
import { findRowsPage, type PageRequest } from '../../shared/list.js';
import { inWorkspace } from '../../shared/workspace.js';
import { retryDelayMs, type WebhookSettings } from './settings.js';
import { deliveriesQueued } from './signal.js';
import { findWebhook, lockWebhook, refuseDisabled } from './webhooks.js';

// Deliveries: one row per event and endpoint (`webhook_deliveries`), the whole state of its delivery, so a restart
// loses none. Made by the dispatcher's consumer in the dispatch transaction (createDeliveries), claimed and recorded
// by the delivery jobs (src/jobs/webhooks.ts), read as the endpoint's log and replayed by the workspace.
//
// Order per endpoint: deliveries go out by id (ids follow the events' dispatch order). An endpoint's head is its
// first delivery still to make; a claim takes the run of due deliveries from the head, marks them `sending` and
// leases them (`nextAttemptAt` is the lease's end), so nothing after a waiting head goes out, two workers never send
// an endpoint's deliveries at once, and a worker that dies mid-send leaves deliveries that fall due again when the
// lease ends (at least once). A recording is fenced by the attempt count it claimed: a late worker writes nothing.

/** An event and a workspace it concerns (through `brandtrackerId`, when it does through a brandtracker; `own`: the workspace's own event). */
export type ConcernedEvent = { eventId: string; workspaceId: string; brandtrackerId: string | null; own: boolean };

/** Deliveries of a dispatched batch: one statement for the whole batch; returns the endpoints that got some. */
export async function createDeliveries(client: Queryable, concerned: ConcernedEvent[]): Promise<string[]> {
  if (!concerned.length) return [];
  // Whom an event concerns is decided once per batch for every consumer (src/events/concerns.ts); an endpoint takes
  // it when it names the type (or '*') and its filter, if any, names the event's advertiser, shop, or a brandtracker
  // through which it concerns the workspace. The workspace's own events pass any filter. Without an enabled endpoint
  // anywhere, nothing past `hooks` runs.
  const column = <K extends keyof ConcernedEvent>(key: K) => concerned.map((row) => row[key]);
  const { rows } = await client.query<{ webhookId: string }>(
    `${acrossWorkspaces('the dispatcher hands each event to the webhooks of every workspace it concerns')}
     WITH hooks AS MATERIALIZED (
       SELECT w."id", w."workspaceId", w."eventTypes", w."filter" FROM "webhooks" w WHERE w."enabled"
     ),
     concerned AS MATERIALIZED (
       SELECT c.* FROM unnest($1::bigint[], $2::uuid[], $3::uuid[], $4::bool[]) AS c("eventId", "ws", "brandtrackerId", "own")
       WHERE EXISTS (SELECT 1 FROM hooks)
     ),
     matched AS (
       SELECT DISTINCT h."id" AS "webhookId", ev."id" AS "eventId", ev."seq"
       FROM concerned c JOIN "market_events" ev ON ev."id" = c."eventId" JOIN hooks h ON h."workspaceId" = c."ws"
       WHERE (ev."type" = ANY(h."eventTypes") OR '*' = ANY(h."eventTypes"))
         AND (c."own" OR h."filter" IS NULL OR (h."filter" -> 'advertiserIds') ? ev."advertiserId" OR (h."filter" -> 'shopIds') ? ev."shopId"::text
              OR (h."filter" -> 'brandtrackerIds') ? c."brandtrackerId"::text)
     )
     INSERT INTO "webhook_deliveries" ("webhookId", "eventId")
     SELECT m."webhookId", m."eventId" FROM matched m ORDER BY m."seq", m."webhookId"
     ON CONFLICT ("webhookId", "eventId") DO NOTHING
     RETURNING "webhookId"`,
    [column('eventId'), column('workspaceId'), column('brandtrackerId'), column('own')],
  );
  return [...new Set(rows.map((row) => row.webhookId))];
}

/** Whether any webhook exists (the delivery jobs start with the server when one does). */
export async function webhooksExist(db: Queryable): Promise<boolean> {
  const { rows } = await db.query<{ found: boolean }>(
    `${acrossWorkspaces('whether the delivery jobs have any endpoint to serve')} SELECT EXISTS (SELECT 1 FROM "webhooks") AS "found"`,
  );
  return rows[0].found;
}

/** Enabled endpoints whose head has been due for at least `lagMs` (the jobs' sweep: what no job has taken). */
export async function dueWebhooks(db: Queryable, lagMs: number, limit = 1000): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    `${acrossWorkspaces('the delivery jobs serve the endpoints of every workspace')}
     SELECT w."id" FROM "webhooks" w
     CROSS JOIN LATERAL (
       SELECT d."nextAttemptAt" FROM "webhook_deliveries" d
       WHERE d."webhookId" = w."id" AND d."status" IN ('pending', 'sending') ORDER BY d."id" LIMIT 1
     ) head
     WHERE w."enabled" AND head."nextAttemptAt" <= now() - $1 * interval '1 millisecond'
     LIMIT $2`,
    [lagMs, limit],
  );
  return rows.map((row) => row.id);
}

/** Where an endpoint's deliveries go and how they are signed. */
export type Endpoint = {
  id: string;
  workspaceId: string;
  url: string;
  secret: string;
  previousSecret: string | null;
  previousSecretExpiresAt: Date | null;
};

export type ClaimedDelivery = { id: string; attempts: number; queuedAt: Date; event: EventRow };

/** A claim: the endpoint, its deliveries to send now in order, and when to look again if none (null: nothing waits). */
export type Claim = { endpoint: Endpoint; deliveries: ClaimedDelivery[]; lookAgainAt: Date | null };

async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken = false;
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => (broken = true));
    throw error;
  } finally {
    client.release(broken);
  }
}

const OPEN_WINDOW = `SELECT d."id", d."status", d."nextAttemptAt" FROM "webhook_deliveries" d
  WHERE d."webhookId" = $1::uuid AND d."status" IN ('pending', 'sending') ORDER BY d."id" LIMIT $2`;

/**
 * Claims up to `limit` deliveries of an enabled endpoint: the due run from its head, none while another claim of it is
 * in flight. Null when the endpoint is gone or disabled.
 */
export async function claimDeliveries(pool: pg.Pool, webhookId: string, options: { limit: number; leaseMs: number }): Promise<Claim | null> {
  return inTransaction(pool, async (client) => {
    // The endpoint's row, locked: claims of one endpoint run one after the other.
    const { rows: endpoints } = await client.query<Endpoint>(
      `${acrossWorkspaces('a delivery job claims the deliveries of one endpoint, whichever workspace has it')}
       SELECT w."id", w."workspaceId", w."url", w."secret", w."previousSecret", w."previousSecretExpiresAt"
       FROM "webhooks" w WHERE w."id" = $1::uuid AND w."enabled" FOR NO KEY UPDATE`,
      [webhookId],
    );
    if (!endpoints.length) return null;
    const { rows } = await client.query<EventRow & { deliveryId: string; attempts: number; queuedAt: Date }>(
      `WITH open AS (SELECT x.*, row_number() OVER (ORDER BY x."id") AS "n" FROM (${OPEN_WINDOW}) x),
       waiting AS (SELECT min(o."n") AS "n" FROM open o WHERE o."nextAttemptAt" > now()),
       busy AS (SELECT EXISTS (SELECT 1 FROM open o WHERE o."status" = 'sending' AND o."nextAttemptAt" > now()) AS "b"),
       claim AS (SELECT o."id" FROM open o, waiting, busy WHERE NOT busy."b" AND o."n" < coalesce(waiting."n", $2 + 1))
       UPDATE "webhook_deliveries" d SET "status" = 'sending', "attempts" = d."attempts" + 1, "nextAttemptAt" = now() + $3 * interval '1 millisecond'
       FROM claim, "market_events" e
       WHERE d."id" = claim."id" AND e."id" = d."eventId"
       RETURNING d."id"::text AS "deliveryId", d."attempts", d."queuedAt", ${EVENT_ROW_COLUMNS}`,
      [webhookId, options.limit, options.leaseMs],
    );
    const deliveries = rows
      .map(({ deliveryId, attempts, queuedAt, ...event }) => ({ id: deliveryId, attempts, queuedAt, event: event as EventRow }))
      .sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
    let lookAgainAt: Date | null = null;
    if (!deliveries.length) {
      const { rows: next } = await client.query<{ at: Date | null }>(
        `SELECT min(o."nextAttemptAt") AS "at" FROM (${OPEN_WINDOW}) o WHERE o."nextAttemptAt" > now()`,
        [webhookId, options.limit],
      );
      lookAgainAt = next[0].at;
    }
    return { endpoint: endpoints[0], deliveries, lookAgainAt };
  });
}

/** What an attempt of a claimed delivery got. */
export type AttemptResult = { delivery: ClaimedDelivery; at: Date; status: number | null; latencyMs: number; error: string | null };

/** What recording attempts decided. */
export type Recorded = {
  /** Whether the endpoint still takes deliveries (false: gone, disabled now or by hand). */
  enabled: boolean;
  /** Whether these attempts disabled it (a `webhook.disabled` event was recorded with the change). */
  disabled: boolean;
  /** The failed attempt's fate, when the last attempt failed: retried at `retryAt`, or given up (`failed`). */
  failure: { gaveUp: boolean; retryAt: Date | null } | null;
};

/**
 * Records the attempts of a claim (in order; only the last may have failed) and the endpoint's record of success,
 * in one transaction; the claimed deliveries not sent yet (`rest`) keep their lease to be sent next (when `keep` and
 * the endpoint still takes them), or go back to waiting. An endpoint failing for good (at least `disableFailures` failed
 * attempts in a row, and a delivery given up or no success for `disableAfterMs`) is disabled, and a `webhook.disabled`
 * event for its workspace is recorded with the change.
 */
export async function recordAttempts(
  pool: pg.Pool,
  endpoint: Pick<Endpoint, 'id'>,
  attempts: AttemptResult[],
  rest: ClaimedDelivery[],
  options: { keep: boolean; leaseMs: number; settings: WebhookSettings; now?: () => Date },
): Promise<Recorded> {
  const now = options.now ?? (() => new Date());
  const { settings } = options;
  const last = attempts.at(-1);
  const failed = last && last.error !== null ? last : null;
  let failure: Recorded['failure'] = null;
  if (failed) {
    const gaveUp = now().getTime() - failed.delivery.queuedAt.getTime() >= settings.retryWindowMs;
    failure = { gaveUp, retryAt: gaveUp ? null : new Date(now().getTime() + retryDelayMs(settings, failed.delivery.attempts)) };
  }
  const recorded = await inTransaction(pool, async (client) => {
    const { rows: found } = await client.query<{ enabled: boolean; consecutiveFailures: number; failingSince: Date | null; workspaceId: string }>(
      `${acrossWorkspaces('a delivery job records the attempts of one endpoint, whichever workspace has it')}
       SELECT w."enabled", w."consecutiveFailures", w."failingSince", w."workspaceId" FROM "webhooks" w WHERE w."id" = $1::uuid FOR NO KEY UPDATE`,
      [endpoint.id],
    );
    if (!found.length) return { enabled: false, disabled: false }; // deleted: its deliveries went with it
    const hook = found[0];
    let failures = hook.consecutiveFailures;
    let since = hook.failingSince;
    let lastSuccess: Date | null = null;
    for (const attempt of attempts) {
      if (attempt.error === null) {
        failures = 0;
        since = null;
        lastSuccess = attempt.at;
      } else {
        failures += 1;
        since ??= attempt.at;
      }
    }
    // Failing for good: a delivery given up (it failed for its whole retry window), or no success for disableAfterMs;
    // either way with at least disableFailures failed attempts in a row.
    const disable = Boolean(
      hook.enabled && failed && since && failures >= settings.disableFailures && (failure?.gaveUp || now().getTime() - since.getTime() >= settings.disableAfterMs),
    );
    const reason = disable
      ? `no successful delivery since ${since!.toISOString()}: ${failures} failed attempts in a row (the last: ${failed!.error})`
      : null;
    if (attempts.length) {
      await client.query(
        `${acrossWorkspaces('a delivery job records the attempts of one endpoint, whichever workspace has it')}
         UPDATE "webhooks" w SET "lastSuccessAt" = coalesce($2, w."lastSuccessAt"), "consecutiveFailures" = $3, "failingSince" = $4,
           "enabled" = w."enabled" AND NOT $5, "disabledAt" = CASE WHEN $5 THEN now() ELSE w."disabledAt" END,
           "disabledReason" = CASE WHEN $5 THEN $6 ELSE w."disabledReason" END
         WHERE w."id" = $1::uuid`,
        [endpoint.id, lastSuccess, failures, since, disable, reason],
      );
    }
    const enabled = hook.enabled && !disable;
    // Each claimed delivery's new state, fenced by the attempt count of the claim. The rest keep their lease while
    // the endpoint takes them (nothing failed, or the failed one was given up); else they wait for the retried head.
    const keep = enabled && options.keep && !(failure && !failure.gaveUp);
    const rows = [
      ...attempts.map((a) => ({
        id: a.delivery.id,
        attempts: a.delivery.attempts,
        status: a.error === null ? 'delivered' : failure?.gaveUp ? 'failed' : 'pending',
        undo: 0,
        sent: true,
        at: a.at,
        next: a.error === null || failure?.gaveUp ? a.at : failure!.retryAt!,
        response: a.status,
        latency: a.latencyMs,
        error: a.error,
      })),
      ...rest.map((d) => ({
        id: d.id,
        attempts: d.attempts,
        status: keep ? 'sending' : 'pending',
        undo: keep ? 0 : 1,
        sent: false,
        at: null,
        // Waiting again: due at once, but behind the head (a claim stops at the first delivery not due).
        next: keep ? new Date(now().getTime() + options.leaseMs) : now(),
        response: null,
        latency: null,
        error: null,
      })),
    ];
    if (rows.length) {
      const column = <K extends keyof (typeof rows)[number]>(key: K) => rows.map((row) => row[key]);
      await client.query(
        `UPDATE "webhook_deliveries" d SET
           "status" = u."status", "attempts" = d."attempts" - u."undo", "nextAttemptAt" = u."next",
           "lastAttemptAt" = CASE WHEN u."sent" THEN u."at" ELSE d."lastAttemptAt" END,
           "responseStatus" = CASE WHEN u."sent" THEN u."response" ELSE d."responseStatus" END,
           "latencyMs" = CASE WHEN u."sent" THEN u."latency" ELSE d."latencyMs" END,
           "error" = CASE WHEN u."sent" THEN u."error" ELSE d."error" END,
           "deliveredAt" = CASE WHEN u."status" = 'delivered' THEN u."at" ELSE d."deliveredAt" END
         FROM unnest($1::bigint[], $2::int[], $3::text[], $4::int[], $5::bool[], $6::timestamptz[], $7::timestamptz[], $8::int[], $9::int[], $10::text[])
           AS u("id", "attempts", "status", "undo", "sent", "at", "next", "response", "latency", "error")
         WHERE d."id" = u."id" AND d."attempts" = u."attempts" AND d."status" = 'sending'`,
        [column('id'), column('attempts'), column('status'), column('undo'), column('sent'), column('at'), column('next'), column('response'), column('latency'), column('error')],
      );
    }
    if (disable) {
      await recordEvents(client, 'events', [
        {
          type: 'webhook.disabled',
          dedupeKey: `webhook.disabled:${endpoint.id}:${now().getTime()}`,
          workspaceId: hook.workspaceId,
          webhookId: endpoint.id,
          data: { before: { enabled: true }, after: { enabled: false, reason, failingSince: since!.toISOString(), consecutiveFailures: failures } },
        },
      ]);
    }
    return { enabled, disabled: disable };
  });
  if (recorded.disabled) eventsCommitted();
  return { ...recorded, failure };
}

// ---------------------------------------------------------------------------------------------------------------
// The delivery log and replays (the workspace's routes)

export type DeliveryStatus = 'pending' | 'sending' | 'delivered' | 'failed';

export type DeliveryView = {
  id: string;
  eventId: string;
  eventType: string;
  status: DeliveryStatus;
  attempts: number;
  responseStatus: number | null;
  latencyMs: number | null;
  error: string | null;
  nextAttemptAt: Date | null;
  lastAttemptAt: Date | null;
  deliveredAt: Date | null;
  createdAt: Date;
};

const DELIVERY_COLUMNS = Prisma.sql`d."id"::text AS "id", 'evt_' || d."eventId"::text AS "eventId", e."type" AS "eventType", d."status", d."attempts",
  d."responseStatus", d."latencyMs", d."error", CASE WHEN d."status" = 'pending' THEN d."nextAttemptAt" END AS "nextAttemptAt",
  d."lastAttemptAt", d."deliveredAt", d."createdAt"`;

const deliveriesOf = (workspaceId: string, webhookId: string) => Prisma.sql`
  FROM "webhook_deliveries" d JOIN "webhooks" w ON w."id" = d."webhookId" JOIN "market_events" e ON e."id" = d."eventId"
  WHERE d."webhookId" = ${webhookId}::uuid AND ${inWorkspace('w', workspaceId)}`;

/** A page of an endpoint's deliveries, newest first. */
export async function webhookDeliveryPage(context: Context, webhookId: string, filter: { status?: DeliveryStatus | null }, page: PageRequest) {
  const webhook = await findWebhook(context, webhookId);
  const from = Prisma.sql`${deliveriesOf(webhook.workspaceId, webhook.id)}${filter.status ? Prisma.sql` AND d."status" = ${filter.status}` : Prisma.empty}`;
  return findRowsPage<DeliveryView>(context.pool, { select: DELIVERY_COLUMNS, from, order: [{ key: Prisma.sql`d."id"`, direction: 'DESC' }], page });
}

/**
 * Sends a delivery again, now, whatever its state (delivered and failed ones too): it waits for its turn again with a
 * new retry window (an older one goes before the endpoint's later deliveries). The endpoint must be enabled, and no
 * attempt of this delivery in flight.
 */
export async function webhookDeliveryReplay(context: Context, webhookId: string, deliveryId: string): Promise<DeliveryView> {
  const workspaceId = (await context.principal()).workspace.id;
  const view = await writeAudited(context, async (tx, audit) => {
    const webhook = await lockWebhook(tx, workspaceId, webhookId);
    const [before] = await tx.$queryRaw<{ status: DeliveryStatus; inFlight: boolean }[]>(Prisma.sql`
      SELECT d."status", d."status" = 'sending' AND d."nextAttemptAt" > now() AS "inFlight"
      FROM "webhook_deliveries" d JOIN "webhooks" w ON w."id" = d."webhookId"
      WHERE d."id" = ${deliveryId}::bigint AND d."webhookId" = ${webhookId}::uuid AND ${inWorkspace('w', workspaceId)} FOR UPDATE OF d`);
    if (!before) throw notFound('The delivery');
    refuseDisabled(webhook);
    if (before.inFlight) throw apiError('conflict', 'An attempt of this delivery is in flight: replay it once it has ended.');
    await tx.$executeRaw(Prisma.sql`
      UPDATE "webhook_deliveries" d SET "status" = 'pending', "nextAttemptAt" = now(), "queuedAt" = now() WHERE d."id" = ${deliveryId}::bigint`);
    await audit({ action: 'webhook.delivery_replay', entityType: 'webhook_delivery', entityId: deliveryId, before: { status: before.status }, after: { status: 'pending' } });
    const [row] = await tx.$queryRaw<DeliveryView[]>(Prisma.sql`SELECT ${DELIVERY_COLUMNS} ${deliveriesOf(workspaceId, webhookId)} AND d."id" = ${deliveryId}::bigint`);
    return row;
  });
  deliveriesQueued([webhookId]);
  return view;
}
