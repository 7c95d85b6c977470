import { Prisma } from '../../../generated/prisma/client.js';
import { findComputedPage, type PageRequest, type SqlSource } from '../../shared/list.js';
import { DAY_MS } from '../../shared/time.js';
import { adsOf, type Frame } from './frame.js';

// The evolution of the texts a brand's ads use (ad copy, headline, landing page): one series per distinct text,
// one point per snapshot day of the brand (a day with reach rows of its ads) in the range, in one statement.
//
// Per text and day: totalAds (its ads first seen by then), activeAds (live that day: first seen on or before it,
// last seen on or after it, or still active), the same for EU ads, totalReach (the latest cumulative reach of its
// ads on or before the day, from ad_reach_days) and percentNewAds (the live ads first seen that day, in percent of
// the live ones). The started/ended counts and reach increments are running sums over the days, so each point
// costs no scan of its own.

export type EvolutionKind = 'adCopy' | 'headline' | 'landingPage';

const KEYS: Record<EvolutionKind, { key: Prisma.Sql; join: Prisma.Sql }> = {
  adCopy: { key: Prisma.sql`a."body"`, join: Prisma.empty },
  headline: { key: Prisma.sql`a."title"`, join: Prisma.empty },
  landingPage: { key: Prisma.sql`lp."url"`, join: Prisma.sql`JOIN "landing_pages" lp ON lp."id" = a."landingPageId"` },
};

export type EvolutionPoint = {
  date: string;
  activeAds: number;
  totalAds: number;
  euAds: number;
  euActiveAds: number;
  totalReach: number;
  percentNewAds: number;
};

export type EvolutionSeries = { key: string; points: EvolutionPoint[] };

export type EvolutionQuery = {
  kind: EvolutionKind;
  range: { start: Date; end: Date };
  /** The exact text (exact mode), or null for every text, ranked (global mode). */
  exact: string | null;
  page: PageRequest;
};

const iso = (day: Date) => day.toISOString().slice(0, 10);

/**
 * One page of series, ranked by their live ads on the range's last day, then their ads, then the text; and the total.
 * The texts are paged by findComputedPage, and their points computed after the page (`after.with`, CTEs on the page
 * `p`), for the page's texts only, in the same statement.
 */
export async function evolutionPage(db: SqlSource, frame: Frame, query: EvolutionQuery): Promise<{ data: EvolutionSeries[]; total: number }> {
  const { key, join } = KEYS[query.kind];
  const [start, end] = [iso(query.range.start), iso(query.range.end)];
  const exact = query.exact === null ? Prisma.empty : Prisma.sql`AND b."key" = ${query.exact}`;
  const found = await findComputedPage<{ key: string; points: EvolutionPoint[] }>(db, {
    with: Prisma.sql`
    b AS MATERIALIZED (
      SELECT a."id", ${key} AS "key", a."isEuAd"::int AS "eu", (a."firstSeenAt" AT TIME ZONE 'UTC')::date AS "first",
             CASE WHEN a."status" = 'active' THEN ${end}::date ELSE (a."lastSeenAt" AT TIME ZONE 'UTC')::date END AS "last"
      FROM "ads" a ${join}
      WHERE ${adsOf(frame)} AND a."firstSeenAt" < ${new Date(query.range.end.getTime() + DAY_MS)}
    ),
    x AS MATERIALIZED (SELECT * FROM b WHERE btrim(b."key") <> '' ${exact}),
    days AS MATERIALIZED (
      SELECT DISTINCT r."date" AS "day" FROM b JOIN "ad_reach_days" r ON r."adId" = b."id" AND r."date" BETWEEN ${start}::date AND ${end}::date
    )`,
    // The texts with their live ads and ads (the order's keys).
    rows: Prisma.sql`
      SELECT x."key", count(*) FILTER (WHERE x."last" >= ${end}::date) AS "live", count(*) AS "ads"
      FROM x GROUP BY 1 HAVING max(x."last") >= ${start}::date`,
    order: (prefix) => Prisma.raw(`${prefix}"live" DESC, ${prefix}"ads" DESC, ${prefix}"key" ASC`),
    after: {
      with: Prisma.sql`
    xp AS MATERIALIZED (SELECT x.* FROM x JOIN p ON p."key" = x."key"),
    ev AS (
      SELECT xp."key", xp."first" AS "day", 1 AS "started", 0 AS "ended", xp."eu" AS "euStarted", 0 AS "euEnded", 0::bigint AS "level" FROM xp
      UNION ALL SELECT xp."key", xp."last" + 1, 0, 1, 0, xp."eu", 0 FROM xp WHERE xp."last" < ${end}::date
      UNION ALL SELECT xp."key", r."date", 0, 0, 0, 0, r."reach" - coalesce(lag(r."reach") OVER (PARTITION BY r."adId" ORDER BY r."date"), 0)
        FROM xp JOIN "ad_reach_days" r ON r."adId" = xp."id" AND r."date" <= ${end}::date
    ),
    u AS (
      SELECT ev.*, FALSE AS "point" FROM ev
      UNION ALL SELECT p."key", days."day", 0, 0, 0, 0, 0, TRUE FROM p CROSS JOIN days
    ),
    w AS (
      SELECT u."key", u."day", u."point", sum(u."started") OVER o AS "startedBy", sum(u."ended") OVER o AS "endedBy",
             sum(u."euStarted") OVER o AS "euStartedBy", sum(u."euEnded") OVER o AS "euEndedBy", sum(u."level") OVER o AS "reach"
      FROM u WINDOW o AS (PARTITION BY u."key" ORDER BY u."day", u."point" ROWS UNBOUNDED PRECEDING)
    ),
    fresh AS (SELECT xp."key", xp."first" AS "day", count(*) AS "n" FROM xp GROUP BY 1, 2),
    pts AS (
      SELECT w."key", json_agg(json_build_object(
        'date', w."day", 'totalAds', w."startedBy", 'activeAds', w."startedBy" - w."endedBy", 'euAds', w."euStartedBy",
        'euActiveAds', w."euStartedBy" - w."euEndedBy", 'totalReach', w."reach",
        'percentNewAds', CASE WHEN w."startedBy" = w."endedBy" THEN 0 ELSE round(100.0 * coalesce(f."n", 0) / (w."startedBy" - w."endedBy"), 1) END
      ) ORDER BY w."day") AS "points"
      FROM w LEFT JOIN fresh f ON f."key" = w."key" AND f."day" = w."day"
      WHERE w."point" GROUP BY w."key"
    )`,
      columns: Prisma.sql`coalesce(pts."points", '[]'::json) AS "points"`,
      joins: Prisma.sql`LEFT JOIN pts ON pts."key" = p."key"`,
    },
    page: query.page,
  });
  return { data: found.data.map((row) => ({ key: row.key, points: row.points })), total: found.pagination.total };
}
