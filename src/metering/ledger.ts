import type pg from 'pg';
import { ASYNC_COMMIT, prepared } from '../db/statements.js';
import { PERIOD_NOW, POOLS_NOW, remainingNow } from './balance.js';

// Credits are held before a call runs and settled to what it returned. Each step is ONE SQL statement
// whose conditional UPDATE locks the workspace's account row: concurrent calls on any number of
// instances queue on that row, so the pools can never be overdrawn, charged twice, or lose a charge.
// A call by a workspace known to have far more than it could cost skips the hold: it runs, then `chargeAll`
// takes its cost with a conditional UPDATE of the same kind (one statement instead of two, shared by the calls
// charged at the same moment: src/metering/charges.ts); should the pools have been drained meanwhile, that
// UPDATE takes nothing and the call is refused after all (src/metering/meter.ts).
// Recurring credits are spent before top-up credits; refunds go back in the reverse order.
// On PostgreSQL their commits do not wait for the WAL flush (synchronous_commit off for that transaction only,
// set inside the statement): a workspace's concurrent calls queue on its account row, and would otherwise queue behind
// each other's fsync. A database crash may lose the last moments of holds and charges, in commit order
// (never a settlement without its hold): a call can go uncharged, never overdraw or pay twice; a hold whose
// settlement was lost is swept back.

/** Where the ledger's statements run: a pg pool (plain SQL on the per-call hot path; no query planning in Prisma). */
export type Sql = Pick<pg.Pool, 'query'>;

export type Hold = { id: string; workspaceId: string; recurring: number; topup: number };
export type Settlement = { cost: number; recurring: number; topup: number; remaining: number };
export type Charge = { credentialId: string; requestId: string; field: string; rows: number };

/**
 * CTEs that take credits from workspaces' pools for the rows of a CTE `due` ("workspaceId", cost, n), as if one
 * after another in the order of n, recurring first. In each workspace, the rows before the first one its pools
 * cannot pay are taken; that one and the later ones are not, except those that cost nothing. `taken` holds the
 * rows taken, each with its `recurring` part and what its pools hold after it (`remaining`). A recurring period
 * that has ended is rolled over to the one that holds now (however many periods went by unused), when the
 * workspace has a charge taken. The account rows are locked in workspace id order, so two such statements
 * cannot deadlock.
 */
const TAKE = `current AS (
      SELECT ${POOLS_NOW}
      FROM "credit_accounts"
      WHERE "workspaceId" IN (SELECT "workspaceId" FROM due)
      ORDER BY "workspaceId"
      FOR UPDATE
    ), ${PERIOD_NOW}, running AS (
      SELECT d.*, a.used, GREATEST(a."recurringLimit" - a.used, 0) AS free, a."topupBalance" AS topup_free,
             sum(d.cost) OVER (PARTITION BY d."workspaceId" ORDER BY d.n) <= GREATEST(a."recurringLimit" - a.used, 0) + a."topupBalance" AS payable
      FROM due d JOIN current a USING ("workspaceId")
    ), kept AS (
      SELECT *, COALESCE(sum(cost) FILTER (WHERE payable) OVER (PARTITION BY "workspaceId" ORDER BY n), 0) AS upto
      FROM running
    ), taken AS (
      SELECT *, LEAST(cost, GREATEST(free - (upto - cost), 0))::int AS recurring, (free + topup_free - upto)::int AS remaining
      FROM kept
      WHERE payable OR cost = 0
    ), account AS (
      UPDATE "credit_accounts" a
      SET "recurringUsed" = t.used + t.recurring,
          "topupBalance" = a."topupBalance" - t.topup,
          "currentPeriodStart" = COALESCE(p."start", a."currentPeriodStart"),
          "currentPeriodEnd" = COALESCE(p."end", a."currentPeriodEnd")
      FROM (SELECT "workspaceId", min(used) AS used, sum(recurring)::int AS recurring, sum(cost - recurring)::int AS topup
            FROM taken GROUP BY "workspaceId") t
        LEFT JOIN period p USING ("workspaceId")
      WHERE a."workspaceId" = t."workspaceId"
    )`;

/** Holds `amount` credits, or returns null when the pools cannot pay it (nothing is held then). */
export async function reserve(db: Sql, workspaceId: string, amount: number): Promise<Hold | null> {
  const { rows } = await db.query<Hold>(prepared(
    `WITH ${ASYNC_COMMIT}, due AS (SELECT $1::uuid AS "workspaceId", $2::int AS cost, 1::bigint AS n), ${TAKE}, held AS (
      INSERT INTO "credit_reservations" ("id", "workspaceId", "recurring", "topup")
      SELECT gen_random_uuid(), "workspaceId", recurring, cost - recurring FROM taken
      RETURNING "id", "workspaceId"::text AS "workspaceId", "recurring", "topup"
    )
    SELECT held.* FROM held, commit_mode`,
    [workspaceId, amount],
  ));
  return rows[0] ?? null;
}

