import type { Queryable } from './bulk.js';
import { envNumber } from '../config.js';

// The outbox of market changes (issue #36). Every writer of market data (a sync's page, a file import, the demo
// market) records the events its change causes with `recordEvents`, on the client of the transaction that writes the
// change: the event commits with the change or not at all, so a crash can neither lose nor invent one. The dispatcher
// (src/events/) hands them out afterwards, in commit order, to the feed, saved searches, webhooks and live
// subscriptions; nothing here knows about those readers.

/** Every event type, with what its `data` holds: the documentation of the feed, webhooks and subscriptions. */
export const EVENT_TYPES = {
  'ad.created': 'A new ad (Meta, TikTok or Google): `after` has its platform, title, status, reach and first day.',
  'ad.stopped': 'An ad stopped running: `before.status` active, `after.status` inactive with its last day.',
  'ad.reach_jumped': 'An ad gained at least `EVENTS_REACH_JUMP` reach in a day (and at least half its reach of the day before): `before.reach`, `after.reach`, `after.gain`.',
  'ad.landing_page_changed': 'An ad points to another landing page: `before.landingPageDomain`, `after.landingPageDomain`.',
  'ad.copy_changed': 'An ad\'s copy changed: `before` and `after` hold its title and body.',
  'advertiser.burst': 'An advertiser started at least `EVENTS_BURST_ADS` ads on one day: `after.day`, `after.newAds`.',
  'product.created': 'A new product in a shop: `after` has its title, price, currency and availability.',
  'product.price_changed': 'A product\'s price changed: `before.price`, `after.price` (in its currency).',
  'product.out_of_stock': 'No variant of a product is available any more: `before.available` true, `after.available` false.',
  'product.back_in_stock': 'A product that had no available variant has one again.',
  'brandtracker.rank_changed': 'An ad of a tracked page moved into or out of the page\'s top `EVENTS_TOP_RANK` by current rank (active ads by 7-day reach gain), or into or out of the first place (a stop is `ad.stopped`): `brandtrackerId`, `top`, `before.rank` (null: new or inactive before), `after.rank` and `after.day`.',
  'shop.app_installed': 'A shop uses a Shopify app it did not: `after.app` (id and name).',
  'shop.app_removed': 'A shop no longer uses a Shopify app: `before.app` (id and name).',
  'search.matched': 'A row newly entered a saved search of the workspace: `after` has the row id and the search\'s method, path and name.',
  'search.left': 'A row left a saved search that asks for it (`notifyLeft`): `before` has the row id and the search\'s method, path and name.',
  'webhook.disabled': 'A webhook of the workspace was disabled after failing for too long: `after.reason`.',
} as const;

export type EventType = keyof typeof EVENT_TYPES;
export const EVENT_TYPE_NAMES = Object.keys(EVENT_TYPES) as EventType[];

/** Where a change came from. */
export type EventSource = 'meta-ads' | 'tiktok-ads' | 'shopify' | 'google-ads' | 'demo' | 'events';

/**
 * What an event is about, each a column of `market_events` with its SQL type: the ids the feed filters on and whom an
 * event concerns is found by (`workspaceId` set: the workspace's own event, it concerns that workspace alone).
 */
const SUBJECT_TYPES = {
  workspaceId: 'uuid', advertiserId: 'text', adId: 'text', shopId: 'uuid', productId: 'text', savedSearchId: 'uuid', webhookId: 'uuid',
} as const;
type SubjectField = keyof typeof SUBJECT_TYPES;
const SUBJECT_FIELDS = Object.keys(SUBJECT_TYPES) as SubjectField[];
export type EventSubjects = { [K in SubjectField]: string | null };

export type NewEvent = Partial<EventSubjects> & {
  type: EventType;
  /**
   * Identifies the change: the same key found again (a re-run of the day, a page retried) records nothing more. Built
   * from the type, the subject and what makes the change unique (the day, the new value).
   */
  dedupeKey: string;
  data: { before?: Record<string, unknown> | null; after?: Record<string, unknown> | null; [key: string]: unknown };
};

