import { queryFromInfo } from '@pothos/plugin-prisma';
import type { GraphQLResolveInfo } from 'graphql';
import type { Context } from '../../context.js';
import { Prisma } from '../../generated/prisma/client.js';
import { withCpm } from '../ads/figures.js';
import { findAds } from '../ads/load.js';
import { conditions, DAYS_RUNNING } from '../ads/sql/conditions.js';
import { AD_FROM } from '../ads/sql/search.js';
import { PublicAd, type AdSummaryRow } from '../ads/types.js';
import { builder } from '../builder.js';
import { offsetOf, PagePaginationRef, pagePagination, pageArgs, type PagePagination, type PageRequest } from '../shared/pagination.js';
import { DAY_MS } from '../shared/time.js';
import { activeSql, brandAdFilter } from './ad-filters.js';
import { frameArgs } from './args.js';
import { frameOf, type Frame } from './frame.js';
import { partnersOf, testingArgsRule, testingFilterArgs, type TestingFilterArgs } from './testing-args.js';

// GET /v1/brandtrackers/{brandtrackerId}/testing: the brand's ads grouped by start date (the UTC day first seen),
// newest batch first, a page of batches with their figures over every matching ad and at most 20 ads each.
// Three statements: the frame, the page of batches (figures and ad ids), the ads.

export const MAX_ADS_PER_BATCH = 20;
/** Days a batch's surviving ads must have run for the batch to count as a winner. */
export const WINNER_DAYS = 7;

type BatchRow = {
  startDate: Date; totalCount: number; runningCount: number; activeCount: number;
  reachMin: bigint; reachAvg: number; reachMax: bigint; reachTotal: bigint; daysMin: number; daysAvg: number; daysMax: number; adIds: string[];
};
type Batch = BatchRow & { ads: AdSummaryRow[]; isWinner: boolean };
type TestingPage = { data: Batch[]; pagination: PagePagination };

const ReachStats = builder.objectRef<Batch>('BrandtrackerTestingReachStats').implement({
  description: "Reach of the batch's matching ads (all of them, not only those returned).",
  fields: (t) => ({
    min: t.expose('reachMin', { type: 'SafeInt' }),
    avg: t.exposeFloat('reachAvg', { description: 'Mean, rounded to 2 decimals.' }),
    max: t.expose('reachMax', { type: 'SafeInt' }),
    total: t.expose('reachTotal', { type: 'SafeInt' }),
  }),
});

const DaysRunningStats = builder.objectRef<Batch>('BrandtrackerTestingDaysRunningStats').implement({
  description: "Days running of the batch's matching ads, as each ad's daysRunning.",
  fields: (t) => ({ min: t.exposeInt('daysMin'), avg: t.exposeFloat('daysAvg', { description: 'Mean, rounded to 2 decimals.' }), max: t.exposeInt('daysMax') }),
});

const TestingStats = builder.objectRef<Batch>('BrandtrackerTestingStats').implement({
  fields: (t) => ({
    reach: t.field({ type: ReachStats, resolve: (batch) => batch }),
    daysRunning: t.field({ type: DaysRunningStats, resolve: (batch) => batch }),
    activeCount: t.exposeInt('activeCount', { description: 'Matching ads whose status is active now.' }),
    totalCount: t.exposeInt('totalCount', { description: 'Matching ads started that day.' }),
    bestPerformerId: t.string({ description: 'The ad with the highest reach (then the longest running, then the smallest id): the first of `ads`.', resolve: (batch) => batch.adIds[0] }),
  }),
});

export const TestingBatch = builder.objectRef<Batch>('BrandtrackerTestingBatch').implement({
  description: 'The ads a brand started on one day, one per duplicate group, best performer first.',
  fields: (t) => ({
    startDate: t.expose('startDate', { type: 'Date' }),
    ads: t.field({ type: [PublicAd], description: `At most ${MAX_ADS_PER_BATCH}, by reach (highest first), then days running, then id.`, resolve: (batch) => batch.ads }),
    adsReturned: t.int({ resolve: (batch) => batch.ads.length }),
    maxAdsPerBatch: t.int({ resolve: () => MAX_ADS_PER_BATCH }),
    adsTruncated: t.boolean({ description: 'More ads of the batch match than were returned.', resolve: (batch) => batch.totalCount > batch.adIds.length }),
    runningCount: t.exposeInt('runningCount', { description: 'Matching ads running at the frame: active now, or with a reach row on the snapshot day.' }),
    isWinner: t.exposeBoolean('isWinner', {
      description: `A concluded test with a survivor: at least 2 ads, some stopped while at least one still runs ${WINNER_DAYS} or more days after the start date (counted to today, or to the snapshot day).`,
    }),
    stats: t.field({ type: TestingStats, resolve: (batch) => batch }),
  }),
});

