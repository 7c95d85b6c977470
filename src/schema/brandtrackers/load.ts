import { notFound } from '../../errors.js';
import type { BrandtrackerLink, PrismaClient } from '../../generated/prisma/client.js';
import { pagePagination, type PageRequest } from '../shared/pagination.js';
import { loadFigures, withFigures } from './figures.js';
import type { LinkPage } from './sql.js';

// Loading workspace links for the brandtracker types: the selected fields by Prisma (one statement) through the
// workspace's client (`db`, from workspaceDb), the figures from SQL.

type Select = object;

/** The rows of a found page, in its order, with their figures. */
export async function loadLinkPage(db: PrismaClient, workspaceId: string, select: Select, found: LinkPage, page: PageRequest) {
  const ids = found.ids.map(Number);
  const rows = ids.length ? await db.brandtrackerLink.findMany({ where: { id: { in: ids }, workspaceId }, relationLoadStrategy: 'join', ...select }) : [];
  const byId = new Map(withFigures(rows as BrandtrackerLink[], found.figures).map((row) => [row.id, row]));
  return { data: ids.flatMap((id) => byId.get(id) ?? []), pagination: pagePagination(page, found.total) };
}

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
