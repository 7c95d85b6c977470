import { createHash, randomUUID } from 'node:crypto';
import type pg from 'pg';
import { importBatches, importContext, readBatch, type BatchResult } from '../data/import/run.js';
import { apiError } from '../errors.js';
import { sourceConfig } from './config.js';
import { SourceError, SourceHttp, type Wait } from './http.js';
import type { Connector, Json, Page, SourceIO } from './types.js';
import { envNumber } from '../config.js';

// A run of one connector: claimed in `sync_runs` (at most one running run per source, across instances), its
// pages applied one transaction each with the cursor of the next page written in the same transaction, so a run
// that dies resumes at the first page it had not stored. A run left `running` by a crash (its heartbeat older
// than the lease) is taken over by the next run of the same query; one of another query, or one started more than
// a day ago (its `asOf` would date today's data), is marked interrupted instead.

/**
 * The pages of `source`, each next one fetched while the one before is written (one page ahead: fetching and parsing
 * overlap the database's work). A page fetched ahead is only held: its cursor is stored when it is itself written, so
 * a run that stops loses no page and skips none. Its failure surfaces when the page is reached, after the page before
 * it is stored. `fetched.count`: the pages the source has produced so far.
 */
function readAhead<T>(
  source: AsyncIterable<T>,
  fetched: { count: number },
  prepare: (item: T) => void,
): AsyncIterator<T> & { return(): Promise<IteratorResult<T>> } {
  const pages = source[Symbol.asyncIterator]();
  let ahead: Promise<IteratorResult<T>> | null = null;
  const fetch = () => {
    const next = pages.next().then((result) => {
      if (!result.done) {
        fetched.count++;
        prepare(result.value);
      }
      return result;
    });
    next.catch(() => {}); // a failure is awaited (and thrown) when the page is reached
    return next;
  };
  return {
    async next() {
      const current = await (ahead ?? fetch());
      ahead = current.done ? null : fetch();
      return current;
    },
    async return() {
      ahead = null;
      return (await pages.return?.()) ?? { done: true, value: undefined };
    },
  };
}

export type SyncRunRow = {
  id: string;
  source: string;
  query: Json;
  status: 'running' | 'succeeded' | 'failed' | 'interrupted';
  trigger: string;
  asOf: Date;
  startedAt: Date;
  heartbeatAt: Date;
  finishedAt: Date | null;
  cursor: Json | null;
  pages: number;
  fetched: number;
  inserted: number;
  updated: number;
  unchanged: number;
  skipped: number;
  skips: Record<string, number>;
  errors: { page: string; position: number | null; reason: string }[];
  waits: number;
  waitedMs: number;
  error: string | null;
};

export type SyncOptions = {
  trigger?: string;
  asOf?: Date;
  signal?: AbortSignal;
  /** How long a run's heartbeat stays good (default SYNC_LEASE_MS or 60 s): an older one was left by a crash. */
  leaseMs?: number;
  onWait?(wait: Wait): void;
  /** Each page as stored, called inside the page's transaction just before its commit (a progress line; must not throw). */
  onPage?(run: SyncRunRow): void;
  /** The connector's progress (see `SourceIO.progress`), for a bar; must not throw. */
  onProgress?(done: number, total: number | null): void;
  /** Retries and backoff of the HTTP loop (tests make them short). */
  http?: { retries?: number; baseDelayMs?: number; maxDelayMs?: number; maxWaitMs?: number; timeoutMs?: number };
};

const MAX_ERRORS = 50;
const COLUMNS = `"id", "source", "query", "status", "trigger", "asOf", "startedAt", "heartbeatAt", "finishedAt", "cursor", "pages",
  "fetched", "inserted", "updated", "unchanged", "skipped", "skips", "errors", "waits", "waitedMs", "error"`;

const stableJson = (value: unknown): string =>
  Array.isArray(value)
    ? `[${value.map(stableJson).join(',')}]`
    : value && typeof value === 'object'
      ? `{${Object.keys(value).sort().filter((k) => (value as Record<string, unknown>)[k] !== undefined).map((k) => `${JSON.stringify(k)}:${stableJson((value as Record<string, unknown>)[k])}`).join(',')}}`
      : JSON.stringify(value);

