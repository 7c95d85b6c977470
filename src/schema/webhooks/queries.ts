import { builder } from '../builder.js';
import { listRef, pageArgs, pageRequest } from '../shared/list.js';
import { LIST_LIMITS, webhookId } from './args.js';
import { webhookDeliveryPage, webhookDetail, webhookPage } from './service.js';
import { WebhookDeliveryRef, WebhookDeliveryStatusEnum, WebhookRef } from './types.js';

const WebhookPage = listRef('WebhookPage', WebhookRef, { style: 'page', description: "A page of the workspace's webhooks, newest first." });
const WebhookDeliveryPage = listRef('WebhookDeliveryPage', WebhookDeliveryRef, { style: 'page', description: "A page of an endpoint's deliveries, newest first." });

const pageOf = (args: { page?: number | null; limit?: number | null }) => pageRequest(args, LIST_LIMITS.defaultLimit);

builder.queryFields((t) => ({
  webhooks: t.field({
    type: WebhookPage,
    authScopes: { workspace: true },
    description: "The workspace's webhooks, newest first (GET /v1/webhooks). Their secrets are never shown here.",
    args: { ...pageArgs(LIST_LIMITS) },
    resolve: (_root, args, context) => webhookPage(context, pageOf(args)),
  }),
  webhook: t.field({
    type: WebhookRef,
    authScopes: { workspace: true },
    description: 'One webhook of the workspace (GET /v1/webhooks/{webhookId}), without its secret.',
    args: { webhookId: t.arg.string({ required: true, validate: webhookId }) },
    resolve: (_root, args, context) => webhookDetail(context, args.webhookId),
  }),
  webhookDeliveries: t.field({
    type: WebhookDeliveryPage,
    authScopes: { workspace: true },
    description:
      "An endpoint's delivery log, newest first (GET /v1/webhooks/{webhookId}/deliveries): each event sent to it, its status, attempts, " +
      'the last response status, latency and error, and when a pending one is tried next.',
    args: {
      webhookId: t.arg.string({ required: true, validate: webhookId }),
      status: t.arg({ type: WebhookDeliveryStatusEnum, description: 'Only the deliveries in this state.' }),
      ...pageArgs(LIST_LIMITS),
    },
    resolve: (_root, args, context) => webhookDeliveryPage(context, args.webhookId, { status: args.status }, pageOf(args)),
  }),
}));
