import { randomBytes } from 'node:crypto';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import type { Context } from '../../../context.js';
import { eventIdOf, publicEvent, type EventRow } from '../../../data/events.js';
import { postWebhook, type PostOutcome } from '../../../net/webhook-target.js';
import { webhookSettings } from './settings.js';
import { findWebhook } from './webhooks.js';

// What goes to an endpoint, as Standard Webhooks says: the body `{ type, timestamp, data }` (data: the event as the
// feed shows it), and the headers `webhook-id` (the event's id, the same on every attempt and replay, so a receiver
// drops what it already has), `webhook-timestamp` (the attempt's time, in seconds) and `webhook-signature`
// (`v1,<base64 HMAC-SHA256>` with the endpoint's secret, made by the standardwebhooks package; during a rotation's
// overlap a second signature with the previous secret follows, space-separated, so a receiver that still has the old
// secret verifies too).

/** The secrets an endpoint signs with. */
export type Signer = { secret: string; previousSecret: string | null; previousSecretExpiresAt: Date | null };

const signers = new Map<string, StandardWebhook>();
/** The library's signer of a secret (kept: its key is decoded once). */
function signerOf(secret: string): StandardWebhook {
  let signer = signers.get(secret);
  if (!signer) {
    if (signers.size > 1000) signers.clear();
    signer = new StandardWebhook(secret);
    signers.set(secret, signer);
  }
  return signer;
}

/** The three Standard Webhooks headers of a message sent at `at`. */
export function signedHeaders(endpoint: Signer, messageId: string, at: Date, body: string): Record<string, string> {
  const signatures = [signerOf(endpoint.secret).sign(messageId, at, body)];
  if (endpoint.previousSecret && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > at) {
    signatures.push(signerOf(endpoint.previousSecret).sign(messageId, at, body));
  }
  return { 'webhook-id': messageId, 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': signatures.join(' ') };
}

/** The body of an event's delivery. */
export function eventPayload(event: EventRow): string {
  return JSON.stringify({ type: event.type, timestamp: event.occurredAt.toISOString(), data: publicEvent(event) });
}

/** One attempt: the event signed now and posted to `url` (the SSRF guard checks every connection). */
export function sendEvent(endpoint: Signer & { url: string }, event: EventRow, timeoutMs: number): Promise<PostOutcome & { at: Date }> {
  const at = new Date();
  const body = eventPayload(event);
  return postWebhook(endpoint.url, signedHeaders(endpoint, eventIdOf(event), at, body), body, timeoutMs).then((outcome) => ({ ...outcome, at }));
}

export type WebhookTestResult = { messageId: string; delivered: boolean; responseStatus: number | null; latencyMs: number; error: string | null };

/**
 * Sends a `webhook.test` message to the endpoint now, signed like every delivery, and answers what the endpoint did.
 * Not an event: nothing is recorded, and the endpoint gets it whatever its event types and whether it is enabled.
 */
export async function webhookTest(context: Context, id: string): Promise<WebhookTestResult> {
  const webhook = await findWebhook(context, id);
  const at = new Date();
  const messageId = `msg_test_${randomBytes(12).toString('hex')}`;
  const body = JSON.stringify({ type: 'webhook.test', timestamp: at.toISOString(), data: { webhookId: webhook.id, message: 'A test message: your endpoint receives and verifies this webhook.' } });
  const outcome = await postWebhook(webhook.url, signedHeaders(webhook, messageId, at, body), body, webhookSettings().timeoutMs);
  return { messageId, delivered: outcome.error === null, responseStatus: outcome.status, latencyMs: outcome.latencyMs, error: outcome.error };
}
