import { builder } from '../builder.js';
import { resolveMediaUrl } from '../shared/media-url.js';
import type { GroupRow, RankedRow, snapshotMeta, TopAdsMetaValue, TrajectoryPoint } from './service.js';

// The object types and enums both the per-brandtracker routes and the workspace routes (workspace-types.ts) answer
// with: the snapshot `meta`, the hook sample, the landing page's technologies and screenshots, the ranked ads'
// metrics, sorts and trajectory. Each route's own types are declared beside its root field (media-mix.ts, ads.ts,
// content.ts, …).

type SnapshotMeta = ReturnType<typeof snapshotMeta>;

export const SnapshotMetaRef = builder.objectRef<SnapshotMeta>('BrandtrackerSnapshotMeta').implement({
  description: 'Which snapshot day a response read.',
  fields: (t) => ({
    requestedSnapshotDate: t.exposeString('requestedSnapshotDate', { nullable: true, description: '"latest", the date asked for, or null (live data).' }),
    resolvedSnapshotDate: t.expose('resolvedSnapshotDate', { type: 'Date', nullable: true, description: 'The snapshot day read: the latest on or before the one asked for.' }),
    dataFreshnessLagDays: t.exposeInt('dataFreshnessLagDays', { nullable: true, description: 'Days from the day asked for (today for "latest") back to the day read.' }),
    periodNote: t.exposeString('periodNote', { description: 'What the figures cover.' }),
  }),
});

// Grouped aggregates (hooks, ad copies, landing pages).

export const HookSampleAd = builder.objectRef<NonNullable<GroupRow['sample']>>('HookSampleAd').implement({
  description: 'The ad with the highest reach among those using the hook.',
  fields: (t) => ({
    adId: t.exposeString('adId'),
    mediaUrl: t.string({ nullable: true, resolve: resolveMediaUrl((p) => p.mediaUrl) }),
    thumbnailUrl: t.string({ nullable: true, resolve: resolveMediaUrl((p) => p.thumbnailUrl) }),
    fullText: t.exposeString('fullText', { nullable: true, description: "The sample ad's transcript, or its copy when it has none." }),
  }),
});

type LandingPageData = NonNullable<GroupRow['landingPage']>;

export const LandingPageTechnology = builder.objectRef<LandingPageData['technologies'][number]>('LandingPageTechnologyRef').implement({
  fields: (t) => ({ id: t.exposeID('id'), name: t.exposeString('name'), iconUrl: t.string({ nullable: true, resolve: resolveMediaUrl((p) => p.iconUrl) }) }),
});

export const LandingPageScreenshots = builder.objectRef<LandingPageData['screenshots']>('LandingPageScreenshots').implement({
  fields: (t) => ({
    desktop: t.string({ nullable: true, resolve: resolveMediaUrl((p) => p.desktop) }),
    mobile: t.string({ nullable: true, resolve: resolveMediaUrl((p) => p.mobile) }),
    head: t.string({ nullable: true, resolve: resolveMediaUrl((p) => p.head) }),
  }),
});

export const HookSort = builder.enumType('WorkspaceHookSort', { values: ['usageCount', 'longestRunning', 'totalImpressions', 'firstUsedAt', 'lastUsedAt'] as const });
export const AdCopySort = builder.enumType('WorkspaceAdCopySort', { values: ['usageCount', 'longestRunning'] as const });

// Ranked ads (top-ads, scaling-ads, ad-rank).

export const TopAdsSort = builder.enumType('WorkspaceTopAdsSort', {
  description: 'currentRank: the page rank (1 = best); rankDelta*: movers; reach*: reach rankings.',
  values: ['currentRank', 'rankDelta', 'rankDelta7d', 'rankDelta14d', 'rankDelta30d', 'reach', 'reachDelta1d', 'reachDelta7d', 'reachDelta30d', 'daysRunning', 'duplicates'] as const,
});

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

export const TopAdsMeta = builder.objectRef<TopAdsMetaValue>('TopAdsMeta').implement({
  fields: (t) => ({ reason: t.field({ type: TopAdsReason, description: 'Why the page is empty.', resolve: (meta) => meta.reason }) }),
});
