import type { Context } from '../../context.js';
import { prepared } from '../../db/statements.js';
import { apiError } from '../../errors.js';

// Figures derived from a product row, and who may see EU/UK delivery data. The request's CPM and the caller's
// EU access travel with the rows it loaded.

export const DEFAULT_CPM = 9;
/** The CPM stored EU spend figures are priced at: a request's `cpm` rescales them by cpm / EU_CPM_USD. */
export const EU_CPM_USD = 9;

/** Plans with EU/UK data (Pro and above). `demo` is the demo workspace's, which shows every figure. */
export const EU_PLANS: ReadonlySet<string> = new Set(['pro', 'business', 'agency', 'enterprise', 'demo']);

export type RowView = { cpm: number; euAccess: boolean };
const VIEW = Symbol('view');
type WithView = { [VIEW]?: RowView };

export function withView<T extends object>(rows: T[], view: RowView): T[] {
  for (const row of rows) (row as WithView)[VIEW] = view;
  return rows;
}

export const viewOf = (row: object): RowView => (row as WithView)[VIEW] ?? { cpm: DEFAULT_CPM, euAccess: false };

/** EU spend (USD) at the row's CPM, or null when the caller's plan has no EU data. */
export function euSpend(row: object, storedUsd: number): number | null {
  const { cpm, euAccess } = viewOf(row);
  return euAccess ? Math.round(((storedUsd * cpm) / EU_CPM_USD) * 100) / 100 : null;
}

const planOfContext = new WeakMap<object, Promise<string | null>>();

const PLAN = `SELECT "planCode" FROM "credit_accounts" WHERE "workspaceId" = $1::uuid`;

/**
 * The workspace's plan code (CLI `--plan`), read once per request: on the pool, as a prepared statement (through
 * Prisma's client and its extensions, this key lookup cost half a millisecond of Node's time on every products page).
 */
export function workspacePlan(context: Context): Promise<string | null> {
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

export async function hasEuAccess(context: Context): Promise<boolean> {
  const plan = await workspacePlan(context);
  return plan !== null && EU_PLANS.has(plan.toLowerCase());
}

/** A 403 for EU/UK filters or sorts used below the Pro plan; `fields` names what the request used. */
export async function requireEuAccess(context: Context, fields: string[]): Promise<boolean> {
  const access = await hasEuAccess(context);
  if (!access && fields.length) {
    const plan = await workspacePlan(context);
    throw apiError('forbidden', `EU/UK data (${fields.join(', ')}) needs a Pro plan or above; this workspace's plan is ${plan ?? 'not set'}.`, {
      details: { requiredPlan: 'pro', plan, fields },
    });
  }
  return access;
}
