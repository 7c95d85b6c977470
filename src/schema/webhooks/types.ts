import type { ObjectFieldBuilder } from '@pothos/core';
import { EVENT_TYPES } from '../../data/events.js';
import { builder } from '../builder.js';
import type { DeliveryView, WebhookFilter, WebhookTestResult, WebhookView, WebhookWithSecret } from './service.js';

const EVENT_TYPE_LIST = Object.keys(EVENT_TYPES).join(', ');

export const WebhookFilterRef = builder.objectRef<WebhookFilter>('WebhookFilter').implement({
  description:
    'What narrows an endpoint\'s events: an event is sent when its advertiser is in advertiserIds, its shop in shopIds, or it concerns the workspace ' +
    'through one of brandtrackerIds (the brand\'s page or shops). The workspace\'s own events (webhook.disabled, search.*) pass any filter.',
  fields: (t) => ({
    brandtrackerIds: t.exposeStringList('brandtrackerIds', { nullable: true }),
    advertiserIds: t.exposeStringList('advertiserIds', { nullable: true }),
    shopIds: t.exposeStringList('shopIds', { nullable: true }),
  }),
});

type Fields<T extends WebhookView> = ObjectFieldBuilder<typeof builder.$inferSchemaTypes, T>;

function webhookFields<T extends WebhookView>(t: Fields<T>) {
  const date = (pick: (webhook: T) => Date | null, description?: string) => t.field({ type: 'DateTime', nullable: true, description, resolve: pick });
  return {
    id: t.id({ description: 'uuid', resolve: (webhook) => webhook.id }),
    url: t.string({ description: 'Where deliveries are POSTed (https; http and private addresses only with WEBHOOK_ALLOW_PRIVATE=true).', resolve: (webhook) => webhook.url }),
    eventTypes: t.stringList({ description: `The event types sent, or ["*"] for all: ${EVENT_TYPE_LIST}.`, resolve: (webhook) => webhook.eventTypes }),
    filter: t.field({ type: WebhookFilterRef, nullable: true, resolve: (webhook) => webhook.filter }),
    description: t.string({ nullable: true, resolve: (webhook) => webhook.description }),
    enabled: t.boolean({
      description: 'False once disabled, by the workspace or after failing for too long; PATCH enabled: true sends what waited.',
      resolve: (webhook) => webhook.enabled,
    }),
    disabledAt: date((webhook) => webhook.disabledAt),
    disabledReason: t.string({ nullable: true, resolve: (webhook) => webhook.disabledReason }),
    previousSecretExpiresAt: date(
      (webhook) => webhook.previousSecretExpiresAt,
      'After a rotation: until then, deliveries carry a second signature made with the previous secret.',
    ),
    lastSuccessAt: date((webhook) => webhook.lastSuccessAt, 'The last attempt the endpoint answered with a 2xx.'),
    failingSince: date((webhook) => webhook.failingSince, 'The first failed attempt since the last success; null while it succeeds.'),
    consecutiveFailures: t.int({ description: 'Failed attempts since the last success.', resolve: (webhook) => webhook.consecutiveFailures }),
    createdAt: t.field({ type: 'DateTime', resolve: (webhook) => webhook.createdAt }),
    updatedAt: t.field({ type: 'DateTime', resolve: (webhook) => webhook.updatedAt }),
  };
}

export const WebhookRef = builder.objectRef<WebhookView>('Webhook').implement({
  description: 'An endpoint of the workspace that receives its events, signed as Standard Webhooks says. Its secret is shown only when made.',
  fields: (t) => webhookFields(t),
});

export const WebhookWithSecretRef = builder.objectRef<WebhookWithSecret>('WebhookWithSecret').implement({
  description: 'A webhook with its new signing secret: shown in this answer only, never again.',
  fields: (t) => ({
    ...webhookFields(t),
    secret: t.exposeString('secret', { description: 'The signing secret, `whsec_` and base64 (Standard Webhooks): keep it, it is not shown again.' }),
  }),
});

export const WebhookDeliveryStatusEnum = builder.enumType('WebhookDeliveryStatus', {
  values: ['pending', 'sending', 'delivered', 'failed'] as const,
  description: 'pending: waiting for its turn or its next attempt; sending: an attempt in flight; delivered: answered with a 2xx; failed: given up after its retry window.',
});

export const WebhookDeliveryRef = builder.objectRef<DeliveryView>('WebhookDelivery').implement({
  description: 'One event sent to one endpoint: its state and its last attempt.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'The delivery id (digits), for a replay.' }),
    eventId: t.exposeString('eventId', { description: 'The event (`evt_…`): the `webhook-id` header of every attempt.' }),
    eventType: t.exposeString('eventType'),
    status: t.expose('status', { type: WebhookDeliveryStatusEnum }),
    attempts: t.exposeInt('attempts', { description: 'Attempts made, replays included.' }),
    responseStatus: t.exposeInt('responseStatus', { nullable: true, description: 'The HTTP status of the last attempt; null when none came (a network error or a timeout).' }),
    latencyMs: t.exposeInt('latencyMs', { nullable: true, description: 'How long the last attempt took, in milliseconds.' }),
    error: t.exposeString('error', { nullable: true, description: 'Why the last attempt failed; null when it succeeded.' }),
    nextAttemptAt: t.expose('nextAttemptAt', { type: 'DateTime', nullable: true, description: 'When a pending delivery is tried next (null otherwise).' }),
    lastAttemptAt: t.expose('lastAttemptAt', { type: 'DateTime', nullable: true }),
    deliveredAt: t.expose('deliveredAt', { type: 'DateTime', nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

export const WebhookDeleteResultRef = builder.objectRef<{ id: string; deleted: boolean; cancelledDeliveries: number }>('WebhookDeleteResult').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    deleted: t.exposeBoolean('deleted'),
    cancelledDeliveries: t.exposeInt('cancelledDeliveries', { description: 'Deliveries the endpoint still had to receive, cancelled with it.' }),
  }),
});

export const WebhookTestResultRef = builder.objectRef<WebhookTestResult>('WebhookTestResult').implement({
  description: 'What the endpoint did with a `webhook.test` message.',
  fields: (t) => ({
    messageId: t.exposeString('messageId', { description: 'The `webhook-id` of the test message (`msg_test_…`).' }),
    delivered: t.exposeBoolean('delivered', { description: 'The endpoint answered with a 2xx.' }),
    responseStatus: t.exposeInt('responseStatus', { nullable: true }),
    latencyMs: t.exposeInt('latencyMs'),
    error: t.exposeString('error', { nullable: true }),
  }),
});
