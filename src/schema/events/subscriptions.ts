import type { Context } from '../../context.js';
import { apiError } from '../../errors.js';
import { chargeAll } from '../../metering/ledger.js';
import { priceOf } from '../../metering/prices.js';
import { builder } from '../builder.js';
import { afterArg, crossChecks, eventFilterArgs } from './args.js';
import { eventCursor, readPosition } from './cursor.js';
import { liveHub, openLiveStream, streamStart, type EventFilter, type Membership, type SequencedEvent } from './service.js';
import { EventRef } from './types.js';

// The live side of the feed: `subscription { events }` on /graphql over Server-Sent Events (graphql-yoga), which
// GET /v1/events/stream runs too (rest/event-stream.ts). Opening a stream is free; each event delivered costs what
// the feed charges for it (Query.events: one credit per event), charged before it is sent, per chunk of events. A
// workspace that cannot pay for the next chunk gets insufficient_credits, which ends the stream: nothing it did not
// pay for is sent, and resuming after the last event it got (Last-Event-ID, `after`) loses nothing.

builder.subscriptionType({});

const LiveEventRef = builder.objectRef<SequencedEvent>('LiveEvent').implement({
  description: 'An event delivered live, with its cursor: pass the last one received as `after` to resume exactly after it.',
  fields: (t) => ({
    cursor: t.string({ description: 'The SSE id of the event on GET /v1/events/stream; a position for `after` anywhere.', resolve: (item) => eventCursor(item.seq) }),
    event: t.field({ type: EventRef, resolve: (item) => item.event }),
  }),
});

/** The feed's price, per delivered event (the price table's perRow rate of Query.events). */
const PER_EVENT = (() => {
  const price = priceOf('Query.events');
  return price && price.kind !== 'free' ? 1 : 0;
})();

/** Charges `count` delivered events to the workspace, or ends the stream with insufficient_credits. */
function charger(context: Context, workspaceId: string, credentialId: string) {
  return async (count: number) => {
    const cost = count * PER_EVENT;
    if (context.metering === false || cost === 0) return;
    const due = { workspaceId, cost, charge: { credentialId, requestId: context.requestId, field: 'Subscription.events', rows: count } };
    const settled = context.noHold ? await context.noHold.charges.charge(due) : (await chargeAll(context.ledger, [due]))[0];
    if (!settled) {
      context.noHold?.balances.forget(workspaceId);
      throw apiError('insufficient_credits', `Delivering the next ${count} events needs ${cost} credits and the workspace has fewer left. Top up, then resume after the last event received (Last-Event-ID or after).`, { details: { required: cost } });
    }
    context.noHold?.balances.learn(workspaceId, settled.remaining);
  };
}

/**
 * A stream of the caller's events: authenticated, rate-limited (one read), refused with 402 when the workspace has
 * no credit left, then joined to the live hub before the start is read (no event falls between).
 */
async function openStream(context: Context, args: EventFilter & { after?: string | null }): Promise<AsyncIterable<SequencedEvent>> {
  const { workspace, credential } = await context.principal();
  await context.rateLimiter.check(credential.id, 'read', context.responseHeaders);
  if (context.metering !== false && PER_EVENT > 0) {
    const balance = await context.meter.balance();
    if (balance.totalRemaining < PER_EVENT) throw apiError('insufficient_credits', 'Live events cost one credit each and the workspace has none left. Read GET /v1/usage.', { details: { required: PER_EVENT } });
  }
  let membership: Membership;
  try {
    membership = await liveHub().join(workspace.id, context.pool);
  } catch {
    // The hub could not subscribe (Redis unreachable; reported by the hub).
    throw apiError('service_unavailable', 'Live events are unavailable for a moment. Retry after the Retry-After header; resume with the last cursor received.', { headers: { 'Retry-After': '5' } });
  }
  try {
    const position = args.after ? readPosition(args.after) : null;
    const { after } = await streamStart(context.pool, workspace.id, args, position, 'after');
    return openLiveStream({ db: context.pool, workspaceId: workspace.id, filter: args, membership, after, beforeDelivery: charger(context, workspace.id, credential.id) });
  } catch (error) {
    membership.leave();
    throw error;
  }
}

builder.subscriptionField('events', (t) =>
  t.field({
    type: LiveEventRef,
    authScopes: { workspace: true },
    description:
      "The workspace's events as they are dispatched (over Server-Sent Events: send `Accept: text/event-stream`), with the feed's filters; with `after`, the stored events after that one first, then live, none missed or repeated. Free to open; one credit per event delivered (as the feed).",
    args: { ...eventFilterArgs(), ...afterArg('Replay the stored events after this one first.') },
    validate: crossChecks,
    subscribe: (_root, args, context) => openStream(context, args),
    resolve: (item) => item,
  }),
);