const TestingPageRef = builder.objectRef<TestingPage>('BrandtrackerTestingPage').implement({
  fields: (t) => ({
    data: t.field({ type: [TestingBatch], resolve: (page) => page.data }),
    pagination: t.field({ type: PagePaginationRef, description: '`limit` and `total` count start-date batches.', resolve: (page) => page.pagination }),
  }),
});

/** The page of batches, newest start date first, with their figures and best ads, and the number of batches. */
export async function testingBatches(prisma: Prisma.TransactionClient, frame: Frame, args: TestingFilterArgs, page: PageRequest) {
  // Testing's own names (gaps-filled.md): partnership beside partners, and the countries as two lists.
  const filter = brandAdFilter(frame, { ...args, partners: partnersOf(args), adCountries: { include: args.adCountries, exclude: args.excludeAdCountries } }, 'testing');
  const rows = await prisma.$queryRaw<(BatchRow & { total: number })[]>`
    WITH m AS MATERIALIZED (
      SELECT a."id", (a."firstSeenAt" AT TIME ZONE 'UTC')::date AS "startDate", a."reach", ${DAYS_RUNNING}::int AS "days",
             (${activeSql(frame, 'testing')}) AS "running", a."status" = 'active' AS "active"
      ${AD_FROM} WHERE ${Prisma.join(conditions(filter), ' AND ')}
    ),
    b AS (
      SELECT "startDate", count(*)::int AS "totalCount", count(*) FILTER (WHERE "running")::int AS "runningCount", count(*) FILTER (WHERE "active")::int AS "activeCount",
             min("reach") AS "reachMin", round(avg("reach"), 2)::float8 AS "reachAvg", max("reach") AS "reachMax", sum("reach")::bigint AS "reachTotal",
             min("days") AS "daysMin", round(avg("days"), 2)::float8 AS "daysAvg", max("days") AS "daysMax",
             (array_agg("id" ORDER BY "reach" DESC, "days" DESC, "id"))[1:${MAX_ADS_PER_BATCH}] AS "adIds"
      FROM m GROUP BY 1
    )
    SELECT p.*, t.total
    FROM (SELECT count(*)::int AS total FROM b) t
    LEFT JOIN LATERAL (SELECT * FROM b ORDER BY "startDate" DESC LIMIT ${page.limit} OFFSET ${offsetOf(page)}) p ON TRUE
    ORDER BY p."startDate" DESC`;
  return { rows: rows.filter((row) => row.startDate !== null), total: rows[0]?.total ?? 0 };
}

const isWinner = (frame: Frame, row: BatchRow) =>
  row.totalCount >= 2 && row.runningCount >= 1 && row.runningCount < row.totalCount && frame.day.getTime() - row.startDate.getTime() >= WINNER_DAYS * DAY_MS;

async function testing(context: Context, info: GraphQLResolveInfo, args: TestingFilterArgs & { brandtrackerId: string; euOnly?: boolean | null; snapshotDate?: string | null; page?: number | null; limit?: number | null }) {
  const frame = await frameOf(context, args, { euOnly: false });
  const page = { page: args.page ?? 1, limit: args.limit ?? 25 };
  const found = await testingBatches(context.prisma, frame, args, page);
  const ids = found.rows.flatMap((row) => row.adIds);
  const select = queryFromInfo({ context, info, path: ['data', 'ads'] });
  const ads = withCpm(await findAds(context.prisma, ids, select), frame.cpm);
  const byId = new Map(ads.map((ad) => [ad.id, ad]));
  const data = found.rows.map((row) => ({ ...row, ads: row.adIds.flatMap((id) => byId.get(id) ?? []), isWinner: isWinner(frame, row) }));
  return { data, pagination: pagePagination(page, found.total) };
}

builder.queryFields((t) => ({
  brandtrackerTesting: t.field({
    type: TestingPageRef,
    authScopes: { workspace: true },
    description:
      "Creative-testing batches of a brandtracker (GET /v1/brandtrackers/{brandtrackerId}/testing): its Facebook ads with media, one per duplicate group, grouped by start date " +
      `(UTC day first seen), newest first; page and limit count batches (1..50, default 25); each batch returns at most ${MAX_ADS_PER_BATCH} ads. ` +
      'The filters are those of POST /v1/ads/query; with snapshotDate, ads first seen after the snapshot day are left out and status is read at that day.',
    args: { ...frameArgs({ euOnly: false, snapshot: true }), ...pageArgs({ defaultLimit: 25, maxLimit: 50 }), ...testingFilterArgs() },
    validate: testingArgsRule,
    resolve: (_root, args, context, info) => testing(context, info, args),
  }),
}));
