import type { GraphQLResolveInfo } from 'graphql';
import { z } from 'zod';
import type { Context } from '../../context.js';
import { validationError } from '../../errors.js';
import { Prisma } from '../../generated/prisma/client.js';
import { PublicAd } from '../ads/types.js';
import { facebookPageId } from '../brandtrackers/service.js';
import { builder } from '../builder.js';
import { deprecatedSnapshotDate } from '../shared/time.js';
import { PagePaginationRef, pageArgs, pagePagination, pageRequest, type PagePagination, type PageRequest } from '../shared/pagination.js';
import { rankedAdsPage } from '../workspace-analytics/ranked-ads.js';
import { TopAdMetrics, TopAdsMeta, TopAdsSort, withAds, type RankedRow, type TopAdsMetaValue, type TopAdsSortValue } from '../workspace-analytics/ranked-rows.js';
import { frameArgs, INSIGHT_LIMITS, RankPeriod } from './args.js';
import { frameOf, periodStart, type Frame, type RankPeriod as RankPeriodValue } from './frame.js';

// GET /v1/brandtrackers/{brandtrackerId}/top-ads: the brand's current rankings, one ad per duplicate group, as
// { ad, metrics }; the overview's topAds section reads the same through `topAdsOf`.

export type BrandtrackerTopAdRowValue = RankedRow;

export const BrandtrackerTopAdRow = builder.objectRef<RankedRow>('BrandtrackerTopAd').implement({
  description: 'A ranked ad of the brand: its Ad summary and ranking figures.',
  fields: (t) => ({
    ad: t.field({ type: PublicAd, resolve: (row) => row.ad }),
    metrics: t.field({ type: TopAdMetrics, resolve: (row) => row }),
  }),
});

const TopAdStatus = builder.enumType('BrandtrackerTopAdsStatus', {
  description: 'active: the active ads (default); inactive: the inactive ones; all: both.',
  values: ['active', 'inactive', 'all'] as const,
});
type Status = (typeof TopAdStatus)['$inferType'];

export type TopAdsRequest = {
  sortBy: TopAdsSortValue;
  page: PageRequest;
  /** Only ads seen in the period (last seen on or after its start); omitted or `total`: no bound. */
  period?: RankPeriodValue | null;
  status?: Status;
};

type TopAdsPage = { data: RankedRow[]; pagination: PagePagination; meta: TopAdsMetaValue | null };

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

const TopAdsPageRef = builder.objectRef<TopAdsPage>('BrandtrackerTopAdsPage').implement({
  fields: (t) => ({
    data: t.field({ type: [BrandtrackerTopAdRow], resolve: (page) => page.data }),
    pagination: t.field({ type: PagePaginationRef, resolve: (page) => page.pagination }),
    meta: t.field({ type: TopAdsMeta, nullable: true, description: 'Present when nothing matched.', resolve: (page) => page.meta }),
  }),
});

/** The reference's rule: allFacebookPages cannot be combined with facebookPageId. */
const pagesRule = z.looseObject({ facebookPageId: z.string().nullish(), allFacebookPages: z.boolean().nullish() }).superRefine((args, ctx) => {
  if (args.allFacebookPages && args.facebookPageId != null) {
    ctx.addIssue({ code: 'custom', path: ['allFacebookPages'], message: '{name} cannot be combined with facebookPageId' });
  }
});

/**
 * A brandtracker here tracks one Facebook page, its primary one: facebookPageId must be that page (the reference
 * takes only a page "belonging to this brandtracker"), and allFacebookPages reads that same page.
 */
function checkPage(frame: Frame, pageId: string | null | undefined): void {
  if (pageId == null || pageId === frame.pageId) return;
  throw validationError([{ argument: 'facebookPageId', expected: ["facebookPageId must be the brandtracker's Facebook page"] }]);
}

builder.queryFields((t) => ({
  brandtrackerTopAds: t.field({
    type: TopAdsPageRef,
    authScopes: { workspace: true },
    description:
      "Current rankings of a brandtracker's ads (GET /v1/brandtrackers/{brandtrackerId}/top-ads), one per duplicate group: sortBy currentRank for the page rank, " +
      'rankDelta7d/14d/30d for movers, reach* for reach rankings. period and snapshotDate are accepted and ignored. ' +
      "A brandtracker tracks one Facebook page: facebookPageId must be that page, and allFacebookPages reads it too.",
    args: {
      ...frameArgs({ euOnly: false, snapshot: false }),
      ...pageArgs(INSIGHT_LIMITS),
      facebookPageId: t.arg.string({ description: "The brandtracker's Facebook page (the only one it has); omitted: that page.", validate: facebookPageId }),
      allFacebookPages: t.arg.boolean({ description: "All the brandtracker's Facebook pages: its one page. Cannot be combined with facebookPageId." }),
      sortBy: t.arg({ type: TopAdsSort, defaultValue: 'currentRank' }),
      status: t.arg({ type: TopAdStatus, description: 'Which ads by activity (default active); takes precedence over includeInactive.' }),
      includeInactive: t.arg.boolean({ deprecationReason: 'Use status: without status, true means status all.' }),
      period: t.arg({ type: RankPeriod, deprecationReason: 'Accepted and ignored: the rankings are current.' }),
      snapshotDate: t.arg.string({ deprecationReason: 'Accepted and ignored: the rankings are current.', validate: deprecatedSnapshotDate }),
    },
    validate: pagesRule,
    resolve: async (_root, args, context, info) => {
      // snapshotDate is ignored: the frame is read without it.
      const frame = await frameOf(context, { brandtrackerId: args.brandtrackerId, euOnly: args.euOnly }, { euOnly: false });
      checkPage(frame, args.facebookPageId);
      const status = args.status ?? (args.includeInactive ? 'all' : 'active');
      return topAdsOf(context, info, frame, { sortBy: args.sortBy ?? 'currentRank', page: pageRequest(args, INSIGHT_LIMITS.defaultLimit), status });
    },
  }),
}));
