// The events domain's public face (the feed, the live streams and whom an event concerns): what its declarations
// (queries.ts, subscriptions.ts, types.ts), the dispatcher's consumers (src/events/) and the server call.
//   service/feed.ts   the SQL: a page of the feed, a live stream's start and catch-up, whom dispatched events concern
//   service/live.ts   the live hub (in process, or across instances through Redis) and a stream over it

export { concernsOf, eventCount, eventPage, streamStart, type Concern, type EventFilter, type SequencedEvent } from './service/feed.js';
export { readPosition } from './cursor.js';
export { createLiveHub, liveHub, openLiveStream, reportLiveHubErrors, setLiveHub, type LiveHub, type Membership } from './service/live.js';
