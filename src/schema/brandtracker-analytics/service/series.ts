import { Prisma, type PrismaClient } from '../../../generated/prisma/client.js';
import { spendSql, type Frame } from './frame.js';

// The brand's daily series, in one statement: ads launched, ads live, and the reach history's impressions and spend,
// bucketed by day, week or month (GET /brandtrackers/{id}/time-series, and the overview's graph). An ad is live on
// the days from its first-seen day to its last-seen day (to the series' end while it is active); impressions are the
// daily increments of the ads' cumulative reach rows (ad_reach_days), summed per page and day ahead of time.

export const GRANULARITIES = ['daily', 'weekly', 'monthly'] as const;
export type Granularity = (typeof GRANULARITIES)[number];

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
 * the reach increments and their running total; then per bucket. Read from the page's precomputed days
 * ("advertiser_series_days", migration 0038: ads started, ads stopped, reach increments per day); days before the
 * range are folded into its first day, so the running figures start right.
 */
function dailySeriesSql(frame: Frame, range: { start: Date; end: Date }, bucket: Prisma.Sql): Prisma.Sql {
  // Days as ISO strings: ::date of a string does not depend on the session's time zone.
  const [start, end] = [iso(range.start), iso(range.end)];
  return Prisma.sql`
    WITH d AS (
      SELECT greatest(sd."date", ${start}::date) AS "day", sum(sd."started") AS "n", sum(sd."started") FILTER (WHERE sd."date" >= ${start}::date) AS "launched",
             sum(sd."ended") AS "ended", sum(sd."reachLevel") AS "level", sum(sd."reachDelta") FILTER (WHERE sd."date" >= ${start}::date) AS "delta"
      FROM "advertiser_series_days" sd
      WHERE sd."advertiserId" = ${frame.pageId ?? ''} AND sd."euOnly" = ${frame.euOnly} AND sd."date" <= ${end}::date
      GROUP BY 1
    ),
    days AS (SELECT d::date AS "day", date_trunc(${bucket}, d)::date AS "bucket" FROM generate_series(${start}::timestamp, ${end}::timestamp, interval '1 day') d),
    daily AS (
      SELECT days."day", days."bucket", coalesce(d."launched", 0) AS "launched", coalesce(d."delta", 0) AS "delta",
             sum(coalesce(d."n", 0)) OVER o AS "startedBy", sum(coalesce(d."ended", 0)) OVER o AS "endedBy", sum(coalesce(d."level", 0)) OVER o AS "cumulative"
      FROM days LEFT JOIN d ON d."day" = days."day"
      WINDOW o AS (ORDER BY days."day")
    )
    SELECT min("day") AS "date", sum("launched")::int AS "launched", (max("startedBy") - min("endedBy"))::int AS "live",
           sum("delta")::bigint AS "impressions", (array_agg("cumulative" ORDER BY "day" DESC))[1]::bigint AS "cumulative",
           ${spendSql(frame, Prisma.sql`sum("delta")`)} AS "spend"
    FROM daily GROUP BY "bucket" ORDER BY 1`;
}
