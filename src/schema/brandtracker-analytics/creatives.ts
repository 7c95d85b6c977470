import { Prisma } from '../../generated/prisma/client.js';
import { daysRunning } from '../ads/figures.js';
import { builder } from '../builder.js';
import { daysRunningSql } from '../shared/days-running.js';
import { findIdPage, loadIdPage, type OrderKey } from '../shared/id-page.js';
import { offsetOf, pageRequest } from '../shared/pagination.js';
import { rowPageRef } from '../workspace-analytics/types.js';
import { frameArgs, INSIGHT_LIMITS, insightArgs, orderArg } from './args.js';
import { adsOf, frameOf, windowSql } from './frame.js';
import { resolveMediaUrl } from '../shared/media-url.js';

// GET /v1/brandtrackers/{brandtrackerId}/creatives: the brand's creatives in a window, one per duplicate group (its
// lead ad, with the group's size as duplicates), newest first unless sorted otherwise.

const CreativesSort = builder.enumType('BrandtrackerCreativesSort', { values: ['firstSeenAt', 'daysRunning', 'duplicates'] as const });
const CreativesMediaType = builder.enumType('BrandtrackerCreativesMediaType', { description: 'all (default), image or video.', values: ['all', 'image', 'video'] as const });
const CreativeFormat = builder.enumType('BrandtrackerCreativeFormat', { description: 'image, video, or unknown (carousels, dynamic and unknown formats).', values: ['image', 'video', 'unknown'] as const });

type Creative = {
  id: string;
  mediaType: 'image' | 'video' | 'unknown';
  mediaUrl: string | null;
  thumbnailUrl: string | null;
  firstSeenAt: Date;
  daysRunning: number;
  duplicates: number;
};

const CreativeRef = builder.objectRef<Creative>('BrandtrackerCreative').implement({
  fields: (t) => ({
    adId: t.exposeString('id', { description: 'The lead ad of the duplicate group.' }),
    mediaType: t.field({ type: CreativeFormat, resolve: (row) => row.mediaType }),
    mediaUrl: t.string({ nullable: true, resolve: resolveMediaUrl((p) => p.mediaUrl) }),
    thumbnailUrl: t.string({ nullable: true, resolve: resolveMediaUrl((p) => p.thumbnailUrl) }),
    firstSeenAt: t.expose('firstSeenAt', { type: 'DateTime' }),
    daysRunning: t.exposeInt('daysRunning', { description: 'Days from first seen to now while active, else to last seen (as on the Ad summary).' }),
    duplicates: t.exposeInt('duplicates', { description: 'Ads in its duplicate group.' }),
  }),
});

const CreativesPage = rowPageRef('BrandtrackerCreativesPage', CreativeRef, "A brandtracker's creatives.");

const SORT_KEYS: Record<(typeof CreativesSort)['$inferType'], Prisma.Sql> = {
  firstSeenAt: Prisma.sql`a."firstSeenAt"`,
  daysRunning: daysRunningSql({ alias: 'a', start: 'firstSeenAt', since2018: true }),
  duplicates: Prisma.sql`a."duplicates"`,
};

builder.queryFields((t) => ({
  brandtrackerCreatives: t.field({
    type: CreativesPage,
    authScopes: { workspace: true },
    description:
      "A brandtracker's creatives (GET /v1/brandtrackers/{brandtrackerId}/creatives): the ads of the window, one per duplicate group (its lead), " +
      'with snapshotDate evaluated at that snapshot day.',
    args: {
      ...frameArgs({ euOnly: false, snapshot: true }),
      ...insightArgs(),
      ...orderArg(),
      sortBy: t.arg({ type: CreativesSort, defaultValue: 'firstSeenAt' }),
      mediaType: t.arg({ type: CreativesMediaType, defaultValue: 'all' }),
    },
    resolve: async (_root, args, context) => {
      const frame = await frameOf(context, args, { euOnly: false });
      const page = pageRequest(args, INSIGHT_LIMITS.defaultLimit);
      const sortBy = args.sortBy ?? 'firstSeenAt';
      const direction = args.order === 'asc' ? 'ASC' : 'DESC';
      const media = args.mediaType && args.mediaType !== 'all' ? Prisma.sql`AND a."mediaType" = ${args.mediaType}::"AdMediaType"` : Prisma.empty;
      const order: OrderKey[] = [{ key: SORT_KEYS[sortBy], direction }, { key: Prisma.sql`a."id"`, direction: 'ASC' }];
      const found = await findIdPage(context.prisma, {
        id: Prisma.sql`a."id"`,
        from: Prisma.sql`FROM "ads" a WHERE ${adsOf(frame)} AND a."isGroupLead" AND ${windowSql(frame, args.timePeriod ?? 'live')} ${media}`,
        order,
        limit: page.limit,
        offset: offsetOf(page),
        scansAllMatches: sortBy === 'daysRunning',
      });
      return loadIdPage(found, page, async (ids): Promise<Creative[]> => {
        const ads = await context.prisma.ad.findMany({
          where: { id: { in: ids } },
          select: { id: true, status: true, mediaType: true, mediaUrl: true, thumbnailUrl: true, firstSeenAt: true, lastSeenAt: true, duplicates: true },
        });
        return ads.map((ad) => ({
          id: ad.id,
          mediaType: ad.mediaType === 'image' || ad.mediaType === 'video' ? ad.mediaType : 'unknown',
          mediaUrl: ad.mediaUrl,
          thumbnailUrl: ad.thumbnailUrl,
          firstSeenAt: ad.firstSeenAt,
          daysRunning: daysRunning(ad),
          duplicates: ad.duplicates,
        }));
      });
    },
  }),
}));
