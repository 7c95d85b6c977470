// Where a reader of the events stands: after one event, in the dispatch order (`seq`, src/events/dispatch.ts). An event
// cursor names that position and nothing else: unlike the list engine's cursors (bound to one query's filters and
// sort, signed with a per-process secret), it is valid with any filters, in either order, on the feed, the stream and
// the subscription, and across restarts and instances, so a client can store the last one for days and resume with
// it. It is opaque to clients, and not secret: it says no more than an event's place in the global order.

/** An event's position as a client names it: a cursor (its `seq`), or its id (`evt_<id>`, looked up). */
export type Position = { seq: string } | { eventId: string };

const PREFIX = 'seq:';
const DIGITS = /^[1-9]\d{0,17}$/;
const EVENT_ID = /^evt_([1-9]\d{0,17})$/;

/** The cursor of the event numbered `seq`: the feed's nextCursor, the stream's SSE `id:`. */
export function eventCursor(seq: string): string {
  return Buffer.from(`${PREFIX}${seq}`).toString('base64url');
}

/** The position a cursor or an event id names, or null when it is neither. */
export function readPosition(value: string): Position | null {
  const id = EVENT_ID.exec(value.trim());
  if (id) return { eventId: id[1] };
  if (!/^[A-Za-z0-9_-]+$/.test(value)) return null;
  const text = Buffer.from(value, 'base64url').toString('utf8');
  if (!text.startsWith(PREFIX) || Buffer.from(text).toString('base64url') !== value) return null;
  const seq = text.slice(PREFIX.length);
  return DIGITS.test(seq) ? { seq } : null;
}

export const EVENT_POSITION_DESCRIPTION =
  'A pagination.nextCursor, the SSE `id:` of an event of GET /v1/events/stream, or an event id (`evt_…`): the events after that one (in the list\'s order) and nothing of it or before it. Cursors stay valid across restarts and with other filters.';
