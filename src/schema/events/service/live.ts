import { createRedisEventTarget } from '@graphql-yoga/redis-event-target';
import { createPubSub, type PubSub } from 'graphql-yoga';
import { Redis } from 'ioredis';
import type pg from 'pg';
import { dispatchedThrough, eventsAfter, passes, type Concern, type EventFilter, type SequencedEvent } from './feed.js';
import { envNumber } from '../../../config.js';

// Live subscriptions (GraphQL `subscription { events }` and GET /v1/events/stream): the dispatched events, pushed to
// the streams open on this instance as soon as their batch commits.
//
// - The consumer (`liveConsumer` in src/events/live.ts, run by the dispatcher) asks once per dispatched batch which
//   workspaces each event concerns (`workspace_interests`), and after the commit publishes the batch: its range in the
//   dispatch order (`from`..`to`, every seq of it) and the events that concern some workspace, with whom they concern.
// - The hub (one per process) carries the batches: in process by default, through Redis when REDIS_URL is set, so
//   a stream on any instance gets the batches dispatched by any other (the dispatcher runs where workers run).
//   graphql-yoga's pub/sub with its Redis event target. Each batch reaches the hub once, and each stream gets its
//   workspace's part of it.
// - A stream (`openLiveStream`) never misses or repeats an event. It joins the hub before it reads anything, then
//   replays the stored events after its position (the feed's query, ascending) up to the watermark of that read,
//   and goes on with the batches after it, skipping what it has already covered. A batch that does not follow the
//   one before it (one lost by Redis pub/sub, two batches published out of order by two instances, a stream too slow
//   whose queue overflowed) makes it read the stored events again from where it stands: the database is the truth,
//   the pub/sub only says when to look and spares the read when nothing was missed.

/** One event of a published batch and the workspaces it concerns. */
export type LiveEvent = SequencedEvent & { concerns: Concern[] };

/** A dispatched batch as published: every seq from `from` to `to` was dispatched in it. */
export type LiveBatch = { from: string; to: string; events: LiveEvent[] };

/** What a stream of one workspace gets of a batch: the range, and its events with its concern. */
export type WorkspaceBatch = { from: string; to: string; events: (SequencedEvent & { concern: Concern })[] };

const CLOSED = Symbol('closed');
const RESYNC = Symbol('resync');

/** A stream's membership of the hub: the batches since it joined, in order, until it leaves. */
export type Membership = {
  /** The next batch; RESYNC when batches were dropped (the queue overflowed); CLOSED once it left. */
  next(): Promise<WorkspaceBatch | typeof RESYNC | typeof CLOSED>;
  leave(): void;
};

export type LiveHub = {
  /** Whether batches cross instances (Redis). */
  readonly shared: boolean;
  /** Whether a stream listens on this instance. */
  listening(): boolean;
  /** Joins for one workspace's batches: resolved once published batches reach it. `db` is where it checks them. */
  join(workspaceId: string, db: Db): Promise<Membership>;
  publish(batch: LiveBatch): void;
  close(): Promise<void>;
};

const CHANNEL = 'market-events';
/** Batched events a stream may leave unread before its queue is dropped for one read of the database. */
const MAX_QUEUED_EVENTS = 10_000;

type Topics = Record<string, [LiveBatch]>;

type Db = Pick<pg.Pool, 'query'>;

export type LiveHubOptions = {
  redisUrl?: string;
  channel?: string;
  /** How often, while streams listen, the hub checks that every dispatched batch reached it (default 2 s). */
  checkMs?: number;
  onError?: (error: Error) => void;
};

