import { Prisma, type PrismaClient } from '../../../generated/prisma/client.js';
import { daysRunning } from '../../ads/service.js';
import { daysRunningSql } from '../../shared/days-running.js';
import { findPage, type OrderKey, type PageRequest } from '../../shared/list.js';
import { adsOf, windowSql, type Frame, type TimeWindow } from './frame.js';

// GET /v1/brandtrackers/{brandtrackerId}/creatives: the brand's creatives in a window, one per duplicate group (its
// lead ad, with the group's size as duplicates): the page of ids (and its count), then the rows.

export type Creative = {
  id: string;
  mediaType: 'image' | 'video' | 'unknown';
  mediaUrl: string | null;
  thumbnailUrl: string | null;
  firstSeenAt: Date;
  daysRunning: number;
  duplicates: number;
};

export type CreativesSortValue = 'firstSeenAt' | 'daysRunning' | 'duplicates';

const SORT_KEYS: Record<CreativesSortValue, Prisma.Sql> = {
  firstSeenAt: Prisma.sql`a."firstSeenAt"`,
  daysRunning: daysRunningSql({ alias: 'a', start: 'firstSeenAt', since2018: true }),
  duplicates: Prisma.sql`a."duplicates"`,
};

export type CreativesQuery = {
  window: TimeWindow;
  sortBy: CreativesSortValue;
  order: 'asc' | 'desc';
  mediaType: 'all' | 'image' | 'video';
  page: PageRequest;
};

export async function creativesPage(prisma: PrismaClient, frame: Frame, query: CreativesQuery) {
  const { page, sortBy } = query;
  const direction = query.order === 'asc' ? 'ASC' : 'DESC';
  const media = query.mediaType !== 'all' ? Prisma.sql`AND a."mediaType" = ${query.mediaType}::"AdMediaType"` : Prisma.empty;
  const order: OrderKey[] = [{ key: SORT_KEYS[sortBy], direction }, { key: Prisma.sql`a."id"`, direction: 'ASC' }];
  return findPage(prisma, {
    id: Prisma.sql`a."id"`,
    from: Prisma.sql`FROM "ads" a WHERE ${adsOf(frame)} AND a."isGroupLead" AND ${windowSql(frame, query.window)} ${media}`,
    order,
    scansAllMatches: sortBy === 'daysRunning',
    page,
    rows: { load: loadCreatives(prisma) },
  });
}

/** The creatives of a page's ids (in any order). */
function loadCreatives(prisma: PrismaClient) {
  return async (ids: string[]): Promise<Creative[]> => {
    const ads = await prisma.ad.findMany({
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
  };
}
