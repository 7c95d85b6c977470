// Told in this process when deliveries became due at once (events dispatched to endpoints, a replay, an endpoint
// re-enabled), after the transaction that queued them committed: the delivery jobs (src/jobs/webhooks.ts) wake for
// those endpoints instead of waiting for their next look at the table.

type Listener = (webhookIds: string[]) => void;

const listeners = new Set<Listener>();

export function onDeliveriesQueued(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function deliveriesQueued(webhookIds: string[]): void {
  if (!webhookIds.length) return;
  for (const listener of listeners) listener(webhookIds);
}
