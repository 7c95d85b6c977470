import { queryFromInfo } from '@pothos/plugin-prisma';
import { z } from 'zod';
import { Prisma } from '../../generated/prisma/client.js';
import { withCpm } from '../ads/figures.js';
import { conditions } from '../ads/sql/conditions.js';
import { orderBy, textRank } from '../ads/sql/order.js';
import { AD_FROM, type AdFilter, type AdSortValue } from '../ads/sql/search.js';
import { PublicAd } from '../ads/types.js';
import { builder } from '../builder.js';
import { hostOf } from '../shared/codes.js';
import { onDomain } from '../shared/domains.js';
import { findIdPage, loadIdPage } from '../shared/id-page.js';
import { offsetOf, pageListRef, pageRequest } from '../shared/pagination.js';
import { range } from '../shared/ranges.js';
import { termsOf } from '../shared/text-search.js';
import { endOfDay } from '../shared/time.js';
import { adsOf, frameOf, type Frame } from './frame.js';
import { adCountriesOf, timelineFilterArgs, type TimelineFilterArgs } from './timeline-args.js';

// GET /v1/brandtrackers/{brandtrackerId}/timeline (the brand's ads, a page of Ad summaries) and /timeline/metadata
// (their count and date bounds). Membership: the brand page's ads, one per duplicate group, with media and a start
// (first-seen) date; with snapshotDate, those first seen by the end of that day. The ads query's conditions
// (ads/sql/conditions.ts) do the filtering they share; the timeline adds status at the snapshot, created and
// effective-end bounds, partners, video length and the linked domain.

const sql = Prisma.sql;

const TimelineSort = builder.enumType('BrandtrackerTimelineSort', {
  description: 'newest: first seen, newest first; createdAt: created, newest first; longestRunning; reach (total); duplicates; adOrder (position in the page, first first); relevance: keyword rank, then reach.',
  values: ['newest', 'createdAt', 'longestRunning', 'reach', 'duplicates', 'adOrder', 'relevance'] as const,
});
const SORTS: Record<typeof TimelineSort.$inferType, AdSortValue> = {
  newest: 'newest', createdAt: 'createdAt', longestRunning: 'longestRunning', reach: 'reach', duplicates: 'mostDuplicates', adOrder: 'adOrder', relevance: 'relevance',
};

const day = (frame: Frame) => frame.day.toISOString().slice(0, 10);

/** The day an ad's timeline ends: the frame's day while it is active (at the snapshot), else its last-seen day. */
function effectiveEnd(frame: Frame): Prisma.Sql {
  return sql`least(CASE WHEN a."status" = 'active' THEN ${day(frame)}::date ELSE (a."lastSeenAt" AT TIME ZONE 'UTC')::date END, ${day(frame)}::date)`;
}

/** Running at the frame: active now, or with snapshotDate still active or last seen on or after the snapshot day. */
function activeAt(frame: Frame): Prisma.Sql {
  return frame.snapshot.requested === null ? sql`a."status" = 'active'` : sql`(a."status" = 'active' OR a."lastSeenAt" >= ${frame.day})`;
}

function adFilter(args: TimelineFilterArgs, cpm: number): AdFilter {
  const terms = termsOf(args.keywords);
  return {
    search: terms.length ? { terms, keywordMode: args.keywordMode ?? 'any', type: 'adCopy' } : undefined,
    mediaType: args.mediaType === 'all' ? null : args.mediaType,
    firstSeen: { min: args.startedAfter, max: endOfDay(args.startedBefore) },
    daysRunning: { min: args.minDaysRunning, max: args.maxDaysRunning },
    duplicates: { min: args.minDuplicates, max: args.maxDuplicates },
    reach: { min: args.minReach, max: args.maxReach, period: 'total' },
    spend: { min: args.minSpend, max: args.maxSpend, period: args.spendPeriod ?? 'total', cpm },
    age: { min: args.minAge, max: args.maxAge },
    facebookLikes: { min: args.minFacebookLikes, max: args.maxFacebookLikes },
    instagramFollowers: { min: args.minInstagramFollowers, max: args.maxInstagramFollowers },
    hideLowReach: args.hideLowReach,
    partnership: args.partners,
    sex: args.sex,
    adCountries: args.adCountries ? adCountriesOf(args.adCountries) : null,
    mainCountries: args.mainCountries,
    callToActions: args.cta,
    landingPages: args.landingPages,
    languages: args.adLanguage,
    descriptionLength: { min: args.minDescriptionLength, max: args.maxDescriptionLength },
    adCopyHashes: args.adCopyHashes,
    page: { spend: { min: args.minSpendPerPage, max: args.maxSpendPerPage, period: args.spendPerPagePeriod ?? 'total', cpm } },
    rank: args.growthRank?.length ? { window: 7, directions: args.growthRank } : undefined,
  };
}

/** The timeline's filter and its full WHERE (the ads query's conditions and the timeline's own). */
function timelineWhere(frame: Frame, args: TimelineFilterArgs): { filter: AdFilter; where: Prisma.Sql } {
  const filter = adFilter(args, frame.cpm);
  const out = [adsOf(frame), sql`a."mediaUrl" IS NOT NULL`, ...conditions(filter)];
  if (frame.snapshot.requested !== null) out.push(sql`a."firstSeenAt" < ${frame.until}`);
  if (args.status === 'active') out.push(activeAt(frame));
  if (args.status === 'inactive') out.push(sql`NOT ${activeAt(frame)}`);
  range(sql`a."createdAt"`, { min: args.createdAfter, max: endOfDay(args.createdBefore) }, out);
  range(effectiveEnd(frame), { min: args.lastSeenAfter, max: args.lastSeenBefore }, out);
  if (args.partnerIds?.length) out.push(sql`a."partnerPageId" = ANY(${args.partnerIds}::text[])`);
  range(sql`a."videoDurationSec"`, { min: args.minVideoDuration, max: args.maxVideoDuration }, out);
  if (args.linkedDomain) out.push(onDomain(sql`a."landingPageDomain"`, hostOf(args.linkedDomain)));
  return { filter, where: Prisma.join(out, ' AND ') };
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
      const sort = { sortBy: SORTS[args.sortBy ?? 'newest'] };
      const found = await findIdPage(context.prisma, {
        id: sql`a."id"`,
        from: sql`${AD_FROM} WHERE ${where}`,
        order: orderBy(sort),
        limit: page.limit,
        offset: offsetOf(page),
        search: filter.search ? { rank: textRank(filter, sort) } : undefined,
        scansAllMatches: false,
      });
      const select = queryFromInfo({ context, info, path: ['data'] });
      return loadIdPage(found, page, async (ids) => withCpm(await context.prisma.ad.findMany({ where: { id: { in: ids } }, relationLoadStrategy: 'join', ...select }), frame.cpm));
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
