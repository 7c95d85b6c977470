import { Prisma, type PrismaClient } from '../../../generated/prisma/client.js';
import { findComputedPage, type PageRequest } from '../../shared/list.js';
import type { FormatCount } from './media-mix.js';
import { scopeSelect, type AnalyticsScope, type BrandtrackerOfRow } from './scope.js';

// GET /v1/workspace/media-mix: one row per tracked brand, its active ads (one per duplicate group) by format, in one
// statement. Carousels and unknown formats count as other, as on the per-brandtracker media mix (media-mix.ts).

export type MixRow = { brandtracker: BrandtrackerOfRow; formatCount: FormatCount; activeAds: number };

type MediaMixSortValue = 'activeAds' | 'image' | 'video' | 'dco' | 'other';

export async function mediaMixPage(prisma: PrismaClient, scope: AnalyticsScope, euOnly: boolean, sort: MediaMixSortValue, page: PageRequest) {
  const order = (prefix: string) => Prisma.raw(`${prefix}"${sort}" DESC, lower(${prefix}"name") ASC, ${prefix}"brandtrackerId" ASC`);
  const found = await findComputedPage<FormatCount & { brandtrackerId: string; name: string; pageId: string | null; activeAds: number }>(prisma, {
    rows: Prisma.sql`
      WITH s AS (${scopeSelect(scope)})
      SELECT s.*, c."image", c."video", c."dco", c."other", c."image" + c."video" + c."dco" + c."other" AS "activeAds"
      FROM s CROSS JOIN LATERAL (
        SELECT count(*) FILTER (WHERE a."mediaType" = 'image')::int AS "image", count(*) FILTER (WHERE a."mediaType" = 'video')::int AS "video",
               count(*) FILTER (WHERE a."mediaType" = 'dco')::int AS "dco", count(*) FILTER (WHERE a."mediaType" IN ('carousel', 'unknown'))::int AS "other"
        FROM "ads" a
        WHERE a."advertiserId" = s."pageId" AND a."isGroupLead" AND a."status" = 'active' ${euOnly ? Prisma.sql`AND a."isEuAd"` : Prisma.empty}
      ) c`,
    order,
    page,
  });
  const data: MixRow[] = found.data.map((row) => ({
    brandtracker: { id: row.brandtrackerId, name: row.name, facebookPageId: row.pageId },
    formatCount: { image: row.image, video: row.video, dco: row.dco, other: row.other },
    activeAds: row.activeAds,
  }));
  return { data, pagination: found.pagination };
}
