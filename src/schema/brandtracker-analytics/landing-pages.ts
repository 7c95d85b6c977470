import type { PrismaClient } from '../../generated/prisma/client.js';
import { builder } from '../builder.js';
import { PagePaginationRef, pageArgs, type PagePagination, type PageRequest } from '../shared/pagination.js';
import { groupPage, type GroupRow } from '../workspace-analytics/aggregates.js';
import { LandingPageScreenshots, LandingPageTechnology } from '../workspace-analytics/types.js';
import { frameArgs, INSIGHT_LIMITS, orderArg, TimeWindow } from './args.js';
import { frameOf, windowSql, type Frame, type TimeWindow as Window } from './frame.js';

// GET /v1/brandtrackers/{brandtrackerId}/landing-pages, and overview's topLandingPages: the landing pages the brand's
// ads in a window link to, with usage figures (the workspace landing pages' aggregate, narrowed to one brandtracker).

export type LandingPageOverview = Pick<GroupRow, 'usageCount' | 'longestRunning' | 'totalImpressions'> & {
  landingPage: string;
  technologies: NonNullable<GroupRow['landingPage']>['technologies'];
  screenshots: NonNullable<GroupRow['landingPage']>['screenshots'];
};
export type LandingPagePage = { data: LandingPageOverview[]; pagination: PagePagination };

export const LandingPageSort = builder.enumType('BrandtrackerLandingPageSort', { values: ['usageCount', 'longestRunning', 'totalImpressions'] as const });
type Sort = typeof LandingPageSort.$inferType;

export const BrandtrackerLandingPage = builder.objectRef<LandingPageOverview>('BrandtrackerLandingPage').implement({
  description: "A landing page the brand's ads link to, with the figures of those ads.",
  fields: (t) => ({
    landingPage: t.exposeString('landingPage', { description: 'The URL.' }),
    usageCount: t.exposeInt('usageCount', { description: 'Ads in the window linking to it.' }),
    longestRunning: t.exposeInt('longestRunning', { description: 'The most days running among those ads.' }),
    totalImpressions: t.expose('totalImpressions', { type: 'SafeInt', description: 'Reach of those ads, summed.' }),
    technologies: t.field({ type: [LandingPageTechnology], resolve: (row) => row.technologies }),
    screenshots: t.field({ type: LandingPageScreenshots, resolve: (row) => row.screenshots }),
  }),
});

export const LandingPagePageRef = builder.objectRef<LandingPagePage>('BrandtrackerLandingPagePage').implement({
  fields: (t) => ({
    data: t.field({ type: [BrandtrackerLandingPage], resolve: (page) => page.data }),
    pagination: t.field({ type: PagePaginationRef, resolve: (page) => page.pagination }),
  }),
});

const NO_SCREENSHOTS = { desktop: null, mobile: null, head: null };

/** A page of the frame's landing pages in a window, in one statement. */
export async function landingPagesOf(prisma: PrismaClient, frame: Frame, query: { window: Window; sort: Sort; order: 'asc' | 'desc'; page: PageRequest }): Promise<LandingPagePage> {
  const found = await groupPage(prisma, {
    scope: { workspaceId: frame.workspaceId, brandtrackerIds: [frame.brandtrackerId] },
    kind: 'landingPage', euOnly: frame.euOnly, window: windowSql(frame, query.window), sort: query.sort, order: query.order, page: query.page,
  });
  const data = found.data.map((row) => ({
    landingPage: row.landingPage?.url ?? row.key, usageCount: row.usageCount, longestRunning: row.longestRunning, totalImpressions: row.totalImpressions,
    technologies: row.landingPage?.technologies ?? [], screenshots: row.landingPage?.screenshots ?? NO_SCREENSHOTS,
  }));
  return { data, pagination: found.pagination };
}

builder.queryFields((t) => ({
  brandtrackerLandingPages: t.field({
    type: LandingPagePageRef,
    authScopes: { workspace: true },
    description:
      "Landing pages of a brandtracker's ads (GET /v1/brandtrackers/{brandtrackerId}/landing-pages): the ads of the window (live by default) grouped by " +
      'the landing page they link to, with their count, longest run and summed reach, the page\'s technologies and screenshots.',
    args: {
      ...frameArgs({ euOnly: false, snapshot: true }),
      timePeriod: t.arg({ type: TimeWindow, defaultValue: 'live' }),
      ...pageArgs(INSIGHT_LIMITS),
      ...orderArg(),
      sortBy: t.arg({ type: LandingPageSort, defaultValue: 'usageCount' }),
    },
    resolve: async (_root, args, context) => {
      const frame = await frameOf(context, args, { euOnly: false });
      const page = { page: args.page ?? 1, limit: args.limit ?? INSIGHT_LIMITS.defaultLimit };
      return landingPagesOf(context.prisma, frame, { window: args.timePeriod ?? 'live', sort: args.sortBy ?? 'usageCount', order: args.order ?? 'desc', page });
    },
  }),
}));
