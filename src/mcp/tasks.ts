import type { RestRoute } from '../../rest/routes.js';
import { callRoute, type Fetch, type ToolResult } from './call.js';
import type { JsonSchema } from './json-schema.js';

// Tools composed of several routes, for what an agent would otherwise do in many calls. Each is offered only
// when every route it uses is in the route table, and says what it costs in all.

export type TaskContext = { fetch: Fetch; routes: readonly RestRoute[]; authorization: string | null; origin: string };
export type TaskTool = { name: string; description: string; inputSchema: JsonSchema; uses: string[]; run(context: TaskContext, args: Record<string, unknown>): Promise<ToolResult> };

const routeOf = (routes: readonly RestRoute[], field: RestRoute['field']) => routes.find((route) => route.field === field)!;

/** Runs routes by field, parses their envelopes; the first error ends the task as that tool error. */
async function step(context: TaskContext, field: RestRoute['field'], args: Record<string, unknown>): Promise<{ ok: true; body: Record<string, unknown> } | { ok: false; result: ToolResult }> {
  const result = await callRoute(context.fetch, routeOf(context.routes, field), args, context.authorization, context.origin);
  if (result.isError) return { ok: false, result };
  return { ok: true, body: JSON.parse(result.content[0].text) as Record<string, unknown> };
}

const json = (value: unknown): ToolResult => ({ content: [{ type: 'text', text: JSON.stringify(value) }] });

const TASKS: TaskTool[] = [
  {
    name: 'check_credits',
    description: "The workspace's credits: recurring allowance, used, top-up, what remains (GET /v1/usage). Free.",
    inputSchema: { type: 'object', properties: {} },
    uses: ['Query.usage'],
    run: async (context) => {
      const usage = await step(context, 'Query.usage', {});
      return usage.ok ? json(usage.body) : usage.result;
    },
  },
];

export function taskTools(routes: readonly RestRoute[]): TaskTool[] {
  const fields = new Set<string>(routes.map((route) => route.field));
  return TASKS.filter((task) => task.uses.every((field) => fields.has(field)));
}
