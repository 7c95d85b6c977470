import type { GraphQLResolveInfo } from 'graphql';
import type { Context } from '../../../context.js';
import { Prisma } from '../../../generated/prisma/client.js';
import { pagePagination, type PagePagination, type PageRequest } from '../../shared/list.js';
import { periodStart, type Frame, type RankPeriod } from './frame.js';
import { rankedAdsPage, type RankedAdsSort } from './ranked-ads.js';
import { withAds, type RankedRow, type TopAdsMetaValue } from './ranked-rows.js';

// GET /v1/brandtrackers/{brandtrackerId}/top-ads and the overview's topAds: the brand's current rankings, one ad per
// duplicate group: the ranked ads (ranked-ads.ts) on a scope of this one brandtracker.

export type TopAdsRequest = {
  sortBy: RankedAdsSort;
  page: PageRequest;
  /** Only ads seen in the period (last seen on or after its start); omitted or `total`: no bound. */
  period?: RankPeriod | null;
  status?: 'active' | 'inactive' | 'all';
};

export type TopAdsPage = { data: RankedRow[]; pagination: PagePagination; meta: TopAdsMetaValue | null };

/**
 * The frame's ranked ads, one page: the ranked ads (one statement) and their Ad summaries with the fields selected
 * at `adPath` (one more), estimatedSpend at the frame's CPM. `meta` says why a page is empty.
 */
export async function topAdsOf(context: Context, info: GraphQLResolveInfo, frame: Frame, request: TopAdsRequest, adPath: string[] = ['data', 'ad']): Promise<TopAdsPage> {
  const status = request.status ?? 'active';
  const where: Prisma.Sql[] = status === 'inactive' ? [Prisma.sql`a."status" <> 'active'`] : [];
  const start = request.period ? periodStart(frame, request.period) : null;
  if (start) where.push(Prisma.sql`a."lastSeenAt" >= ${start}`);
  const found = await rankedAdsPage(context.pool, {
    scope: { workspaceId: frame.workspaceId, brandtrackerIds: [frame.brandtrackerId] },
    euOnly: frame.euOnly,
    includeInactive: status !== 'active',
    where,
    sorts: request.sortBy === 'currentRank' ? ['currentRank', 'reach'] : [request.sortBy],
    page: request.page,
  });
  const data = await withAds(context, info, found.rows, adPath, frame.cpm);
  return { data, pagination: pagePagination(request.page, found.total), meta: data.length ? null : { reason: 'no_matching_ads' } };
}
