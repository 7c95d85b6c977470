import type { Context } from '../../context.js';
import { apiError } from '../../errors.js';
import { workspacePlan } from '../../metering/plan.js';

// Who may see EU/UK delivery data: the workspace's plan (metering) decides.

/** Plans with EU/UK data (Pro and above). `demo` is the demo workspace's, which shows every figure. */
export const EU_PLANS: ReadonlySet<string> = new Set(['pro', 'business', 'agency', 'enterprise', 'demo']);

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
