import { builder } from '../builder.js';
import { cpmArg, frameArgs, seriesPeriod } from './args.js';
import { SnapshotMetaRef } from './types.js';
import { SeriesGranularity } from './enums.js';
import { seriesRange, seriesRangeRule, TimeSeriesRef } from './series.js';
import { frameOf, snapshotMeta, timeSeriesOf, type SeriesPeriod, type TimeSeries } from './service.js';

// GET /v1/brandtrackers/{brandtrackerId}/time-series: the brand's ads launched, live ads and reach increments with
// their spend, by day, week or month, over a rolling period or explicit dates (service/series.ts computes it; the overview's
// graph is the same object).

const NAMES = { period: 'period', startDate: 'startDate', endDate: 'endDate' };

const TimeSeriesResponse = builder.objectRef<{ data: TimeSeries; meta: ReturnType<typeof snapshotMeta> }>('BrandtrackerTimeSeriesResponse').implement({
  fields: (t) => ({
    data: t.field({ type: TimeSeriesRef, resolve: (response) => response.data }),
    meta: t.field({ type: SnapshotMetaRef, resolve: (response) => response.meta }),
  }),
});

const iso = (day: Date) => day.toISOString().slice(0, 10);

builder.queryFields((t) => ({
  brandtrackerTimeSeries: t.field({
    type: TimeSeriesResponse,
    authScopes: { workspace: true },
    description:
      "A brandtracker's ads launched, live ads and EU reach increments with estimated spend, by day, week or month " +
      '(GET /v1/brandtrackers/{brandtrackerId}/time-series). A rolling period or startDate/endDate, never both.',
    args: {
      ...frameArgs({ euOnly: false, snapshot: true }),
      ...cpmArg({ min: 0.01, max: 10000 }),
      granularity: t.arg({ type: SeriesGranularity, defaultValue: 'daily' }),
      period: t.arg.string({
        description: 'today, yesterday, 1d, 7d, 14d, 30d, 90d or 365d: the days ending on today (or on the snapshot day); yesterday is the day before alone. Not with startDate or endDate.',
        validate: seriesPeriod,
      }),
      startDate: t.arg({ type: 'Date', description: 'First day (inclusive). Default: 365 days before the end; at most 365 days before it. Not with period.' }),
      endDate: t.arg({ type: 'Date', description: 'Last day (inclusive). Default: today, or the snapshot day. Not with period, nor with snapshotDate (which is then the end).' }),
    },
    validate: seriesRangeRule(NAMES),
    resolve: async (_root, args, context) => {
      const frame = await frameOf(context, args, { euOnly: false });
      const range = seriesRange(frame, { period: args.period as SeriesPeriod | null | undefined, startDate: args.startDate, endDate: args.endDate }, NAMES);
      const data = await timeSeriesOf(context.prisma, frame, range, args.granularity ?? 'daily');
      return { data, meta: snapshotMeta(frame, `${args.granularity ?? 'daily'} buckets from ${iso(range.start)} to ${iso(range.end)}.`) };
    },
  }),
}));
