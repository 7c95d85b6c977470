import type { Context } from '../../../context.js';
import { Prisma, type PrismaClient } from '../../../generated/prisma/client.js';
import { findComputedPage, type PageRequest } from '../../shared/list.js';
import { workspaceDb } from '../../shared/workspace.js';
import { activeLink } from './links.js';

// Readiness of a brandtracker's daily data: the reach-history snapshot days of its page's ads, newest first.

const sql = Prisma.sql;

export type Snapshot = { date: Date; status: 'ready' | 'indexing'; usableRows: number; indexedRows: number };
export type Snapshots = { latestReadyDate: Date | null; latestScheduledDate: Date | null; snapshots: Snapshot[] };

/** The workspace's active brandtracker (404 otherwise), then its snapshot days. */
export async function brandtrackerSnapshots(context: Context, brandtrackerId: string, page: PageRequest) {
  const [{ workspace }, db] = await Promise.all([context.principal(), workspaceDb(context)]);
  const link = await activeLink(db, workspace.id, brandtrackerId);
  return findSnapshots(context.prisma, link.pageId, page);
}

/** One statement (findComputedPage): the page's snapshot days (counted once), one page of them, and the latest ones over all. */
async function findSnapshots(prisma: PrismaClient, pageId: string | null, page: PageRequest) {
  const found = await findComputedPage<{ date: Date; usableRows: number; indexedRows: number }, { latestReadyDate: Date | null; latestScheduledDate: Date | null }>(prisma, {
    rows: sql`
      SELECT r."date", count(*)::int AS "indexedRows", count(*) FILTER (WHERE r."reach" > 0)::int AS "usableRows"
      FROM "ads" a JOIN "ad_reach_days" r ON r."adId" = a."id"
      WHERE a."advertiserId" = ${pageId}
      GROUP BY r."date"`,
    order: (prefix) => Prisma.raw(`${prefix}"date" DESC`),
    summary: { latestReadyDate: sql`max(m."date") FILTER (WHERE m."usableRows" > 0)`, latestScheduledDate: sql`max(m."date")` },
    page,
  });
  const snapshots: Snapshot[] = found.data.map((s) => ({
    date: s.date,
    status: s.usableRows > 0 ? 'ready' : 'indexing',
    usableRows: s.usableRows,
    indexedRows: s.indexedRows,
  }));
  return { data: { ...found.summary, snapshots }, pagination: found.pagination };
}
