import { Prisma, type PrismaClient } from '../../../generated/prisma/client.js';
import { offsetOf, pagePagination, type PageRequest } from '../../shared/pagination.js';
import { adsOf, spendSql, windowSql, type Frame, type TimeWindow } from './frame.js';

// GET /v1/brandtrackers/{brandtrackerId}/partners: the creators the brand runs partnership ads with (the creator
// page of its ads, `partnerPageId`), each with the figures of the brand's ads in the window that name it; one
// statement: the groups, their count and the page.

export type Partner = { facebookPageId: string; name: string; activeAds: number; launchDate: Date; reach: bigint; estimatedSpend: bigint };

export type PartnersQuery = { window: TimeWindow; sortBy: 'activeAds' | 'launchDate' | 'reach' | 'estimatedSpend'; order: 'asc' | 'desc'; page: PageRequest };

export async function partnersPage(prisma: Pick<PrismaClient, '$queryRaw'>, frame: Frame, query: PartnersQuery) {
  const direction = query.order === 'asc' ? 'ASC' : 'DESC';
  const order = (prefix: string) => Prisma.raw(`${prefix}"${query.sortBy}" ${direction}, ${prefix}"facebookPageId" ASC`);
  const rows = await prisma.$queryRaw<(Partner & { total: number; facebookPageId: string | null })[]>`
    WITH g AS MATERIALIZED (
      SELECT a."partnerPageId" AS "facebookPageId",
             coalesce((array_agg(a."partnerPageName" ORDER BY a."firstSeenAt" DESC, a."id") FILTER (WHERE a."partnerPageName" IS NOT NULL))[1], a."partnerPageId") AS "name",
             count(*) FILTER (WHERE ${windowSql(frame, 'live')})::int AS "activeAds", min(a."firstSeenAt") AS "launchDate",
             sum(a."reach")::bigint AS "reach", ${spendSql(frame, Prisma.sql`sum(a."reach")`)} AS "estimatedSpend"
      FROM "ads" a
      WHERE ${adsOf(frame)} AND a."partnerPageId" IS NOT NULL AND ${windowSql(frame, query.window)}
      GROUP BY a."partnerPageId"
    )
    SELECT p.*, t.total
    FROM (SELECT count(*)::int AS total FROM g) t
    LEFT JOIN LATERAL (SELECT * FROM g ORDER BY ${order('')} LIMIT ${query.page.limit} OFFSET ${offsetOf(query.page)}) p ON TRUE
    ORDER BY ${order('p.')}`;
  const data = rows.flatMap(({ total: _total, facebookPageId, ...row }) => (facebookPageId === null ? [] : [{ ...row, facebookPageId }]));
  return { data, pagination: pagePagination(query.page, rows[0]?.total ?? 0) };
}
