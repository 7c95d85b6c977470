import { Prisma } from '../../../generated/prisma/client.js';
import { latestPageDay } from '../../shared/growth-filter.js';
import { daysAgo } from '../../shared/time.js';
import { WINDOW_DAYS, type AdsWindow, type LaunchedPeriod, type ReachPeriodValue } from '../enums.js';

// An advertiser's figures over a window (the page is `v`): reach, ads launched, ads live, EU share. A figure the
// page row does not store is computed for every page in one grouped pass, joined by page id: a sort by it
// reads each page's figure anyway, and one pass over an index costs far less than a probe per page.

const sql = Prisma.sql;

/** A figure's SQL value, and the join that provides it (none for stored columns). */
export type Figure = { value: Prisma.Sql; join?: { alias: string; from: Prisma.Sql } };

/** Collects the joins of the figures a query uses (each once) and gives their values. */
export class Figures {
  private readonly joins = new Map<string, Prisma.Sql>();

  use(figure: Figure): Prisma.Sql {
    if (figure.join) this.joins.set(figure.join.alias, figure.join.from);
    return figure.value;
  }

  /** `LEFT JOIN (…) alias ON alias."advertiserId" = v."id"` for each figure used. */
  sql(): Prisma.Sql {
    const joins = [...this.joins].map(([alias, from]) => sql`LEFT JOIN (${from}) ${Prisma.raw(alias)} ON ${Prisma.raw(alias)}."advertiserId" = v."id"`);
    return joins.length ? Prisma.join(joins, ' ') : Prisma.empty;
  }
}

const grouped = (alias: string, from: Prisma.Sql): Figure => ({ value: sql`coalesce(${Prisma.raw(alias)}.n, 0)`, join: { alias, from } });

/** The page's reach over a period: stored totals, or the daily snapshots summed over the window. */
export function reachOver(period: ReachPeriodValue): Figure {
  if (period === 'total') return { value: sql`v."totalReach"` };
  if (period === 'last30d') return { value: sql`v."reach30d"` };
  const days = WINDOW_DAYS[period];
  return grouped(`reach_${days}d`, sql`SELECT m."advertiserId", sum(m."totalImpressions") AS n FROM "advertiser_metric_days" m
    WHERE m."date" > ${latestPageDay()} - ${days}::int GROUP BY 1`);
}

/** The page's ads (one per duplicate group) launched in the period. */
export function adsLaunched(period: LaunchedPeriod): Figure {
  return grouped(`launched_${WINDOW_DAYS[period]}d`, sql`SELECT a."advertiserId", count(*) AS n FROM "ads" a
    WHERE a."isGroupLead" AND a."firstSeenAt" >= ${daysAgo(WINDOW_DAYS[period])} GROUP BY 1`);
}

/** Its ads live now, or at any time in the window. */
export function activeAds(window: AdsWindow): Figure {
  if (window === 'current') return { value: sql`v."liveAdsCount"` };
  return grouped(`active_${WINDOW_DAYS[window]}d`, sql`SELECT a."advertiserId", count(*) AS n FROM "ads" a
    WHERE a."isGroupLead" AND (a."status" = 'active' OR a."lastSeenAt" >= ${daysAgo(WINDOW_DAYS[window])}) GROUP BY 1`);
}

/** The share (0..1) of its live ads shown in the EU/UK. */
export const euAdsShare = (): Figure =>
  grouped('eu_share', sql`SELECT a."advertiserId", avg(CASE WHEN a."isEuAd" THEN 1.0 ELSE 0.0 END) AS n FROM "ads" a
    WHERE a."isGroupLead" AND a."status" = 'active' GROUP BY 1`);

/** The share (0..100) of its ads that are partnership ads. */
export const partnershipPercentage = (): Figure =>
  grouped('partnership', sql`SELECT a."advertiserId", avg(CASE WHEN a."hasPartnerBadge" THEN 100.0 ELSE 0.0 END) AS n FROM "ads" a
    WHERE a."isGroupLead" GROUP BY 1`);
