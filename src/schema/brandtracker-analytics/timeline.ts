import { queryFromInfo } from '@pothos/plugin-prisma';
import { z } from 'zod';
import { Prisma } from '../../generated/prisma/client.js';
import { withCpm } from '../ads/figures.js';
import { findAds } from '../ads/load.js';
import { conditions } from '../ads/sql/conditions.js';
import { orderBy, textRank } from '../ads/sql/order.js';
import { AD_FROM, type AdFilter } from '../ads/sql/search.js';
import { PublicAd } from '../ads/types.js';
import { builder } from '../builder.js';
import { findIdPage, loadIdPage } from '../shared/id-page.js';
import { offsetOf, pageListRef, pageRequest } from '../shared/pagination.js';
import { brandAdFilter, effectiveEnd } from './ad-filters.js';
import { BRANDTRACKER_ADS_ORDER, BRANDTRACKER_ADS_SORTS } from './ads-args.js';
import { frameOf, type Frame } from './frame.js';
import { timelineFilterArgs, type TimelineFilterArgs } from './timeline-args.js';

// GET /v1/brandtrackers/{brandtrackerId}/timeline (the brand's ads, a page of Ad summaries) and /timeline/metadata
// (their count and date bounds). Membership: the brand page's ads, one per duplicate group, with media and a start
// (first-seen) date; with snapshotDate, those first seen by the end of that day. ad-filters.ts builds the filter
// (the timeline's own readings of status, createdAfter/createdBefore and lastSeenAfter/lastSeenBefore included).

const sql = Prisma.sql;

// The ads routes' sort keys, as an enum: the timeline takes no ad_order alias.
const TimelineSort = builder.enumType('BrandtrackerTimelineSort', {
  description: 'newest: first seen, newest first; createdAt: created, newest first; longestRunning; reach (total); duplicates; adOrder (position in the page, first first); relevance: keyword rank, then reach.',
  values: BRANDTRACKER_ADS_SORTS,
});

/** The timeline's full WHERE: the brand's ads matching the filters (ad-filters.ts), and its text search for the rank. */
function timelineWhere(frame: Frame, args: TimelineFilterArgs): { filter: AdFilter; where: Prisma.Sql } {
  const filter = brandAdFilter(frame, args, 'timeline');
  return { filter, where: Prisma.join(conditions(filter), ' AND ') };
}

const TimelinePage = pageListRef('BrandtrackerTimelinePage', PublicAd, "A page of the brand's ads (Ad summaries), one per duplicate group.");

type Metadata = { totalCount: number; earliestDate: Date | null; latestDate: Date | null };
const MetadataRef = builder.objectRef<Metadata>('BrandtrackerTimelineMetadata').implement({
  fields: (t) => ({
    totalCount: t.exposeInt('totalCount', { description: 'Ads of the timeline with these filters.' }),
    earliestDate: t.expose('earliestDate', { type: 'Date', nullable: true, description: 'The earliest start (first-seen) day; null without ads.' }),
    latestDate: t.expose('latestDate', { type: 'Date', nullable: true, description: 'The latest effective end day (today, or the snapshot day, for active ads); null without ads.' }),
  }),
});
const MetadataResponse = builder.objectRef<{ data: Metadata }>('BrandtrackerTimelineMetadataResponse').implement({
  fields: (t) => ({ data: t.field({ type: MetadataRef, resolve: (response) => response.data }) }),
});

builder.queryFields((t) => ({
  brandtrackerTimeline: t.field({
    type: TimelinePage,
    authScopes: { workspace: true },
    description:
      "A brandtracker's ads for a timeline (GET /v1/brandtrackers/{brandtrackerId}/timeline): its page's ads with media, one per duplicate group, " +
      'filtered as the ads query filters; with snapshotDate, the ads first seen by then, and status read at that day.',
    args: {
      ...timelineFilterArgs(),
      sortBy: t.arg({ type: TimelineSort, defaultValue: 'newest' }),
      page: t.arg.int({ defaultValue: 1, description: 'Page number, from 1.', validate: z.number().int().min(1) }),
      limit: t.arg.int({ defaultValue: 25, description: 'Ads per page, 1..100 (default 25).', validate: z.number().int().min(1).max(100) }),
    },
    resolve: async (_root, args, context, info) => {
      const frame = await frameOf(context, args, { euOnly: false });
      const page = pageRequest(args, 25);
      const { filter, where } = timelineWhere(frame, args);
      const sort = { sortBy: BRANDTRACKER_ADS_ORDER[args.sortBy ?? 'newest'] };
      const found = await findIdPage(context.prisma, {
        id: sql`a."id"`,
        from: sql`${AD_FROM} WHERE ${where}`,
        order: orderBy(sort),
        limit: page.limit,
        offset: offsetOf(page),
        search: filter.search ? { rank: textRank(filter, sort) } : undefined,
        // One brand's ads: a search ranks and counts every match, so the total is exact, as /timeline/metadata's.
        scansAllMatches: filter.search != null,
      });
      const select = queryFromInfo({ context, info, path: ['data'] });
      return loadIdPage(found, page, async (ids) => withCpm(await findAds(context.prisma, ids, select), frame.cpm));
    },
  }),
  brandtrackerTimelineMetadata: t.field({
    type: MetadataResponse,
    authScopes: { workspace: true },
    description: "The count and date bounds of a brandtracker's timeline with the same filters (GET /v1/brandtrackers/{brandtrackerId}/timeline/metadata).",
    args: timelineFilterArgs(),
    resolve: async (_root, args, context) => {
      const frame = await frameOf(context, args, { euOnly: false });
      const { where } = timelineWhere(frame, args);
      const [data] = await context.prisma.$queryRaw<Metadata[]>`
        SELECT count(*)::int AS "totalCount", min((a."firstSeenAt" AT TIME ZONE 'UTC')::date) AS "earliestDate", max(${effectiveEnd(frame)}) AS "latestDate"
        ${AD_FROM} WHERE ${where}`;
      return { data };
    },
  }),
}));