export const queryKey = (query: unknown) => createHash('sha256').update(stableJson(query)).digest('hex').slice(0, 32);

export function defaultLeaseMs(): number {
  return envNumber('SYNC_LEASE_MS', 60_000, { min: 1000, unit: 'milliseconds' });
}

/** How long a stopped run may be resumed: past this its `asOf` no longer stands for the data it would fetch. */
const RESUME_WITHIN = `interval '1 day'`;

/** The stored run stands for the same UTC day as the moment in parameter `param`. */
const SAME_DAY = (param: string) => `("asOf" AT TIME ZONE 'UTC')::date = (${param}::timestamptz AT TIME ZONE 'UTC')::date`;

/** A process whose run another one took over (after its lease): it stops without writing. */
class TakenOver extends Error {}

/** A page whose records could not be written (the database refused the batch). */
class PageFailed extends Error {}

/** Claims a run: a new one, or the run of the same query a crash left behind (resumed from its cursor). */
async function claim(
  pool: pg.Pool, source: string, query: unknown, owner: string, options: Required<Pick<SyncOptions, 'trigger' | 'leaseMs'>> & { asOf: Date },
): Promise<SyncRunRow> {
  const key = queryKey(query);
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const { rows: [current] } = await client.query<SyncRunRow & { queryKey: string; fresh: boolean; recent: boolean }>(
      `SELECT ${COLUMNS}, "queryKey", "heartbeatAt" > now() - make_interval(secs => $2::float8 / 1000) AS fresh,
              "startedAt" > now() - ${RESUME_WITHIN} AND ${SAME_DAY('$3')} AS recent
       FROM "sync_runs" WHERE "source" = $1 AND "status" = 'running' FOR UPDATE`,
      [source, options.leaseMs, options.asOf],
    );
    let run: SyncRunRow | undefined;
    if (current?.fresh) {
      throw apiError('conflict', `A ${source} run is already running (run ${current.id}, started ${current.startedAt.toISOString()}); one run per source runs at a time.`, {
        details: { runId: current.id },
      });
    }
    if (current && current.queryKey === key && current.recent) {
      ({ rows: [run] } = await client.query<SyncRunRow>(
        `UPDATE "sync_runs" SET "heartbeatAt" = now(), "trigger" = $2, "owner" = $3 WHERE "id" = $1 RETURNING ${COLUMNS}`,
        [current.id, options.trigger, owner],
      ));
    } else if (!current && (run = await resumable(client, source, key, options.trigger, options.asOf, owner))) {
      // A run of the same query stopped (a signal, a source that gave up) with pages still to fetch: go on from there.
    } else {
      if (current) {
        const why = current.queryKey === key ? 'left by a stopped process on an earlier day' : 'left by a stopped process; a run of another query started';
        await client.query(`UPDATE "sync_runs" SET "status" = 'interrupted', "finishedAt" = now(), "error" = $2 WHERE "id" = $1`, [current.id, why]);
      }
      ({ rows: [run] } = await client.query<SyncRunRow>(
        `INSERT INTO "sync_runs" ("id", "source", "query", "queryKey", "trigger", "asOf", "owner") VALUES (gen_random_uuid(), $1, $2, $3, $4, $5, $6) RETURNING ${COLUMNS}`,
        [source, JSON.stringify(query), key, options.trigger, options.asOf, owner],
      ));
    }
    await client.query('COMMIT');
    return run!;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    // Two runners inserting at once: the partial unique index lets one through.
    if ((error as { code?: string }).code === '23505') throw apiError('conflict', `A ${source} run is already running; one run per source runs at a time.`);
    throw error;
  } finally {
    client.release();
  }
}

/**
 * The latest run of this query, when it stopped with pages left within the last day, for the same UTC day as the run
 * asked for (a run resumed the next day would date that day's pages a day early), and nothing finished it since.
 */
