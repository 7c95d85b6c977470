import { expect } from 'vitest';
import { recordEvents } from '../../src/data/events.js';
import { dispatchOnce, eventConsumers } from '../../src/events/index.js';
import type { HttpResult, TestApp } from '../support/app.js';

// The envelope cases of the webhook routes for test/rest/envelopes.test.ts: one successful call per route, made twice
// there (plus twice without a key). `setupWebhookCases` makes the webhooks and a delivery the calls act on; each call
// of the delete takes a fresh webhook. The endpoint is a loopback port nothing listens on (private addresses allowed
// for this process): the test message is answered with what the endpoint did, and nothing else is sent.

type Case = { path: string; body?: unknown; check: (res: HttpResult) => void };

process.env.WEBHOOK_ALLOW_PRIVATE = 'true';
const URL = 'http://127.0.0.1:9/hooks';

const state = { webhook: '', delivery: '', deletable: [] as string[] };

export async function setupWebhookCases(t: TestApp, key: string, workspaceId: string): Promise<void> {
  const create = async () => {
    const res = await t.rest('POST', '/webhooks', { key, body: { url: URL, eventTypes: ['search.matched'] } });
    if (res.status !== 201) throw new Error(`setup /webhooks: ${JSON.stringify(res.body)}`);
    return res.body.data.id as string;
  };
  state.webhook = await create();
  // Each call of the delete takes one, the two without a key too.
  for (let i = 0; i < 4; i++) state.deletable.push(await create());
  await recordEvents(t.db.pool, 'events', [{ type: 'search.matched', dedupeKey: `envelopes:webhook:${workspaceId}`, workspaceId, data: { before: null, after: { rowId: 'x' } } }]);
  while ((await dispatchOnce(t.db.pool, eventConsumers())) > 0);
  const log = await t.rest('GET', `/webhooks/${state.webhook}/deliveries`, { key });
  state.delivery = log.body.data[0].id;
}

const take = <T>(pool: T[]): T => {
  const next = pool.shift();
  if (next === undefined) throw new Error('envelope case pool exhausted');
  return next;
};

const keys = (value: object) => Object.keys(value);
const single = (dataKeys: string[]) => ({ body }: HttpResult) => {
  expect(keys(body)).toEqual(['requestId', 'data']);
  expect(keys(body.data)).toEqual(dataKeys);
};
const page = (itemKeys: string[]) => ({ body }: HttpResult) => {
  expect(keys(body)).toEqual(['requestId', 'data', 'pagination']);
  expect(body.data.length).toBeGreaterThan(0);
  for (const item of body.data) expect(keys(item)).toEqual(itemKeys);
  expect(keys(body.pagination)).toEqual(['page', 'limit', 'total', 'totalPages']);
};

const WEBHOOK = [
  'id', 'url', 'eventTypes', 'filter', 'description', 'enabled', 'disabledAt', 'disabledReason', 'previousSecretExpiresAt', 'lastSuccessAt',
  'failingSince', 'consecutiveFailures', 'createdAt', 'updatedAt',
];
const DELIVERY = ['id', 'eventId', 'eventType', 'status', 'attempts', 'responseStatus', 'latencyMs', 'error', 'nextAttemptAt', 'lastAttemptAt', 'deliveredAt', 'createdAt'];

export function webhookCases(): Record<string, Case> {
  return {
    'GET /webhooks': { path: '/webhooks', check: page(WEBHOOK) },
    'POST /webhooks': { path: '/webhooks', body: { url: URL, eventTypes: ['*'], filter: { advertiserIds: ['1000000000000001'] } }, check: single([...WEBHOOK, 'secret']) },
    'GET /webhooks/:webhookId': { get path() { return `/webhooks/${state.webhook}`; }, check: single(WEBHOOK) },
    'PATCH /webhooks/:webhookId': { get path() { return `/webhooks/${state.webhook}`; }, body: { description: 'Described' }, check: single(WEBHOOK) },
    'DELETE /webhooks/:webhookId': { get path() { return `/webhooks/${take(state.deletable)}`; }, check: single(['id', 'deleted', 'cancelledDeliveries']) },
    'POST /webhooks/:webhookId/rotate-secret': { get path() { return `/webhooks/${state.webhook}/rotate-secret`; }, check: single([...WEBHOOK, 'secret']) },
    'POST /webhooks/:webhookId/test': { get path() { return `/webhooks/${state.webhook}/test`; }, check: single(['messageId', 'delivered', 'responseStatus', 'latencyMs', 'error']) },
    'GET /webhooks/:webhookId/deliveries': { get path() { return `/webhooks/${state.webhook}/deliveries`; }, check: page(DELIVERY) },
    'POST /webhooks/:webhookId/deliveries/:deliveryId/replay': {
      get path() {
        return `/webhooks/${state.webhook}/deliveries/${state.delivery}/replay`;
      },
      check: single(DELIVERY),
    },
  };
}