/** A charge without a hold (see `chargeAll`): `cost` credits from workspace `workspaceId`, with its usage record. */
export type Due = { workspaceId: string; cost: number; charge: Charge };

/**
 * Takes the cost of calls that have already run, by workspaces known to have credits to spare, and appends their
 * usage records, all in one statement, without holds: as if charged one after another in the order given, each
 * from its workspace's pools, recurring first (a period that has ended is rolled over). In each workspace, the
 * charges before the first one its pools cannot pay are taken; that one and the later ones that cost anything take
 * nothing and come back null (their calls' answers must not be given).
 */
export async function chargeAll(db: Sql, dues: readonly Due[]): Promise<(Settlement | null)[]> {
  const { rows } = await db.query<Omit<Settlement, 'cost'> & { n: number }>(prepared(
    `WITH ${ASYNC_COMMIT}, due AS (
      SELECT * FROM unnest($1::uuid[], $2::int[], $3::uuid[], $4::text[], $5::text[], $6::int[])
        WITH ORDINALITY AS d("workspaceId", cost, "credentialId", "requestId", field, "rows", n)
    ), ${TAKE}, usage AS (
      INSERT INTO "usage_records" ("workspaceId", "credentialId", "requestId", "field", "rows", "cost", "recurring", "topup")
      SELECT "workspaceId", "credentialId", "requestId", field, "rows", cost, recurring, cost - recurring FROM taken ORDER BY n
    )
    SELECT n::int AS n, recurring, cost - recurring AS topup, remaining FROM taken, commit_mode`,
    [dues.map((d) => d.workspaceId), dues.map((d) => d.cost), dues.map((d) => d.charge.credentialId), dues.map((d) => d.charge.requestId),
      dues.map((d) => d.charge.field), dues.map((d) => d.charge.rows)],
  ));
  const settled: (Settlement | null)[] = dues.map(() => null);
  for (const { n, ...row } of rows) settled[n - 1] = { cost: dues[n - 1]!.cost, ...row };
  return settled;
}

/**
 * Ends a hold: keeps `cost` of it (recurring part first), returns the rest to the pools and, when a
 * charge is given, appends the usage record. With cost 0 and no charge it is a plain release.
 */
export async function settle(db: Sql, hold: Hold, cost: number, charge: Charge | null): Promise<Settlement> {
  const kept = Math.min(cost, hold.recurring + hold.topup);
  const recurring = Math.min(kept, hold.recurring);
  const topup = kept - recurring;
  const { rows } = await db.query<{ remaining: number }>(prepared(
    `WITH ${ASYNC_COMMIT}, released AS (
      DELETE FROM "credit_reservations" WHERE "id" = $1::uuid RETURNING "workspaceId"
    ), account AS (
      UPDATE "credit_accounts" a
      SET "recurringUsed" = GREATEST(a."recurringUsed" - $2::int, 0),
          "topupBalance" = a."topupBalance" + $3::int
      FROM released r
      WHERE a."workspaceId" = r."workspaceId"
      RETURNING ${remainingNow('a')} AS remaining
    ), usage AS (
      INSERT INTO "usage_records" ("workspaceId", "credentialId", "requestId", "field", "rows", "cost", "recurring", "topup")
      SELECT r."workspaceId", $4::uuid, $5, $6, $7::int, $8::int, $9::int, $10::int
      FROM released r WHERE $11::boolean
    )
    SELECT remaining::int AS remaining FROM account, commit_mode`,
    [hold.id, hold.recurring - recurring, hold.topup - topup, charge?.credentialId ?? null, charge?.requestId ?? '', charge?.field ?? '',
      charge?.rows ?? 0, kept, recurring, topup, charge !== null],
  ));
  return { cost: kept, recurring, topup, remaining: rows[0]?.remaining ?? 0 };
}

/** Returns holds older than `olderThanMs` (left by an instance that died mid-call) to their pools. */
export async function releaseStaleHolds(db: Sql, olderThanMs: number): Promise<number> {
  const { rows: stale } = await db.query<Hold>(
    `SELECT "id", "workspaceId"::text AS "workspaceId", "recurring", "topup" FROM "credit_reservations" WHERE "createdAt" < $1`,
    [new Date(Date.now() - olderThanMs)],
  );
  for (const hold of stale) await settle(db, hold, 0, null);
  return stale.length;
}
