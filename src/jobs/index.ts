import type pg from 'pg';
import PgBoss from 'pg-boss';
import { defaultLeaseMs, syncSource, type SyncRunRow } from '../sources/index.js';
import { onDeliveriesQueued, webhooksExist } from '../schema/webhooks/service.js';
import { loadSchedules, type Schedule } from './schedules.js';
import { startWebhookDeliveries, type WebhookDeliveries, type WebhookDeliveryOptions } from './webhooks.js';
import { exportsPending, onExportsQueued } from '../schema/exports/service.js';
import { startExportJobs, type ExportJobOptions, type ExportJobs } from './exports.js';

// The job queue: pg-boss on the database the server already has (the embedded PGlite through its loopback server,
// or PostgreSQL), in its own schema `pgboss`, through the server's pool. Each schedule is a queue of its own
// (`sync-<name>`, policy `stately`: at most one job waiting and one running, across every instance), fed by
// pg-boss's cron and worked here; a failed run is retried with pg-boss's exponential backoff with jitter. The runs
// themselves are guarded once more in `sync_runs` (one running run per source), so two schedules of one source
// never overlap either: the later one finds the source busy and is retried later. The webhook deliveries run on the
// same queue (`webhook-deliveries`, src/jobs/webhooks.ts) where workers run, and so do the exports (`exports`,
// src/jobs/exports.ts).

export type JobsLogger = { info(message: string): void; warn(object: object, message: string): void };

export type Jobs = {
  schedules: Schedule[];
  /** Runs a schedule now (as its cron would), returning the run. */
  runNow(name: string): Promise<SyncRunRow>;
  stop(): Promise<void>;
};

const QUEUE_PREFIX = 'sync-';
const SCHEMA = 'pgboss';

