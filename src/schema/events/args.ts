import { z } from 'zod';
import { EVENT_TYPE_NAMES } from '../../data/events.js';
import { builder } from '../builder.js';
import { SortOrder } from '../shared/enums.js';
import { brandtrackerId } from '../shared/ids.js';
import { MAX_CURSOR_LENGTH } from '../shared/list.js';
import { EVENT_POSITION_DESCRIPTION, readPosition } from './cursor.js';

// The arguments of the feed and of the live subscription: the same filters, validated alike on both (and so on
// GET /v1/events, GET /v1/events/stream and the whats_new tool, which run these fields).

/** The feed's page sizes: the specification's cursor lists (1..100, default 25). */
export const EVENT_LIST_LIMITS = { defaultLimit: 25, maxLimit: 100 } as const;

/** Most event types one request names (a query string carries at most 20 values of a list). */
const MAX_TYPES = 20;

const types = z.array(z.enum(EVENT_TYPE_NAMES as [string, ...string[]])).max(MAX_TYPES);
/** An event's subject ids as the events carry them: ad and product ids are text, shops uuids, pages digits. */
const subjectId = z.string().trim().min(1).max(128);
const shopId = z.guid({ message: '{name} must be a UUID' });
const position = z.string().max(MAX_CURSOR_LENGTH).refine((value) => readPosition(value) !== null, {
  message: '{name} must be a pagination.nextCursor, a stream event id (SSE id) or an event id (evt_…) returned by this server',
});

/** The filters every way of reading the events takes. */
export const eventFilterArgs = () =>
  builder.args((t) => ({
    types: t.stringList({
      description: `Only these event types (up to ${MAX_TYPES}): ${EVENT_TYPE_NAMES.join(', ')}.`,
      validate: types,
    }),
    brandtrackerId: t.string({
      description: "Only the events of one of the workspace's active brandtrackers (its Facebook page and shops); another workspace's answers not_found, as a missing one.",
      validate: brandtrackerId,
    }),
    advertiserId: t.string({ description: 'Only the events of this advertiser (Facebook page id).', validate: subjectId }),
    shopId: t.string({ description: 'Only the events of this shop (uuid).', validate: shopId }),
    adId: t.string({ description: 'Only the events of this ad (`facebook_…`, `tiktok_…`, `google_…`).', validate: subjectId }),
    productId: t.string({ description: 'Only the events of this product.', validate: subjectId }),
    from: t.field({ type: 'DateTime', description: 'Only events that occurred at or after this instant (ISO 8601).' }),
    to: t.field({ type: 'DateTime', description: 'Only events that occurred before this instant (ISO 8601).' }),
  }));

/** Where a read resumes: after one event. */
export const afterArg = (description: string) =>
  builder.args((t) => ({
    after: t.string({ description: `${description} ${EVENT_POSITION_DESCRIPTION}`, validate: position }),
  }));

/** The feed's own arguments: its order, its page size and the spec's `cursor`. */
export const feedArgs = () =>
  builder.args((t) => ({
    order: t.field({ type: SortOrder, defaultValue: 'desc', description: 'desc (default): newest first. asc: oldest first, to read forward from `after`.' }),
    limit: t.int({
      defaultValue: EVENT_LIST_LIMITS.defaultLimit,
      description: `Events per page, 1..${EVENT_LIST_LIMITS.maxLimit} (default ${EVENT_LIST_LIMITS.defaultLimit}).`,
      validate: z.number().int().min(1).max(EVENT_LIST_LIMITS.maxLimit),
    }),
    cursor: t.string({
      description: `The previous page's pagination.nextCursor, as on every cursor list (the same as \`after\`; send one of them). At most ${MAX_CURSOR_LENGTH} characters.`,
      validate: position,
    }),
  }));

/** Cross-argument rules of the feed and the subscription: `from` before `to`; one of `cursor` and `after`. */
export const crossChecks = z.looseObject({}).superRefine((raw, context) => {
  const args = raw as { from?: Date | null; to?: Date | null; cursor?: string | null; after?: string | null };
  if (args.from && args.to && args.from >= args.to) context.addIssue({ code: 'custom', path: ['to'], message: '{name} must be later than from' });
  if (args.cursor && args.after) context.addIssue({ code: 'custom', path: ['cursor'], message: 'send either {name} or after, not both' });
});
