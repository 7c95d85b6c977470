import type pg from 'pg';
import { latestHistoryDay } from '../../../db/partitions.js';
import { Prisma, type PrismaClient } from '../../../generated/prisma/client.js';
import { daysRunningSql } from '../../shared/days-running.js';
import { findComputedPage, offsetOf, type PageRequest } from '../../shared/list.js';
import { adsOfScope, countsTotal, scopeSelect, type AnalyticsScope } from './scope.js';

// The ranked ads of tracked brands (one per duplicate group, its lead), for the top-ads and scaling-ads routes:
// one statement finds the page of ads with their brandtracker, their ranking figures and the count (findComputedPage).

const sql = Prisma.sql;

export type RankedAdsSort =
  | 'currentRank' | 'rankDelta' | 'rankDelta7d' | 'rankDelta14d' | 'rankDelta30d'
  | 'reach' | 'reachDelta1d' | 'reachDelta7d' | 'reachDelta30d' | 'daysRunning' | 'duplicates';

const DAYS = daysRunningSql({ alias: 'a', start: 'firstSeenAt', since2018: true });

const SORT_KEYS: Record<RankedAdsSort, { column: string; direction: 'ASC NULLS LAST' | 'DESC NULLS LAST' }> = {
  currentRank: { column: 'currentRank', direction: 'ASC NULLS LAST' },
  rankDelta: { column: 'rankDelta', direction: 'DESC NULLS LAST' },
  rankDelta7d: { column: 'rankDelta7d', direction: 'DESC NULLS LAST' },
  rankDelta14d: { column: 'rankDelta14d', direction: 'DESC NULLS LAST' },
  rankDelta30d: { column: 'rankDelta30d', direction: 'DESC NULLS LAST' },
  reach: { column: 'reach', direction: 'DESC NULLS LAST' },
  reachDelta1d: { column: 'reachDelta1d', direction: 'DESC NULLS LAST' },
  reachDelta7d: { column: 'reachDelta7d', direction: 'DESC NULLS LAST' },
  reachDelta30d: { column: 'reachDelta30d', direction: 'DESC NULLS LAST' },
  daysRunning: { column: 'daysRunning', direction: 'DESC NULLS LAST' },
  duplicates: { column: 'duplicates', direction: 'DESC NULLS LAST' },
};

/** Which rank delta the rows report as `rankDelta` (and sort by): the legacy 7-day one, or one of the window columns. */
export type RankDeltaWindow = 'rankDelta' | 'rankDelta7d' | 'rankDelta14d' | 'rankDelta30d';

export type RankedAd = {
  adId: string;
  brandtracker: { id: string; name: string; facebookPageId: string | null };
  aggregatedReach: bigint;
  duplicates: number;
  daysRunning: number;
  currentRank: number | null;
  rankDelta: number | null;
  improvementPct: number | null;
};

export type RankedAdsQuery = {
  scope: AnalyticsScope;
  euOnly: boolean;
  /** Inactive groups too (top-ads `includeInactive`); otherwise active ones only. */
  includeInactive: boolean;
  /** Further conditions on the ad `a` (the scaling filters). */
  where?: Prisma.Sql[];
  sorts: RankedAdsSort[];
  page: PageRequest;
  /**
   * The delta the rows report (default the legacy `rankDelta` with its stored improvementPct); with a window
   * column, improvementPct is that delta as a percentage of the earlier rank (currentRank + delta), to 0.1.
   */
  deltaWindow?: RankDeltaWindow;
};

function deltaColumns(window: RankDeltaWindow = 'rankDelta'): Prisma.Sql {
  if (window === 'rankDelta') return sql`a."rankDelta", a."improvementPct"`;
  const delta = Prisma.raw(`a."${window}"`);
  return sql`${delta} AS "rankDelta",
    CASE WHEN ${delta} IS NULL OR a."currentRank" IS NULL OR a."currentRank" + ${delta} <= 0 THEN NULL
         ELSE round(${delta} * 1000.0 / (a."currentRank" + ${delta})) / 10 END::float8 AS "improvementPct"`;
}

export function rankedOrder(sorts: RankedAdsSort[], prefix: string): Prisma.Sql {
  const keys = sorts.map((sort) => `${prefix}"${SORT_KEYS[sort].column}" ${SORT_KEYS[sort].direction}`);
  return Prisma.raw([...keys, `${prefix}"adId" ASC`].join(', '));
}

/**
 * The total: from the per-page counts of group leads (migration 0021) when no condition narrows them, else counted.
 */