/** Whether pg-boss was ever set up on this database (its schema exists). */
async function queueInstalled(pool: pg.Pool): Promise<boolean> {
  const { rows } = await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_namespace WHERE nspname = $1`, [SCHEMA]);
  return rows[0].n > 0;
}
const RETRIES = 4;
const RETRY_DELAY_SECONDS = 60;

type JobData = { schedule: string };

/** pg-boss through `pool`: its statements go where every other statement goes. */
export function bossOn(pool: pg.Pool, options: { work: boolean }): PgBoss {
  return new PgBoss({
    // A statement pg-boss sends once the pool is closing (a job that finished after the workers' graceful stop timed
    // out, as the process ends) is never sent: pg-boss would leave its rejection unhandled. The job stays active and
    // its expiry hands it to a worker again (at least once).
    db: { executeSql: (text: string, values?: unknown[]) => (pool.ending ? new Promise<never>(() => {}) : pool.query(text, values)) },
    schema: SCHEMA,
    supervise: options.work,
    schedule: options.work,
    migrate: true,
  });
}

/** Starts the queue, brings its schedules in line with the configuration, and (when `work`) works them and the webhook deliveries. */
export async function startJobs(
  pool: pg.Pool,
  options: { work: boolean; logger: JobsLogger; webhooks?: Omit<WebhookDeliveryOptions, 'logger'>; exports?: Omit<ExportJobOptions, 'logger'> },
): Promise<Jobs> {
  const schedules = loadSchedules();
  // The queue runs when there is something to work: schedules, or (where workers run) webhooks. With neither, it is
  // not started (no schema, no timers: `npm start` pays one look at the webhooks table); the first delivery of a
  // webhook made later starts it then.
  const withWebhooks = options.work && (await webhooksExist(pool));
  // Exports (src/jobs/exports.ts) likewise: started for exports to run or files to expire, or by the first export made.
  const withExports = options.work && (await exportsPending(pool));
  const controller = new AbortController();
  let boss: PgBoss | null = null;
  let starting: Promise<PgBoss> | null = null;
  const startBoss = () =>
    (starting ??= (async () => {
      const started = bossOn(pool, options);
      started.on('error', (error) => options.logger.warn({ err: error }, 'job queue error'));
      await started.start();
      boss = started;
      return started;
    })());
  let deliveries: Promise<WebhookDeliveries> | null = null;
  let stopped = false;
  const startDeliveries = () =>
    (deliveries ??= startBoss().then((started) => startWebhookDeliveries(pool, started, { ...options.webhooks, logger: options.logger })));
  let exportJobs: Promise<ExportJobs> | null = null;
  const startExports = () =>
    (exportJobs ??= startBoss().then((started) => startExportJobs(pool, started, { ...options.exports, logger: options.logger })));
  const stopListeningExports = options.work
    ? onExportsQueued((exportIds) => {
        if (exportJobs || stopped) return;
        void startExports()
          .then((started) => started.wake(exportIds))
          .catch((error: unknown) => options.logger.warn({ err: error }, 'the export jobs could not start; the next start of the workers takes them up'));
      })
    : () => {};
  const stopListening = options.work
    ? onDeliveriesQueued((webhookIds) => {
        if (deliveries || stopped) return;
        // The first deliveries since this process started without any webhook: start the delivery jobs for them.
        void startDeliveries()
          .then((started) => started.wake(webhookIds))
          .catch((error: unknown) => options.logger.warn({ err: error }, 'the webhook delivery jobs could not start; the next start of the workers takes them up'));
      })
    : () => {};

  if (schedules.length === 0 && !withWebhooks && !withExports) {
    // Nothing to work: the queue is not started, and schedules left from an earlier configuration stop firing.
    await unscheduleAll(pool);
  } else {
    await startBoss();
    await startSchedules(pool, boss!, schedules, controller.signal, options);
    if (withWebhooks) await startDeliveries();
    if (withExports) await startExports();
  }
  const byName = new Map(schedules.map((schedule) => [schedule.name, schedule]));

  return {
    schedules,
    runNow: (name) => {
      const schedule = byName.get(name);
      if (!schedule) return Promise.reject(new Error(`no schedule named ${name}`));
      return runSchedule(pool, schedule, controller.signal, options.logger);
    },
    async stop() {
      stopped = true;
      stopListening();
      stopListeningExports();
      controller.abort(new Error('the server is stopping'));
      if (deliveries) await (await deliveries.catch(() => null))?.stop();
      if (exportJobs) await (await exportJobs.catch(() => null))?.stop();
      if (starting) await starting.catch(() => null);
      await (boss as PgBoss | null)?.stop({ graceful: true, wait: true, timeout: 10_000 }).catch(() => {});
    },
  };
}

async function runSchedule(pool: pg.Pool, schedule: Schedule, signal: AbortSignal, logger: JobsLogger): Promise<SyncRunRow> {
  const result = await syncSource(pool, schedule.source, schedule.query, { trigger: `schedule:${schedule.name}`, signal });
  logger.info(`sync ${schedule.name}: ${result.status}, ${result.pages} pages, ${result.fetched} fetched, ${result.inserted} inserted, ${result.updated} updated`);
  return result;
}

/** Each schedule's queue and cron (worked here when `work`); schedules gone from the configuration stop firing. */
async function startSchedules(pool: pg.Pool, boss: PgBoss, schedules: Schedule[], signal: AbortSignal, options: { work: boolean; logger: JobsLogger }): Promise<void> {
  const byName = new Map(schedules.map((schedule) => [schedule.name, schedule]));
  for (const schedule of schedules) {
    const queue = QUEUE_PREFIX + schedule.name;
    if (!(await boss.getQueue(queue))) {
      await boss.createQueue(queue, { name: queue, policy: 'stately', retryLimit: RETRIES, retryDelay: RETRY_DELAY_SECONDS, retryBackoff: true, expireInHours: 12 });
    }
    await boss.schedule(queue, schedule.cron, { schedule: schedule.name } satisfies JobData, schedule.tz ? { tz: schedule.tz } : {});
    if (options.work) {
      await boss.work<JobData>(queue, { batchSize: 1, pollingIntervalSeconds: 5 }, async ([job]) => {
        const current = byName.get(job.data.schedule);
        if (!current) return { skipped: 'the schedule is no longer configured' };
        try {
          const result = await runSchedule(pool, current, signal, options.logger);
          // A run the source stopped (retries used up, a refused credential) fails the job: pg-boss retries it later.
          if (result.status === 'failed') throw new Error(result.error ?? 'the run failed');
          return { runId: result.id, status: result.status };
        } catch (error) {
          // The source is busy with another run: this one waits its turn (not a failure, so no retry is used up).
          if ((error as { extensions?: { code?: string } }).extensions?.code === 'conflict') {
            await boss.send(queue, job.data, { startAfter: Math.ceil(defaultLeaseMs() / 1000) });
            return { deferred: (error as Error).message };
          }
          throw error;
        }
      });
    }
  }
  // Schedules removed from the configuration stop firing.
  for (const stale of await boss.getSchedules()) {
    if (stale.name.startsWith(QUEUE_PREFIX) && !byName.has(stale.name.slice(QUEUE_PREFIX.length))) await boss.unschedule(stale.name);
  }
  if (schedules.length) options.logger.info(`sync schedules: ${schedules.map((s) => `${s.name} (${s.source}, ${s.cron})`).join('; ')}${options.work ? '' : ' (not worked here: WORKERS=off)'}`);
}

/** Removes every sync schedule pg-boss holds, when it was ever set up here. */
async function unscheduleAll(pool: pg.Pool): Promise<void> {
  if (!(await queueInstalled(pool))) return;
  const boss = bossOn(pool, { work: false });
  await boss.start();
  try {
    for (const held of await boss.getSchedules()) if (held.name.startsWith(QUEUE_PREFIX)) await boss.unschedule(held.name);
  } finally {
    await boss.stop({ graceful: false, wait: true }).catch(() => {});
  }
}

/** The schedules as pg-boss holds them (what fires), for `sync schedule list`. */
export async function listSchedules(
  pool: pg.Pool,
): Promise<{ name: string; source: string | null; cron: string; tz: string | null; query: unknown; configured: boolean; held: boolean }[]> {
  const configured = new Map(loadSchedules().map((schedule) => [schedule.name, schedule]));
  if (!(await queueInstalled(pool))) {
    return [...configured.values()].map((s) => ({ name: s.name, source: s.source, cron: s.cron, tz: s.tz ?? null, query: s.query, configured: true, held: false }));
  }
  const boss = bossOn(pool, { work: false });
  await boss.start();
  try {
    const stored = await boss.getSchedules();
    const names = new Set([...configured.keys(), ...stored.filter((s) => s.name.startsWith(QUEUE_PREFIX)).map((s) => s.name.slice(QUEUE_PREFIX.length))]);
    return [...names].sort().map((name) => {
      const config = configured.get(name);
      const held = stored.find((s) => s.name === QUEUE_PREFIX + name);
      return {
        name,
        source: config?.source ?? null,
        cron: held?.cron ?? config?.cron ?? '',
        tz: held?.options?.tz ?? config?.tz ?? null,
        query: config?.query ?? null,
        configured: config !== undefined,
        held: held !== undefined,
      };
    });
  } finally {
    await boss.stop({ graceful: false, wait: true }).catch(() => {});
  }
}
