import { latestHistoryDay } from '../../../db/partitions.js';
import { Prisma } from '../../../generated/prisma/client.js';
import { groupsOfConditions, growthMatch, growthPercent, latestPageDay, shopTrafficGrowth, type GrowthCondition } from '../../shared/growth-filter.js';
import { shopAds } from './figures-loader.js';

// The growth filters of POST /v1/shops/query (and of POST /v1/emails/query, on the sending shop): conditions
// `{ period, comparison, value, operator }` on a growth in percent, read for the shop being filtered (s).

const sql = Prisma.sql;
const S = sql`s."id"`;

/** Growth in percent over `days` of a figure read at two moments: (now - then) / then * 100. */
function growthOf(kind: 'traffic' | 'ads' | 'pageReach' | 'adReach', days: number): Prisma.Sql {
  switch (kind) {
    case 'traffic':
      return shopTrafficGrowth(days); // a fraction: growthMatch compares it as one
    case 'ads': {
      const since = (from: number, to: number) =>
        sql`(SELECT count(*) FROM ${shopAds(S)} AND a."firstSeenAt" >= now() - ${from} * interval '1 day' AND a."firstSeenAt" < now() - ${to} * interval '1 day')`;
      return growthPercent(since(days, 0), since(2 * days, days));
    }
    case 'pageReach': {
      const sum = (from: number, to: number) => sql`(SELECT sum(m."totalImpressions") FROM "advertiser_shops" l JOIN "advertiser_metric_days" m ON m."advertiserId" = l."advertiserId"
        WHERE l."shopId" = ${S} AND m."date" > ${latestPageDay()} - ${from}::int AND m."date" <= ${latestPageDay()} - ${to}::int)`;
      return growthPercent(sum(days, 0), sum(2 * days, days));
    }
    case 'adReach': {
      const reachAt = (ago: number) => sql`(SELECT sum(r."reach") FROM "advertiser_shops" l JOIN "ads" a ON a."advertiserId" = l."advertiserId"
        JOIN "ad_reach_days" r ON r."adId" = a."id" WHERE l."shopId" = ${S} AND r."date" = ${latestHistoryDay('ad_reach_days')} - ${ago}::int)`;
      return growthPercent(reachAt(0), reachAt(days));
    }
  }
}

/** Conditions joined left to right by their `operator` (AND binds tighter than OR); none → nothing. */
export function growthConditions(kind: Parameters<typeof growthOf>[0], conditions: GrowthCondition[] | null | undefined, out: Prisma.Sql[]) {
  if (!conditions?.length) return;
  out.push(growthMatch(groupsOfConditions(conditions), (days) => growthOf(kind, days), kind === 'traffic')!);
}