export function createLiveHub(options: LiveHubOptions = {}): LiveHub {
  const channel = options.channel ?? CHANNEL;
  let closing = false;
  const report = (error: Error) => {
    if (!closing) options.onError?.(error);
  };
  let redis: { publish: Redis; subscribe: Redis } | null = null;
  let pubsub: PubSub<Topics>;
  if (options.redisUrl) {
    // No ready check on the subscriber: a SUBSCRIBE sent while it connects puts it in subscriber mode, where the
    // check's INFO is refused.
    const connect = (subscriber: boolean) => {
      const client = new Redis(options.redisUrl!, { maxRetriesPerRequest: 1, enableReadyCheck: !subscriber });
      client.on('error', report);
      return client;
    };
    redis = { publish: connect(false), subscribe: connect(true) };
    const eventTarget = createRedisEventTarget({ publishClient: quiet(redis.publish, report), subscribeClient: quiet(redis.subscribe, report) });
    pubsub = createPubSub<Topics>({ eventTarget });
    // Batches published while the connection was down are lost to this instance: every stream reads the stored
    // events again once it is back.
    let connected = false;
    redis.subscribe.on('ready', () => {
      if (connected) resyncAll();
      connected = true;
    });
  } else {
    pubsub = createPubSub<Topics>();
  }
  type Listener = { batch(batch: WorkspaceBatch): void; resync(): void };
  const members = new Map<string, Set<Listener>>();
  function resyncAll() {
    for (const set of members.values()) for (const listener of set) listener.resync();
  }
  let listeners = 0;
  let started: Promise<void> | null = null;
  let stop: (() => void) | null = null;

  // The check of arrivals: a batch that never comes (published to nobody, as when the dispatcher runs in another
  // process without REDIS_URL, or lost by Redis with no batch after it to show the gap) would leave the streams
  // waiting. While streams listen, the hub reads the last dispatched seq every `checkMs`; when it stays ahead of the
  // batches received for a whole period (more than a publish in flight), every stream reads the stored events.
  let db: Db | null = null;
  /** The last seq known to have reached this hub (or been read, when it resynced). */
  let seen: bigint | null = null;
  /** A last dispatched seq past `seen`, found on the check before. */
  let ahead: bigint | null = null;
  let checking = false;
  let timer: NodeJS.Timeout | null = null;
  const check = async () => {
    if (checking || !db || !listeners) return;
    checking = true;
    try {
      const last = BigInt(await dispatchedThrough(db));
      if (seen === null || last <= seen) {
        if (seen === null) seen = last;
        ahead = null;
      } else if (ahead !== null && seen < ahead) {
        seen = last;
        ahead = null;
        resyncAll();
      } else ahead = last;
    } catch (error) {
      report(error as Error);
    } finally {
      checking = false;
    }
  };
  const checkMs = options.checkMs ?? 2_000;

  const deliver = (batch: LiveBatch) => {
    const to = BigInt(batch.to);
    if (seen === null || to > seen) seen = to;
    const byWorkspace = new Map<string, WorkspaceBatch['events']>();
    for (const { concerns, ...event } of batch.events) {
      for (const concern of concerns) {
        const list = byWorkspace.get(concern.workspaceId) ?? [];
        list.push({ ...event, concern });
        byWorkspace.set(concern.workspaceId, list);
      }
    }
    for (const [workspaceId, set] of members) {
      const part = { from: batch.from, to: batch.to, events: byWorkspace.get(workspaceId) ?? [] };
      for (const listener of set) listener.batch(part);
    }
  };

  /** One subscription of the process to the channel, for as long as the hub lives. */
  const start = (given: Db) =>
    (started ??= (async () => {
      db = given;
      const batches = pubsub.subscribe(channel);
      stop = () => void batches.return();
      void (async () => {
        for await (const batch of batches) deliver(batch as LiveBatch);
      })();
      // The Redis event target subscribes without waiting for Redis to confirm: a batch published before the
      // confirmation would pass this instance by. Confirmed here (the same SUBSCRIBE again) before any stream reads.
      if (redis) await redis.subscribe.subscribe(channel);
      // Every batch after this one must reach the hub (the check above).
      const last = BigInt(await dispatchedThrough(given));
      if (seen === null || last > seen) seen = last;
    })().catch((error: unknown) => {
      started = null;
      stop?.();
      throw error;
    }));
  return {
    shared: redis !== null,
    listening: () => listeners > 0,
    async join(workspaceId, given) {
      await start(given);
      const queue: (WorkspaceBatch | typeof RESYNC)[] = [];
      let queued = 0;
      let left = false;
      let wake: (() => void) | null = null;
      const listener: Listener = {
        batch(batch) {
          if (queued + batch.events.length > MAX_QUEUED_EVENTS) listener.resync();
          else {
            queue.push(batch);
            queued += batch.events.length;
            wake?.();
          }
        },
        // The stream reads the stored events again instead of holding more of them here.
        resync() {
          queue.length = 0;
          queued = 0;
          queue.push(RESYNC);
          wake?.();
        },
      };
      let set = members.get(workspaceId);
      if (!set) members.set(workspaceId, (set = new Set()));
      set.add(listener);
      if (listeners++ === 0) timer = setInterval(() => void check(), checkMs).unref();
      const own = set;
      return {
        async next() {
          for (;;) {
            if (left) return CLOSED;
            const item = queue.shift();
            if (item !== undefined) {
              if (item !== RESYNC) queued -= item.events.length;
              return item;
            }
            await new Promise<void>((resolve) => (wake = resolve));
            wake = null;
          }
        },
        leave() {
          if (left) return;
          left = true;
          own.delete(listener);
          if (!own.size && members.get(workspaceId) === own) members.delete(workspaceId);
          if (--listeners === 0 && timer) {
            clearInterval(timer);
            ahead = null;
          }
          wake?.();
        },
      };
    },
    publish(batch) {
      pubsub.publish(channel, batch);
    },
    async close() {
      closing = true;
      if (timer) clearInterval(timer);
      stop?.();
      if (redis) await Promise.all([redis.publish.quit(), redis.subscribe.quit()]).catch(() => undefined);
    },
  };
}

/**
 * A Redis client whose publish and (un)subscribe failures are reported rather than left as unhandled rejections (the
 * Redis event target does not wait for them): a lost batch is made up for by the streams' catch-up.
 */
