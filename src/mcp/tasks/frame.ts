import type { FieldName } from '../../metering/prices.js';
import { priceOf } from '../../metering/prices.js';
import type { RestRoute } from '../../../rest/routes.js';
import { bounded, callRoute, errorResult, type Fetch, type ToolResult } from '../call.js';
import type { JsonSchema } from '../json-schema.js';
import { readShaping, shapeValue, shapingSchema, type Shaping } from '../shape.js';
import { callCosts, costSentence, totalOf, type Prices, type TaskCall } from './cost.js';
import { paramsSchema, readParams, type InputOf, type Params } from './params.js';

// A task tool is a declared sequence of calls of the API's own routes (src/mcp/call.ts: through the server,
// with the caller's key), so each call is authenticated, rate-limited, priced, charged and refused as when an
// agent makes it. The frame adds what a sequence needs: the total cost in the description, a dry run, an
// up-front refusal when the balance cannot cover the task's holds, and one compact, bounded JSON answer.

export type TaskContext = { fetch: Fetch; routes: readonly RestRoute[]; authorization: string | null; origin: string; requestId: string; metering: boolean };

export type Json = Record<string, unknown>;

/**
 * What a task's body can do: call a declared route (its JSON envelope back; any error ends the task as that
 * tool error), find (the same, but null when the route answers not_found), or end the task with its own error (a
 * subject it cannot find, or arguments that do not go together).
 */
export type TaskApi = { call(field: FieldName, args: Json): Promise<Json>; find(field: FieldName, args: Json): Promise<Json | null>; fail(code: 'not_found' | 'validation_error', message: string): never };

export type TaskDefinition<P extends Params> = {
  name: string;
  summary: string;
  params: P;
  /** Every route the body may call, metered ones with the argument bounding their rows. */
  calls: TaskCall[];
  /** A task that writes (it calls a mutation route) is offered only where the write routes are (MCP_MUTATIONS=on). */
  writes?: boolean;
  run(api: TaskApi, input: InputOf<P>): Promise<Json>;
};

export type TaskTool = { name: string; description: string; inputSchema: JsonSchema; uses: string[]; writes: boolean; run(context: TaskContext, args: Json): Promise<ToolResult> };

/** The balance is read here before a metered task runs (free: GET /v1/usage). */
const USAGE: FieldName = 'Query.usage';

class TaskEnded extends Error {
  constructor(readonly result: ToolResult) {
    super('task ended');
  }
}

const json = (value: unknown, shaping: Shaping, meta?: Json): ToolResult => ({ content: [{ type: 'text', text: bounded(shapeValue(value, shaping)) }], ...(meta && { _meta: meta }) });

function errorCode(result: ToolResult): string | undefined {
  try {
    return (JSON.parse(result.content[0].text) as { error?: { code?: string } }).error?.code;
  } catch {
    return undefined; // not an error envelope: not a not_found either
  }
}

export function taskTool<P extends Params>(task: TaskDefinition<P>, routes: readonly RestRoute[], prices: Prices = priceOf): TaskTool {
  const metered = callCosts(task.calls, {}, prices).length > 0;
  const uses = [...new Set([...task.calls.map((call) => call.field), ...(metered ? [USAGE] : [])])];
  const description = `${task.summary} ${costSentence(task.calls, task.params, routes, prices)}`;
  const inputSchema = paramsSchema(task.params, metered);
  Object.assign(inputSchema.properties!, shapingSchema(null));
  return { name: task.name, description, inputSchema, uses, writes: task.writes ?? false, run: (context, args) => runTask(task, context, args, prices) };
}

