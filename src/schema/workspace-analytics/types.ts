import { PublicAd } from '../ads/types.js';
import { builder } from '../builder.js';
import { resolveMediaUrl } from '../shared/media-url.js';
import { listRef, PagePaginationRef, type PagePagination } from '../shared/list.js';
import type { BrandtrackerOfRow, FormatCount, GroupRow, MixRow, RankedRow, TopAdsMetaValue, TrajectoryPoint } from './service.js';

// The types of the workspace analytics: each row names its brandtracker, then what it is about, then its figures.
// The per-brandtracker analytics show some of them too (the hook sample, the landing page's technologies and
// screenshots, the ranked ads' metrics and sorts).

export const WorkspaceBrandtracker = builder.objectRef<BrandtrackerOfRow>('WorkspaceBrandtracker').implement({
  description: 'The brandtracker a workspace analytics row belongs to.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'The public brandtracker id.' }),
    name: t.exposeString('name', { description: "The workspace's display name." }),
    facebookPageId: t.exposeString('facebookPageId', { nullable: true }),
  }),
});

export const HookSampleAd = builder.objectRef<NonNullable<GroupRow['sample']>>('HookSampleAd').implement({
  description: 'The ad with the highest reach among those using the hook.',
  fields: (t) => ({
    adId: t.exposeString('adId'),
    mediaUrl: t.string({ nullable: true, resolve: resolveMediaUrl((p) => p.mediaUrl) }),
    thumbnailUrl: t.string({ nullable: true, resolve: resolveMediaUrl((p) => p.thumbnailUrl) }),
    fullText: t.exposeString('fullText', { nullable: true, description: "The sample ad's transcript, or its copy when it has none." }),
  }),
});

const Hook = builder.objectRef<GroupRow>('WorkspaceHook').implement({
  fields: (t) => ({
    text: t.exposeString('key'),
    sampleAd: t.field({ type: HookSampleAd, nullable: true, resolve: (row) => row.sample }),
  }),
});

const AdCopy = builder.objectRef<GroupRow>('WorkspaceAdCopy').implement({ fields: (t) => ({ text: t.exposeString('key') }) });

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

const LandingPage = builder.objectRef<LandingPageData>('WorkspaceLandingPage').implement({
  fields: (t) => ({
    url: t.exposeString('url'),
    technologies: t.field({ type: [LandingPageTechnology], resolve: (page) => page.technologies }),
    screenshots: t.field({ type: LandingPageScreenshots, resolve: (page) => page.screenshots }),
  }),
});

const usage = {
  usageCount: (t: PothosSchemaTypes.ObjectFieldBuilder<typeof builder.$inferSchemaTypes, GroupRow>) =>
    t.exposeInt('usageCount', { description: 'Ads of the brand using it.' }),
  longestRunning: (t: PothosSchemaTypes.ObjectFieldBuilder<typeof builder.$inferSchemaTypes, GroupRow>) =>
    t.exposeInt('longestRunning', { description: 'Days running of the longest-running of those ads.' }),
  totalImpressions: (t: PothosSchemaTypes.ObjectFieldBuilder<typeof builder.$inferSchemaTypes, GroupRow>) =>
    t.expose('totalImpressions', { type: 'SafeInt', description: 'Reach of those ads, summed.' }),
};

const HookMetrics = builder.objectRef<GroupRow>('WorkspaceHookMetrics').implement({
  fields: (t) => ({
    usageCount: usage.usageCount(t),
    longestRunning: usage.longestRunning(t),
    totalImpressions: usage.totalImpressions(t),
    firstUsedAt: t.expose('firstUsedAt', { type: 'DateTime', description: 'When the first of those ads was first seen.' }),
    lastUsedAt: t.expose('lastUsedAt', { type: 'DateTime', description: 'When the last of those ads was last seen.' }),
  }),
});

const AdCopyMetrics = builder.objectRef<GroupRow>('WorkspaceAdCopyMetrics').implement({
  fields: (t) => ({ usageCount: usage.usageCount(t), longestRunning: usage.longestRunning(t) }),
});

const LandingPageMetrics = builder.objectRef<GroupRow>('WorkspaceLandingPageMetrics').implement({
  fields: (t) => ({ usageCount: usage.usageCount(t), longestRunning: usage.longestRunning(t), totalImpressions: usage.totalImpressions(t) }),
});

const brandtrackerField = (t: PothosSchemaTypes.ObjectFieldBuilder<typeof builder.$inferSchemaTypes, GroupRow>) =>
  t.field({ type: WorkspaceBrandtracker, resolve: (row) => row.brandtracker });