function quiet(client: Redis, report: (error: Error) => void): Redis {
  return new Proxy(client, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      if (property === 'publish' || property === 'subscribe' || property === 'unsubscribe') {
        return (...args: unknown[]) => (value as (...a: unknown[]) => Promise<unknown>).apply(target, args).catch(report);
      }
      return (value as (...a: unknown[]) => unknown).bind(target);
    },
  });
}

let processHub: LiveHub | null = null;

let reportProcessHub: (error: Error) => void = () => undefined;

/**
 * Where this process's hub reports Redis and check failures (the server's logger), at most once per 30 s. Called when
 * the server is made, it checks EVENTS_LIVE_CHECK_MS then (a bad value stops the start, not a stream).
 */
export function reportLiveHubErrors(report: (error: Error) => void): void {
  liveCheckMs();
  let reportedAt = -Infinity;
  reportProcessHub = (error) => {
    if (performance.now() - reportedAt < 30_000) return;
    reportedAt = performance.now();
    report(error);
  };
}

/** This process's hub: through Redis when REDIS_URL is set, in process otherwise; checks every EVENTS_LIVE_CHECK_MS. */
export function liveHub(): LiveHub {
  return (processHub ??= createLiveHub({
    redisUrl: process.env.REDIS_URL || undefined,
    checkMs: liveCheckMs(),
    onError: (error) => reportProcessHub(error),
  }));
}

/** EVENTS_LIVE_CHECK_MS (default 2,000). */
function liveCheckMs(): number {
  return envNumber('EVENTS_LIVE_CHECK_MS', 2_000, { min: 10, unit: 'milliseconds' });
}

/**
 * Replaces this process's hub (tests of several instances), or forgets it (null: the next liveHub() makes one, on the
 * database of the stream that joins first); the one before is returned, not closed.
 */
export function setLiveHub(hub: LiveHub | null): LiveHub | null {
  const before = processHub;
  processHub = hub;
  return before;
}

/** Events a stream reads from the database at a time (its replay and catch-up), and charges together. */
const READ_CHUNK = 100;

export type LiveStreamOptions = {
  db: Db;
  workspaceId: string;
  filter: EventFilter;
  /** The membership, joined before `after` was read. */
  membership: Membership;
  /** The seq after which events are delivered: the client's position, or the watermark read after joining. */
  after: string;
  /** Called before events are delivered (the charge): throws to end the stream with its error. */
  beforeDelivery(count: number): Promise<void>;
};

/**
 * The events after `after` that concern the workspace and pass the filter, stored then live, in order, each once.
 * `return()` leaves the hub at once, even while the stream waits for the next batch.
 */
export function openLiveStream(options: LiveStreamOptions): AsyncIterableIterator<SequencedEvent> {
  const { db, workspaceId, filter, membership, beforeDelivery } = options;
  let through = BigInt(options.after);
  let closed = false;
  const buffer: SequencedEvent[] = [];

  const deliverable = async (events: SequencedEvent[]) => {
    if (closed || !events.length) return;
    await beforeDelivery(events.length);
    buffer.push(...events);
    through = BigInt(events[events.length - 1].seq);
  };

  /** The stored events after `through`, a chunk at a time, then `through` moved to the watermark of the last read. */
  const catchUp = async () => {
    const { events, watermark } = await eventsAfter(db, workspaceId, filter, through.toString(), READ_CHUNK);
    await deliverable(events);
    if (events.length < READ_CHUNK && BigInt(watermark) > through) through = BigInt(watermark);
    return events.length === READ_CHUNK;
  };

  let replaying = true;
  /** Fills the buffer with the next events; false once the stream is closed. */
  const fill = async (): Promise<boolean> => {
    while (!buffer.length) {
      if (closed) return false;
      if (replaying) {
        replaying = await catchUp();
        continue;
      }
      const batch = await membership.next();
      if (batch === CLOSED) return false;
      if (batch === RESYNC) {
        replaying = true;
        continue;
      }
      const from = BigInt(batch.from);
      const to = BigInt(batch.to);
      if (to <= through) continue;
      if (from > through + 1n) {
        // A batch between went missing (or comes late): the stored events from where the stream stands.
        replaying = true;
        continue;
      }
      await deliverable(batch.events.filter((e) => BigInt(e.seq) > through && passes(filter, e.event, e.concern)).map(({ seq, event }) => ({ seq, event })));
      if (to > through) through = to;
    }
    return true;
  };

  const close = () => {
    closed = true;
    membership.leave();
  };
  const iterator: AsyncIterableIterator<SequencedEvent> = {
    async next() {
      try {
        if (!(await fill())) return { done: true, value: undefined };
      } catch (error) {
        close();
        throw error;
      }
      return { done: false, value: buffer.shift()! };
    },
    async return() {
      close();
      return { done: true, value: undefined };
    },
    async throw(error: unknown) {
      close();
      throw error;
    },
    [Symbol.asyncIterator]() {
      return iterator;
    },
  };
  return iterator;
}

