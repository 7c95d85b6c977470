import type { ObjectRef } from '@pothos/core';
import { builder } from '../builder.js';
import { PagePaginationRef, type PagePagination } from '../shared/pagination.js';
import type { GroupRow } from './aggregates.js';
import { resolveMediaUrl } from '../shared/media-url.js';

// The rows of the workspace analytics: each names its brandtracker, then what it is about, then its figures.

export type BrandtrackerOfRow = { id: string; name: string; facebookPageId: string | null };

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

/** A page-style list `{ data[], pagination }` of plain rows. */
export function rowPageRef<T>(name: string, item: ObjectRef<typeof builder.$inferSchemaTypes, T>, description: string) {
  return builder.objectRef<{ data: T[]; pagination: PagePagination }>(name).implement({
    description,
    fields: (t) => ({
      data: t.field({ type: [item], resolve: (page) => page.data }),
      pagination: t.field({ type: PagePaginationRef, resolve: (page) => page.pagination }),
    }),
  });
}
