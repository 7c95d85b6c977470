import type { ObjectRef } from '@pothos/core';
import type { Context } from '../../context.js';
import { builder } from '../builder.js';
import { listRef, pageRequest, type PagePagination } from '../shared/list.js';
import { frameArgs, insightArgs, INSIGHT_LIMITS, orderArg } from './args.js';
import { AdCopySort, HookSampleAd, HookSort, SnapshotMetaRef } from './types.js';
import { frameOf, groupPage, snapshotMeta, windowNote, windowSql, type GroupKind, type GroupRow, type GroupSort, type TimeWindow } from './service.js';
import { resolveMediaUrl } from '../shared/media-url.js';

// GET /v1/brandtrackers/{brandtrackerId}/hooks, /transcripts, /headlines and /ad-copies: the brand's ads in the
// window grouped by their hook, their transcript (video ads), their title or their copy, with usage figures: the
// grouped aggregates (service/aggregates.ts, one statement) on one brandtracker, after its frame.

type Row = GroupRow;
type Field = PothosSchemaTypes.ObjectFieldBuilder<typeof builder.$inferSchemaTypes, Row>;

const figures = {
  usageCount: (t: Field) => t.exposeInt('usageCount', { description: 'Ads of the brand in the window using it (every ad of a duplicate group counts).' }),
  longestRunning: (t: Field) => t.exposeInt('longestRunning', { description: 'Days running of the longest-running of those ads.' }),
  totalImpressions: (t: Field) => t.expose('totalImpressions', { type: 'SafeInt', description: 'Reach of those ads, summed (the Ad Library reach).' }),
  firstUsedAt: (t: Field) => t.expose('firstUsedAt', { type: 'DateTime', description: 'When the first of those ads was first seen.' }),
  lastUsedAt: (t: Field) => t.expose('lastUsedAt', { type: 'DateTime', description: 'When the last of those ads was last seen.' }),
};

const TranscriptSampleAd = builder.objectRef<NonNullable<Row['sample']>>('TranscriptSampleAd').implement({
  description: 'The ad with the highest reach among those with the transcript.',
  fields: (t) => ({ adId: t.exposeString('adId'), mediaUrl: t.string({ nullable: true, resolve: resolveMediaUrl((p) => p.mediaUrl) }), thumbnailUrl: t.string({ nullable: true, resolve: resolveMediaUrl((p) => p.thumbnailUrl) }) }),
});

const Hook = builder.objectRef<Row>('BrandtrackerHook').implement({
  fields: (t) => ({
    hook: t.exposeString('key', { description: 'The opening line of the ads.' }),
    usageCount: figures.usageCount(t), longestRunning: figures.longestRunning(t), totalImpressions: figures.totalImpressions(t),
    firstUsedAt: figures.firstUsedAt(t), lastUsedAt: figures.lastUsedAt(t),
    sampleAd: t.field({ type: HookSampleAd, nullable: true, resolve: (row) => row.sample }),
  }),
});

const Transcript = builder.objectRef<Row>('BrandtrackerTranscript').implement({
  fields: (t) => ({
    fullText: t.exposeString('key', { description: 'The transcript of the video ads, as transcribed.' }),
    usageCount: figures.usageCount(t), longestRunning: figures.longestRunning(t), totalImpressions: figures.totalImpressions(t),
    firstUsedAt: figures.firstUsedAt(t), lastUsedAt: figures.lastUsedAt(t),
    sampleAd: t.field({ type: TranscriptSampleAd, nullable: true, resolve: (row) => row.sample }),
  }),
});

const Headline = builder.objectRef<Row>('BrandtrackerHeadline').implement({
  fields: (t) => ({ headline: t.exposeString('key', { description: 'The ad title.' }), usageCount: figures.usageCount(t), longestRunning: figures.longestRunning(t) }),
});

const AdCopy = builder.objectRef<Row>('BrandtrackerAdCopy').implement({
  fields: (t) => ({ adCopy: t.exposeString('key', { description: 'The ad copy (body), as written.' }), usageCount: figures.usageCount(t), longestRunning: figures.longestRunning(t) }),
});

type InsightPage = { data: Row[]; pagination: PagePagination; meta: ReturnType<typeof snapshotMeta> };

// Its meta is the snapshot's (SnapshotMetaRef), not a ListMeta: declared as an extra field.
function insightPageRef(name: string, item: ObjectRef<typeof builder.$inferSchemaTypes, Row>, description: string) {
  return listRef<Row, InsightPage>(name, item, {
    style: 'page',
    description,
    fields: (t) => ({ meta: t.field({ type: SnapshotMetaRef, resolve: (page) => page.meta }) }),
  });
}

type Args = { brandtrackerId: string; euOnly?: boolean | null; snapshotDate?: string | null; timePeriod?: TimeWindow | null; page?: number | null; limit?: number | null; order?: 'asc' | 'desc' | null; sortBy?: GroupSort | null };

async function insightPage(context: Context, kind: GroupKind, args: Args): Promise<InsightPage> {
  const frame = await frameOf(context, args, { euOnly: false });
  const window = args.timePeriod ?? 'live';
  const page = await groupPage(context.prisma, {
    scope: { workspaceId: frame.workspaceId, brandtrackerIds: [frame.brandtrackerId] },
    kind,
    euOnly: frame.euOnly,
    window: windowSql(frame, window),
    sort: args.sortBy ?? 'usageCount',
    order: args.order ?? 'desc',
    page: pageRequest(args, INSIGHT_LIMITS.defaultLimit),
  });
  return { ...page, meta: snapshotMeta(frame, windowNote(frame, window)) };
}

const ROUTES = [
  { field: 'brandtrackerHooks', kind: 'hook', item: Hook, sort: HookSort, path: 'hooks', what: "a brandtracker's ads in the window grouped by hook (ad_hooks)" },
  { field: 'brandtrackerTranscripts', kind: 'transcript', item: Transcript, sort: HookSort, path: 'transcripts', what: "a brandtracker's video ads in the window grouped by transcript" },
  { field: 'brandtrackerHeadlines', kind: 'headline', item: Headline, sort: AdCopySort, path: 'headlines', what: "a brandtracker's ads in the window grouped by headline (the ad title)" },
  { field: 'brandtrackerAdCopies', kind: 'adCopy', item: AdCopy, sort: AdCopySort, path: 'ad-copies', what: "a brandtracker's ads in the window grouped by ad copy (the body)" },
] as const;

for (const route of ROUTES) {
  const typeName = route.field.charAt(0).toUpperCase() + route.field.slice(1);
  const pageRef = insightPageRef(`${typeName}Page`, route.item, `A page of ${route.what}.`);
  builder.queryFields((t) => ({
    [route.field]: t.field({
      type: pageRef,
      authScopes: { workspace: true },
      description: `The ${route.path} of a brandtracker (GET /v1/brandtrackers/{brandtrackerId}/${route.path}): ${route.what}, with usage figures; sortBy default usageCount, order default desc, ties by text.`,
      args: {
        ...frameArgs({ euOnly: false, snapshot: true }),
        ...insightArgs(),
        ...orderArg(),
        sortBy: t.arg({ type: route.sort, defaultValue: 'usageCount' }),
      },
      resolve: (_root, args, context) => insightPage(context, route.kind, args),
    }),
  }));
}
