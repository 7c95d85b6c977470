import { builder } from '../builder.js';
import { brandtrackerId } from '../shared/ids.js';
import { pageArgs, PagePaginationRef, type PagePagination } from '../shared/list.js';
import { brandtrackerSnapshots, type Snapshot, type Snapshots } from './service.js';

// Readiness of a brandtracker's daily data: the reach-history snapshot days of its page's ads, newest first.

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

builder.queryFields((t) => ({
  brandtrackerSnapshots: t.field({
    type: SnapshotsPage,
    authScopes: { workspace: true },
    description: "Readiness of one active brandtracker's daily data (GET /v1/brandtrackers/{brandtrackerId}/snapshots), newest day first.",
    args: {
      brandtrackerId: t.arg.string({ required: true, validate: brandtrackerId }),
      ...pageArgs({ defaultLimit: 100, maxLimit: 365 }),
    },
    resolve: (_root, args, context) => brandtrackerSnapshots(context, args.brandtrackerId, { page: args.page ?? 1, limit: args.limit ?? 100 }),
  }),
}));
