import { queryFromInfo } from '@pothos/plugin-prisma';
import type { GraphQLResolveInfo } from 'graphql';
import { z } from 'zod';
import type { Context } from '../../context.js';
import { Prisma, type Ad } from '../../generated/prisma/client.js';
import { DEFAULT_CPM, withCpm } from '../ads/figures.js';
import { PublicAd } from '../ads/types.js';
import { builder } from '../builder.js';
import { PagePaginationRef, pagePagination, type PagePagination } from '../shared/pagination.js';
import { count } from '../shared/ranges.js';
import { pageOf, scopeArgs, scopeOf } from './args.js';
import { rankedAdsPage, trajectories, type RankedAd, type RankedAdsSort, type TrajectoryPoint } from './ranked-ads.js';
import { WorkspaceBrandtracker } from './types.js';

// GET /v1/workspace/top-ads (current rankings) and /scaling-ads (its legacy rank-movers form): the tracked brands'
// ads, one per duplicate group, as { brandtracker, ad, metrics }. One credit per returned row.

const TopAdsSort = builder.enumType('WorkspaceTopAdsSort', {
  description: 'currentRank: the page rank (1 = best); rankDelta*: movers; reach*: reach rankings.',
  values: ['currentRank', 'rankDelta', 'rankDelta7d', 'rankDelta14d', 'rankDelta30d', 'reach', 'reachDelta1d', 'reachDelta7d', 'reachDelta30d', 'daysRunning', 'duplicates'] as const,
});
const TopAdsPeriod = builder.enumType('TopAdsPeriod', { values: ['today', 'yesterday', 'last1d', 'last7d', 'last14d', 'last30d', 'total'] as const });
const ScalingSort = builder.enumType('WorkspaceScalingAdsSort', { values: ['rankDelta', 'currentRank', 'rank_delta', 'current_rank'] as const });
const TopAdsReason = builder.enumType('TopAdsReason', { values: ['no_snapshot_for_period', 'no_reach_history_for_period', 'no_matching_ads'] as const });

type Row = RankedAd & { ad: Ad; trajectory?: TrajectoryPoint[] };

const TopAdMetrics = builder.objectRef<Row>('WorkspaceTopAdMetrics').implement({
  fields: (t) => ({
    totalReach: t.expose('aggregatedReach', { type: 'SafeInt', description: "Reach of the ad's duplicate group." }),
    duplicateCount: t.exposeInt('duplicates'),
    daysRunning: t.exposeInt('daysRunning'),
    currentRank: t.exposeInt('currentRank', { nullable: true, description: 'Rank within its page (1 = best); null for an inactive ad.' }),
  }),
});

const ScalingMetrics = builder.objectRef<Row>('WorkspaceScalingAdMetrics').implement({
  fields: (t) => ({
    currentRank: t.exposeInt('currentRank', { nullable: true }),
    previousRank: t.int({ nullable: true, description: 'The rank 7 days ago.', resolve: (row) => (row.currentRank === null || row.rankDelta === null ? null : row.currentRank + row.rankDelta) }),
    rankDelta: t.exposeInt('rankDelta', { nullable: true, description: 'Places climbed over 7 days.' }),
    improvementPct: t.exposeFloat('improvementPct', { nullable: true }),
  }),
});

const TrajectoryPointRef = builder.objectRef<TrajectoryPoint>('AdRankTrajectoryPoint').implement({
  fields: (t) => ({
    date: t.expose('date', { type: 'Date' }),
    rank: t.exposeInt('rank'),
    totalAds: t.exposeInt('totalAds', { nullable: true, description: 'Ads ranked in the page that day.' }),
  }),
});

const brandtracker = (t: PothosSchemaTypes.ObjectFieldBuilder<typeof builder.$inferSchemaTypes, Row>) => t.field({ type: WorkspaceBrandtracker, resolve: (row) => row.brandtracker });
const ad = (t: PothosSchemaTypes.ObjectFieldBuilder<typeof builder.$inferSchemaTypes, Row>) => t.field({ type: PublicAd, resolve: (row) => row.ad });

const TopAdRow = builder.objectRef<Row>('WorkspaceTopAd').implement({
  fields: (t) => ({ brandtracker: brandtracker(t), ad: ad(t), metrics: t.field({ type: TopAdMetrics, resolve: (row) => row }) }),
});

const ScalingAdRow = builder.objectRef<Row>('WorkspaceScalingAd').implement({
  fields: (t) => ({
    brandtracker: brandtracker(t),
    ad: ad(t),
    metrics: t.field({ type: ScalingMetrics, resolve: (row) => row }),
    trajectory: t.field({ type: [TrajectoryPointRef], resolve: (row) => row.trajectory ?? [] }),
  }),
});

type Page = { data: Row[]; pagination: PagePagination; meta: { reason: 'no_matching_ads' } | null };

const TopAdsMeta = builder.objectRef<{ reason: 'no_matching_ads' }>('TopAdsMeta').implement({
  fields: (t) => ({ reason: t.field({ type: TopAdsReason, description: 'Why the page is empty.', resolve: (meta) => meta.reason }) }),
});

