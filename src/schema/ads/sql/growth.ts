import { Prisma } from '../../../generated/prisma/client.js';
import { growthMatch, growthPercent, pagesByAdsGrowth, pagesByReachGrowth, type GrowthFilter } from '../../shared/growth-filter.js';

// The growth filters of POST /v1/ads/query on the ad (a) and its page: the ad's reach, the page's ads and reach.
// The primary shop's traffic growth is a shop condition (shop-filter.ts).

const sql = Prisma.sql;

export type AdGrowthFilter = { ads?: GrowthFilter | null; pageReach?: GrowthFilter | null; adReach?: GrowthFilter | null };

/**
 * The ad's reach now against its reach at the period's start, as the stored gains define it (reachDelta7d,
 * reachDelta30d: reach minus the last reach-history row on or before that day; 0 for an ad first seen after it,
 * which then has no growth). Migration 0028 indexes both growths, written exactly as here.
 */
export function adReachGrowth(days: number): Prisma.Sql {
  const gain = days === 7 ? sql`a."reachDelta7d"` : sql`a."reachDelta30d"`;
  return growthPercent(sql`a."reach"`, sql`(a."reach" - ${gain})`);
}

export function growthConditions(growth: AdGrowthFilter | undefined): Prisma.Sql[] {
  if (!growth) return [];
  const out: Prisma.Sql[] = [];
  const adReach = growthMatch(growth.adReach, adReachGrowth);
  if (adReach) out.push(adReach);
  if (growth.ads) out.push(sql`a."advertiserId" IN (${pagesByAdsGrowth(growth.ads)})`);
  if (growth.pageReach) out.push(sql`a."advertiserId" IN (${pagesByReachGrowth(growth.pageReach)})`);
  return out;
}
