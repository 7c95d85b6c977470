import type { Context } from '../../../context.js';
import { notFound } from '../../../errors.js';
import { Prisma, type BrandtrackerLink, type PrismaClient } from '../../../generated/prisma/client.js';
import { escapeLike } from '../../shared/like.js';
import { findComputedPage, inIdOrder, type PageRequest } from '../../shared/list.js';
import { inWorkspace, workspaceDb } from '../../shared/workspace.js';
import type { BrandtrackerListSortValue, ListFilter } from '../args.js';
import { figureColumns, figureJoins, loadFigures, toFigures, withFigures, type BrandtrackerFigures, type FigureRow } from './market-figures.js';

// The workspace's links (its tracked brands): the list's page of link ids with their figures in one statement, then
// the selected fields by Prisma through the workspace's client (`db`, from workspaceDb); one link by its
// brandtracker id.

const sql = Prisma.sql;

const ORDER: Record<BrandtrackerListSortValue | 'workspace', (p: string) => string> = {
  newAdsLastDay: (p) => `${p}"newAdsLastDay" DESC, ${p}"addedAt" DESC, ${p}"linkId" DESC`,
  newAdsLast7Days: (p) => `${p}"newAdsLast7Days" DESC, ${p}"addedAt" DESC, ${p}"linkId" DESC`,
  newAdsLast30Days: (p) => `${p}"newAdsLast30Days" DESC, ${p}"addedAt" DESC, ${p}"linkId" DESC`,
  activeAds: (p) => `${p}"activeAds" DESC, ${p}"addedAt" DESC, ${p}"linkId" DESC`,
  totalTraffic: (p) => `${p}"totalTraffic" DESC, ${p}"addedAt" DESC, ${p}"linkId" DESC`,
  name: (p) => `lower(${p}"displayName") ASC, ${p}"linkId" ASC`,
  createdAt: (p) => `${p}"createdAt" DESC, ${p}"linkId" DESC`,
  workspace: (p) => `${p}"addedAt" DESC, ${p}"linkId" DESC`,
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

/**
 * One page of the workspace's active brandtrackers, in one statement: the matches with their figures (the
 * figure sorts need them all), their count, and the page's links in order with their figures.
 */
function findLinkPage(prisma: PrismaClient, workspaceId: string, filter: ListFilter, sortBy: BrandtrackerListSortValue | undefined, page: PageRequest) {
  const order = ORDER[sortBy ?? 'workspace'];
  return findComputedPage<FigureRow>(prisma, {
    rows: sql`
      SELECT l."id" AS "linkId", l."addedAt", b."createdAt", coalesce(l."name", b."name") AS "displayName", ${figureColumns}
      FROM "brandtracker_links" l JOIN "brandtrackers" b ON b."id" = l."brandtrackerId" ${figureJoins}
      WHERE ${inWorkspace('l', workspaceId)} AND l."isActive"${conditions(filter, workspaceId)}`,
    order: (prefix) => Prisma.raw(order(prefix)),
    page,
  });
}

type Select = object;

/** The workspace's active link to a brandtracker, or 404 (another workspace's brandtracker answers the same). */
export async function activeLink(db: PrismaClient, workspaceId: string, brandtrackerId: string): Promise<{ id: number; pageId: string | null }> {
  const link = await db.brandtrackerLink.findFirst({
    where: { workspaceId, brandtrackerId, isActive: true },
    select: { id: true, brandtracker: { select: { facebookPageId: true } } },
  });
  if (!link) throw notFound(`Brandtracker "${brandtrackerId}"`);
  return { id: link.id, pageId: link.brandtracker.facebookPageId };
}

/** One link of the workspace with the selected fields and its figures. */
export async function loadLink<T extends BrandtrackerLink>(db: PrismaClient, workspaceId: string, linkId: number, select: Select): Promise<T> {
  const [row, figures] = await Promise.all([
    db.brandtrackerLink.findFirstOrThrow({ where: { id: linkId, workspaceId }, relationLoadStrategy: 'join', ...select }),
    loadFigures(db, workspaceId, [linkId]),
  ]);
  return withFigures([row as T], figures)[0];
}

type ListArgs = { page?: number | null; limit?: number | null; sortBy?: BrandtrackerListSortValue | null };

/** A page of the workspace's active brandtrackers (GET /v1/brandtrackers): two statements, the page and its rows. */
export async function brandtrackerList(context: Context, select: Select, filter: ListFilter, args: ListArgs) {
  const [{ workspace }, db] = await Promise.all([context.principal(), workspaceDb(context)]);
  const page = { page: args.page ?? 1, limit: args.limit ?? 25 };
  const found = await findLinkPage(db, workspace.id, filter, args.sortBy ?? undefined, page);
  const ids = found.data.map((row) => row.linkId);
  const rows = ids.length ? await db.brandtrackerLink.findMany({ where: { id: { in: ids }, workspaceId: workspace.id }, relationLoadStrategy: 'join', ...select }) : [];
  const figures = new Map(found.data.map((row) => [row.linkId, toFigures(row)]));
  const data = inIdOrder(ids.map(String), withFigures(rows as BrandtrackerLink[], figures), (row) => String(row.id));
  return { data, pagination: found.pagination };
}

/** The active brandtrackers of one folder of the workspace; 404 for a folder of another workspace. */
export async function folderBrandtrackers(context: Context, select: Select, folderId: number, filter: ListFilter, args: ListArgs) {
  const [{ workspace }, db] = await Promise.all([context.principal(), workspaceDb(context)]);
  const folder = await db.brandtrackerFolder.findFirst({ where: { id: folderId, workspaceId: workspace.id }, select: { id: true } });
  if (!folder) throw notFound(`Folder ${folderId}`);
  return brandtrackerList(context, select, { ...filter, folderIds: [folder.id] }, args);
}
