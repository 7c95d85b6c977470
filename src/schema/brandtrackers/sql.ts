import { Prisma, type PrismaClient } from '../../generated/prisma/client.js';
import { escapeLike } from '../shared/like.js';
import type { IdPage } from '../shared/pagination.js';
import type { ListFilter, BrandtrackerListSortValue } from './args.js';
import { figureColumns, figureJoins, toFigures, type BrandtrackerFigures, type FigureRow } from './figures.js';
import { inWorkspace } from '../shared/workspace.js';

const sql = Prisma.sql;

const ORDER: Record<BrandtrackerListSortValue | 'workspace', Prisma.Sql> = {
  newAdsLastDay: sql`m."newAdsLastDay" DESC, m."addedAt" DESC, m."linkId" DESC`,
  newAdsLast7Days: sql`m."newAdsLast7Days" DESC, m."addedAt" DESC, m."linkId" DESC`,
  newAdsLast30Days: sql`m."newAdsLast30Days" DESC, m."addedAt" DESC, m."linkId" DESC`,
  activeAds: sql`m."activeAds" DESC, m."addedAt" DESC, m."linkId" DESC`,
  totalTraffic: sql`m."totalTraffic" DESC, m."addedAt" DESC, m."linkId" DESC`,
  name: sql`lower(m."displayName") ASC, m."linkId" ASC`,
  createdAt: sql`m."createdAt" DESC, m."linkId" DESC`,
  workspace: sql`m."addedAt" DESC, m."linkId" DESC`,
};

function conditions(filter: ListFilter, workspaceId: string): Prisma.Sql {
  const parts: Prisma.Sql[] = [];
  if (filter.name) parts.push(sql`coalesce(l."name", b."name") ILIKE ${`%${escapeLike(filter.name)}%`}`);
  if (filter.folderIds) parts.push(sql`l."folderId" = ANY(${filter.folderIds}::int[])`);
  if (filter.folderNames) {
    const patterns = filter.folderNames.map((name) => `%${escapeLike(name)}%`);
    parts.push(sql`EXISTS (SELECT 1 FROM "brandtracker_folders" f WHERE f."id" = l."folderId" AND ${inWorkspace('f', workspaceId)} AND f."name" ILIKE ANY(${patterns}::text[]))`);
  }
  if (filter.hasNewAdsSince) {
    parts.push(sql`EXISTS (SELECT 1 FROM "ads" a WHERE a."advertiserId" = b."facebookPageId" AND a."firstSeenAt" >= ${filter.hasNewAdsSince})`);
  }
  return parts.length ? sql` AND ${Prisma.join(parts, ' AND ')}` : sql``;
}

export type LinkPage = IdPage & { figures: Map<number, BrandtrackerFigures> };

/**
 * One page of the workspace's active brandtrackers, in one statement: the matches with their figures (the
 * figure sorts need them all), their count, and the page of link ids in order.
 */
export async function findLinkPage(
  prisma: PrismaClient,
  workspaceId: string,
  filter: ListFilter,
  sortBy: BrandtrackerListSortValue | undefined,
  page: { limit: number; offset: number },
): Promise<LinkPage> {
  const order = ORDER[sortBy ?? 'workspace'];
  const rows = await prisma.$queryRaw<(FigureRow & { total: number })[]>`
    WITH m AS MATERIALIZED (
      SELECT l."id" AS "linkId", l."addedAt", b."createdAt", coalesce(l."name", b."name") AS "displayName", ${figureColumns}
      FROM "brandtracker_links" l JOIN "brandtrackers" b ON b."id" = l."brandtrackerId" ${figureJoins}
      WHERE ${inWorkspace('l', workspaceId)} AND l."isActive"${conditions(filter, workspaceId)}
    )
    SELECT m.*, t.total
    FROM (SELECT count(*)::int AS total FROM m) t
    LEFT JOIN LATERAL (SELECT * FROM m ORDER BY ${order} LIMIT ${page.limit} OFFSET ${page.offset}) m ON TRUE
    ORDER BY ${order}`;
  const found = rows.filter((row) => row.linkId !== null);
  return {
    ids: found.map((row) => String(row.linkId)),
    total: rows[0]?.total ?? 0,
    figures: new Map(found.map((row) => [row.linkId, toFigures(row)])),
  };
}
