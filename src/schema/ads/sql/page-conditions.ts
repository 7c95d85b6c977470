import { Prisma } from '../../../generated/prisma/client.js';
import { LATEST_PAGE_DAY } from '../../shared/growth-filter.js';
import { range } from '../../shared/ranges.js';
import { growthConditions } from './growth.js';
import { primaryShopConditions } from './shop-filter.js';
import type { AdFilter, ReachPeriodValue } from './search.js';

// The conditions on the ad's advertiser page (v): its reach, spend and ads over a period, its primary shop, the
// growth filters, and the ad's rank among the page's ads.

const sql = Prisma.sql;

/** Page impressions over a period: stored totals, or summed daily snapshots for the short windows. */
function pageReach(period: ReachPeriodValue): Prisma.Sql {
  if (period === 'total') return sql`v."totalReach"`;
  if (period === 'last30d') return sql`v."reach30d"`;
  const days = period === 'last24h' ? 1 : 7;
  return sql`(SELECT coalesce(sum(m."totalImpressions"), 0) FROM "advertiser_metric_days" m WHERE m."advertiserId" = a."advertiserId" AND m."date" > ${LATEST_PAGE_DAY} - ${days}::int)`;
}

function rankDeltaFor(window: 7 | 14 | 30): Prisma.Sql {
  return window === 7 ? sql`a."rankDelta"` : rankDeltaOver(window);
}

export function pageConditions(filter: AdFilter): Prisma.Sql[] {
  const out: Prisma.Sql[] = [];
  range(sql`length(coalesce(a."body", ''))`, filter.descriptionLength, out);
  if (filter.adCopyHashes?.length) out.push(sql`left(md5(coalesce(a."body", '')), 12) = ANY(${filter.adCopyHashes.map((h) => h.toLowerCase())}::text[])`);
  if (filter.market?.main?.length) out.push(sql`a."mainCountry" = ANY(${filter.market.main}::text[])`);
  if (filter.market?.among?.length) out.push(sql`a."targetedCountries" && ${filter.market.among}::text[]`);
  if (filter.market?.exclude?.length) out.push(sql`NOT (a."targetedCountries" && ${filter.market.exclude}::text[])`);
  const page = filter.page;
  if (page?.reach) range(pageReach(page.reach.period), page.reach, out);
  if (page?.spend) range(sql`round(${pageReach(page.spend.period)} * ${page.spend.cpm}::float8 / 1000)`, page.spend, out);
  if (page?.ads) {
    const ads = page.ads.since
      ? sql`(SELECT count(*) FROM "ads" o WHERE o."advertiserId" = a."advertiserId" AND o."firstSeenAt" >= ${page.ads.since})`
      : sql`v."liveAdsCount"`;
    range(ads, page.ads, out);
  }
  out.push(...primaryShopConditions(filter.shop));
  out.push(...growthConditions(filter.growth));
  const rank = filter.rank;
  if (rank) {
    const delta = rankDeltaFor(rank.window);
    if (rank.minDelta != null) out.push(sql`${delta} >= ${rank.minDelta}`);
    if (rank.hideDeclining) out.push(sql`coalesce(${delta}, 0) >= 0`);
    if (rank.directions?.length) {
      const byDirection = { rising: sql`${delta} > 0`, falling: sql`${delta} < 0`, stable: sql`${delta} = 0` };
      out.push(sql`(${Prisma.join(rank.directions.map((d) => byDirection[d]), ' OR ')})`);
    }
    if (rank.max) {
      const value = rank.max.basis === 'alltime' ? sql`(SELECT min(r."rank") FROM "ad_reach_days" r WHERE r."adId" = a."id")` : sql`a."currentRank"`;
      out.push(rank.max.mode === 'percentile'
        ? sql`${value} * 100.0 / greatest(v."liveAdsCount", 1) <= ${rank.max.value}::float8`
        : sql`${value} <= ${rank.max.value}::float8`);
    }
  }
  return out;
}

export function rankDeltaOver(days: number): Prisma.Sql {
  return sql`((SELECT r."rank" FROM "ad_reach_days" r WHERE r."adId" = a."id" AND r."date" = (SELECT max("date") FROM "ad_reach_days") - ${days}::int) - a."currentRank")`;
}
