import { EVENT_TYPE_NAMES, type PublicEvent } from '../../data/events.js';
import { clip } from './compact.js';
import type { Json, TaskDefinition } from './frame.js';

// whats_new: the feed (GET /v1/events) for agents. Oldest first from `since`, so that `next` (the last event shown)
// continues exactly where the answer stopped, at the next call or a week later; each event compact: its type, when,
// its subjects and what changed (texts cut).

const DAY_MS = 86_400_000;

const params = {
  types: { type: 'strings', description: 'Only these event types (every type when omitted).', values: EVENT_TYPE_NAMES, maxItems: 20 },
  since: {
    type: 'string',
    optional: true,
    maxLength: 2000,
    description: 'Where to start: `next.arguments.since` of an earlier answer (nothing missed, nothing repeated), an event id (evt_…), or an ISO 8601 date-time. Default: the last 24 hours.',
  },
  limit: { type: 'integer', description: 'Events to show, oldest first, 1..100 (each one costs a credit).', minimum: 1, maximum: 100, default: 25 },
} as const;

const SUBJECTS = ['advertiserId', 'adId', 'shopId', 'productId', 'savedSearchId', 'webhookId'] as const;

/** A before or after side with its texts cut. */
function side(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return typeof value === 'string' ? clip(value) : value ?? null;
  return Object.fromEntries(Object.entries(value as Json).map(([key, item]) => [key, typeof item === 'string' ? clip(item) : item]));
}

export function compactEvent(event: PublicEvent) {
  const subjects = Object.fromEntries(SUBJECTS.flatMap((name) => (event[name] === null ? [] : [[name, event[name]]])));
  return { id: event.id, type: event.type, occurredAt: event.occurredAt, ...subjects, before: side(event.data.before), after: side(event.data.after) };
}

const isInstant = (since: string) => /^\d{4}-\d\d-\d\d/.test(since) && !Number.isNaN(Date.parse(since));

export const whatsNew: TaskDefinition<typeof params> = {
  name: 'whats_new',
  summary:
    "What changed in the market for the workspace, oldest first from `since` (GET /v1/events): its tracked brands' new and stopped ads, landing pages and copy changed, reach jumps and bursts, its shops' new products, price changes and stock, what its boards saved, and its own events. Compact JSON; `next` continues exactly after the last event shown (call it again later to get only what is new); `more` says whether further events are waiting now.",
  params,
  calls: [{ field: 'Query.events', rowsFrom: 'limit' }],
  async run(api, { types, since, limit }) {
    const args: Json = { order: 'asc', limit, ...(types.length && { types }) };
    let start: string;
    if (since === undefined || isInstant(since)) {
      start = since === undefined ? new Date(Date.now() - DAY_MS).toISOString() : new Date(since).toISOString();
      args.from = start;
    } else {
      start = since;
      args.after = since;
    }
    const page = await api.call('Query.events', args);
    const events = page.data as PublicEvent[];
    const more = (page.pagination as { nextCursor: string | null }).nextCursor !== null;
    return {
      since: start,
      events: events.map(compactEvent),
      more,
      next: { tool: 'whats_new', arguments: { since: events.at(-1)?.id ?? start, ...(types.length && { types }), limit } },
    };
  },
};
