import { z } from 'zod';
import { validationError } from '../../errors.js';
import { Prisma, type PrismaClient } from '../../generated/prisma/client.js';
import { builder } from '../builder.js';
import { DAY_MS } from '../shared/time.js';
import { adsOf, seriesDays, spendSql, type Frame, type SeriesPeriod } from './frame.js';

// The brand's daily series, in one statement: ads launched, ads live, and the reach history's impressions and spend,
// bucketed by day, week or month. GET /brandtrackers/{id}/time-series answers it whole; the overview's graph is the
// same object. An ad is live on the days from its first-seen day to its last-seen day (to the series' end while it
// is active); impressions are the daily increments of the ads' cumulative reach rows (ad_reach_days).

export const GRANULARITIES = ['daily', 'weekly', 'monthly'] as const;
export type Granularity = (typeof GRANULARITIES)[number];

export const SeriesGranularity = builder.enumType('BrandtrackerSeriesGranularity', {
  description: 'Bucket size: daily, weekly (ISO weeks, from Monday) or monthly (calendar months).',
  values: GRANULARITIES,
});

/** The longest series: 366 days, the default range (the end day and the 365 days before it). */
export const MAX_SERIES_DAYS = 366;

export type DateRange = { startDate: Date; endDate: Date };
export type CountPoint = { date: Date; count: number };
export type ImpressionsPoint = { date: Date; impressions: bigint; cumulativeImpressions: bigint; estimatedSpend: bigint };
export type TimeSeries = {
  granularity: Granularity;
  dateRange: DateRange;
  adsLaunched: CountPoint[];
  liveAds: CountPoint[];
  euImpressionsSpend: ImpressionsPoint[];
  cpm: number;
};

export const DateRangeRef = builder.objectRef<DateRange>('BrandtrackerDateRange').implement({
  description: 'Inclusive UTC days.',
  fields: (t) => ({ startDate: t.expose('startDate', { type: 'Date' }), endDate: t.expose('endDate', { type: 'Date' }) }),
});

const CountPointRef = builder.objectRef<CountPoint>('BrandtrackerCountPoint').implement({
  description: "One bucket: `date` is its first day within the series' range.",
  fields: (t) => ({ date: t.expose('date', { type: 'Date' }), count: t.exposeInt('count') }),
});

const ImpressionsPointRef = builder.objectRef<ImpressionsPoint>('BrandtrackerImpressionsSpendPoint').implement({
  description: "One bucket of the reach history (EU reach, Meta's impressions-style figure): `date` is its first day within the range.",
  fields: (t) => ({
    date: t.expose('date', { type: 'Date' }),
    impressions: t.expose('impressions', { type: 'SafeInt', description: "Reach gained in the bucket: the daily increments of the ads' cumulative reach (an ad whose history starts after its launch day adds nothing on its first recorded day)." }),
    cumulativeImpressions: t.expose('cumulativeImpressions', { type: 'SafeInt', description: "The ads' latest cumulative reach on the bucket's last day." }),
    estimatedSpend: t.expose('estimatedSpend', { type: 'SafeInt', description: 'round(impressions × cpm / 1000).' }),
  }),
});

export const TimeSeriesRef = builder.objectRef<TimeSeries>('BrandtrackerTimeSeries').implement({
  description: "The brand's ads over days. Every ad counts (duplicates included); with euOnly only EU ads count, in every series.",
  fields: (t) => ({
    granularity: t.field({ type: SeriesGranularity, resolve: (series) => series.granularity }),
    dateRange: t.field({ type: DateRangeRef, resolve: (series) => series.dateRange }),
    adsLaunched: t.field({ type: [CountPointRef], description: 'Ads first seen in the bucket.', resolve: (series) => series.adsLaunched }),
    liveAds: t.field({ type: [CountPointRef], description: 'Ads live on at least one day of the bucket (first seen on or before its last day, last seen on or after its first; an active ad is live to the end).', resolve: (series) => series.liveAds }),
    euImpressionsSpend: t.field({ type: [ImpressionsPointRef], resolve: (series) => series.euImpressionsSpend }),
    cpm: t.exposeFloat('cpm'),
  }),
});

/** The argument names of a series range: time-series says period/startDate/endDate, overview timeSeries…. */
export type RangeNames = { period: string; startDate: string; endDate: string };
export type RangeArgs = { period?: SeriesPeriod | null; startDate?: Date | null; endDate?: Date | null };

/** A rolling period or explicit dates, never both; endDate never with snapshotDate (which is then the end). */
export function seriesRangeRule(names: RangeNames) {
  return z.looseObject({}).superRefine((raw, ctx) => {
    const args = raw as Record<string, unknown>;
    const given = (name: string) => args[name] != null;
    if (given(names.period) && (given(names.startDate) || given(names.endDate))) {
      ctx.addIssue({ code: 'custom', path: [names.period], message: `{name} cannot be combined with ${names.startDate} or ${names.endDate}` });
    }
    if (given(names.endDate) && given('snapshotDate')) {
      ctx.addIssue({ code: 'custom', path: [names.endDate], message: '{name} cannot be combined with snapshotDate (snapshotDate is then the end date)' });
    }
  });
}

/**
 * The days a series covers: the period ending on the frame's day, or startDate..endDate (endDate defaults to the
 * frame's day: today, or the snapshot day; startDate to 365 days before the end). A 400 names the bad bound.
 */
