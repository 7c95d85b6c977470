import { Prisma } from '../../generated/prisma/client.js';
import { daysAgo } from '../shared/time.js';
import { WINDOW_DAYS, type AdsWindow, type LaunchedPeriod, type ReachPeriodValue } from './enums.js';

// An advertiser's figures in SQL (the page is `v`): reach over a window, ads launched, ads live, EU share.

const sql = Prisma.sql;
const LATEST_DAY = sql`(SELECT max("date") FROM "advertiser_metric_days")`;

/** The page's reach over a period: stored totals, or the daily snapshots summed over the window. */
export function reachOver(period: ReachPeriodValue): Prisma.Sql {
  if (period === 'total') return sql`v."totalReach"`;
  if (period === 'last30d') return sql`v."reach30d"`;
  return sql`(SELECT coalesce(sum(m."totalImpressions"), 0) FROM "advertiser_metric_days" m
    WHERE m."advertiserId" = v."id" AND m."date" > ${LATEST_DAY} - ${WINDOW_DAYS[period]}::int)`;
}

/** The page's ads (one per duplicate group) launched in the period. */
export const adsLaunched = (period: LaunchedPeriod) =>
  sql`(SELECT count(*) FROM "ads" a WHERE a."advertiserId" = v."id" AND a."isGroupLead" AND a."firstSeenAt" >= ${daysAgo(WINDOW_DAYS[period])})`;

/** Its ads live now, or at any time in the window. */
export function activeAds(window: AdsWindow): Prisma.Sql {
  if (window === 'current') return sql`v."liveAdsCount"`;
  return sql`(SELECT count(*) FROM "ads" a WHERE a."advertiserId" = v."id" AND a."isGroupLead"
    AND (a."status" = 'active' OR a."lastSeenAt" >= ${daysAgo(WINDOW_DAYS[window])}))`;
}

export const EU_ADS_SHARE = sql`(SELECT coalesce(avg(CASE WHEN a."isEuAd" THEN 1.0 ELSE 0.0 END), 0) FROM "ads" a
  WHERE a."advertiserId" = v."id" AND a."isGroupLead" AND a."status" = 'active')`;

