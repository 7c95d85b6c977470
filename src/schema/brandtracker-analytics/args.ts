import { z } from 'zod';
import { brandtrackerId } from '../brandtrackers/service.js';
import { builder } from '../builder.js';
import { SortOrder } from '../shared/enums.js';
import { pageArgs } from '../shared/pagination.js';
import { snapshotDate } from '../shared/time.js';
import { RANK_PERIODS, SERIES_PERIODS, TIME_WINDOWS, type snapshotMeta } from './frame.js';

// The arguments the per-brandtracker analytics share, written once: the brandtracker, EU-only (each route has its
// own default), the snapshot date, the CPM, the order; the window enum (a route names its argument: `timePeriod:
// t.arg({ type: TimeWindow, defaultValue: 'live' })`); and the snapshot `meta` type.

export const TimeWindow = builder.enumType('BrandtrackerTimeWindow', {
  description: 'live: ads running at the snapshot (active now without snapshotDate); lastN: ads first seen in the N days before it.',
  values: TIME_WINDOWS,
});

export const RankPeriod = builder.enumType('BrandtrackerRankPeriod', {
  description: 'How far back a ranking figure reaches from the snapshot day; total: no bound.',
  values: RANK_PERIODS,
});

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

export function orderArg() {
  return builder.args((t) => ({ order: t.field({ type: SortOrder, defaultValue: 'desc' }) }));
}

type SnapshotMeta = ReturnType<typeof snapshotMeta>;

export const SnapshotMetaRef = builder.objectRef<SnapshotMeta>('BrandtrackerSnapshotMeta').implement({
  description: 'Which snapshot day a response read.',
  fields: (t) => ({
    requestedSnapshotDate: t.exposeString('requestedSnapshotDate', { nullable: true, description: '"latest", the date asked for, or null (live data).' }),
    resolvedSnapshotDate: t.expose('resolvedSnapshotDate', { type: 'Date', nullable: true, description: 'The snapshot day read: the latest on or before the one asked for.' }),
    dataFreshnessLagDays: t.exposeInt('dataFreshnessLagDays', { nullable: true, description: 'Days from the day asked for (today for "latest") back to the day read.' }),
    periodNote: t.exposeString('periodNote', { description: 'What the figures cover.' }),
  }),
});

