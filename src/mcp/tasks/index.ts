import { priceOf } from '../../metering/prices.js';
import type { RestRoute } from '../../../rest/routes.js';
import { analyzeBrandChanges } from './brand-changes.js';
import { briefCompetitor } from './brief-competitor.js';
import type { Prices } from './cost.js';
import { dailyRadar } from './daily-radar.js';
import { taskTool, type TaskDefinition, type TaskTool } from './frame.js';
import type { Params } from './params.js';
import { analyzeShopEmails, analyzeTrackedBrand, creativeInspirationPack, runSavedSearch } from './public-tasks.js';
import { findSimilarShops } from './similar-shops.js';
import { whatsNew } from './whats-new.js';

export type { TaskContext, TaskTool } from './frame.js';

// Tools composed of several routes, for what an agent would otherwise do in many calls (src/mcp/tasks/frame.ts).
// Each is offered only when every route it uses is in the route table, and says what it costs in all.

const checkCredits: TaskDefinition<Record<string, never>> = {
  name: 'check_credits',
  summary: "The workspace's credits: recurring allowance, used, top-up, what remains (GET /v1/usage).",
  params: {},
  calls: [{ field: 'Query.usage' }],
  run: (api) => api.call('Query.usage', {}),
};

/** The task tools of this route table; `prices` is the price table (a test passes another). */
export function taskTools(routes: readonly RestRoute[], prices: Prices = priceOf): TaskTool[] {
  const fields = new Set<string>(routes.map((route) => route.field));
  const definitions = [checkCredits, briefCompetitor, findSimilarShops, dailyRadar, whatsNew, analyzeBrandChanges, creativeInspirationPack, analyzeTrackedBrand, analyzeShopEmails, runSavedSearch] as TaskDefinition<Params>[];
  const tools = definitions.map((definition) => taskTool(definition, routes, prices));
  return tools.filter((tool) => tool.uses.every((field) => fields.has(field)));
}
