import { queryFromInfo } from '@pothos/plugin-prisma';
import type { GraphQLResolveInfo } from 'graphql';
import type { Context } from '../../context.js';
import { Prisma } from '../../generated/prisma/client.js';
import { adsByIds, DEFAULT_CPM, withCpm } from '../ads/service.js';
import type { AdSummaryRow } from '../ads/types.js';
import { builder } from '../builder.js';
import type { PageRequest } from '../shared/pagination.js';
import { rankedAdsPage, trajectories, type RankDeltaWindow, type RankedAd, type RankedAdsSort, type TrajectoryPoint } from './ranked-ads.js';
import type { AnalyticsScope } from './scope.js';

// What the ranked-ads routes share, workspace-wide and per brandtracker: the row (a ranked ad with its loaded Ad
// summary and, for the rank movers, its trajectory), its metrics objects, loading the page's ads, and the rank
// movers' query (scaling-ads, ad-rank).

export type RankedRow = RankedAd & { ad: AdSummaryRow; trajectory?: TrajectoryPoint[] };

export const TopAdsSort = builder.enumType('WorkspaceTopAdsSort', {
  description: 'currentRank: the page rank (1 = best); rankDelta*: movers; reach*: reach rankings.',
  values: ['currentRank', 'rankDelta', 'rankDelta7d', 'rankDelta14d', 'rankDelta30d', 'reach', 'reachDelta1d', 'reachDelta7d', 'reachDelta30d', 'daysRunning', 'duplicates'] as const,
});
export type TopAdsSortValue = (typeof TopAdsSort)['$inferType'];

export const ScalingSort = builder.enumType('WorkspaceScalingAdsSort', { values: ['rankDelta', 'currentRank', 'rank_delta', 'current_rank'] as const });

const TopAdsReason = builder.enumType('TopAdsReason', { values: ['no_snapshot_for_period', 'no_reach_history_for_period', 'no_matching_ads'] as const });

export const TopAdMetrics = builder.objectRef<RankedRow>('WorkspaceTopAdMetrics').implement({
  fields: (t) => ({
    totalReach: t.expose('aggregatedReach', { type: 'SafeInt', description: "Reach of the ad's duplicate group." }),
    duplicateCount: t.exposeInt('duplicates'),
    daysRunning: t.exposeInt('daysRunning'),
    currentRank: t.exposeInt('currentRank', { nullable: true, description: 'Rank within its page (1 = best); null for an inactive ad.' }),
  }),
});

export const ScalingMetrics = builder.objectRef<RankedRow>('WorkspaceScalingAdMetrics').implement({
  fields: (t) => ({
    currentRank: t.exposeInt('currentRank', { nullable: true }),
    previousRank: t.int({
      nullable: true,
      description: 'The rank at the start of the comparison window: currentRank + rankDelta.',
      resolve: (row) => (row.currentRank === null || row.rankDelta === null ? null : row.currentRank + row.rankDelta),
    }),
    rankDelta: t.exposeInt('rankDelta', { nullable: true, description: 'Places climbed over the comparison window (7 days unless a timeWindow says otherwise).' }),
    improvementPct: t.exposeFloat('improvementPct', { nullable: true, description: 'rankDelta as a percentage of previousRank.' }),
  }),
});

export const TrajectoryPointRef = builder.objectRef<TrajectoryPoint>('AdRankTrajectoryPoint').implement({
  fields: (t) => ({
    date: t.expose('date', { type: 'Date' }),
    rank: t.exposeInt('rank'),
    totalAds: t.exposeInt('totalAds', { nullable: true, description: 'Ads ranked in the page that day.' }),
  }),
});

export type TopAdsMetaValue = { reason: 'no_matching_ads' };

export const TopAdsMeta = builder.objectRef<TopAdsMetaValue>('TopAdsMeta').implement({
  fields: (t) => ({ reason: t.field({ type: TopAdsReason, description: 'Why the page is empty.', resolve: (meta) => meta.reason }) }),
});

/** The Ad summaries of a found page, loaded with the fields the request selects at `path` (one statement). */
export async function withAds(context: Context, info: GraphQLResolveInfo, found: RankedAd[], path: string[] = ['data', 'ad'], cpm = DEFAULT_CPM): Promise<RankedRow[]> {
  if (!found.length) return [];
  const select = queryFromInfo({ context, info, path });
  const ads = await adsByIds(context.prisma, found.map((row) => row.adId), select);
  const byId = new Map(withCpm(ads, cpm).map((row) => [row.id, row]));
  return found.flatMap((row) => (byId.has(row.adId) ? [{ ...row, ad: byId.get(row.adId)! }] : []));
}

export type ScalingQuery = {
  scope: AnalyticsScope;
  euOnly: boolean;
  sortBy: (typeof ScalingSort)['$inferType'];
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
