import { publicEvent } from '../data/events.js';
import { liveHub, type Concern, type LiveHub } from '../schema/events/service.js';
import { concernsOfBatch } from './concerns.js';
import type { EventConsumer } from './dispatch.js';

// The dispatcher's side of the live subscriptions: the hub and the streams are the events domain's
// (src/schema/events/service/live.ts); this consumer hands each dispatched batch to the hub.

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
      const concerns = live.shared || live.listening() ? await concernsOfBatch(client, rows) : new Map<string, Concern[]>();
      const events = rows.flatMap((row) => {
        const concern = concerns.get(row.seq!);
        return concern ? [{ seq: row.seq!, event: publicEvent(row), concerns: concern }] : [];
      });
      return () => live.publish({ from, to, events });
    },
  };
}
