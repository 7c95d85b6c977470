import { z } from 'zod';
import { builder } from '../builder.js';
import { SortOrder } from '../shared/enums.js';
import { brandtrackerId, folderId } from '../shared/ids.js';
import { pageArgs } from '../shared/list.js';
import { snapshotDate } from '../shared/time.js';
import { TimeWindow } from './enums.js';
import { SERIES_PERIODS, type AnalyticsScope } from './service.js';

// The arguments the tracked-brand analytics share, with their validation. Every per-brandtracker route takes the
// frame's (the brandtracker, EU-only with the route's default, the snapshot date), the insights lists the window and
// the page; the workspace routes take the scope (which of the workspace's brandtrackers) and the page. The brand's ad
// lists' filters are in ad-list-args.ts.

/** `today`, `yesterday`, `1d` … `365d`: a string argument, as GraphQL enum values cannot start with a digit. */
export const seriesPeriod = z.enum(SERIES_PERIODS, { message: `{name} must be one of ${SERIES_PERIODS.join(', ')}` });

/** The CPM in euros per 1,000 reach; routes narrow the bounds (`cpmArg`). */
export function cpmArg(bounds: { min: number; max: number; integer?: boolean }) {
  const base = bounds.integer ? z.number().int() : z.number();
  return builder.args((t) => ({
    cpm: t.float({
      defaultValue: 9,
      description: `CPM in euros per 1,000 reach for estimatedSpend (${bounds.min}..${bounds.max}, default 9): round(reach × cpm / 1000).`,
      validate: base.min(bounds.min).max(bounds.max),
    }),
  }));
}

/** The brandtracker, EU-only with the route's default, and, when the route reads snapshots, `snapshotDate`. */
export function frameArgs(options: { euOnly: boolean; snapshot: boolean }) {
  return builder.args((t) => ({
    brandtrackerId: t.string({ required: true, description: 'The brandtracker (uuid) of the workspace.', validate: brandtrackerId }),
    euOnly: t.boolean({ defaultValue: options.euOnly, description: `Only ads flagged as EU ads (default ${options.euOnly}).` }),
    ...(options.snapshot
      ? {
          snapshotDate: t.string({
            description: '"latest" or YYYY-MM-DD: read the latest snapshot day on or before it. Omitted: the live data.',
            validate: snapshotDate,
          }),
        }
      : {}),
  }));
}

/** The page of the insights lists (hooks, ad copies, headlines, transcripts, …): `page`, `limit` 1..50, default 20. */
export const INSIGHT_LIMITS = { defaultLimit: 20, maxLimit: 50 };

/** `timePeriod` (default live) and the page, as every insights list takes them. */
export function insightArgs() {
  return builder.args((t) => ({
    timePeriod: t.field({ type: TimeWindow, defaultValue: 'live', description: 'The ads read: live (default) or first seen in the window before the snapshot day (now without snapshotDate).' }),
    ...pageArgs(INSIGHT_LIMITS),
  }));
}

/** The order of a sorted list (insights, landing pages and the workspace routes). */
export function orderArg() {
  return builder.args((t) => ({ order: t.field({ type: SortOrder, defaultValue: 'desc' }) }));
}

// The workspace routes (workspace.ts): the page, which brands, EU-only.

export const ANALYTICS_LIMITS = { defaultLimit: 20, maxLimit: 100 };

export function scopeArgs() {
  return builder.args((t) => ({
    ...pageArgs(ANALYTICS_LIMITS),
    brandtrackerIds: t.stringList({ description: 'Only these brandtrackers (repeated or comma-separated public ids).', validate: z.array(brandtrackerId).max(100) }),
    folderIds: t.intList({ description: 'Only the brandtrackers of these folders (repeated or comma-separated).', validate: z.array(folderId).max(100) }),
    euOnly: t.boolean({ defaultValue: false, description: 'Only ads flagged as EU ads.' }),
  }));
}

type ScopeArgValues = { brandtrackerIds?: string[] | null; folderIds?: number[] | null };

export function scopeOf(workspaceId: string, args: ScopeArgValues): AnalyticsScope {
  return { workspaceId, brandtrackerIds: args.brandtrackerIds ?? undefined, folderIds: args.folderIds ?? undefined };
}