export function seriesRange(frame: Frame, args: RangeArgs, names: RangeNames): { start: Date; end: Date } {
  if (args.period) return seriesDays(frame, args.period);
  const end = args.endDate ?? frame.day;
  const start = args.startDate ?? new Date(end.getTime() - (MAX_SERIES_DAYS - 1) * DAY_MS);
  if (start > end) throw validationError([{ argument: names.startDate, expected: [`${names.startDate} must be on or before ${names.endDate} (${iso(end)})`] }]);
  if ((end.getTime() - start.getTime()) / DAY_MS + 1 > MAX_SERIES_DAYS) {
    throw validationError([{ argument: names.startDate, expected: [`${names.startDate} must be at most ${MAX_SERIES_DAYS - 1} days before ${names.endDate} (${iso(end)})`] }]);
  }
  return { start, end };
}

const iso = (day: Date) => day.toISOString().slice(0, 10);

const BUCKET: Record<Granularity, Prisma.Sql> = { daily: Prisma.raw(`'day'`), weekly: Prisma.raw(`'week'`), monthly: Prisma.raw(`'month'`) };

type Row = { date: Date; launched: number; live: number; impressions: bigint; cumulative: bigint; spend: bigint };

/** The frame's series over a range, one statement. */
export async function timeSeriesOf(prisma: Pick<PrismaClient, '$queryRaw'>, frame: Frame, range: { start: Date; end: Date }, granularity: Granularity): Promise<TimeSeries> {
  const rows = await prisma.$queryRaw<Row[]>`${dailySeriesSql(frame, range, BUCKET[granularity])}`;
  return {
    granularity,
    dateRange: { startDate: range.start, endDate: range.end },
    adsLaunched: rows.map((row) => ({ date: row.date, count: row.launched })),
    liveAds: rows.map((row) => ({ date: row.date, count: row.live })),
    euImpressionsSpend: rows.map((row) => ({ date: row.date, impressions: row.impressions, cumulativeImpressions: row.cumulative, estimatedSpend: row.spend })),
    cpm: frame.cpm,
  };
}

/**
 * Per day: launches, the ads started by the day and those ended before it (live = the difference, both cumulative),
 * the reach increments and their running total; then per bucket. Ads and reach rows before the range are folded into
 * its first day, so the running figures start right.
 */
function dailySeriesSql(frame: Frame, range: { start: Date; end: Date }, bucket: Prisma.Sql): Prisma.Sql {
  // Days as ISO strings: ::date of a string does not depend on the session's time zone.
  const [start, end] = [iso(range.start), iso(range.end)];
  return Prisma.sql`
    WITH x AS MATERIALIZED (
      SELECT a."id", (a."firstSeenAt" AT TIME ZONE 'UTC')::date AS "first",
             CASE WHEN a."status" = 'active' THEN ${end}::date ELSE (a."lastSeenAt" AT TIME ZONE 'UTC')::date END AS "last"
      FROM "ads" a WHERE ${adsOf(frame)} AND a."firstSeenAt" < ${new Date(range.end.getTime() + DAY_MS)}
    ),
    days AS (SELECT d::date AS "day", date_trunc(${bucket}, d)::date AS "bucket" FROM generate_series(${start}::timestamp, ${end}::timestamp, interval '1 day') d),
    s AS (SELECT greatest(x."first", ${start}::date) AS "day", count(*) AS "n", count(*) FILTER (WHERE x."first" >= ${start}::date) AS "launched" FROM x GROUP BY 1),
    e AS (SELECT greatest(x."last" + 1, ${start}::date) AS "day", count(*) AS "n" FROM x GROUP BY 1),
    r AS (
      SELECT r."date", r."reach" - coalesce(lag(r."reach") OVER w, 0) AS "level",
             CASE WHEN lag(r."reach") OVER w IS NULL AND r."date" <> x."first" THEN 0 ELSE r."reach" - coalesce(lag(r."reach") OVER w, 0) END AS "delta"
      FROM x JOIN "ad_reach_days" r ON r."adId" = x."id" AND r."date" <= ${end}::date
      WINDOW w AS (PARTITION BY r."adId" ORDER BY r."date")
    ),
    rd AS (SELECT greatest(r."date", ${start}::date) AS "day", sum(r."level") AS "level", sum(r."delta") FILTER (WHERE r."date" >= ${start}::date) AS "delta" FROM r GROUP BY 1),
    daily AS (
      SELECT days."day", days."bucket", coalesce(s."launched", 0) AS "launched", coalesce(rd."delta", 0) AS "delta",
             sum(coalesce(s."n", 0)) OVER o AS "startedBy", sum(coalesce(e."n", 0)) OVER o AS "endedBy", sum(coalesce(rd."level", 0)) OVER o AS "cumulative"
      FROM days LEFT JOIN s ON s."day" = days."day" LEFT JOIN e ON e."day" = days."day" LEFT JOIN rd ON rd."day" = days."day"
      WINDOW o AS (ORDER BY days."day")
    )
    SELECT min("day") AS "date", sum("launched")::int AS "launched", (max("startedBy") - min("endedBy"))::int AS "live",
           sum("delta")::bigint AS "impressions", (array_agg("cumulative" ORDER BY "day" DESC))[1]::bigint AS "cumulative",
           ${spendSql(frame, Prisma.sql`sum("delta")`)} AS "spend"
    FROM daily GROUP BY "bucket" ORDER BY 1`;
}
