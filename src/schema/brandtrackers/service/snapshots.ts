import type { Context } from '../../../context.js';
import type { PrismaClient } from '../../../generated/prisma/client.js';
import { offsetOf, pagePagination, type PageRequest } from '../../shared/list.js';
import { workspaceDb } from '../../shared/workspace.js';
import { activeLink } from './links.js';

// Readiness of a brandtracker's daily data: the reach-history snapshot days of its page's ads, newest first.

export type Snapshot = { date: Date; status: 'ready' | 'indexing'; usableRows: number; indexedRows: number };
export type Snapshots = { latestReadyDate: Date | null; latestScheduledDate: Date | null; snapshots: Snapshot[] };

/** The workspace's active brandtracker (404 otherwise), then its snapshot days. */
export async function brandtrackerSnapshots(context: Context, brandtrackerId: string, page: PageRequest) {
  const [{ workspace }, db] = await Promise.all([context.principal(), workspaceDb(context)]);
  const link = await activeLink(db, workspace.id, brandtrackerId);
  return findSnapshots(context.prisma, link.pageId, page);
}

/** One statement: the page's snapshot days (counted once), the latest ones and one page of them. */
async function findSnapshots(prisma: PrismaClient, pageId: string | null, page: PageRequest) {
  const [row] = await prisma.$queryRaw<{ ready: Date | null; scheduled: Date | null; total: number; snapshots: { date: string; usableRows: number; indexedRows: number }[] }[]>`
    WITH d AS MATERIALIZED (
      SELECT r."date", count(*)::int AS "indexedRows", count(*) FILTER (WHERE r."reach" > 0)::int AS "usableRows"
      FROM "ads" a JOIN "ad_reach_days" r ON r."adId" = a."id"
      WHERE a."advertiserId" = ${pageId}
      GROUP BY r."date"
    )
    SELECT (SELECT max("date") FILTER (WHERE "usableRows" > 0) FROM d) AS ready,
           (SELECT max("date") FROM d) AS scheduled,
           (SELECT count(*)::int FROM d) AS total,
           (SELECT coalesce(json_agg(p ORDER BY p."date" DESC), '[]') FROM (SELECT * FROM d ORDER BY "date" DESC LIMIT ${page.limit} OFFSET ${offsetOf(page)}) p) AS snapshots`;
  const snapshots: Snapshot[] = row.snapshots.map((s) => ({
    date: new Date(`${s.date}T00:00:00Z`),
    status: s.usableRows > 0 ? 'ready' : 'indexing',
    usableRows: s.usableRows,
    indexedRows: s.indexedRows,
  }));
  return { data: { latestReadyDate: row.ready, latestScheduledDate: row.scheduled, snapshots }, pagination: pagePagination(page, row.total) };
}

