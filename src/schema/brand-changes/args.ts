import { z } from 'zod';
import { builder } from '../builder.js';
import { brandtrackerId } from '../shared/ids.js';
import { DEFAULT_DAYS, EXPANSIONS, ITEM_LIMITS, MAX_OFFSET, MAX_SPAN_DAYS, SECTIONS } from './service.js';
import { BrandChangeExpansion, BrandChangeSection } from './types.js';

// The arguments of a brand's changes: the brand (a path parameter of each route), the window, which sections, and the
// page of each section's items. The window's own rules (from ≤ to, its longest span) are checked when it is resolved
// (service.ts windowOf), as they need both bounds and their defaults.

const bound = z.union([z.iso.date(), z.iso.datetime({ offset: true })], { message: '{name} must be a date (YYYY-MM-DD) or an ISO 8601 date-time' });
/** A Facebook page id, as the advertisers routes take it. */
const pageId = z.string().trim().min(1).max(128);
/** A shop id: a uuid (anything else names no shop: not_found, as on the shops routes). */
const shopId = z.string().min(1).max(128);

export const subjectArgs = {
  brandtracker: () => builder.args((t) => ({ brandtrackerId: t.string({ required: true, description: 'The brandtracker (uuid) of the workspace.', validate: brandtrackerId }) })),
  advertiser: () => builder.args((t) => ({ advertiserId: t.string({ required: true, description: 'The advertiser: its Facebook page id.', validate: pageId }) })),
  shop: () => builder.args((t) => ({ shopId: t.string({ required: true, description: 'The shop (uuid).', validate: shopId }) })),
};

export const changesArgs = () =>
  builder.args((t) => ({
    from: t.string({
      description: `The window's start: a date (from its start, UTC) or an ISO 8601 date-time (inclusive). Default: ${DEFAULT_DAYS} days before \`to\`. At most ${MAX_SPAN_DAYS} days before \`to\`, and not after it.`,
      validate: bound,
    }),
    to: t.string({ description: "The window's end: a date (through its end, UTC: the day is included) or an ISO 8601 date-time (exclusive). Default: now.", validate: bound }),
    sections: t.field({
      type: [BrandChangeSection],
      description: 'Only these sections (the others are null); default: all of them. With one section, `offset` pages through it.',
      validate: z.array(z.string()).max(SECTIONS.length),
    }),
    limit: t.int({
      defaultValue: ITEM_LIMITS.defaultLimit,
      description: `Items per section, 1..${ITEM_LIMITS.maxLimit} (default ${ITEM_LIMITS.defaultLimit}); each section's total counts them all.`,
      validate: z.number().int().min(1).max(ITEM_LIMITS.maxLimit),
    }),
    expand: t.field({
      type: [BrandChangeExpansion],
      description: "What items carry beyond their ids, titles, dates and what changed: `ads`, each ad's Ad summary (`ad`); `products`, each product (`product`). Default: neither (`ad` and `product` are null); the totals are the same either way.",
      validate: z.array(z.string()).max(EXPANSIONS.length),
    }),
    offset: t.int({ defaultValue: 0, description: `Items of each section to skip, 0..${MAX_OFFSET} (default 0), newest first.`, validate: z.number().int().min(0).max(MAX_OFFSET) }),
  }));
