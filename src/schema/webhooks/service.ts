// The webhooks domain's public face and the only home of its SQL (test/unit/sql-layout.test.ts): the endpoints
// (service/webhooks.ts), their deliveries (service/deliveries.ts: made by the dispatcher's consumer, claimed and
// recorded by the delivery jobs, the log and replays), what is sent and how it is signed (service/send.ts), the
// delivery settings (service/settings.ts) and the signal that wakes the delivery jobs (service/signal.ts). The events'
// consumer (src/events/webhooks.ts) and the delivery jobs (src/jobs/webhooks.ts) reach the domain only here.

export {
  findWebhook,
  webhookCreate,
  webhookDelete,
  webhookDetail,
  webhookPage,
  webhookSecretRotate,
  webhookUpdate,
  type WebhookChange,
  type WebhookFilter,
  type WebhookInput,
  type WebhookView,
  type WebhookWithSecret,
} from './service/webhooks.js';
export {
  claimDeliveries,
  createDeliveries,
  dueWebhooks,
  recordAttempts,
  webhookDeliveryPage,
  webhookDeliveryReplay,
  webhooksExist,
  type AttemptResult,
  type Claim,
  type ClaimedDelivery,
  type DeliveryStatus,
  type DeliveryView,
  type Endpoint,
  type Recorded,
} from './service/deliveries.js';
export { eventPayload, sendEvent, signedHeaders, webhookTest, type Signer, type WebhookTestResult } from './service/send.js';
export { retryDelayMs, webhookSettings, type WebhookSettings } from './service/settings.js';
export { deliveriesQueued, onDeliveriesQueued } from './service/signal.js';
