import { queryFromInfo } from '@pothos/plugin-prisma';
import type { GraphQLResolveInfo } from 'graphql';
import type { Context } from '../../../context.js';
import { Prisma } from '../../../generated/prisma/client.js';
import { AD_FROM, adsByIds, conditions, DAYS_RUNNING, withCpm } from '../../ads/service.js';
import type { AdSummaryRow } from '../../ads/types.js';
import { findComputedPage, inIdOrder, type PagePagination, type PageRequest } from '../../shared/list.js';
import { DAY_MS } from '../../shared/time.js';
import { activeSql, brandAdFilter, type TestingArgs } from './ad-filters.js';
import { frameOf, type Frame } from './frame.js';

// GET /v1/brandtrackers/{brandtrackerId}/testing: the brand's ads grouped by start date (the UTC day first seen),
// newest batch first. Three statements: the frame, the page of batches (figures and ad ids), the ads.

export const MAX_ADS_PER_BATCH = 20;
/** Days a batch's surviving ads must have run for the batch to count as a winner. */
export const WINNER_DAYS = 7;

type BatchRow = {
  startDate: Date; totalCount: number; runningCount: number; activeCount: number;
  reachMin: bigint; reachAvg: number; reachMax: bigint; reachTotal: bigint; daysMin: number; daysAvg: number; daysMax: number; adIds: string[];
};
export type Batch = BatchRow & { ads: AdSummaryRow[]; isWinner: boolean };
export type TestingPage = { data: Batch[]; pagination: PagePagination };

/** The one partnership filter of the two names: partners (the reference's) and partnership (gaps-filled.md's). */
const partnersOf = (args: { partners?: boolean | null; partnership?: boolean | null }) => args.partners ?? args.partnership;

/** The page of batches, newest start date first, with their figures and best ads, and the number of batches. */
export async function testingBatches(prisma: Prisma.TransactionClient, frame: Frame, args: TestingArgs, page: PageRequest) {
  // Testing's own names (gaps-filled.md): partnership beside partners, and the countries as two lists.
  const filter = brandAdFilter(frame, { ...args, partners: partnersOf(args), adCountries: { include: args.adCountries, exclude: args.excludeAdCountries } }, 'testing');
  return findComputedPage<BatchRow>(prisma, {
    rows: Prisma.sql`
      WITH x AS MATERIALIZED (
        SELECT a."id", (a."firstSeenAt" AT TIME ZONE 'UTC')::date AS "startDate", a."reach", ${DAYS_RUNNING}::int AS "days",
               (${activeSql(frame, 'testing')}) AS "running", a."status" = 'active' AS "active"
        ${AD_FROM} WHERE ${Prisma.join(conditions(filter), ' AND ')}
      )
      SELECT "startDate", count(*)::int AS "totalCount", count(*) FILTER (WHERE "running")::int AS "runningCount", count(*) FILTER (WHERE "active")::int AS "activeCount",
             min("reach") AS "reachMin", round(avg("reach"), 2)::float8 AS "reachAvg", max("reach") AS "reachMax", sum("reach")::bigint AS "reachTotal",
             min("days") AS "daysMin", round(avg("days"), 2)::float8 AS "daysAvg", max("days") AS "daysMax",
             (array_agg("id" ORDER BY "reach" DESC, "days" DESC, "id"))[1:${MAX_ADS_PER_BATCH}] AS "adIds"
      FROM x GROUP BY 1`,
    order: (prefix) => Prisma.raw(`${prefix}"startDate" DESC`),
    page,
  });
}

const isWinner = (frame: Frame, row: BatchRow) =>
  row.totalCount >= 2 && row.runningCount >= 1 && row.runningCount < row.totalCount && frame.day.getTime() - row.startDate.getTime() >= WINNER_DAYS * DAY_MS;

export async function testing(context: Context, info: GraphQLResolveInfo, args: TestingArgs & { brandtrackerId: string; euOnly?: boolean | null; snapshotDate?: string | null; page?: number | null; limit?: number | null }) {
  const frame = await frameOf(context, args, { euOnly: false });
  const page = { page: args.page ?? 1, limit: args.limit ?? 25 };
  const found = await testingBatches(context.prisma, frame, args, page);
  const ids = found.data.flatMap((row) => row.adIds);
  const select = queryFromInfo({ context, info, path: ['data', 'ads'] });
  const ads = withCpm(await adsByIds(context.prisma, ids, select), frame.cpm);
  const data = found.data.map((row) => ({ ...row, ads: inIdOrder(row.adIds, ads), isWinner: isWinner(frame, row) }));
  return { data, pagination: found.pagination };
}
