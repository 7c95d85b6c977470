import type { Queryable } from './bulk.js';

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
  'brandtracker.rank_changed': 'An ad of a tracked page moved into or out of the page\'s top `EVENTS_TOP_RANK` by current rank (active ads by 7-day reach gain), or into or out of the first place: `brandtrackerId`, `top`, `before.rank`, `after.rank` (null: inactive) and `after.day`.',
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

export type NewEvent = {
  type: EventType;
  /**
   * Identifies the change: the same key found again (a re-run of the day, a page retried) records nothing more. Built
   * from the type, the subject and what makes the change unique (the day, the new value).
   */
  dedupeKey: string;
  workspaceId?: string | null;
  advertiserId?: string | null;
  adId?: string | null;
  shopId?: string | null;
  productId?: string | null;
  savedSearchId?: string | null;
  webhookId?: string | null;
  data: { before?: Record<string, unknown> | null; after?: Record<string, unknown> | null; [key: string]: unknown };
};

/** Thresholds of the derived events (environment, read once). */
export const EVENT_THRESHOLDS = {
  /** `ad.reach_jumped`: the smallest day's gain (EVENTS_REACH_JUMP, default 10,000). */
  reachJump: positiveInt(process.env.EVENTS_REACH_JUMP, 10_000, 'EVENTS_REACH_JUMP'),
  /** `advertiser.burst`: the fewest ads started on one day (EVENTS_BURST_ADS, default 10). */
  burstAds: positiveInt(process.env.EVENTS_BURST_ADS, 10, 'EVENTS_BURST_ADS'),
  /** `brandtracker.rank_changed`: the size of a page's top (EVENTS_TOP_RANK, default 10). */
  topRank: positiveInt(process.env.EVENTS_TOP_RANK, 10, 'EVENTS_TOP_RANK'),
};

function positiveInt(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a whole number of at least 1, got ${JSON.stringify(value)}`);
  return n;
}

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

const COLUMNS = ['type', 'source', 'dedupeKey', 'workspaceId', 'advertiserId', 'adId', 'shopId', 'productId', 'savedSearchId', 'webhookId', 'data'] as const;

/**
 * Records `events` in the caller's transaction; an event whose dedupe key is already recorded is left out. Returns the
 * number recorded.
 */
export async function recordEvents(client: Queryable, source: EventSource, events: NewEvent[]): Promise<number> {
  if (!events.length) return 0;
  const column = (pick: (event: NewEvent) => unknown) => events.map(pick);
  const { rowCount } = await client.query(
    `INSERT INTO "market_events" (${COLUMNS.map((name) => `"${name}"`).join(', ')})
     SELECT u.type, $1, u.key, u.workspace, u.advertiser, u.ad, u.shop, u.product, u.search, u.webhook, u.data
     FROM unnest($2::text[], $3::text[], $4::uuid[], $5::text[], $6::text[], $7::uuid[], $8::text[], $9::uuid[], $10::uuid[], $11::jsonb[])
       AS u(type, key, workspace, advertiser, ad, shop, product, search, webhook, data)
     ON CONFLICT ("dedupeKey") DO NOTHING`,
    [
      source,
      column((e) => e.type),
      column((e) => e.dedupeKey),
      column((e) => e.workspaceId ?? null),
      column((e) => e.advertiserId ?? null),
      column((e) => e.adId ?? null),
      column((e) => e.shopId ?? null),
      column((e) => e.productId ?? null),
      column((e) => e.savedSearchId ?? null),
      column((e) => e.webhookId ?? null),
      column((e) => JSON.stringify(e.data, (_key, value) => (typeof value === 'bigint' ? Number(value) : value))),
    ],
  );
  return rowCount ?? 0;
}

/** An event as stored, as the dispatcher and the readers get it. */
export type EventRow = {
  id: string;
  seq: string | null;
  type: EventType;
  source: EventSource;
  occurredAt: Date;
  workspaceId: string | null;
  advertiserId: string | null;
  adId: string | null;
  shopId: string | null;
  productId: string | null;
  savedSearchId: string | null;
  webhookId: string | null;
  data: Record<string, unknown>;
};

/** The columns of `EventRow`, for a SELECT (bigints as text). */
export const EVENT_ROW_COLUMNS = `e."id"::text AS "id", e."seq"::text AS "seq", e."type", e."source", e."occurredAt", e."workspaceId", e."advertiserId",
  e."adId", e."shopId", e."productId", e."savedSearchId", e."webhookId", e."data"`;

/** The public id of an event (the feed's `id`, the webhook's `webhook-id`). */
export const eventIdOf = (row: Pick<EventRow, 'id'>) => `evt_${row.id}`;

/**
 * An event as the feed, webhooks and live subscriptions show it: the same JSON everywhere (a webhook's payload is
 * `{ type, timestamp, data: <this> }`, as Standard Webhooks suggests).
 */
export type PublicEvent = {
  id: string;
  type: EventType;
  occurredAt: string;
  source: EventSource;
  advertiserId: string | null;
  adId: string | null;
  shopId: string | null;
  productId: string | null;
  savedSearchId: string | null;
  webhookId: string | null;
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
