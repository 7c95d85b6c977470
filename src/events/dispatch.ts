import type pg from 'pg';
import { EVENT_ROW_COLUMNS, onEventsCommitted, type EventRow } from '../data/events.js';

// The dispatcher: hands out the events the writers of market data recorded (src/data/events.ts), in the order their
// transactions committed. An event is written with `seq` null; the dispatcher, one at a time across every instance
// (an advisory lock), gives the oldest undispatched events the next sequence numbers and passes them to each
// consumer (webhook deliveries, saved searches, live subscriptions) inside the same transaction: an event is handed
// out once, with everything its consumers derive from it, or not at all. An event written by a transaction that
// commits later than one with a higher id gets the higher sequence number: readers that page by `seq` (the feed,
// the deliveries) never skip one that committed late.

/** A reader of the events: called in the dispatch transaction; what it returns runs once that transaction committed. */
export type EventConsumer = {
  name: string;
  consume(client: pg.PoolClient, events: EventRow[]): Promise<(() => void | Promise<void>) | void>;
};

const DISPATCH_LOCK = 727276;

/** Dispatches up to `limit` events; returns how many (0 when another instance holds the dispatcher's lock). */
export async function dispatchOnce(pool: pg.Pool, consumers: EventConsumer[], limit = 1000): Promise<number> {
  const client = await pool.connect();
  const after: (() => void | Promise<void>)[] = [];
  let broken = false;
  let count = 0;
  try {
    await client.query('BEGIN');
    const { rows: locked } = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_xact_lock($1) AS ok', [DISPATCH_LOCK]);
    if (!locked[0].ok) {
      await client.query('ROLLBACK');
      return 0;
    }
    const { rows } = await client.query<EventRow>(
      `WITH next AS (SELECT "id" FROM "market_events" WHERE "seq" IS NULL ORDER BY "id" LIMIT $1),
       base AS (SELECT coalesce(max("seq"), 0) AS n FROM "market_events"),
       numbered AS (SELECT next."id", base.n + row_number() OVER (ORDER BY next."id") AS seq FROM next, base)
       UPDATE "market_events" e SET "seq" = numbered.seq FROM numbered WHERE e."id" = numbered."id"
       RETURNING ${EVENT_ROW_COLUMNS}`,
      [limit],
    );
    rows.sort((a, b) => (BigInt(a.seq!) < BigInt(b.seq!) ? -1 : 1));
    count = rows.length;
    if (count) {
      for (const consumer of consumers) {
        const then = await consumer.consume(client, rows);
        if (then) after.push(then);
      }
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => (broken = true));
    throw error;
  } finally {
    client.release(broken);
  }
  for (const then of after) await then();
  return count;
}

export type DispatcherLogger = { warn(object: object, message: string): void };

export type Dispatcher = {
  /** Dispatches everything waiting now (tests, and a writer that wants its events out before it answers). */
  drain(): Promise<number>;
  stop(): Promise<void>;
};

/**
 * Runs the dispatcher: at once when a transaction of this process recorded events, and every `intervalMs` for
 * events written by other processes (one indexed look at the undispatched events).
 */
export function startDispatcher(pool: pg.Pool, consumers: EventConsumer[], options: { intervalMs?: number; logger: DispatcherLogger }): Dispatcher {
  const intervalMs = options.intervalMs ?? 250;
  let stopped = false;
  let running: Promise<number> | null = null;
  let again = false;
  let timer: NodeJS.Timeout | null = null;

  const drain = async (): Promise<number> => {
    let total = 0;
    for (;;) {
      const n = await dispatchOnce(pool, consumers);
      total += n;
      if (n < 1000) return total;
    }
  };
  const run = (): Promise<number> => {
    if (running) {
      again = true;
      return running;
    }
    running = drain()
      .catch((error: unknown) => {
        options.logger.warn({ err: error }, 'event dispatch failed; retried on the next tick');
        return 0;
      })
      .finally(() => {
        running = null;
        if (again && !stopped) {
          again = false;
          void run();
        }
      });
    return running;
  };
  const tick = () => {
    if (stopped) return;
    void run().finally(() => {
      if (!stopped) timer = setTimeout(tick, intervalMs);
    });
  };
  const unsubscribe = onEventsCommitted(() => {
    if (!stopped) void run();
  });
  timer = setTimeout(tick, 0);
  return {
    async drain() {
      await running;
      return run();
    },
    async stop() {
      stopped = true;
      unsubscribe();
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