async function runTask<P extends Params>(task: TaskDefinition<P>, context: TaskContext, args: Json, prices: Prices): Promise<ToolResult> {
  const shape = readShaping(args, 'compact');
  const read = 'violations' in shape ? shape : readParams(task.params, shape.rest);
  if ('violations' in read) {
    const summary = read.violations.flatMap((v) => v.expected).join('; ');
    return errorResult('validation_error', `Invalid request: ${summary}`, context.requestId, { validationErrors: read.violations });
  }
  const { input, dryRun } = read;
  const { shaping } = shape as { shaping: Shaping };
  const costs = callCosts(task.calls, input, prices);
  const reserve = totalOf(costs);
  const spent = { cost: 0, remaining: undefined as unknown };
  const call = async (field: FieldName, callArgs: Json): Promise<Json> => {
    const route = context.routes.find((r) => r.field === field);
    if (!route) throw new Error(`task ${task.name} calls ${field}, which is not routed`);
    const result = await callRoute(context.fetch, route, callArgs, context.authorization, context.origin);
    if (typeof result._meta?.['x-usage-cost'] === 'number') spent.cost += result._meta['x-usage-cost'];
    if (result._meta?.['x-credits-remaining'] !== undefined) spent.remaining = result._meta['x-credits-remaining'];
    if (result.isError) throw new TaskEnded(result);
    return JSON.parse(result.content[0].text) as Json;
  };
  const made = new Map<FieldName, number>();
  const api: TaskApi = {
    call: (field, callArgs) => {
      made.set(field, (made.get(field) ?? 0) + 1);
      guard(task, input, field, callArgs, made, prices);
      return call(field, callArgs);
    },
    find: async (field, callArgs) => {
      try {
        return await api.call(field, callArgs);
      } catch (error) {
        if (error instanceof TaskEnded && errorCode(error.result) === 'not_found') return null;
        throw error;
      }
    },
    fail: (code, message) => {
      throw new TaskEnded(errorResult(code, message, context.requestId));
    },
  };
  try {
    if (dryRun || reserve > 0) {
      const usage = await call(USAGE, {});
      const remaining = (usage.credits as { totalRemaining: number }).totalRemaining;
      if (dryRun) return json({ dryRun: true, reserve, remaining, affordable: remaining >= reserve, fields: costs }, shaping);
      // Each route refuses a call whose hold the balance cannot cover; the task refuses the sum of its holds up
      // front, so an agent is never charged for the first calls of a task that could not finish.
      if (context.metering && remaining < reserve) {
        return errorResult('insufficient_credits', `This task needs up to ${reserve} credits and the workspace has ${remaining} left. Read check_credits before retrying; a smaller limit costs less.`, context.requestId, { required: reserve, remaining });
      }
    }
    const output = await task.run(api, input);
    return json(output, shaping, spent.remaining === undefined ? { 'x-usage-cost': spent.cost } : { 'x-usage-cost': spent.cost, 'x-credits-remaining': spent.remaining });
  } catch (error) {
    if (!(error instanceof TaskEnded)) throw error;
    if (spent.cost > 0) error.result._meta = { ...error.result._meta, 'x-usage-cost': spent.cost };
    return error.result;
  }
}

/** A body may call only the routes it declares, metered ones within the calls and rows its description promises. */
function guard(task: TaskDefinition<Params>, input: Json, field: FieldName, args: Json, made: ReadonlyMap<FieldName, number>, prices: Prices) {
  const nth = made.get(field)!;
  const declared = task.calls.find((call) => call.field === field);
  if (!declared) throw new Error(`task ${task.name} calls ${field}, which it does not declare`);
  if (declared.oneOf && task.calls.some((call) => call.oneOf === declared.oneOf && call.field !== field && made.has(call.field))) {
    throw new Error(`task ${task.name} calls two routes of its one-of group ${declared.oneOf}`);
  }
  const price = prices(field);
  if (!price || price.kind === 'free') return;
  if (nth > (declared.repeatFrom ? Number(input[declared.repeatFrom]) : 1)) throw new Error(`task ${task.name} calls ${field} more often than it declares`);
  if (price.kind !== 'perRow') return;
  const limit = args[price.limitArg];
  const most = declared.rowsFrom ? input[declared.rowsFrom] : undefined;
  if (most === undefined ? limit !== undefined : typeof limit !== 'number' || limit > Number(most)) {
    throw new Error(`task ${task.name} calls ${field} with ${price.limitArg} ${String(limit)}, beyond what it declares`);
  }
}
