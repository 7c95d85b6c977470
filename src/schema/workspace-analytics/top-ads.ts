import { PublicAd } from '../ads/types.js';
import { builder } from '../builder.js';
import { PagePaginationRef, pagePagination, type PagePagination } from '../shared/pagination.js';
import { count } from '../shared/ranges.js';
import { pageOf, scopeArgs, scopeOf } from './args.js';
import { deprecatedSnapshotDate } from '../shared/time.js';
import { rankedAdsPage } from './ranked-ads.js';
import {
  ScalingMetrics, ScalingSort, scalingAdsPage, TopAdMetrics, TopAdsMeta, TopAdsSort, TrajectoryPointRef, withAds, type RankedRow, type TopAdsMetaValue,
} from './ranked-rows.js';
import { WorkspaceBrandtracker } from './types.js';

// GET /v1/workspace/top-ads (current rankings) and /scaling-ads (its legacy rank-movers form): the tracked brands'
// ads, one per duplicate group, as { brandtracker, ad, metrics }. One credit per returned row.

const TopAdsPeriod = builder.enumType('TopAdsPeriod', { values: ['today', 'yesterday', 'last1d', 'last7d', 'last14d', 'last30d', 'total'] as const });

type Row = RankedRow;

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

type Page = { data: Row[]; pagination: PagePagination; meta: TopAdsMetaValue | null };

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
      const found = await rankedAdsPage(context.pool, {
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
      const found = await scalingAdsPage(context, info, {
        scope: scopeOf(workspace.id, args), euOnly: args.euOnly ?? false, sortBy: args.sortBy ?? 'rankDelta',
        maxCurrentRank: args.maxCurrentRank, minRankDelta: args.minRankDelta ?? 1, page,
      });
      return { data: found.data, pagination: pagePagination(page, found.total), meta: null };
    },
  }),
}));