/** Thresholds of the derived events (environment, read once). */
export const EVENT_THRESHOLDS = {
  /** `ad.reach_jumped`: the smallest day's gain (EVENTS_REACH_JUMP, default 10,000). */
  reachJump: envNumber('EVENTS_REACH_JUMP', 10_000, { min: 1 }),
  /** `advertiser.burst`: the fewest ads started on one day (EVENTS_BURST_ADS, default 10). */
  burstAds: envNumber('EVENTS_BURST_ADS', 10, { min: 1 }),
  /** `brandtracker.rank_changed`: the size of a page's top (EVENTS_TOP_RANK, default 10). */
  topRank: envNumber('EVENTS_TOP_RANK', 10, { min: 1 }),
};

/** Listeners told after a transaction that recorded events commits (the in-process dispatcher wakes at once). */
const committedListeners = new Set<() => void>();

export function onEventsCommitted(listener: () => void): () => void {
  committedListeners.add(listener);
  return () => committedListeners.delete(listener);
}

/** Called by a writer once its transaction has committed, when it recorded events. */
export function eventsCommitted(): void {
  for (const listener of committedListeners) listener();
}

/**
 * Records `events` in the caller's transaction; an event whose dedupe key is already recorded is left out. Returns the
 * number recorded. `at` is when the change was seen in the market (an import's `asOf`: a sync's run, a file's date, the
 * demo market's day); the server's own events (saved searches, webhooks) happen now.
 */
export async function recordEvents(client: Queryable, source: EventSource, events: NewEvent[], at?: Date): Promise<number> {
  if (!events.length) return 0;
  const columns = ['type', 'dedupeKey', ...SUBJECT_FIELDS, 'data'];
  const types = ['text', 'text', ...SUBJECT_FIELDS.map((field) => SUBJECT_TYPES[field]), 'jsonb'];
  const values = [
    events.map((e) => e.type),
    events.map((e) => e.dedupeKey),
    ...SUBJECT_FIELDS.map((field) => events.map((e) => e[field] ?? null)),
    events.map((e) => JSON.stringify(e.data, (_key, value) => (typeof value === 'bigint' ? Number(value) : value))),
  ];
  const { rowCount } = await client.query(
    `INSERT INTO "market_events" ("source", "occurredAt", ${columns.map((name) => `"${name}"`).join(', ')})
     SELECT $1, coalesce($2::timestamptz, now()), * FROM unnest(${types.map((type, i) => `$${i + 3}::${type}[]`).join(', ')})
     ON CONFLICT ("dedupeKey") DO NOTHING`,
    [source, at?.toISOString() ?? null, ...values],
  );
  return rowCount ?? 0;
}

/** An event as stored, as the dispatcher and the readers get it. */
export type EventRow = EventSubjects & {
  id: string;
  seq: string | null;
  type: EventType;
  source: EventSource;
  occurredAt: Date;
  data: Record<string, unknown>;
};

/** The columns of `EventRow`, for a SELECT (bigints as text). */
export const EVENT_ROW_COLUMNS = `e."id"::text AS "id", e."seq"::text AS "seq", e."type", e."source", e."occurredAt", ${SUBJECT_FIELDS.map((field) => `e."${field}"`).join(', ')}, e."data"`;

/** The public id of an event (the feed's `id`, the webhook's `webhook-id`). */
export const eventIdOf = (row: Pick<EventRow, 'id'>) => `evt_${row.id}`;

/**
 * An event as the feed, webhooks and live subscriptions show it: the same JSON everywhere (a webhook's payload is
 * `{ type, timestamp, data: <this> }`, as Standard Webhooks suggests).
 */
export type PublicEvent = Omit<EventSubjects, 'workspaceId'> & {
  id: string;
  type: EventType;
  occurredAt: string;
  source: EventSource;
  data: Record<string, unknown>;
};

export function publicEvent(row: EventRow): PublicEvent {
  return {
    id: eventIdOf(row),
    type: row.type,
    occurredAt: row.occurredAt.toISOString(),
    source: row.source,
    advertiserId: row.advertiserId,
    adId: row.adId,
    shopId: row.shopId,
    productId: row.productId,
    savedSearchId: row.savedSearchId,
    webhookId: row.webhookId,
    data: row.data,
  };
}
