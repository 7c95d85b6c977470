import type { Context } from '../context.js';
import { prepared } from '../db/statements.js';

// The workspace's plan, for the routes whose answer depends on it (a products page shows EU/UK figures from Pro up).

const planOfContext = new WeakMap<object, Promise<string | null>>();

const PLAN = `SELECT "planCode" FROM "credit_accounts" WHERE "workspaceId" = $1::uuid`;

/**
 * The workspace's plan code (CLI `--plan`), read once per request: on the pool, as a prepared statement, since a
 * products page asks for it on every request and Prisma's client and extensions cost more than the lookup itself.
 */
export function workspacePlan(context: Pick<Context, 'pool' | 'principal'>): Promise<string | null> {
  let plan = planOfContext.get(context);
  if (!plan) {
    plan = (async () => {
      const { workspace } = await context.principal();
      const { rows } = await context.pool.query<{ planCode: string | null }>(prepared(PLAN, [workspace.id]));
      return rows[0]?.planCode ?? null;
    })();
    planOfContext.set(context, plan);
  }
  return plan;
}