async function resumable(client: pg.PoolClient, source: string, key: string, trigger: string, asOf: Date, owner: string): Promise<SyncRunRow | undefined> {
  const { rows: [run] } = await client.query<SyncRunRow>(
    `UPDATE "sync_runs" SET "status" = 'running', "heartbeatAt" = now(), "finishedAt" = NULL, "error" = NULL, "trigger" = $3, "owner" = $5
     WHERE "id" = (SELECT "id" FROM "sync_runs" WHERE "source" = $1 AND "queryKey" = $2 ORDER BY "startedAt" DESC LIMIT 1)
       AND "status" IN ('interrupted', 'failed') AND "cursor" IS NOT NULL AND "startedAt" > now() - ${RESUME_WITHIN} AND ${SAME_DAY('$4')}
     RETURNING ${COLUMNS}`,
    [source, key, trigger, asOf, owner],
  );
  return run;
}

/** Adds one page's figures to the run, with the cursor of the page after it (inside the page's transaction). */
async function recordPage(client: pg.PoolClient, runId: string, owner: string, result: BatchResult, page: Page, skips: Map<string, number>): Promise<SyncRunRow> {
  const unchanged = Math.max(0, result.read - result.inserted - result.updated - result.skipped) + (page.unchanged ?? 0);
  for (const error of result.errors) {
    const reason = error.position === null ? error.reason : error.reason.replace(/"[^"]*"|\d+/g, '…');
    skips.set(reason, (skips.get(reason) ?? 0) + 1);
  }
  const errors = result.errors.map((error) => ({ page: result.origin, position: error.position, reason: error.reason }));
  const { rows: [run] } = await client.query<SyncRunRow>(
    `UPDATE "sync_runs" SET "cursor" = $2, "pages" = "pages" + 1, "fetched" = "fetched" + $3, "inserted" = "inserted" + $4,
       "updated" = "updated" + $5, "unchanged" = "unchanged" + $6, "skipped" = "skipped" + $7,
       "skips" = $8, "errors" = CASE WHEN jsonb_array_length("errors") >= $9 THEN "errors"
                                     ELSE "errors" || (SELECT coalesce(jsonb_agg(e), '[]') FROM (SELECT e FROM jsonb_array_elements($10::jsonb) e LIMIT $9 - jsonb_array_length("errors")) x) END,
       "heartbeatAt" = now()
     WHERE "id" = $1 AND "owner" = $11 AND "status" = 'running' RETURNING ${COLUMNS}`,
    [runId, JSON.stringify(page.next), result.read, result.inserted, result.updated, unchanged, result.skipped, JSON.stringify(Object.fromEntries(skips)), MAX_ERRORS, JSON.stringify(errors), owner],
  );
  // Thrown inside the page's transaction: the page is rolled back with it.
  if (!run) throw new TakenOver('the run was taken over by another process (its heartbeat was older than the lease)');
  return run;
}

/** Ends a run; `keepCursor` false leaves nothing to resume (it succeeded, or resuming would repeat a refused request). */
async function finish(
  pool: pg.Pool, runId: string, owner: string, status: SyncRunRow['status'], error: string | null, skips: Map<string, number>, waits: { count: number; ms: number },
  keepCursor: boolean,
): Promise<SyncRunRow | undefined> {
  const { rows: [run] } = await pool.query<SyncRunRow>(
    `UPDATE "sync_runs" SET "status" = $2, "error" = $3, "finishedAt" = now(), "heartbeatAt" = now(), "skips" = $4,
       "waits" = "waits" + $5, "waitedMs" = "waitedMs" + $6, "cursor" = CASE WHEN $7 THEN "cursor" END
     WHERE "id" = $1 AND "owner" = $8 AND "status" = 'running' RETURNING ${COLUMNS}`,
    [runId, status, error, JSON.stringify(Object.fromEntries(skips)), waits.count, Math.round(waits.ms), keepCursor, owner],
  );
  return run;
}

/**
 * Deletes the finished runs of `source` started more than `keepDays` days ago (0: none), at the start of each of its
 * runs: one statement on the (source, startedAt) index. Never a running run, nor the latest succeeded run (the one
 * with the latest `asOf`, and the one that finished last: the freshness reads both), so a source whose runs have
 * failed for longer still shows when it last succeeded. A run that can still be resumed started within the day.
 */
