import { recordEvents } from '../../../src/data/events.js';
import { dispatchOnce, eventConsumers } from '../../../src/events/index.js';
import { declare, owned, type Owner } from './registry.js';

// Webhooks: every route names a webhook of workspace A (and a delivery of it); B gets what a missing id gets, and
// A's webhook and its log are unchanged. The endpoint is on the loopback address, so private addresses are allowed
// for this file's process (nothing is sent: B's calls stop at the 404).
process.env.WEBHOOK_ALLOW_PRIVATE = 'true';

let made = 0;

async function webhook({ t, key }: Owner) {
  const token = `${process.pid}x${++made}x${Math.random().toString(36).slice(2, 8)}`;
  const res = await t.rest('POST', '/webhooks', { key, body: { url: `http://127.0.0.1:9/hooks/${token}`, eventTypes: ['*'], description: `Secret endpoint ${token}` } });
  if (res.status !== 201) throw new Error(`webhook not made: ${JSON.stringify(res.body)}`);
  return res.body.data as { id: string; url: string; description: string; secret: string };
}

const readBack = (owner: Owner, id: string) => async () => [
  (await owner.t.rest('GET', `/webhooks/${id}`, { key: owner.key })).body.data,
  (await owner.t.rest('GET', `/webhooks/${id}/deliveries`, { key: owner.key })).body.data,
];

const madeWebhook = (withDelivery = false) => async (owner: Owner) => {
  const hook = await webhook(owner);
  const args: Record<string, unknown> = { webhookId: hook.id };
  if (withDelivery) {
    // An event of A's own, dispatched: a delivery to A's webhook (pending: no worker runs here).
    await recordEvents(owner.t.db.pool, 'events', [{ type: 'search.matched', dedupeKey: `isolation:${hook.id}`, workspaceId: owner.workspaceId, data: { after: { rowId: 'x' } } }]);
    while ((await dispatchOnce(owner.t.db.pool, eventConsumers())) > 0);
    const log = (await owner.t.rest('GET', `/webhooks/${hook.id}/deliveries`, { key: owner.key })).body;
    args.deliveryId = Number(log.data[0].id);
  }
  return { args, secrets: [hook.id, hook.url, hook.description, hook.secret], readBack: readBack(owner, hook.id) };
};

declare('GET /webhooks/:webhookId', owned(madeWebhook()));
declare('PATCH /webhooks/:webhookId', owned(madeWebhook(), { description: 'Changed by B', enabled: false, eventTypes: ['ad.created'] }));
declare('DELETE /webhooks/:webhookId', owned(madeWebhook()));
declare('POST /webhooks/:webhookId/rotate-secret', owned(madeWebhook()));
declare('POST /webhooks/:webhookId/test', owned(madeWebhook()));
declare('GET /webhooks/:webhookId/deliveries', owned(madeWebhook(true)));
declare('POST /webhooks/:webhookId/deliveries/:deliveryId/replay', owned(madeWebhook(true)));
