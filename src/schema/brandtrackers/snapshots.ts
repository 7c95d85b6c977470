import type { PrismaClient } from '../../generated/prisma/client.js';
import { builder } from '../builder.js';
import { workspaceDb } from '../shared/workspace.js';
import { offsetOf, pageArgs, pagePagination, PagePaginationRef, type PagePagination, type PageRequest } from '../shared/pagination.js';
import { brandtrackerId } from './args.js';
import { activeLink } from './load.js';

// Readiness of a brandtracker's daily data: the reach-history snapshot days of its page's ads, newest first.

type Snapshot = { date: Date; status: 'ready' | 'indexing'; usableRows: number; indexedRows: number };
type Snapshots = { latestReadyDate: Date | null; latestScheduledDate: Date | null; snapshots: Snapshot[] };

const SnapshotStatus = builder.enumType('SnapshotStatus', {
  description: 'ready: usable reach rows exist; indexing: rows exist but none usable yet; scheduled: reserved for dates only planned.',
  values: ['ready', 'indexing', 'scheduled'] as const,
});

const SnapshotRef = builder.objectRef<Snapshot>('BrandtrackerSnapshot').implement({
  fields: (t) => ({
    date: t.expose('date', { type: 'Date' }),
    status: t.expose('status', { type: SnapshotStatus }),
    usableRows: t.exposeInt('usableRows', { description: "Rows of the day with a usable reach (the page's ads)." }),
    indexedRows: t.exposeInt('indexedRows', { description: 'Reach-history rows of the day.' }),
  }),
});

const SnapshotsRef = builder.objectRef<Snapshots>('BrandtrackerSnapshots').implement({
  fields: (t) => ({
    latestDate: t.expose('latestReadyDate', { type: 'Date', nullable: true, deprecationReason: 'Use latestReadyDate.' }),
    latestReadyDate: t.expose('latestReadyDate', { type: 'Date', nullable: true }),
    latestScheduledDate: t.expose('latestScheduledDate', { type: 'Date', nullable: true }),
    dates: t.field({ type: ['Date'], description: 'The dates of `snapshots`, newest first.', resolve: (s) => s.snapshots.map((snapshot) => snapshot.date) }),
    snapshots: t.field({ type: [SnapshotRef], resolve: (s) => s.snapshots }),
  }),
});

const SnapshotsPage = builder.objectRef<{ data: Snapshots; pagination: PagePagination }>('BrandtrackerSnapshotsPage').implement({
  fields: (t) => ({
    data: t.field({ type: SnapshotsRef, resolve: (page) => page.data }),
    pagination: t.field({ type: PagePaginationRef, resolve: (page) => page.pagination }),
  }),
});

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

builder.queryFields((t) => ({
  brandtrackerSnapshots: t.field({
    type: SnapshotsPage,
    authScopes: { workspace: true },
    description: "Readiness of one active brandtracker's daily data (GET /v1/brandtrackers/{brandtrackerId}/snapshots), newest day first.",
    args: {
      brandtrackerId: t.arg.string({ required: true, validate: brandtrackerId }),
      ...pageArgs({ defaultLimit: 100, maxLimit: 365 }),
    },
    resolve: async (_root, args, context) => {
      const [{ workspace }, db] = await Promise.all([context.principal(), workspaceDb(context)]);
      const link = await activeLink(db, workspace.id, args.brandtrackerId);
      return findSnapshots(context.prisma, link.pageId, { page: args.page ?? 1, limit: args.limit ?? 100 });
    },
  }),
}));
