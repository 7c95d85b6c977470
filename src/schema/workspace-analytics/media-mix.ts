import { Prisma, type PrismaClient } from '../../generated/prisma/client.js';
import { builder } from '../builder.js';
import { offsetOf, pagePagination, type PageRequest } from '../shared/pagination.js';
import { pageOf, scopeArgs, scopeOf } from './args.js';
import { scopeSelect, type AnalyticsScope } from './scope.js';
import { rowPageRef, WorkspaceBrandtracker, type BrandtrackerOfRow } from './types.js';

// GET /v1/workspace/media-mix: one row per tracked brand, its active ads (one per duplicate group) by format.
// Carousels and unknown formats count as other. One credit per returned row.

type FormatCount = { image: number; video: number; dco: number; other: number };
type MixRow = { brandtracker: BrandtrackerOfRow; formatCount: FormatCount; activeAds: number };

const MediaMixSort = builder.enumType('WorkspaceMediaMixSort', { values: ['activeAds', 'image', 'video', 'dco', 'other'] as const });
type Sort = (typeof MediaMixSort)['$inferType'];

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

const MediaMixPage = rowPageRef('WorkspaceMediaMixPage', MediaMixRow, "Media mix of the workspace's brandtrackers.");

export async function mediaMixPage(prisma: PrismaClient, scope: AnalyticsScope, euOnly: boolean, sort: Sort, page: PageRequest) {
  const order = (prefix: string) => Prisma.raw(`${prefix}"${sort}" DESC, lower(${prefix}"name") ASC, ${prefix}"brandtrackerId" ASC`);
  const rows = await prisma.$queryRaw<(FormatCount & { brandtrackerId: string | null; name: string; pageId: string | null; activeAds: number; total: number })[]>`
    WITH s AS (${scopeSelect(scope)}),
    m AS MATERIALIZED (
      SELECT s.*, c."image", c."video", c."dco", c."other", c."image" + c."video" + c."dco" + c."other" AS "activeAds"
      FROM s CROSS JOIN LATERAL (
        SELECT count(*) FILTER (WHERE a."mediaType" = 'image')::int AS "image", count(*) FILTER (WHERE a."mediaType" = 'video')::int AS "video",
               count(*) FILTER (WHERE a."mediaType" = 'dco')::int AS "dco", count(*) FILTER (WHERE a."mediaType" IN ('carousel', 'unknown'))::int AS "other"
        FROM "ads" a
        WHERE a."advertiserId" = s."pageId" AND a."isGroupLead" AND a."status" = 'active' ${euOnly ? Prisma.sql`AND a."isEuAd"` : Prisma.empty}
      ) c
    )
    SELECT p.*, t.total
    FROM (SELECT count(*)::int AS total FROM m) t
    LEFT JOIN LATERAL (SELECT * FROM m ORDER BY ${order('')} LIMIT ${page.limit} OFFSET ${offsetOf(page)}) p ON TRUE
    ORDER BY ${order('p.')}`;
  const data: MixRow[] = rows
    .filter((row) => row.brandtrackerId !== null)
    .map((row) => ({
      brandtracker: { id: row.brandtrackerId!, name: row.name, facebookPageId: row.pageId },
      formatCount: { image: row.image, video: row.video, dco: row.dco, other: row.other },
      activeAds: row.activeAds,
    }));
  return { data, pagination: pagePagination(page, rows[0]?.total ?? 0) };
}

builder.queryFields((t) => ({
  workspaceMediaMix: t.field({
    type: MediaMixPage,
    authScopes: { workspace: true },
    description: "Formats of the active ads of each of the workspace's brandtrackers (GET /v1/workspace/media-mix), most first. One credit per returned row.",
    args: { ...scopeArgs(), sortBy: t.arg({ type: MediaMixSort, defaultValue: 'activeAds' }) },
    resolve: async (_root, args, context) => {
      const { workspace } = await context.principal();
      return mediaMixPage(context.prisma, scopeOf(workspace.id, args), args.euOnly ?? false, args.sortBy ?? 'activeAds', pageOf(args));
    },
  }),
}));
