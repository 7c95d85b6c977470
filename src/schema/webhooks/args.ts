import { z } from 'zod';
import { EVENT_TYPE_NAMES } from '../../data/events.js';
import { checkWebhookUrlForm, MAX_WEBHOOK_URL_LENGTH, WebhookTargetRefused } from '../../net/webhook-target.js';

// The bounds of webhook input: a URL of up to 2,048 characters in a form the delivery accepts (src/net/webhook-target.ts;
// where it resolves is checked by the service), event types from the events' table or '*', a strict filter of at most
// 100 ids per list, a description of up to 500 characters.

export const webhookId = z.guid({ message: '{name} must be a UUID' });
export const deliveryId = z.string().regex(/^[1-9][0-9]{0,17}$/, { message: '{name} must be a delivery id (a positive whole number)' });

export const webhookUrl = z
  .string()
  .max(MAX_WEBHOOK_URL_LENGTH)
  .superRefine((value, context) => {
    try {
      checkWebhookUrlForm(value);
    } catch (error) {
      if (!(error instanceof WebhookTargetRefused)) throw error;
      context.addIssue({ code: 'custom', message: error.message.replace(/^url\b/, '{name}') });
    }
  });

export const EVENT_TYPE_CHOICES = [...EVENT_TYPE_NAMES, '*'] as const;

export const eventTypes = z.array(z.enum(EVENT_TYPE_CHOICES)).min(1).max(EVENT_TYPE_CHOICES.length);

/** One list of ids: 1 to 100 of them. */
const ids = (item: z.ZodType<string>) => z.array(item).min(1).max(100).optional();

export const webhookFilter = z
  .object({
    brandtrackerIds: ids(z.guid({ message: '{name} must hold brandtracker ids (UUIDs)' })),
    advertiserIds: ids(z.string().trim().min(1).max(128)),
    shopIds: ids(z.guid({ message: '{name} must hold shop ids (UUIDs)' })),
  })
  .strict()
  .nullable();

export const webhookDescription = z.string().max(500);

/** The event types as stored: each once, and '*' alone when it is named. */
export function eventTypesOf(list: readonly string[]): string[] {
  return list.includes('*') ? ['*'] : [...new Set(list)];
}

/** Limits of the webhook and delivery lists. */
export const LIST_LIMITS = { defaultLimit: 25, maxLimit: 100 } as const;
