import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { GraphQLSchema } from 'graphql';
import type { RestRoute } from '../../rest/routes.js';
import { callRoute, errorResult, requestIdOf, type Fetch, type ToolResult } from './call.js';
import { taskTools, type TaskTool } from './tasks/index.js';
import { DEPRECATIONS, MCP_TOOLS_VERSION, resolveDeprecated } from './manifest.js';
import { publicTools, type PublicTool } from './public.js';
import { readShaping, shapeEnvelope } from './shape.js';
import { routeTools, type RouteTool } from './tools.js';

// POST /v1/mcp: the Model Context Protocol over Streamable HTTP, stateless (each POST is answered on its own,
// as JSON), behind the key check and body limit of src/plugins/use-mcp.ts. Every tool call is a call of the API
// itself with the caller's bearer key, so keys, workspaces, rate limits, credits and errors are the API's own.

const INSTRUCTIONS = [
  'Tools of the Market Intelligence API; each is one of its REST routes (named in the description) or a task composed of them.',
  'Results are the REST JSON envelope; lists carry `pagination` to continue with page/offset/cursor.',
  'Metered tools say their cost; `_meta` carries x-usage-cost and x-credits-remaining: stop before the balance runs out, and do not retry an insufficient_credits error.',
  'Metered tools accept dryRun: true to learn the cost without spending it. check_credits shows the balance.',
  'Task tools (brief_competitor, find_similar_shops, daily_radar, …) run several routes in one call and say their total cost; continueWith in their answer names the route tool to page on.',
  'The public tool names (search_ads, search_shops, scan_ad, list_tracked_brands, …) take snake_case arguments and answer compact list items; fullRecord names the tool that answers one item in full.',
  'Every tool takes maxTokens (the answer\'s size budget, default 8000) and fields (dotted paths of each record); a list cut to the budget says cut and gives continueWith: call that tool with those arguments to go on.',
].join(' ');

export type McpOptions = {
  schema: GraphQLSchema; routes: readonly RestRoute[]; fetch: Fetch; mutations: boolean;
  /** false on servers that do not sell credits (METERING=off): task tools then never refuse for the balance. */
  metering?: boolean;
  /** The old names that keep working (src/mcp/manifest.ts DEPRECATIONS; a test passes others). */
  deprecations?: typeof DEPRECATIONS;
};

/** The tools this server offers, in the order they are listed. */
export function mcpTools(options: Omit<McpOptions, 'fetch' | 'metering' | 'deprecations'>): (RouteTool | TaskTool | PublicTool)[] {
  const tools = routeTools(options.schema, options.routes, { mutations: options.mutations });
  const tasks = taskTools(options.routes).filter((task) => options.mutations || !task.writes);
  return [...tools, ...tasks, ...publicTools(options.schema, options.routes, { mutations: options.mutations })];
}

export function createMcpHandler(options: McpOptions) {
  const tools = mcpTools(options);
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const listed = tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema }));
  const deprecations = options.deprecations ?? DEPRECATIONS;

  return async function handle(request: Request): Promise<Response> {
    const authorization = request.headers.get('authorization');
    const origin = new URL(request.url).origin;
    const server = new Server({ name: 'market-intelligence-api', version: MCP_TOOLS_VERSION }, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listed, _meta: { manifestVersion: MCP_TOOLS_VERSION, deprecated: deprecations } }));
    server.setRequestHandler(CallToolRequestSchema, async (call): Promise<ToolResult> => {
      // An old name (tool or argument) still works: src/mcp/manifest.ts DEPRECATIONS.
      const resolved = resolveDeprecated(call.params.name, (call.params.arguments ?? {}) as Record<string, unknown>, deprecations);
      const tool = byName.get(resolved.name);
      const args = resolved.args;
      const requestId = requestIdOf();
      if (!tool) return errorResult('not_found', `No tool ${call.params.name}.`, requestId);
      if ('run' in tool) return tool.run({ fetch: options.fetch, routes: options.routes, authorization, origin, requestId, metering: options.metering ?? true }, args);
      const read = readShaping(args, 'full');
      if ('violations' in read) return errorResult('validation_error', `Invalid request: ${read.violations.flatMap((v) => v.expected).join('; ')}`, requestId, { validationErrors: read.violations });
      const shapeText = (text: string) => shapeEnvelope(JSON.parse(text), read.shaping, { tool: tool.name, args });
      return callRoute(options.fetch, tool.route, read.rest, authorization, origin, tool.arguments, shapeText);
    });
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    try {
      return await transport.handleRequest(request);
    } finally {
      await server.close();
    }
  };
}
