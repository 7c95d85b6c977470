import type { PrismaClient } from '../../generated/prisma/client.js';
import { builder } from '../builder.js';
import { frameArgs, SnapshotMetaRef } from './args.js';
import { adsOf, frameOf, snapshotMeta, windowNote, windowSql, type Frame } from './frame.js';

// GET /v1/brandtrackers/{brandtrackerId}/media-mix: the formats of the brand's live ads, one per duplicate group
// (deduped by ad), at the snapshot day when one is asked for. Carousels and unknown formats count as other.

type FormatCount = { image: number; video: number; dco: number; other: number };
type MediaMix = { activeAds: number; formatCount: FormatCount };

export const FormatCountRef = builder.objectRef<FormatCount>('BrandtrackerFormatCount').implement({
  fields: (t) => ({ image: t.exposeInt('image'), video: t.exposeInt('video'), dco: t.exposeInt('dco'), other: t.exposeInt('other', { description: 'Carousels and unknown formats.' }) }),
});

export const MediaMixRef = builder.objectRef<MediaMix>('BrandtrackerMediaMix').implement({
  fields: (t) => ({
    activeAds: t.exposeInt('activeAds', { description: 'Live ads, one per duplicate group: the sum of the four formats.' }),
    formatCount: t.field({ type: FormatCountRef, resolve: (mix) => mix.formatCount }),
  }),
});

const MediaMixResponse = builder.objectRef<{ data: MediaMix; meta: ReturnType<typeof snapshotMeta> }>('BrandtrackerMediaMixResponse').implement({
  fields: (t) => ({
    data: t.field({ type: MediaMixRef, resolve: (response) => response.data }),
    meta: t.field({ type: SnapshotMetaRef, resolve: (response) => response.meta }),
  }),
});

/** The frame's live ads by format, in one statement; overview reads the same. */
export async function mediaMixOf(prisma: Pick<PrismaClient, '$queryRaw'>, frame: Frame): Promise<MediaMix> {
  const [counts] = await prisma.$queryRaw<FormatCount[]>`
    SELECT count(*) FILTER (WHERE a."mediaType" = 'image')::int AS "image", count(*) FILTER (WHERE a."mediaType" = 'video')::int AS "video",
           count(*) FILTER (WHERE a."mediaType" = 'dco')::int AS "dco", count(*) FILTER (WHERE a."mediaType" IN ('carousel', 'unknown'))::int AS "other"
    FROM "ads" a
    WHERE ${adsOf(frame)} AND a."isGroupLead" AND ${windowSql(frame, 'live')}`;
  return { activeAds: counts.image + counts.video + counts.dco + counts.other, formatCount: counts };
}

/** The frame's live-window note, per duplicate group. */
export function mediaMixNote(frame: Frame): string {
  return `${windowNote(frame, 'live').replace(/\.$/, '')}, one per duplicate group.`;
}

builder.queryFields((t) => ({
  brandtrackerMediaMix: t.field({
    type: MediaMixResponse,
    authScopes: { workspace: true },
    description: "Formats of a brandtracker's live ads (GET /v1/brandtrackers/{brandtrackerId}/media-mix), deduped by ad; with snapshotDate, of the ads running on that snapshot day.",
    args: { ...frameArgs({ euOnly: false, snapshot: true }) },
    resolve: async (_root, args, context) => {
      const frame = await frameOf(context, args, { euOnly: false });
      return { data: await mediaMixOf(context.prisma, frame), meta: snapshotMeta(frame, mediaMixNote(frame)) };
    },
  }),
}));
