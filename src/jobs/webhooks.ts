import type pg from 'pg';
import type PgBoss from 'pg-boss';
import {
  claimDeliveries,
  dueWebhooks,
  onDeliveriesQueued,
  recordAttempts,
  sendEvent,
  webhookSettings,
  type AttemptResult,
  type Claim,
  type WebhookSettings,
} from '../schema/webhooks/service.js';

// The webhook delivery jobs, on the job queue (pg-boss). A job of the queue `webhook-deliveries` serves one endpoint:
// it claims the endpoint's due deliveries in order, sends them one by one, records what each got, and goes on until
// nothing is due (or it has had its turn: another job takes over), so one slow endpoint never holds up another. The
// state of every delivery is in `webhook_deliveries` (src/schema/webhooks/service/deliveries.ts); a job only says
// "look at this endpoint", so jobs may be lost or doubled without losing or doubling a delivery.
//
// - Promptness: the events' consumer, a replay and a re-enabling wake this process's workers at once (a job per
//   endpoint, then pg-boss's notifyWorker), rather than after pg-boss's polling interval; a retry is a job that
//   starts at its time, and a timer of this process wakes the workers then too.
// - Recovery: at start and every `sweepMs`, endpoints whose head has been due for a while get a job (after a restart,
//   a crash between a dispatch and its wake-up, a lease that ran out because its worker died).
// - One job per endpoint is queued at a time (policy `short`, keyed by the endpoint); retries are keyed by their time.

export const WEBHOOK_QUEUE = 'webhook-deliveries';

export type WebhookJobsLogger = { info(message: string): void; warn(object: object, message: string): void };

export type WebhookDeliveryOptions = {
  logger: WebhookJobsLogger;
  /** Settings over the environment's (tests shorten the retry schedule). */
  settings?: Partial<WebhookSettings>;
  /** How often the table is swept for due endpoints no job has taken (5 s). */
  sweepMs?: number;
};

export type WebhookDeliveries = {
  /** Queues a job for each endpoint and wakes this process's workers. */
  wake(webhookIds: string[]): Promise<void>;
  stop(): Promise<void>;
};

type JobData = { webhookId: string };

/** Deliveries claimed at once: sent in order, recorded at least every FLUSH_MS (which also renews their lease). */
const CLAIM_SIZE = 50;
const FLUSH_MS = 1_000;
/** How long one job serves its endpoint before handing it to a new job (other endpoints get their turn). */
const TURN_MS = 30_000;
/** A head due for this long without a job is swept up. */
const SWEEP_LAG_MS = 2_000;
/** Retries further away than this are left to pg-boss's polling; nearer ones also get a timer of this process. */
const LOCAL_TIMER_MAX_MS = 10 * 60_000;
const POLLING_SECONDS = 10;

