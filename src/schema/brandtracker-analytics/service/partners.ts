import { Prisma } from '../../../generated/prisma/client.js';
import { findComputedPage, type PageRequest, type SqlSource } from '../../shared/list.js';
import { adsOf, spendSql, windowSql, type Frame, type TimeWindow } from './frame.js';

// GET /v1/brandtrackers/{brandtrackerId}/partners: the creators the brand runs partnership ads with (the creator
// page of its ads, `partnerPageId`), each with the figures of the brand's ads in the window that name it; one
// statement: the groups, their count and the page.

export type Partner = { facebookPageId: string; name: string; activeAds: number; launchDate: Date; reach: bigint; estimatedSpend: bigint };

export type PartnersQuery = { window: TimeWindow; sortBy: 'activeAds' | 'launchDate' | 'reach' | 'estimatedSpend'; order: 'asc' | 'desc'; page: PageRequest };

export async function partnersPage(prisma: SqlSource, frame: Frame, query: PartnersQuery) {
  const direction = query.order === 'asc' ? 'ASC' : 'DESC';
  const order = (prefix: string) => Prisma.raw(`${prefix}"${query.sortBy}" ${direction}, ${prefix}"facebookPageId" ASC`);
  return findComputedPage<Partner>(prisma, {
    rows: Prisma.sql`
      SELECT a."partnerPageId" AS "facebookPageId",
             coalesce((array_agg(a."partnerPageName" ORDER BY a."firstSeenAt" DESC, a."id") FILTER (WHERE a."partnerPageName" IS NOT NULL))[1], a."partnerPageId") AS "name",
             count(*) FILTER (WHERE ${windowSql(frame, 'live')})::int AS "activeAds", min(a."firstSeenAt") AS "launchDate",
             sum(a."reach")::bigint AS "reach", ${spendSql(frame, Prisma.sql`sum(a."reach")`)} AS "estimatedSpend"
      FROM "ads" a
      WHERE ${adsOf(frame)} AND a."partnerPageId" IS NOT NULL AND ${windowSql(frame, query.window)}
      GROUP BY a."partnerPageId"`,
    order,
    page: query.page,
  });
}
