import { createRedisEventTarget } from '@graphql-yoga/redis-event-target';
import { createPubSub, type PubSub } from 'graphql-yoga';
import { Redis } from 'ioredis';
import type pg from 'pg';
import { publicEvent, type PublicEvent } from '../data/events.js';
import { concernsOf, eventsAfter, passes, type Concern, type EventFilter, type SequencedEvent } from '../schema/events/service.js';
import type { EventConsumer } from './dispatch.js';

// Live subscriptions (GraphQL `subscription { events }` and GET /v1/events/stream): the dispatched events, pushed to
// the streams open on this instance as soon as their batch commits.
//
// - The consumer (`liveConsumer`, run by the dispatcher) asks once per dispatched batch which workspaces each event
//   concerns (`workspace_interests`), and after the commit publishes the batch: its range in the dispatch order
//   (`from`..`to`, every seq of it) and the events that concern some workspace, with whom they concern.
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
  /** Joins for one workspace's batches: resolved once published batches reach it. */
  join(workspaceId: string): Promise<Membership>;
  publish(batch: LiveBatch): void;
  close(): Promise<void>;
};

const CHANNEL = 'market-events';
/** Batched events a stream may leave unread before its queue is dropped for one read of the database. */
const MAX_QUEUED_EVENTS = 10_000;

type Topics = Record<string, [LiveBatch]>;

export type LiveHubOptions = { redisUrl?: string; channel?: string; onError?: (error: Error) => void };

export function createLiveHub(options: LiveHubOptions = {}): LiveHub {
  const channel = options.channel ?? CHANNEL;
  const report = (error: Error) => options.onError?.(error);
  let redis: { publish: Redis; subscribe: Redis } | null = null;
  let pubsub: PubSub<Topics>;
  if (options.redisUrl) {
    const connect = () => {
      const client = new Redis(options.redisUrl!, { maxRetriesPerRequest: 1 });
      client.on('error', report);
      return client;
    };
    redis = { publish: connect(), subscribe: connect() };
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

  const deliver = (batch: LiveBatch) => {
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
  const start = () =>
    (started ??= (async () => {
      const batches = pubsub.subscribe(channel);
      stop = () => void batches.return();
      void (async () => {
        for await (const batch of batches) deliver(batch as LiveBatch);
      })();
      // The Redis event target subscribes without waiting for Redis to confirm: a batch published before the
      // confirmation would pass this instance by. Confirmed here (the same SUBSCRIBE again) before any stream reads.
      if (redis) await redis.subscribe.subscribe(channel);
    })().catch((error: unknown) => {
      started = null;
      stop?.();
      throw error;
    }));
  return {
    shared: redis !== null,
    listening: () => listeners > 0,
    async join(workspaceId) {
      await start();
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
      listeners++;
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
          set.delete(listener);
          if (!set.size) members.delete(workspaceId);
          listeners--;
          wake?.();
        },
      };
    },
    publish(batch) {
      pubsub.publish(channel, batch);
    },
    async close() {
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

/** This process's hub: through Redis when REDIS_URL is set, in process otherwise. */
export function liveHub(): LiveHub {
  return (processHub ??= createLiveHub({ redisUrl: process.env.REDIS_URL || undefined }));
}

/** Replaces this process's hub (tests of several instances); the one before is returned, not closed. */
export function setLiveHub(hub: LiveHub): LiveHub | null {
  const before = processHub;
  processHub = hub;
  return before;
}

/**
 * The dispatcher's consumer of the live streams. In process with no stream listening it publishes the batch's range
 * alone (nobody could use more); otherwise it asks whom each event concerns, in the dispatch transaction, once for the
 * batch, and publishes after the commit.
 */
export function liveConsumer(hub: () => LiveHub = liveHub): EventConsumer {
  return {
    name: 'live',
    async consume(client, rows) {
      const live = hub();
      const from = rows[0].seq!;
      const to = rows[rows.length - 1].seq!;
      const concerns = live.shared || live.listening() ? await concernsOf(client, rows) : new Map<string, Concern[]>();
      const events = rows.flatMap((row) => {
        const concern = concerns.get(row.seq!);
        return concern ? [{ seq: row.seq!, event: publicEvent(row), concerns: concern }] : [];
      });
      return () => live.publish({ from, to, events });
    },
  };
}

/** Events a stream reads from the database at a time (its replay and catch-up), and charges together. */
const READ_CHUNK = 100;

export type LiveStreamOptions = {
  db: Pick<pg.Pool, 'query'>;
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

export type { PublicEvent };
