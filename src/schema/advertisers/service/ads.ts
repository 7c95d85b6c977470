import type { Context } from '../../../context.js';
import { notFound } from '../../../errors.js';
import { Prisma, type PrismaClient } from '../../../generated/prisma/client.js';
import { adsByIds, exportedAds, withCpm } from '../../ads/service.js';
import { daysRunningSql } from '../../shared/days-running.js';
import { findPage, type OffsetRequest, type OrderKey } from '../../shared/list.js';

// GET /v1/advertisers/{advertiserId}/ads: the page's ads, one row per duplicate group as on /v1/ads.

export type AdvertiserAdsFilter = { advertiserId: string; status: 'all' | 'active' | 'inactive'; mediaType: 'all' | 'image' | 'video' };
export type AdvertiserAdsSort = { sortBy: 'newest' | 'createdAt' | 'longestRunning' | 'reach' | 'duplicates'; order: 'asc' | 'desc' };

const sql = Prisma.sql;
const SORT_KEYS: Record<AdvertiserAdsSort['sortBy'], Prisma.Sql> = {
  newest: sql`a."firstSeenAt"`,
  createdAt: sql`a."createdAt"`,
  longestRunning: daysRunningSql({ alias: 'a', start: 'firstSeenAt', since2018: true }),
  reach: sql`a."reach"`,
  duplicates: sql`a."duplicates"`,
};

/** The page of the advertiser's ads, each loaded with `select` and its estimated spend at `cpm`; not_found without the advertiser. */
export async function advertiserAds(context: Pick<Context, 'prisma'>, select: object, filter: AdvertiserAdsFilter, sort: AdvertiserAdsSort, page: OffsetRequest, cpm: number) {
  const { prisma } = context;
  const where: Prisma.Sql[] = [sql`a."advertiserId" = ${filter.advertiserId}`, sql`a."isGroupLead"`];
  if (filter.status !== 'all') where.push(sql`a."status" = ${filter.status}::"AdStatus"`);
  if (filter.mediaType !== 'all') where.push(sql`a."mediaType" = ${filter.mediaType}::"AdMediaType"`);
  const order: OrderKey[] = [{ key: SORT_KEYS[sort.sortBy], direction: sort.order === 'asc' ? 'ASC' : 'DESC' }, { key: sql`a."id"`, direction: 'ASC' }];
  // The advertiser's check and the page run together (without the advertiser, no ad matches: nothing is loaded).
  const [advertiser, found] = await Promise.all([
    prisma.advertiser.findUnique({ where: { id: filter.advertiserId }, select: { id: true } }),
    findPage(prisma, {
      id: sql`a."id"`,
      from: sql`FROM "ads" a WHERE ${Prisma.join(where, ' AND ')}`,
      order,
      // One page's ads: a few hundred rows at most, read through the (advertiserId, firstSeenAt) index.
      scansAllMatches: true,
      page,
      rows: { load: async (ids) => withCpm(await adsByIds(prisma, ids, select), cpm), exported: exportedAds(cpm) },
    }),
  ]);
  if (!advertiser) throw notFound(`Advertiser "${filter.advertiserId}"`);
  return found;
}
