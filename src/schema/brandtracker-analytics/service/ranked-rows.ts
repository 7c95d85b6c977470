import { queryFromInfo } from '@pothos/plugin-prisma';
import type { GraphQLResolveInfo } from 'graphql';
import type { Context } from '../../../context.js';
import { Prisma } from '../../../generated/prisma/client.js';
import { adsByIds, DEFAULT_CPM, withCpm } from '../../ads/service.js';
import type { AdSummaryRow } from '../../ads/types.js';
import { inIdOrder, type PageRequest } from '../../shared/list.js';
import { rankedAdsPage, trajectories, type RankDeltaWindow, type RankedAd, type RankedAdsSort, type TrajectoryPoint } from './ranked-ads.js';
import type { AnalyticsScope } from './scope.js';

// What the ranked-ads routes share, workspace-wide and per brandtracker: the row (a ranked ad with its loaded Ad
// summary and, for the rank movers, its trajectory), loading the page's ads, and the rank movers' query
// (scaling-ads, ad-rank).

export type RankedRow = RankedAd & { ad: AdSummaryRow; trajectory?: TrajectoryPoint[] };

type ScalingSortValue = 'rankDelta' | 'currentRank' | 'rank_delta' | 'current_rank';

export type TopAdsMetaValue = { reason: 'no_matching_ads' };

/** The Ad summaries of a found page, loaded with the fields the request selects at `path` (one statement). */
export async function withAds(context: Context, info: GraphQLResolveInfo, found: RankedAd[], path: string[] = ['data', 'ad'], cpm = DEFAULT_CPM): Promise<RankedRow[]> {
  if (!found.length) return [];
  const select = queryFromInfo({ context, info, path });
  const ads = await adsByIds(context.prisma, found.map((row) => row.adId), select);
  const rankOf = new Map(found.map((row) => [row.adId, row]));
  const rows = withCpm(ads, cpm).map((ad) => ({ ...rankOf.get(ad.id)!, ad }));
  return inIdOrder(found.map((row) => row.adId), rows, (row) => row.adId);
}

export type ScalingQuery = {
  scope: AnalyticsScope;
  euOnly: boolean;
  sortBy: ScalingSortValue;
  maxCurrentRank?: number | null;
  minRankDelta: number;
  /** The comparison window's delta (default the legacy 7-day `rankDelta`) and the days of the trajectory. */
  window?: RankDeltaWindow;
  page: PageRequest;
};

const TRAJECTORY_DAYS: Record<RankDeltaWindow, number> = { rankDelta: 7, rankDelta7d: 7, rankDelta14d: 14, rankDelta30d: 30 };

/** Active ads that climbed at least minRankDelta places, with their daily rank trajectory: three statements. */
export async function scalingAdsPage(context: Context, info: GraphQLResolveInfo, query: ScalingQuery) {
  const window = query.window ?? 'rankDelta';
  const delta = Prisma.raw(`a."${window}"`);
  const where = [Prisma.sql`${delta} >= ${query.minRankDelta}`, ...(query.maxCurrentRank != null ? [Prisma.sql`a."currentRank" <= ${query.maxCurrentRank}`] : [])];
  const byRank = query.sortBy === 'currentRank' || query.sortBy === 'current_rank';
  const sorts: RankedAdsSort[] = byRank ? ['currentRank', 'rankDelta'] : ['rankDelta', 'currentRank'];
  const found = await rankedAdsPage(context.pool, { scope: query.scope, euOnly: query.euOnly, includeInactive: false, where, sorts, page: query.page, deltaWindow: window });
  const [data, paths] = await Promise.all([withAds(context, info, found.rows), trajectories(context.prisma, found.rows.map((row) => row.adId), TRAJECTORY_DAYS[window])]);
  return { data: data.map((row) => ({ ...row, trajectory: paths.get(row.adId) ?? [] })), total: found.total };
}
