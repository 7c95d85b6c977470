import type { PrismaClient } from '../../../generated/prisma/client.js';
import { adsOf, windowNote, windowSql, type Frame } from './frame.js';

// GET /v1/brandtrackers/{brandtrackerId}/media-mix and the overview's mix: the formats of the brand's live ads, one
// per duplicate group, in one statement. Carousels and unknown formats count as other.

export type FormatCount = { image: number; video: number; dco: number; other: number };
export type MediaMix = { activeAds: number; formatCount: FormatCount };

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
