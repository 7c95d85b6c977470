import type pg from 'pg';
import type { EventRow } from '../data/events.js';
import { concernsOf, type Concern } from '../schema/events/service.js';

// Whom each event of a dispatched batch concerns (src/events/README.md: `workspace_interests` and the workspace's own
// events), looked up once per batch however many consumers ask: the live streams and the webhooks get the same answer
// from the same statement. The consumers of a batch receive the same array, which keys the answer.

const batches = new WeakMap<readonly EventRow[], Promise<Map<string, Concern[]>>>();

/** The workspaces each event of `events` concerns, by `seq` (absent: none). */
export function concernsOfBatch(client: Pick<pg.PoolClient, 'query'>, events: readonly EventRow[]): Promise<Map<string, Concern[]>> {
  let concerns = batches.get(events);
  if (!concerns) {
    concerns = concernsOf(client, events);
    batches.set(events, concerns);
  }
  return concerns;
}
