import type { Context } from '../../context.js';
import { builder } from '../builder.js';
import { pagePagination, pageRequest } from '../shared/list.js';
import { count } from '../shared/ranges.js';
import { deprecatedSnapshotDate } from '../shared/time.js';
import { ANALYTICS_LIMITS, orderArg, scopeArgs, scopeOf } from './args.js';
import { mediaMixPage, rankedAdsPage, scalingAdsPage, storedGroupPage, withAds, type GroupSort, type StoredGroupKind } from './service.js';
import { AdCopySort, HookSort, ScalingSort, TopAdsSort } from './types.js';
import { AdCopyPage, HookPage, LandingPagePage, MediaMixPage, MediaMixSort, ScalingAdsPage, TopAdsPeriod, WorkspaceLandingPageSort, WorkspaceTopAdsPageRef } from './workspace-types.js';

// The workspace routes, across the workspace's active brandtrackers (all the brands it tracks, narrowed by
// brandtrackerIds or folderIds): GET /v1/workspace/hooks, /ad-copies and /landing-pages (what the tracked brands' ads
// use, one row per brand and hook, copy or landing page, over all their ads), /top-ads (current rankings) and
// /scaling-ads (its legacy rank-movers form), /media-mix (each brand's active ads by format). One credit per returned row.

const requestedPage = (args: { page?: number | null; limit?: number | null }) => pageRequest(args, ANALYTICS_LIMITS.defaultLimit);

type Args = { page?: number | null; limit?: number | null; brandtrackerIds?: string[] | null; folderIds?: number[] | null; euOnly?: boolean | null; order?: 'asc' | 'desc' | null; sortBy?: GroupSort | null };

async function groups(context: Context, kind: StoredGroupKind, args: Args) {
  const { workspace } = await context.principal();
  return storedGroupPage(context.pool, {
    scope: scopeOf(workspace.id, args),
    kind,
    euOnly: args.euOnly ?? false,
    sort: args.sortBy ?? 'usageCount',
    order: args.order ?? 'desc',
    page: requestedPage(args),
  });
}

builder.queryFields((t) => ({
  workspaceHooks: t.field({
    type: HookPage,
    authScopes: { workspace: true },
    description: "Hooks across the workspace's active brandtrackers (GET /v1/workspace/hooks). One credit per returned row.",
    args: { ...scopeArgs(), ...orderArg(), sortBy: t.arg({ type: HookSort, defaultValue: 'usageCount' }) },
    resolve: (_root, args, context) => groups(context, 'hook', args),
  }),
  workspaceAdCopies: t.field({
    type: AdCopyPage,
    authScopes: { workspace: true },
    description: "Ad copies across the workspace's active brandtrackers (GET /v1/workspace/ad-copies). One credit per returned row.",
    args: { ...scopeArgs(), ...orderArg(), sortBy: t.arg({ type: AdCopySort, defaultValue: 'usageCount' }) },
    resolve: (_root, args, context) => groups(context, 'adCopy', args),
  }),
  workspaceLandingPages: t.field({
    type: LandingPagePage,
    authScopes: { workspace: true },
    description: "Landing pages across the workspace's active brandtrackers (GET /v1/workspace/landing-pages). One credit per returned row.",
    args: { ...scopeArgs(), ...orderArg(), sortBy: t.arg({ type: WorkspaceLandingPageSort, defaultValue: 'usageCount' }) },
    resolve: (_root, args, context) => groups(context, 'landingPage', args),
  }),
}));

builder.queryFields((t) => ({
  workspaceTopAds: t.field({
    type: WorkspaceTopAdsPageRef,
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
      const page = requestedPage(args);
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
      const page = requestedPage(args);
      const found = await scalingAdsPage(context, info, {
        scope: scopeOf(workspace.id, args), euOnly: args.euOnly ?? false, sortBy: args.sortBy ?? 'rankDelta',
        maxCurrentRank: args.maxCurrentRank, minRankDelta: args.minRankDelta ?? 1, page,
      });
      return { data: found.data, pagination: pagePagination(page, found.total) };
    },
  }),
}));

builder.queryFields((t) => ({
  workspaceMediaMix: t.field({
    type: MediaMixPage,
    authScopes: { workspace: true },
    description: "Formats of the active ads of each of the workspace's brandtrackers (GET /v1/workspace/media-mix), most first. One credit per returned row.",
    args: { ...scopeArgs(), sortBy: t.arg({ type: MediaMixSort, defaultValue: 'activeAds' }) },
    resolve: async (_root, args, context) => {
      const { workspace } = await context.principal();
      return mediaMixPage(context.prisma, scopeOf(workspace.id, args), args.euOnly ?? false, args.sortBy ?? 'activeAds', requestedPage(args));
    },
  }),
}));