function totalOf(query: RankedAdsQuery, conditions: Prisma.Sql[]): Prisma.Sql {
  if (query.where?.length) return sql`SELECT count(*)::int AS total FROM s ${adsOfScope({ euOnly: query.euOnly })} WHERE ${Prisma.join(conditions, ' AND ')}`;
  const leads = Prisma.raw(query.includeInactive ? 'n."groupLeads"' : 'n."activeGroupLeads"');
  return countsTotal(leads, query.euOnly);
}

/**
 * One statement: each brand's first offset + limit ads in the order asked (the active ones by current rank: an index
 * scan of ads_active_group_leads_rank_idx), merged into the page by findComputedPage, and the total (totalOf: these
 * rows are only each brand's first ones). Prepared on the pool (as storedGroupPage): its text is fixed for the sorts
 * and flags, and each brand's plan the same for every workspace.
 */
export async function rankedAdsPage(pool: pg.Pool, query: RankedAdsQuery): Promise<{ rows: RankedAd[]; total: number }> {
  const conditions = [sql`a."isGroupLead"`, ...(query.includeInactive ? [] : [sql`a."status" = 'active'`]), ...(query.where ?? [])];
  type Row = Omit<RankedAd, 'brandtracker' | 'aggregatedReach'> & { aggregatedReach: string; brandtrackerId: string; name: string; pageId: string | null };
  const found = await findComputedPage<Row>(pool, {
    with: sql`s AS (${scopeSelect(query.scope)})`,
    rows: sql`
      SELECT s."brandtrackerId", s."name", s."pageId", b.*
      FROM s CROSS JOIN LATERAL (
        SELECT a."id" AS "adId", a."aggregatedReach", a."duplicates", ${DAYS}::int AS "daysRunning",
               a."currentRank", ${deltaColumns(query.deltaWindow)}, a."rankDelta7d", a."rankDelta14d", a."rankDelta30d",
               a."reach", a."reachDelta1d", a."reachDelta7d", a."reachDelta30d"
        FROM "ads" a
        WHERE a."advertiserId" = s."pageId" ${query.euOnly ? sql`AND a."isEuAd"` : sql``} AND ${Prisma.join(conditions, ' AND ')}
        ORDER BY ${rankedOrder(query.sorts, '')}
        LIMIT ${offsetOf(query.page) + query.page.limit}
      ) b`,
    order: (prefix) => rankedOrder(query.sorts, prefix),
    total: totalOf(query, conditions),
    page: query.page,
    prepared: true,
  });
  return {
    total: found.pagination.total,
    rows: found.data.map((row) => ({
      adId: row.adId,
      brandtracker: { id: row.brandtrackerId, name: row.name, facebookPageId: row.pageId },
      aggregatedReach: BigInt(row.aggregatedReach),
      duplicates: row.duplicates,
      daysRunning: row.daysRunning,
      currentRank: row.currentRank,
      rankDelta: row.rankDelta,
      improvementPct: row.improvementPct,
    })),
  };
}

export type TrajectoryPoint = { date: Date; rank: number; totalAds: number | null };

/**
 * Daily page ranks of the given ads over the comparison window (7 days unless told) ending on their latest snapshot day, with
 * the number of ads ranked in their page that day; one statement.
 */
export async function trajectories(prisma: PrismaClient, adIds: string[], days = 7): Promise<Map<string, TrajectoryPoint[]>> {
  const byAd = new Map<string, TrajectoryPoint[]>(adIds.map((id) => [id, []]));
  if (!adIds.length) return byAd;
  const rows = await prisma.$queryRaw<{ adId: string; date: Date; rank: number; totalAds: number | null }[]>`
    WITH t AS (
      SELECT r."adId", r."date", r."rank", a."advertiserId"
      FROM "ad_reach_days" r JOIN "ads" a ON a."id" = r."adId"
      WHERE r."adId" = ANY(${adIds}::text[]) AND r."rank" IS NOT NULL
        AND r."date" >= ${latestHistoryDay('ad_reach_days', sql`"adId" = ANY(${adIds}::text[])`)} - ${days}::int
    ),
    totals AS (
      SELECT a."advertiserId", r."date", count(*)::int AS n
      FROM "ads" a JOIN "ad_reach_days" r ON r."adId" = a."id"
      WHERE a."advertiserId" IN (SELECT DISTINCT "advertiserId" FROM t) AND r."date" IN (SELECT DISTINCT "date" FROM t) AND r."rank" IS NOT NULL
      GROUP BY 1, 2
    )
    SELECT t."adId", t."date", t."rank", totals.n AS "totalAds"
    FROM t LEFT JOIN totals ON totals."advertiserId" = t."advertiserId" AND totals."date" = t."date"
    ORDER BY t."adId", t."date"`;
  for (const row of rows) byAd.get(row.adId)?.push({ date: row.date, rank: row.rank, totalAds: row.totalAds });
  return byAd;
}
