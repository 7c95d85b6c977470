import type { PrismaClient } from '../db/client.js';
import { prepared } from '../db/statements.js';
import type { Sql } from './ledger.js';

// What a workspace has left, as one rule written once, in SQL: the ledger's charges take credits by it
// (ledger.ts builds its statements from POOLS_NOW and PERIOD_NOW) and creditBalance reads it, for GET /v1/usage,
// the dry run and the meter alike. A recurring period that has ended counts as rolled over to the period that
// holds now (nothing of it used), as the next charge will roll it.

const ended = (row: string) => `(${row}"currentPeriodEnd" IS NOT NULL AND ${row}"currentPeriodEnd" <= now())`;

/** The recurring credits a "credit_accounts" row (`alias`, or unqualified) has used in the period that holds now. */
export const usedNow = (alias?: string) => {
  const row = alias ? `${alias}.` : '';
  return `CASE WHEN ${ended(row)} THEN 0 ELSE ${row}"recurringUsed" END`;
};

/** What a "credit_accounts" row (`alias`) can spend now: recurring left in the period that holds now, plus top-up. */
export const remainingNow = (alias: string) => `GREATEST(${alias}."recurringLimit" - ${usedNow(alias)}, 0) + ${alias}."topupBalance"`;

/**
 * The columns of a "credit_accounts" row as its pools stand now: `rolled` (its period has ended), `used` (0 when
 * rolled), "recurringLimit", "topupBalance", and what PERIOD_NOW needs (`end_utc`, `elapsed`).
 */
export const POOLS_NOW = `"workspaceId",
             ${ended('')} AS rolled,
             ${usedNow()} AS used,
             "recurringLimit", "topupBalance",
             -- periods are counted in UTC calendar months from the period's end, whatever the session's time zone
             "currentPeriodEnd" AT TIME ZONE 'UTC' AS end_utc,
             (extract(year FROM age(now() AT TIME ZONE 'UTC', "currentPeriodEnd" AT TIME ZONE 'UTC')) * 12
               + extract(month FROM age(now() AT TIME ZONE 'UTC', "currentPeriodEnd" AT TIME ZONE 'UTC')))::int AS elapsed`;

/** A CTE `period` ("workspaceId", "start", "end"): the period that holds now, for each rolled row of a CTE `current` (POOLS_NOW). */
export const PERIOD_NOW = `period AS (
      -- An ended period rolls to the one that holds now: k whole months after the old end, both dates counted
      -- from the old end (Jan 31 + 1 month = Feb 28, + 2 months = Mar 31). Month-end clamping can leave the
      -- (k+1)th end at or before now: one more month then.
      SELECT "workspaceId",
             (end_utc + make_interval(months => k)) AT TIME ZONE 'UTC' AS "start",
             (end_utc + make_interval(months => k + 1)) AT TIME ZONE 'UTC' AS "end"
      FROM (SELECT "workspaceId", end_utc,
                   CASE WHEN end_utc + make_interval(months => elapsed + 1) <= now() AT TIME ZONE 'UTC' THEN elapsed + 1 ELSE elapsed END AS k
            FROM current WHERE rolled) c
    )`;

const BALANCE = `WITH current AS (SELECT ${POOLS_NOW} FROM "credit_accounts" WHERE "workspaceId" = $1::uuid), ${PERIOD_NOW}
    SELECT c."recurringLimit" AS "limit", c.used, c."topupBalance" AS topup,
           COALESCE(p."start", a."currentPeriodStart") AS "periodStart", COALESCE(p."end", a."currentPeriodEnd") AS "periodEnd",
           a."billingConfigured", a."planCode", a."updatedAt"
    FROM current c JOIN "credit_accounts" a USING ("workspaceId") LEFT JOIN period p USING ("workspaceId")`;

type Row = {
  limit: number; used: number; topup: number; periodStart: Date | null; periodEnd: Date | null;
  billingConfigured: boolean; planCode: string | null; updatedAt: Date | null;
};

export type CreditQuota = { limit: number; used: number; remaining: number };
export type CreditBalance = {
  recurring: CreditQuota;
  topup: number;
  /** Remaining recurring plus top-up credits: what the workspace can spend now. */
  totalRemaining: number;
  /** The recurring period that holds now. */
  period: { start: Date | null; end: Date | null };
  billing: { configured: boolean; planCode: string | null; updatedAt: Date | null };
};

const NO_ACCOUNT: Row = { limit: 0, used: 0, topup: 0, periodStart: null, periodEnd: null, billingConfigured: false, planCode: null, updatedAt: null };

/** The workspace's credits as they stand now (no account: none). On the ledger's pool, or through Prisma. */
export async function creditBalance(db: Sql | PrismaClient, workspaceId: string): Promise<CreditBalance> {
  const rows = '$queryRawUnsafe' in db
    ? await db.$queryRawUnsafe<Row[]>(BALANCE, workspaceId)
    : (await db.query<Row>(prepared(BALANCE, [workspaceId]))).rows;
  const row = rows[0] ?? NO_ACCOUNT;
  const remaining = Math.max(row.limit - row.used, 0);
  return {
    recurring: { limit: row.limit, used: row.used, remaining },
    topup: row.topup,
    totalRemaining: remaining + row.topup,
    period: { start: row.periodStart, end: row.periodEnd },
    billing: { configured: row.billingConfigured, planCode: row.planCode, updatedAt: row.updatedAt },
  };
}
