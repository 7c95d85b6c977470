import { PublicAd } from '../ads/types.js';
import { builder } from '../builder.js';
import { listRef, type PagePagination } from '../shared/list.js';
import type { BrandtrackerOfRow, FormatCount, GroupRow, MixRow, RankedRow, TopAdsMetaValue } from './service.js';
import { HookSampleAd, LandingPageScreenshots, LandingPageTechnology, ScalingMetrics, TopAdMetrics, TopAdsMeta, TrajectoryPointRef } from './types.js';

// The types of the workspace routes (workspace.ts): each row names its brandtracker, then what it is about, then its
// figures. The pieces the per-brandtracker routes show too (the hook sample, the landing page's technologies and
// screenshots, the ranked ads' metrics and sorts) are in types.ts.

export const WorkspaceBrandtracker = builder.objectRef<BrandtrackerOfRow>('WorkspaceBrandtracker').implement({
  description: 'The brandtracker a workspace analytics row belongs to.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'The public brandtracker id.' }),
    name: t.exposeString('name', { description: "The workspace's display name." }),
    facebookPageId: t.exposeString('facebookPageId', { nullable: true }),
  }),
});

const Hook = builder.objectRef<GroupRow>('WorkspaceHook').implement({
  fields: (t) => ({
    text: t.exposeString('key'),
    sampleAd: t.field({ type: HookSampleAd, nullable: true, resolve: (row) => row.sample }),
  }),
});

const AdCopy = builder.objectRef<GroupRow>('WorkspaceAdCopy').implement({ fields: (t) => ({ text: t.exposeString('key') }) });

const LandingPage = builder.objectRef<NonNullable<GroupRow['landingPage']>>('WorkspaceLandingPage').implement({
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

export const WorkspaceLandingPageSort = builder.enumType('WorkspaceLandingPageSort', { values: ['usageCount', 'longestRunning', 'totalImpressions'] as const });

export const HookPage = listRef('WorkspaceHookPage', WorkspaceHookRow, { style: 'page', description: "Hooks of the workspace's brandtrackers." });
export const AdCopyPage = listRef('WorkspaceAdCopyPage', WorkspaceAdCopyRow, { style: 'page', description: "Ad copies of the workspace's brandtrackers." });
export const LandingPagePage = listRef('WorkspaceLandingPagePage', WorkspaceLandingPageRow, { style: 'page', description: "Landing pages of the workspace's brandtrackers." });

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

// Its meta is its own (TopAdsMeta), not a ListMeta: declared as an extra field.
export const WorkspaceTopAdsPageRef = listRef<Row, Page>('WorkspaceTopAdsPage', TopAdRow, {
  style: 'page',
  fields: (t) => ({ meta: t.field({ type: TopAdsMeta, nullable: true, description: 'Present when nothing matched.', resolve: (page) => page.meta }) }),
});

export const ScalingAdsPage = listRef<Row, { data: Row[]; pagination: PagePagination }>('WorkspaceScalingAdsPage', ScalingAdRow, { style: 'page' });

export const TopAdsPeriod = builder.enumType('TopAdsPeriod', { values: ['today', 'yesterday', 'last1d', 'last7d', 'last14d', 'last30d', 'total'] as const });

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
