import { z } from 'zod';
import { PublicAd } from '../ads/types.js';
import { builder } from '../builder.js';
import { deprecatedSnapshotDate } from '../shared/time.js';
import { listRef, pageArgs, pagePagination, pageRequest, type PagePagination } from '../shared/list.js';
import { count } from '../shared/ranges.js';
import { frameArgs, INSIGHT_LIMITS } from './args.js';
import { ScalingMetrics, ScalingSort, SnapshotMetaRef, TrajectoryPointRef } from './types.js';
import { frameOf, scalingAdsPage, snapshotMeta, type RankDeltaWindow, type RankedRow } from './service.js';

// GET /v1/brandtrackers/{brandtrackerId}/scaling-ads and /ad-rank: the legacy rank movers of one brand (the same
// answer on both paths), { ad, metrics, trajectory } per active ad that climbed at least minRankDelta places over
// the comparison window. Prefer top-ads with sortBy rankDelta7d/14d/30d.

const TIME_WINDOWS = ['last7d', 'last14d', 'last30d', '7d', '14d', '30d'] as const;
type ScalingWindow = (typeof TIME_WINDOWS)[number];

const DELTA_OF: Record<ScalingWindow, RankDeltaWindow> = {
  last7d: 'rankDelta7d', '7d': 'rankDelta7d', last14d: 'rankDelta14d', '14d': 'rankDelta14d', last30d: 'rankDelta30d', '30d': 'rankDelta30d',
};

const ScalingAdRow = builder.objectRef<RankedRow>('BrandtrackerScalingAd').implement({
  fields: (t) => ({
    ad: t.field({ type: PublicAd, resolve: (row) => row.ad }),
    metrics: t.field({ type: ScalingMetrics, resolve: (row) => row }),
    trajectory: t.field({ type: [TrajectoryPointRef], description: 'Daily page ranks over the comparison window; may be empty.', resolve: (row) => row.trajectory ?? [] }),
  }),
});

type Page = { data: RankedRow[]; pagination: PagePagination; meta: ReturnType<typeof snapshotMeta> };

// Its meta is the snapshot's (SnapshotMetaRef), not a ListMeta: declared as an extra field.
const ScalingAdsPage = listRef<RankedRow, Page>('BrandtrackerScalingAdsPage', ScalingAdRow, {
  style: 'page',
  fields: (t) => ({ meta: t.field({ type: SnapshotMetaRef, resolve: (page) => page.meta }) }),
});

const scalingArgs = builder.args((t) => ({
  ...frameArgs({ euOnly: false, snapshot: false }),
  ...pageArgs(INSIGHT_LIMITS),
  timeWindow: t.string({
    description:
      'The comparison window: last7d/7d, last14d/14d or last30d/30d (the rank change over those days, and the trajectory\'s days). ' +
      'Omitted: the legacy 7-day rank change, as on GET /v1/workspace/scaling-ads.',
    validate: z.enum(TIME_WINDOWS, { message: `{name} must be one of ${TIME_WINDOWS.join(', ')}` }),
  }),
  sortBy: t.field({ type: ScalingSort, defaultValue: 'rankDelta', description: 'rankDelta (biggest climb first) or currentRank (best first); rank_delta and current_rank are aliases.' }),
  maxCurrentRank: t.int({ description: 'Only ads ranked at or above this (1 = best).', validate: count.min(1) }),
  minRankDelta: t.int({ defaultValue: 1, description: 'Fewest places climbed over the window (default 1).', validate: count }),
  snapshotDate: t.string({ deprecationReason: 'Accepted and ignored: the ranks are current.', validate: deprecatedSnapshotDate }),
}));

const scalingField = (path: string, description: string) =>
  builder.queryField(path === 'scaling-ads' ? 'brandtrackerScalingAds' : 'brandtrackerAdRank', (t) =>
    t.field({
      type: ScalingAdsPage,
      authScopes: { workspace: true },
      description: `${description} (GET /v1/brandtrackers/{brandtrackerId}/${path}): active ads that climbed at least minRankDelta places over the comparison window, with their daily rank trajectory. Prefer top-ads with sortBy rankDelta7d, rankDelta14d or rankDelta30d.`,
      args: scalingArgs,
      resolve: async (_root, args, context, info) => {
        const frame = await frameOf(context, { brandtrackerId: args.brandtrackerId, euOnly: args.euOnly }, { euOnly: false });
        const page = pageRequest(args, INSIGHT_LIMITS.defaultLimit);
        const window = args.timeWindow ? DELTA_OF[args.timeWindow as ScalingWindow] : undefined;
        const found = await scalingAdsPage(context, info, {
          scope: { workspaceId: frame.workspaceId, brandtrackerIds: [frame.brandtrackerId] }, euOnly: frame.euOnly,
          sortBy: args.sortBy ?? 'rankDelta', maxCurrentRank: args.maxCurrentRank, minRankDelta: args.minRankDelta ?? 1, window, page,
        });
        const note = `Current ranks; rank change over ${args.timeWindow ?? 'the last 7 days'}. snapshotDate is ignored.`;
        return { data: found.data, pagination: pagePagination(page, found.total), meta: { ...snapshotMeta(frame, note), requestedSnapshotDate: args.snapshotDate ?? null } };
      },
    }),
  );

scalingField('scaling-ads', 'Legacy rank movers of a brandtracker');
scalingField('ad-rank', 'Legacy ad-rank compatibility data of a brandtracker, the same as scaling-ads');
