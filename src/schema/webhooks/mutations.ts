import { builder } from '../builder.js';
import { deliveryId, eventTypes, eventTypesOf, webhookDescription, webhookFilter, webhookId, webhookUrl } from './args.js';
import { webhookCreate, webhookDelete, webhookDeliveryReplay, webhookSecretRotate, webhookTest, webhookUpdate, type WebhookFilter } from './service.js';
import { WebhookDeleteResultRef, WebhookDeliveryRef, WebhookRef, WebhookTestResultRef, WebhookWithSecretRef } from './types.js';

// The endpoints' root fields; the service (service/webhooks.ts, service/deliveries.ts, service/send.ts) holds the
// rules and the writes.

const FILTER_DESCRIPTION =
  'Narrows the events: `{ brandtrackerIds?, advertiserIds?, shopIds? }` (1 to 100 ids each, no other key). An event is sent when its advertiser ' +
  'is in advertiserIds, its shop in shopIds, or it concerns the workspace through one of brandtrackerIds; without a filter, every event of the ' +
  "types that concerns the workspace (its brandtrackers' pages and shops, what its workspace boards hold, its own events).";

const filterOf = (value: unknown) => value as WebhookFilter | null | undefined;

builder.mutationFields((t) => ({
  webhookCreate: t.field({
    type: WebhookWithSecretRef,
    authScopes: { writer: true },
    description:
      'Creates a webhook (POST /v1/webhooks): the events of `eventTypes` (or ["*"]) that concern the workspace are POSTed to `url`, signed as ' +
      'Standard Webhooks says. The answer shows the signing secret (`whsec_…`) this once.',
    args: {
      url: t.arg.string({ required: true, description: 'https (http, and private addresses, only with WEBHOOK_ALLOW_PRIVATE=true).', validate: webhookUrl }),
      eventTypes: t.arg.stringList({ required: true, description: 'Event types, or ["*"] for every type.', validate: eventTypes }),
      filter: t.arg({ type: 'JSON', description: FILTER_DESCRIPTION, validate: webhookFilter }),
      description: t.arg.string({ description: 'Up to 500 characters.', validate: webhookDescription }),
    },
    resolve: (_root, args, context) =>
      webhookCreate(context, { url: args.url, eventTypes: eventTypesOf(args.eventTypes), filter: filterOf(args.filter), description: args.description }),
  }),
  webhookUpdate: t.field({
    type: WebhookRef,
    authScopes: { writer: true },
    description:
      'Changes a webhook (PATCH /v1/webhooks/{webhookId}). enabled: true re-enables a disabled one (its failures cleared, what waited sent at once); ' +
      'enabled: false stops its deliveries (they wait). filter and description: null clears them.',
    args: {
      webhookId: t.arg.string({ required: true, validate: webhookId }),
      url: t.arg.string({ validate: webhookUrl }),
      eventTypes: t.arg.stringList({ validate: eventTypes }),
      filter: t.arg({ type: 'JSON', description: FILTER_DESCRIPTION, validate: webhookFilter }),
      description: t.arg.string({ validate: webhookDescription }),
      enabled: t.arg.boolean(),
    },
    resolve: (_root, args, context) =>
      webhookUpdate(context, args.webhookId, {
        url: args.url,
        eventTypes: args.eventTypes ? eventTypesOf(args.eventTypes) : null,
        filter: filterOf(args.filter),
        description: args.description,
        enabled: args.enabled,
      }),
  }),
  webhookDelete: t.field({
    type: WebhookDeleteResultRef,
    authScopes: { writer: true },
    description: 'Deletes a webhook (DELETE /v1/webhooks/{webhookId}); the deliveries it still had to receive are cancelled.',
    args: { webhookId: t.arg.string({ required: true, validate: webhookId }) },
    resolve: (_root, args, context) => webhookDelete(context, args.webhookId),
  }),
  webhookSecretRotate: t.field({
    type: WebhookWithSecretRef,
    authScopes: { writer: true },
    description:
      'Gives a webhook a new signing secret, shown this once (POST /v1/webhooks/{webhookId}/rotate-secret). The previous secret still signs ' +
      '(a second signature in webhook-signature) until previousSecretExpiresAt (WEBHOOK_SECRET_OVERLAP_MS, 24 h by default).',
    args: { webhookId: t.arg.string({ required: true, validate: webhookId }) },
    resolve: (_root, args, context) => webhookSecretRotate(context, args.webhookId),
  }),
  webhookTest: t.field({
    type: WebhookTestResultRef,
    authScopes: { writer: true },
    description:
      'Sends a signed `webhook.test` message to the endpoint now and answers what it did (POST /v1/webhooks/{webhookId}/test). Not an event: ' +
      'nothing is recorded, and it is sent whatever the event types and whether the webhook is enabled.',
    args: { webhookId: t.arg.string({ required: true, validate: webhookId }) },
    resolve: (_root, args, context) => webhookTest(context, args.webhookId),
  }),
  webhookDeliveryReplay: t.field({
    type: WebhookDeliveryRef,
    authScopes: { writer: true },
    description:
      'Sends a delivery again, now (POST /v1/webhooks/{webhookId}/deliveries/{deliveryId}/replay), delivered and failed ones too, with the same ' +
      'webhook-id and a new retry window. The webhook must be enabled (409 otherwise), and no attempt of the delivery in flight (409).',
    args: {
      webhookId: t.arg.string({ required: true, validate: webhookId }),
      deliveryId: t.arg.id({ required: true, description: 'A delivery of the log (digits).', validate: deliveryId }),
    },
    resolve: (_root, args, context) => webhookDeliveryReplay(context, args.webhookId, String(args.deliveryId)),
  }),
}));