export async function startWebhookDeliveries(pool: pg.Pool, boss: PgBoss, options: WebhookDeliveryOptions): Promise<WebhookDeliveries> {
  const settings = webhookSettings(options.settings);
  // An attempt waits at most timeoutMs; the lease covers it with a margin and is renewed at each recording.
  const leaseMs = settings.timeoutMs + FLUSH_MS + 30_000;
  const { logger } = options;
  let stopping = false;
  const timers = new Map<string, { at: number; timer: NodeJS.Timeout }>();

  if (!(await boss.getQueue(WEBHOOK_QUEUE))) {
    await boss.createQueue(WEBHOOK_QUEUE, { name: WEBHOOK_QUEUE, policy: 'short', retryLimit: 3, retryDelay: 5, retryBackoff: true, expireInSeconds: 300 });
  }

  const workerIds: string[] = [];
  const notify = () => {
    for (const id of workerIds) boss.notifyWorker(id);
  };

  const wake = async (webhookIds: string[]) => {
    if (stopping || !webhookIds.length) return;
    await boss.insert([...new Set(webhookIds)].map((webhookId) => ({ name: WEBHOOK_QUEUE, data: { webhookId } satisfies JobData, singletonKey: webhookId })));
    notify();
  };

  /** A job at `at` for the endpoint, and a timer of this process for a near one. */
  const lookAgain = async (webhookId: string, at: Date) => {
    await boss.insert([
      { name: WEBHOOK_QUEUE, data: { webhookId } satisfies JobData, singletonKey: `${webhookId}@${Math.ceil(at.getTime() / 1000)}`, startAfter: at },
    ]);
    const delay = at.getTime() - Date.now();
    const held = timers.get(webhookId);
    if (stopping || delay > LOCAL_TIMER_MAX_MS || (held && held.at <= at.getTime())) return;
    if (held) clearTimeout(held.timer);
    const timer = setTimeout(() => {
      timers.delete(webhookId);
      void wake([webhookId]).catch((err: unknown) => logger.warn({ err }, 'webhook delivery wake-up failed'));
    }, Math.max(0, delay) + 5);
    timer.unref();
    timers.set(webhookId, { at: at.getTime(), timer });
  };

  /** Sends a claim's deliveries in order until the turn ends at `turnEnd`; false when the endpoint is done for now. */
  const sendClaim = async (claim: Claim, turnEnd: number): Promise<boolean> => {
    const rest = [...claim.deliveries];
    let sent: AttemptResult[] = [];
    let recordedAt = Date.now();
    while (rest.length) {
      const delivery = rest.shift()!;
      const outcome = await sendEvent(claim.endpoint, delivery.event, settings.timeoutMs);
      sent.push({ delivery, at: outcome.at, status: outcome.status, latencyMs: outcome.latencyMs, error: outcome.error });
      const turnOver = Date.now() > turnEnd;
      if (outcome.error === null && rest.length && !stopping && !turnOver && Date.now() - recordedAt < FLUSH_MS) continue;
      // At the end of the turn the rest go back to waiting: the next job takes them.
      const recorded = await recordAttempts(pool, claim.endpoint, sent, rest, { keep: !stopping && !turnOver, leaseMs, settings });
      sent = [];
      recordedAt = Date.now();
      if (recorded.disabled) logger.warn({ webhookId: claim.endpoint.id }, 'webhook disabled after failing for too long (webhook.disabled recorded)');
      if (recorded.failure?.retryAt) await lookAgain(claim.endpoint.id, recorded.failure.retryAt);
      if (!recorded.enabled || stopping || (recorded.failure && !recorded.failure.gaveUp)) return false;
      if (turnOver) return true;
    }
    return true;
  };

  /** One job: the endpoint's due deliveries, until none is due or its turn is over. */
  const serve = async (webhookId: string) => {
    const turnEnd = Date.now() + TURN_MS;
    while (!stopping) {
      if (Date.now() > turnEnd) return wake([webhookId]);
      const claim = await claimDeliveries(pool, webhookId, { limit: CLAIM_SIZE, leaseMs });
      if (!claim) return;
      if (!claim.deliveries.length) {
        if (claim.lookAgainAt) await lookAgain(webhookId, claim.lookAgainAt);
        return;
      }
      if (!(await sendClaim(claim, turnEnd))) return;
    }
  };

  for (let i = 0; i < settings.concurrency; i++) {
    workerIds.push(await boss.work<JobData>(WEBHOOK_QUEUE, { batchSize: 1, pollingIntervalSeconds: POLLING_SECONDS }, async ([job]) => serve(job.data.webhookId)));
  }

  const sweep = async (lagMs: number) => wake(await dueWebhooks(pool, lagMs));
  const unsubscribe = onDeliveriesQueued((webhookIds) => {
    void wake(webhookIds).catch((err: unknown) => logger.warn({ err }, 'webhook delivery wake-up failed; the sweep takes it up'));
  });
  await sweep(0);
  const sweeper = setInterval(() => {
    void sweep(SWEEP_LAG_MS).catch((err: unknown) => logger.warn({ err }, 'webhook delivery sweep failed'));
  }, options.sweepMs ?? 5_000);
  sweeper.unref();

  return {
    wake,
    async stop() {
      stopping = true;
      unsubscribe();
      clearInterval(sweeper);
      for (const { timer } of timers.values()) clearTimeout(timer);
      timers.clear();
      await boss.offWork(WEBHOOK_QUEUE);
    },
  };
}
