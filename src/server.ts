import { GraphQLError } from 'graphql';
import { createYoga, type YogaServerInstance } from 'graphql-yoga';
import { useRestApi } from '../rest/plugin.js';
import { routes } from '../rest/routes.js';
import { createContext, type AppServices, type Context } from './context.js';
import { apiError, isErrorCode } from './errors.js';
import { useGraphQLLimits } from './plugins/use-graphql-limits.js';
import { useRequestBodyLimit } from './plugins/use-request-body-limit.js';
import { currentRequest, useRequestState } from './plugins/use-request-state.js';
import { useCompiledExecution } from './plugins/use-compiled-execution.js';
import { useGraphQLProtection } from './plugins/use-graphql-protection.js';
import { useIdempotency } from './plugins/use-idempotency.js';
import { useMcp } from './plugins/use-mcp.js';
import { useSharedBoards } from './plugins/use-shared-boards.js';
import { schema } from './schema/index.js';
import { refuseWorkspaceTables } from './schema/shared/workspace.js';

const DEFAULT_QUERY = `# Send your API key as a header: { "Authorization": "Bearer <key>" }
query {
  me { workspace { slug name } credential { name accessLevel } }
  ads(search: "summer", limit: 3) {
    pagination { total }
    data { id status advertiser { name } metrics { reach duplicates } }
  }
}
`;

export type App = YogaServerInstance<Record<string, unknown>, Context>;

export type Logger = { error(message: string, error?: unknown): void };

/** Keeps deliberate errors (those with a specification code); everything else becomes internal_error and is logged. */
function maskError(logger: Logger) {
  return (error: unknown): Error => {
    if (error instanceof GraphQLError && isErrorCode(error.extensions?.code)) return error;
    const original = error instanceof GraphQLError ? (error.originalError ?? error) : error;
    if (original instanceof GraphQLError && isErrorCode(original.extensions?.code)) return original;
    // A syntax, validation or variables error of /graphql: raised before execution, so it has no path.
    if (error instanceof GraphQLError && !error.originalError && error.path === undefined) return error;
    logger.error(`internal error (requestId ${currentRequest()?.requestId ?? '-'})`, original);
    const masked = apiError('internal_error', 'An unexpected error occurred. Retry with backoff and report the requestId.');
    if (!(error instanceof GraphQLError)) return masked;
    // Still pointing where the original did (nodes, or source and positions: yoga derives `locations` from them).
    const { nodes, source, positions, path } = error;
    return new GraphQLError(masked.message, { nodes, source, positions, path, extensions: masked.extensions });
  };
}

/** One yoga app: GraphQL (and GraphiQL) at /graphql, the REST surface at /v1, one schema and one context. */
export function createApp(given: AppServices, options: { logger?: Logger; mcpMutations?: boolean } = {}): App {
  // Resolvers reach workspace tables only through workspaceDb(context) (src/schema/shared/workspace.ts).
  const services: AppServices = { ...given, prisma: refuseWorkspaceTables(given.prisma) };
  const logger = options.logger ?? { error: (message, error) => console.error(message, error) };
  // The MCP tools call the app itself (src/mcp/): the same routes, keys, limits and prices as any client.
  const app: App = createYoga<Record<string, unknown>, Context>({
    schema,
    graphqlEndpoint: '/graphql',
    landingPage: false,
    healthCheckEndpoint: '/graphql/health',
    // Replaced by useRequestBodyLimit (src/plugins/use-request-body-limit.ts): the same limit for REST and GraphQL, at a fraction of the cost.
    maxRequestBodySize: false,
    // GraphiQL is served from the package itself: no CDN, so it works on machines without the internet.
    // Loaded on the first GraphiQL page only: the package holds a 9 MB bundle (~35 MB of memory once loaded).
    renderGraphiQL: async (options) => (await import('@graphql-yoga/render-graphiql')).renderGraphiQL(options),
    graphiql: { title: 'Market Intelligence API', defaultQuery: DEFAULT_QUERY },
    maskedErrors: { maskError: maskError(logger) },
    context: ({ request }) => {
      const state = currentRequest()!;
      return createContext(services, {
        requestId: state.requestId,
        authorization: request.headers.get('authorization'),
        responseHeaders: state.responseHeaders,
        principal: state.principal,
      });
    },
    plugins: [
      useRequestState(),
      useSharedBoards(given.prisma),
      useIdempotency({ pool: services.pool, authenticate: services.authenticate }),
      useMcp({ schema, routes, mutations: options.mcpMutations ?? false, fetch: async (request) => app.fetch(request) }),
      useRestApi({ schema, routes, authenticate: services.authenticate, rateLimiter: services.rateLimiter, prisma: given.prisma }),
      useRequestBodyLimit(),
      useGraphQLLimits(services.rateLimiter),
      useGraphQLProtection(),
      useCompiledExecution(),
    ],
  });
  return app;
}
