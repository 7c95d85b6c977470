import type pg from 'pg';
import type PgBoss from 'pg-boss';
import { createRateLimiter } from '../metering/index.js';
import { exportSettings, onExportsQueued, runExport, sweepExports, type ExportJobServices } from '../schema/exports/service.js';

// The export jobs, on the job queue (pg-boss): a job of the queue `exports` runs one export (src/schema/exports/service/run.ts),
// whose state is in the `exports` table; a job only says "run this export", so a lost or doubled job loses or doubles
// nothing (the run claims its export from queued to running once). A creation wakes this process's workers at once.
// A periodic sweep (every `sweepMs`, and at start) fails the exports of a process that died (their heartbeat older
// than the lease), deletes the files past EXPORT_TTL_HOURS, and queues a job for every export still queued.
// Stopping the process stops its running exports: they fail ("interrupted"), never resume.

export const EXPORT_QUEUE = 'exports';

export type ExportJobsLogger = { info(message: string): void; warn(object: object, message: string): void; error?(object: object, message: string): void };

export type ExportJobOptions = {
  logger: ExportJobsLogger;
  /** How often the sweep runs (60 s). */
  sweepMs?: number;
  /** Exports run at once by this process (EXPORT_CONCURRENCY, 1). */
  concurrency?: number;
};

export type ExportJobs = {
  wake(exportIds: string[]): Promise<void>;
  sweep(): Promise<void>;
  stop(): Promise<void>;
};

type JobData = { exportId: string };

/** What an export run needs besides its snapshot: the pool (its claims, progress and credits), no authentication, no limits. */
export function exportJobServices(pool: pg.Pool): ExportJobServices & { close(): Promise<void> } {
  const limiter = createRateLimiter({ read: { capacity: 1e9, perSecond: 1e9 }, write: { capacity: 1e9, perSecond: 1e9 } });
  return {
    pool,
    ledger: pool,
    authenticate: () => Promise.reject(new Error('an export run authenticates nobody')),
    rateLimiter: limiter,
    publicBaseUrl: '',
    startedAt: new Date(),
    close: () => limiter.close(),
  };
}

export async function startExportJobs(pool: pg.Pool, boss: PgBoss, options: ExportJobOptions): Promise<ExportJobs> {
  const { logger } = options;
  const controller = new AbortController();
  const services = exportJobServices(pool);
  if (!(await boss.getQueue(EXPORT_QUEUE))) {
    await boss.createQueue(EXPORT_QUEUE, { name: EXPORT_QUEUE, policy: 'standard', retryLimit: 0, expireInHours: 12 });
  }
  const workerIds: string[] = [];
  const concurrency = options.concurrency ?? exportSettings().concurrency;
  for (let i = 0; i < concurrency; i++) {
    workerIds.push(await boss.work<JobData>(EXPORT_QUEUE, { batchSize: 1, pollingIntervalSeconds: 5 }, async ([job]) => {
      await runExport(services, job.data.exportId, { signal: controller.signal, onError: (err) => logger.warn({ err, exportId: job.data.exportId }, 'export failed') });
    }));
  }
  let stopping = false;
  const wake = async (exportIds: string[]) => {
    if (stopping || !exportIds.length) return;
    await boss.insert(exportIds.map((exportId) => ({ name: EXPORT_QUEUE, data: { exportId } satisfies JobData, singletonKey: exportId })));
    for (const id of workerIds) boss.notifyWorker(id);
  };
  const sweep = async () => {
    const swept = await sweepExports(pool, pool);
    if (swept.failed || swept.expired) logger.info(`exports sweep: ${swept.failed} interrupted exports failed, ${swept.expired} files expired`);
    await wake(swept.queued);
  };
  const unsubscribe = onExportsQueued((exportIds) => {
    void wake(exportIds).catch((err: unknown) => logger.warn({ err }, 'export wake-up failed; the sweep takes it up'));
  });
  await sweep();
  const sweeper = setInterval(() => {
    void sweep().catch((err: unknown) => logger.warn({ err }, 'exports sweep failed'));
  }, options.sweepMs ?? 60_000);
  sweeper.unref();
  return {
    wake,
    sweep,
    async stop() {
      stopping = true;
      unsubscribe();
      clearInterval(sweeper);
      controller.abort();
      await boss.offWork(EXPORT_QUEUE);
      await services.close();
    },
  };
}
