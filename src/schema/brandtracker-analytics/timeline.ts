import { z } from 'zod';
import { PublicAd } from '../ads/types.js';
import { builder } from '../builder.js';
import { pageListRef, pageRequest } from '../shared/list.js';
import { BRANDTRACKER_ADS_ORDER, timelineFilterArgs } from './ad-list-args.js';
import { TimelineSort } from './enums.js';
import { timelineMetadata, timelinePage, type TimelineMetadata } from './service.js';

// GET /v1/brandtrackers/{brandtrackerId}/timeline (the brand's ads, a page of Ad summaries) and /timeline/metadata
// (their count and date bounds). Membership: the brand page's ads, one per duplicate group, with media and a start
// (first-seen) date; with snapshotDate, those first seen by the end of that day. service/ad-filters.ts builds the filter
// (the timeline's own readings of status, createdAfter/createdBefore and lastSeenAfter/lastSeenBefore included).

const TimelinePage = pageListRef('BrandtrackerTimelinePage', PublicAd, "A page of the brand's ads (Ad summaries), one per duplicate group.");

const MetadataRef = builder.objectRef<TimelineMetadata>('BrandtrackerTimelineMetadata').implement({
  fields: (t) => ({
    totalCount: t.exposeInt('totalCount', { description: 'Ads of the timeline with these filters.' }),
    earliestDate: t.expose('earliestDate', { type: 'Date', nullable: true, description: 'The earliest start (first-seen) day; null without ads.' }),
    latestDate: t.expose('latestDate', { type: 'Date', nullable: true, description: 'The latest effective end day (today, or the snapshot day, for active ads); null without ads.' }),
  }),
});
const MetadataResponse = builder.objectRef<{ data: TimelineMetadata }>('BrandtrackerTimelineMetadataResponse').implement({
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
    resolve: (_root, args, context, info) =>
      timelinePage(context, info, args, BRANDTRACKER_ADS_ORDER[args.sortBy ?? 'newest'], pageRequest(args, 25)),
  }),
  brandtrackerTimelineMetadata: t.field({
    type: MetadataResponse,
    authScopes: { workspace: true },
    description: "The count and date bounds of a brandtracker's timeline with the same filters (GET /v1/brandtrackers/{brandtrackerId}/timeline/metadata).",
    args: timelineFilterArgs(),
    resolve: async (_root, args, context) => ({ data: await timelineMetadata(context, args) }),
  }),
}));
