import { queryFromInfo } from '@pothos/plugin-prisma';
import type { GraphQLResolveInfo } from 'graphql';
import type { Context } from '../../../context.js';
import { Prisma } from '../../../generated/prisma/client.js';
import { AD_FROM, adsByIds, conditions, exportedAds, orderBy, textRank, withCpm, type AdFilter, type AdSortValue } from '../../ads/service.js';
import { findPage, type PageRequest } from '../../shared/list.js';
import { brandAdFilter, effectiveEnd, type TimelineArgs } from './ad-filters.js';
import { frameOf, type Frame } from './frame.js';

// GET /v1/brandtrackers/{brandtrackerId}/timeline (the brand's ads, a page of Ad summaries) and /timeline/metadata
// (their count and date bounds), with the same membership and filters (ad-filters.ts).

const sql = Prisma.sql;

export type TimelineMetadata = { totalCount: number; earliestDate: Date | null; latestDate: Date | null };

/** The timeline's full WHERE: the brand's ads matching the filters (ad-filters.ts), and its text search for the rank. */
function timelineWhere(frame: Frame, args: TimelineArgs): { filter: AdFilter; where: Prisma.Sql } {
  const filter = brandAdFilter(frame, args, 'timeline');
  return { filter, where: Prisma.join(conditions(filter), ' AND ') };
}

/** A page of the timeline: the frame, the page of ids (and its count), the Ad summaries selected at `data`. */
export async function timelinePage(context: Context, info: GraphQLResolveInfo, args: TimelineArgs, sortBy: AdSortValue, page: PageRequest) {
  const frame = await frameOf(context, args, { euOnly: false });
  const { filter, where } = timelineWhere(frame, args);
  const sort = { sortBy };
  const select = queryFromInfo({ context, info, path: ['data'] });
  return findPage(context.prisma, {
    id: sql`a."id"`,
    from: sql`${AD_FROM} WHERE ${where}`,
    order: orderBy(sort),
    search: filter.search ? { rank: textRank(filter, sort) } : undefined,
    // One brand's ads: a search ranks and counts every match, so the total is exact, as /timeline/metadata's.
    scansAllMatches: filter.search != null,
    page,
    rows: { load: async (ids) => withCpm(await adsByIds(context.prisma, ids, select), frame.cpm), exported: exportedAds(frame.cpm) },
  });
}

/** The timeline's count and date bounds, in one statement after the frame. */
export async function timelineMetadata(context: Context, args: TimelineArgs): Promise<TimelineMetadata> {
  const frame = await frameOf(context, args, { euOnly: false });
  const { where } = timelineWhere(frame, args);
  const [data] = await context.prisma.$queryRaw<TimelineMetadata[]>`
    SELECT count(*)::int AS "totalCount", min((a."firstSeenAt" AT TIME ZONE 'UTC')::date) AS "earliestDate", max(${effectiveEnd(frame)}) AS "latestDate"
    ${AD_FROM} WHERE ${where}`;
  return data;
}
