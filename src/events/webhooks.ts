import { createDeliveries, deliveriesQueued } from '../schema/webhooks/service.js';
import { concernsOfBatch } from './concerns.js';
import type { EventConsumer } from './dispatch.js';

// The webhooks' consumer: in the dispatch transaction, one statement makes the deliveries of the whole batch (each
// event to every enabled endpoint whose workspace it concerns (concerns.ts, shared with the live streams) and whose
// event types and filter take it, in dispatch order; src/schema/webhooks/service/deliveries.ts), so a batch is handed
// out with its deliveries or not at all. Once it committed, the delivery jobs of this process are woken for the
// endpoints that got some (src/jobs/webhooks.ts).

export function webhooksConsumer(): EventConsumer {
  return {
    name: 'webhooks',
    async consume(client, events) {
      const concerns = await concernsOfBatch(client, events);
      const concerned = events.flatMap((event) =>
        (concerns.get(event.seq!) ?? []).flatMap(({ workspaceId, brandtrackerIds }) =>
          (brandtrackerIds.length ? brandtrackerIds : [null]).map((brandtrackerId) => ({
            eventId: event.id, workspaceId, brandtrackerId, own: event.workspaceId !== null,
          })),
        ),
      );
      const webhookIds = await createDeliveries(client, concerned);
      if (webhookIds.length) return () => deliveriesQueued(webhookIds);
    },
  };
}
