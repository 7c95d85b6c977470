import { EVENT_TYPES, type PublicEvent } from '../../data/events.js';
import { builder } from '../builder.js';
import { listRef } from '../shared/list.js';

const typeList = Object.entries(EVENT_TYPES).map(([type, meaning]) => `${type}: ${meaning}`).join(' ');

/** An event as the feed, the webhooks and the live subscriptions show it (`publicEvent`, src/data/events.ts). */
export const EventRef = builder.objectRef<PublicEvent>('Event').implement({
  description: 'A change in the market that concerns the workspace (or one of its own: a saved search matched, a webhook disabled).',
  fields: (t) => ({
    id: t.exposeID('id', { description: '`evt_<number>`: unique, the same on the feed, the stream and webhook deliveries (webhook-id), for deduplication.' }),
    type: t.exposeString('type', { description: `What changed. ${typeList}` }),
    occurredAt: t.expose('occurredAt', { type: 'DateTime', description: "When the change was seen in the market: the time of the sync run or import that found it (a file import's `asOf`, the demo market's day); the server's own events, when they happened. The feed's order is the order the changes were recorded in, not this time." }),
    source: t.exposeString('source', { description: 'Where the change came from: meta-ads, tiktok-ads, shopify, google-ads, demo or events.' }),
    advertiserId: t.exposeString('advertiserId', { nullable: true, description: 'The advertiser (Facebook page id) it is about, if any.' }),
    adId: t.exposeString('adId', { nullable: true }),
    shopId: t.exposeString('shopId', { nullable: true }),
    productId: t.exposeString('productId', { nullable: true }),
    savedSearchId: t.exposeString('savedSearchId', { nullable: true }),
    webhookId: t.exposeString('webhookId', { nullable: true }),
    data: t.expose('data', { type: 'JSON', description: '`before` and `after` (null where the event has no side), as the type says.' }),
  }),
});

export const EventPageRef = listRef('EventPage', EventRef, {
  style: 'cursor',
  description: 'A cursor page of events. The total is not counted: it is the page\'s events, plus one (gte) when more follow; page on with nextCursor (as `after` or `cursor`) until it is null.',
});
