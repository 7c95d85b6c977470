import { Prisma, type PrismaClient } from '../../../generated/prisma/client.js';
import { DAY_MS } from '../../shared/time.js';
import { adsOf, spendSql, type Frame } from './frame.js';

// The brand's daily series, in one statement: ads launched, ads live, and the reach history's impressions and spend,
// bucketed by day, week or month (GET /brandtrackers/{id}/time-series, and the overview's graph). An ad is live on
// the days from its first-seen day to its last-seen day (to the series' end while it is active); impressions are the
// daily increments of the ads' cumulative reach rows (ad_reach_days).

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