export async function pruneRuns(pool: pg.Pool, source: string, keepDays: number): Promise<number> {
  if (keepDays <= 0) return 0;
  const { rowCount } = await pool.query(
    `DELETE FROM "sync_runs" r
     WHERE r."source" = $1 AND r."startedAt" < now() - make_interval(days => $2) AND r."status" <> 'running'
       AND NOT (r."status" = 'succeeded' AND (
             r."asOf" >= (SELECT max(s."asOf") FROM "sync_runs" s WHERE s."source" = $1 AND s."status" = 'succeeded')
          OR r."finishedAt" >= (SELECT max(s."finishedAt") FROM "sync_runs" s WHERE s."source" = $1 AND s."status" = 'succeeded')))`,
    [source, keepDays],
  );
  return rowCount ?? 0;
}

/** Runs `connector` for `rawQuery` to the end (or to a stop); returns the run as stored. */
export async function runSync<Q>(pool: pg.Pool, connector: Connector<Q>, rawQuery: unknown, options: SyncOptions = {}): Promise<SyncRunRow> {
  const query = connector.parse(rawQuery);
  const trigger = options.trigger ?? 'cli';
  const asOf = options.asOf ?? new Date();
  let keepDays: number;
  let leaseMs: number;
  try {
    connector.ready();
    keepDays = sourceConfig().runsKeepDays;
    leaseMs = options.leaseMs ?? defaultLeaseMs();
  } catch (error) {
    // A credential missing or a setting malformed: the run cannot start. A scheduled one leaves a failed run, so that
    // `sync status` and the freshness show why nothing came in.
    const message = error instanceof Error ? error.message : String(error);
    if (trigger.startsWith('schedule:')) {
      await pool.query(
        `INSERT INTO "sync_runs" ("id", "source", "query", "queryKey", "trigger", "asOf", "status", "finishedAt", "error")
         VALUES (gen_random_uuid(), $1, $2, $3, $4, $5, 'failed', now(), $6)`,
        [connector.name, JSON.stringify(query), queryKey(query), trigger, asOf, message],
      );
    }
    throw apiError('validation_error', message);
  }
  await pruneRuns(pool, connector.name, keepDays);
  const owner = randomUUID();
  const claimed = await claim(pool, connector.name, query, owner, { trigger, leaseMs, asOf });
  const skips = new Map<string, number>(Object.entries(claimed.skips ?? {}));
  const waits = { count: 0, ms: 0 };
  const controller = new AbortController();
  const stop = () => controller.abort(options.signal?.reason ?? new Error('stopped'));
  options.signal?.addEventListener('abort', stop, { once: true });
  if (options.signal?.aborted) stop(); // aborted before the claim: no 'abort' event is coming
  const heartbeat = setInterval(() => {
    void pool
      .query(`UPDATE "sync_runs" SET "heartbeatAt" = now() WHERE "id" = $1 AND "owner" = $2 AND "status" = 'running'`, [claimed.id, owner])
      .then((result) => result.rowCount === 0 && controller.abort(new TakenOver('the run was taken over by another process')))
      .catch(() => {});
  }, Math.max(500, Math.floor(leaseMs / 3)));
  heartbeat.unref();

  const http = new SourceHttp({
    ...connector.http,
    ...options.http,
    secrets: () => connector.secrets(),
    signal: controller.signal,
    onWait: (wait) => {
      waits.count++;
      waits.ms += wait.ms;
      options.onWait?.(wait);
    },
  });
  // Pages the connector has produced so far, and its progress reports with the number of pages produced before each.
  const fetched = { count: 0 };
  const progress: { after: number; done: number; total: number | null }[] = [];
  const io: SourceIO = {
    http,
    pool,
    asOf: claimed.asOf,
    signal: controller.signal,
    skip: (reason) => skips.set(reason, (skips.get(reason) ?? 0) + 1),
    // Reported as the connector goes, which is a page ahead of the pages stored (see readAhead): held until the page
    // before it is stored, so that a bar never runs ahead of the data.
    progress: (done, total) => progress.push({ after: fetched.count, done, total }),
  };
  try {
    let page: Page | undefined;
    const growth = { inserted: 0, analyzeAt: null };
    // Each page's records are read as soon as it arrives, while the page before is written.
    const context = importContext(claimed.asOf);
    const pages = readAhead(connector.pages(query, claimed.cursor, io), fetched, (page) => {
      page.batch.read = readBatch(page.format, page.batch, context);
    });
    let storedPages = 0;
    const report = () => {
      while (progress.length && progress[0].after <= storedPages) {
        const { done, total } = progress.shift()!;
        options.onProgress?.(done, total);
      }
    };
    for (;;) {
      const next = await pages.next();
      if (next.done) break;
      // A page fetched ahead is not written once the run is told to stop.
      if (controller.signal.aborted) throw controller.signal.reason;
      page = next.value;
      report();
      const current = page;
      async function* one() {
        yield current.batch;
      }
      // A page the database refused (a deadlock, a connection lost) is tried once more; then the run fails with its
      // cursor still on that page, so nothing fetched is lost.
      let stored: SyncRunRow | undefined;
      for (let attempt = 1; !stored; attempt++) {
        try {
          await importBatches(pool, current.format, one(), {
            growth,
            asOf: claimed.asOf,
            onBatch: async (client, result) => {
              if (result.failed) throw new PageFailed(`${result.origin} could not be written: ${result.errors.at(-1)?.reason ?? 'unknown'}`);
              await current.keep?.(client);
              stored = await recordPage(client, claimed.id, owner, result, current, skips);
              options.onPage?.(stored);
            },
          });
        } catch (error) {
          if (!(error instanceof PageFailed) || attempt >= 2) throw error;
        }
      }
      storedPages++;
      report();
    }
    storedPages = Infinity;
    report();
    const done = await finish(pool, claimed.id, owner, 'succeeded', null, skips, waits, false);
    if (!done) throw new TakenOver('the run was taken over by another process');
    return done;
  } catch (error) {
    if (error instanceof TakenOver || controller.signal.reason instanceof TakenOver) {
      throw apiError('conflict', `This ${connector.name} run (${claimed.id}) was taken over by another process after its heartbeat lapsed; it stopped without writing more.`);
    }
    const stopped = controller.signal.aborted;
    const message = error instanceof Error ? http.redact(error.message) : http.redact(String(error));
    // A request the source refused as wrong (an expired search id, say) would be refused again from the same cursor.
    const refused = !stopped && error instanceof SourceError && error.kind === 'request';
    const run = await finish(pool, claimed.id, owner, stopped ? 'interrupted' : 'failed', stopped ? `stopped: ${message}` : message, skips, waits, !refused);
    if (!run) throw apiError('conflict', `This ${connector.name} run (${claimed.id}) was taken over by another process; it stopped without writing more.`);
    if (stopped || error instanceof SourceError || error instanceof PageFailed) return run;
    // Anything else is a fault of this server: reported with any secret cut out.
    throw error instanceof Error ? Object.assign(new Error(message), { stack: http.redact(error.stack ?? message) }) : new Error(message);
  } finally {
    clearInterval(heartbeat);
    options.signal?.removeEventListener('abort', stop);
    // A page fetched ahead of a run that ended on an error is not waited for (it may be waiting out a throttle).
    if (!controller.signal.aborted) controller.abort(new Error('the run has ended'));
  }
}

/** The latest runs, newest first (per source when `source` is given). */
export async function listRuns(pool: pg.Pool, options: { source?: string; limit?: number } = {}): Promise<SyncRunRow[]> {
  const { rows } = await pool.query<SyncRunRow>(
    `SELECT ${COLUMNS} FROM "sync_runs" WHERE $1::text IS NULL OR "source" = $1 ORDER BY "startedAt" DESC, "id" LIMIT $2`,
    [options.source ?? null, options.limit ?? 20],
  );
  return rows;
}
