import type pg from 'pg';
import { startDispatcher, type Dispatcher, type DispatcherLogger, type EventConsumer } from './dispatch.js';
import { liveConsumer } from './live.js';
import { savedSearchesConsumer } from './saved-searches.js';
import { webhooksConsumer } from './webhooks.js';

// The readers of the market's events, run by the dispatcher (see dispatch.ts) wherever workers run: inside
// `npm start` unless WORKERS=off, and in `npm run worker`.

export type EventsOptions = { logger: DispatcherLogger; intervalMs?: number };

/** The consumers of every dispatched event, in the order they see each batch. */
export function eventConsumers(): EventConsumer[] {
  return [liveConsumer(), webhooksConsumer(), savedSearchesConsumer()];
}

export function startEvents(pool: pg.Pool, options: EventsOptions): Dispatcher {
  return startDispatcher(pool, eventConsumers(), options);
}

export { dispatchOnce, type Dispatcher, type EventConsumer } from './dispatch.js';