const TopAdsPage = builder.objectRef<Page>('WorkspaceTopAdsPage').implement({
  fields: (t) => ({
    data: t.field({ type: [TopAdRow], resolve: (page) => page.data }),
    pagination: t.field({ type: PagePaginationRef, resolve: (page) => page.pagination }),
    meta: t.field({ type: TopAdsMeta, nullable: true, description: 'Present when nothing matched.', resolve: (page) => page.meta }),
  }),
});

const ScalingAdsPage = builder.objectRef<Page>('WorkspaceScalingAdsPage').implement({
  fields: (t) => ({
    data: t.field({ type: [ScalingAdRow], resolve: (page) => page.data }),
    pagination: t.field({ type: PagePaginationRef, resolve: (page) => page.pagination }),
  }),
});

/** The ads of a found page, loaded with the fields the request selects (one statement). */
async function withAds(context: Context, info: GraphQLResolveInfo, found: RankedAd[]): Promise<Row[]> {
  if (!found.length) return [];
  const select = queryFromInfo({ context, info, path: ['data', 'ad'] });
  const ads = await context.prisma.ad.findMany({ where: { id: { in: found.map((row) => row.adId) } }, relationLoadStrategy: 'join', ...select });
  const byId = new Map(withCpm(ads as Ad[], DEFAULT_CPM).map((row) => [row.id, row]));
  return found.flatMap((row) => (byId.has(row.adId) ? [{ ...row, ad: byId.get(row.adId)! }] : []));
}

const deprecatedSnapshotDate = z.string().max(32);

builder.queryFields((t) => ({
  workspaceTopAds: t.field({
    type: TopAdsPage,
    authScopes: { workspace: true },
    description: "Current rankings across the workspace's active brandtrackers (GET /v1/workspace/top-ads). One credit per returned row, whatever the number of brandtrackers.",
    args: {
      ...scopeArgs(),
      sortBy: t.arg({ type: TopAdsSort, defaultValue: 'currentRank' }),
      includeInactive: t.arg.boolean({ defaultValue: false, description: 'Inactive ads too.' }),
      period: t.arg({ type: TopAdsPeriod, deprecationReason: 'Accepted and ignored: the rankings are current.' }),
      snapshotDate: t.arg.string({ deprecationReason: 'Accepted and ignored: the rankings are current.', validate: deprecatedSnapshotDate }),
    },
    resolve: async (_root, args, context, info) => {
      const { workspace } = await context.principal();
      const page = pageOf(args);
      const sortBy = args.sortBy ?? 'currentRank';
      const found = await rankedAdsPage(context.prisma, {
        scope: scopeOf(workspace.id, args), euOnly: args.euOnly ?? false, includeInactive: args.includeInactive ?? false,
        sorts: sortBy === 'currentRank' ? ['currentRank', 'reach'] : [sortBy], page,
      });
      const data = await withAds(context, info, found.rows);
      return { data, pagination: pagePagination(page, found.total), meta: data.length ? null : { reason: 'no_matching_ads' as const } };
    },
  }),
  workspaceScalingAds: t.field({
    type: ScalingAdsPage,
    authScopes: { workspace: true },
    description:
      'Legacy rank movers across the workspace (GET /v1/workspace/scaling-ads): active ads that climbed at least minRankDelta places over 7 days, ' +
      'with their daily rank trajectory. Prefer top-ads with sortBy rankDelta7d. One credit per returned row.',
    args: {
      ...scopeArgs(),
      sortBy: t.arg({ type: ScalingSort, defaultValue: 'rankDelta' }),
      maxCurrentRank: t.arg.int({ description: 'Only ads ranked at or above this (1 = best).', validate: count.min(1) }),
      minRankDelta: t.arg.int({ defaultValue: 1, description: 'Fewest places climbed (default 1).', validate: count }),
      period: t.arg({ type: TopAdsPeriod, deprecationReason: 'Accepted and ignored.' }),
      snapshotDate: t.arg.string({ deprecationReason: 'Accepted and ignored.', validate: deprecatedSnapshotDate }),
    },
    resolve: async (_root, args, context, info) => {
      const { workspace } = await context.principal();
      const page = pageOf(args);
      const byRank = args.sortBy === 'currentRank' || args.sortBy === 'current_rank';
      const where = [Prisma.sql`a."rankDelta" >= ${args.minRankDelta ?? 1}`, ...(args.maxCurrentRank != null ? [Prisma.sql`a."currentRank" <= ${args.maxCurrentRank}`] : [])];
      const sorts: RankedAdsSort[] = byRank ? ['currentRank', 'rankDelta'] : ['rankDelta', 'currentRank'];
      const found = await rankedAdsPage(context.prisma, { scope: scopeOf(workspace.id, args), euOnly: args.euOnly ?? false, includeInactive: false, where, sorts, page });
      const [data, paths] = await Promise.all([withAds(context, info, found.rows), trajectories(context.prisma, found.rows.map((row) => row.adId))]);
      return { data: data.map((row) => ({ ...row, trajectory: paths.get(row.adId) ?? [] })), pagination: pagePagination(page, found.total), meta: null };
    },
  }),
}));
