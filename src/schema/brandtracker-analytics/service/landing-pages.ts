import type { PrismaClient } from '../../../generated/prisma/client.js';
import type { PagePagination, PageRequest } from '../../shared/list.js';
import { groupPage, type GroupRow } from './aggregates.js';
import { windowSql, type Frame, type TimeWindow } from './frame.js';

// GET /v1/brandtrackers/{brandtrackerId}/landing-pages and the overview's topLandingPages: the landing pages the
// brand's ads in a window link to, with usage figures (the grouped aggregates of aggregates.ts, one statement, on a
// scope of this one brandtracker).

export type LandingPageOverview = Pick<GroupRow, 'usageCount' | 'longestRunning' | 'totalImpressions'> & {
  landingPage: string;
  technologies: NonNullable<GroupRow['landingPage']>['technologies'];
  screenshots: NonNullable<GroupRow['landingPage']>['screenshots'];
};
export type LandingPagePage = { data: LandingPageOverview[]; pagination: PagePagination };

export type LandingPageSortValue = 'usageCount' | 'longestRunning' | 'totalImpressions';

const NO_SCREENSHOTS = { desktop: null, mobile: null, head: null };

/** A page of the frame's landing pages in a window, in one statement. */
export async function landingPagesOf(prisma: PrismaClient, frame: Frame, query: { window: TimeWindow; sort: LandingPageSortValue; order: 'asc' | 'desc'; page: PageRequest }): Promise<LandingPagePage> {
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