export const WorkspaceHookRow = builder.objectRef<GroupRow>('WorkspaceHookRow').implement({
  fields: (t) => ({ brandtracker: brandtrackerField(t), hook: t.field({ type: Hook, resolve: (row) => row }), metrics: t.field({ type: HookMetrics, resolve: (row) => row }) }),
});

export const WorkspaceAdCopyRow = builder.objectRef<GroupRow>('WorkspaceAdCopyRow').implement({
  fields: (t) => ({ brandtracker: brandtrackerField(t), adCopy: t.field({ type: AdCopy, resolve: (row) => row }), metrics: t.field({ type: AdCopyMetrics, resolve: (row) => row }) }),
});

export const WorkspaceLandingPageRow = builder.objectRef<GroupRow>('WorkspaceLandingPageRow').implement({
  fields: (t) => ({
    brandtracker: brandtrackerField(t),
    landingPage: t.field({ type: LandingPage, resolve: (row) => row.landingPage! }),
    metrics: t.field({ type: LandingPageMetrics, resolve: (row) => row }),
  }),
});

export const HookSort = builder.enumType('WorkspaceHookSort', { values: ['usageCount', 'longestRunning', 'totalImpressions', 'firstUsedAt', 'lastUsedAt'] as const });
export const AdCopySort = builder.enumType('WorkspaceAdCopySort', { values: ['usageCount', 'longestRunning'] as const });
export const LandingPageSort = builder.enumType('WorkspaceLandingPageSort', { values: ['usageCount', 'longestRunning', 'totalImpressions'] as const });

export const HookPage = listRef('WorkspaceHookPage', WorkspaceHookRow, { style: 'page', description: "Hooks of the workspace's brandtrackers." });
export const AdCopyPage = listRef('WorkspaceAdCopyPage', WorkspaceAdCopyRow, { style: 'page', description: "Ad copies of the workspace's brandtrackers." });
export const LandingPagePage = listRef('WorkspaceLandingPagePage', WorkspaceLandingPageRow, { style: 'page', description: "Landing pages of the workspace's brandtrackers." });

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

export const TopAdsMeta = builder.objectRef<TopAdsMetaValue>('TopAdsMeta').implement({
  fields: (t) => ({ reason: t.field({ type: TopAdsReason, description: 'Why the page is empty.', resolve: (meta) => meta.reason }) }),
});

export const TopAdsPeriod = builder.enumType('TopAdsPeriod', { values: ['today', 'yesterday', 'last1d', 'last7d', 'last14d', 'last30d', 'total'] as const });

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

export const TopAdsPage = builder.objectRef<Page>('WorkspaceTopAdsPage').implement({
  fields: (t) => ({
    data: t.field({ type: [TopAdRow], resolve: (page) => page.data }),
    pagination: t.field({ type: PagePaginationRef, resolve: (page) => page.pagination }),
    meta: t.field({ type: TopAdsMeta, nullable: true, description: 'Present when nothing matched.', resolve: (page) => page.meta }),
  }),
});

export const ScalingAdsPage = listRef<Row, Omit<Page, 'meta'>>('WorkspaceScalingAdsPage', ScalingAdRow, { style: 'page' });

export const MediaMixSort = builder.enumType('WorkspaceMediaMixSort', { values: ['activeAds', 'image', 'video', 'dco', 'other'] as const });
const FormatCountRef = builder.objectRef<FormatCount>('MediaMixFormatCount').implement({
  fields: (t) => ({ image: t.exposeInt('image'), video: t.exposeInt('video'), dco: t.exposeInt('dco'), other: t.exposeInt('other') }),
});

const MediaMix = builder.objectRef<FormatCount>('WorkspaceMediaMix').implement({
  fields: (t) => ({ formatCount: t.field({ type: FormatCountRef, resolve: (counts) => counts }) }),
});

const MediaMixMetrics = builder.objectRef<MixRow>('WorkspaceMediaMixMetrics').implement({
  fields: (t) => ({ activeAds: t.exposeInt('activeAds', { description: 'The sum of the four formats.' }) }),
});

const MediaMixRow = builder.objectRef<MixRow>('WorkspaceMediaMixRow').implement({
  fields: (t) => ({
    brandtracker: t.field({ type: WorkspaceBrandtracker, resolve: (row) => row.brandtracker }),
    mediaMix: t.field({ type: MediaMix, resolve: (row) => row.formatCount }),
    metrics: t.field({ type: MediaMixMetrics, resolve: (row) => row }),
  }),
});

export const MediaMixPage = listRef('WorkspaceMediaMixPage', MediaMixRow, { style: 'page', description: "Media mix of the workspace's brandtrackers." });
