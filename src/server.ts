import { GraphQLError } from 'graphql';
import { createYoga, type YogaServerInstance } from 'graphql-yoga';
import { useEventStream } from '../rest/event-stream.js';
import { useExportFile } from '../rest/export-file.js';
import { useRestApi } from '../rest/plugin.js';
import { useMedia } from './plugins/use-media.js';
import { routes } from '../rest/routes.js';
import type { Authenticator } from './auth/authenticate.js';
import { createContext, type AppServices, type Context } from './context.js';
import { isDatabaseUnavailable } from './db/failures.js';
import { reportLiveHubErrors } from './schema/events/service.js';
import { apiError, isErrorCode, serviceUnavailable } from './errors.js';
import { creditHeaders } from './metering/credit-headers.js';
import { recordAnswers } from './observability/access.js';
import { createLogger, type Logger } from './observability/logger.js';
import type { Metrics } from './observability/metrics.js';
import { createReadiness, type Readiness } from './observability/readiness.js';
import { useCompiledExecution } from './plugins/use-compiled-execution.js';
import { useGraphQLLimits } from './plugins/use-graphql-limits.js';
import { useGraphQLProtection, withoutSuggestions } from './plugins/use-graphql-protection.js';
import { idempotentWrite, useIdempotency } from './plugins/use-idempotency.js';
import { useInputGuard } from './plugins/use-input-guard.js';
import { useMcp } from './plugins/use-mcp.js';
import { useRequestBodyLimit } from './plugins/use-request-body-limit.js';
import { currentRequest, noteErrorCode, noteIdentity, useRequestState } from './plugins/use-request-state.js';
import { useHomePage } from './plugins/use-home-page.js';
import { useNotFound } from './plugins/use-not-found.js';
import { useSharePages } from './plugins/use-share-pages.js';
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
export type { Logger };

/** Response headers a browser script may read (CORS): the request id, the metering and the rate-limit headers. */
const EXPOSED_HEADERS = ['X-Request-Id', 'X-Usage-Cost', 'X-Credits-Used', 'X-Credits-Remaining', 'X-Credits-Source', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Retry-After'];
const ALLOWED_HEADERS = ['Authorization', 'Content-Type', 'X-Request-Id', 'X-Dry-Run', 'Idempotency-Key', 'Last-Event-ID'];

/**
 * Keeps deliberate errors (those with a specification code); a database that cannot be reached becomes
 * service_unavailable (503, retryable); everything else becomes internal_error and is logged with its stack.
 */
function maskError(logger: Logger) {
  return (error: unknown): Error => {
    if (error instanceof GraphQLError && isErrorCode(error.extensions?.code)) {
      noteErrorCode(error.extensions.code);
      return error;
    }
    const original = error instanceof GraphQLError ? (error.originalError ?? error) : error;
    if (original instanceof GraphQLError && isErrorCode(original.extensions?.code)) {
      noteErrorCode(original.extensions.code);
      return original;
    }
    // A syntax, validation or variables error of /graphql: raised before execution, so it has no path (a variable's
    // value refused by its scalar keeps the scalar's error as originalError). The client's error: no suggestions.
    if (error instanceof GraphQLError && error.path === undefined && (!error.originalError || /^Variable "\$\w+"/.test(error.message))) {
      const message = withoutSuggestions(error.message);
      noteErrorCode('validation_error');
      return new GraphQLError(message, { nodes: error.nodes, source: error.source, positions: error.positions, extensions: { ...error.extensions, code: 'validation_error' } });
    }
    const requestId = currentRequest()?.requestId;
    let masked: GraphQLError;
    if (isDatabaseUnavailable(original)) {
      logger.warn({ requestId, err: original }, 'database unavailable');
      masked = serviceUnavailable();
    } else {
      logger.error({ requestId, err: original }, 'internal error');
      masked = apiError('internal_error', 'An unexpected error occurred. Retry with backoff and report the requestId.');
    }
    noteErrorCode(masked.extensions.code as string);
    if (!(error instanceof GraphQLError)) return masked;
    // Still pointing where the original did (nodes, or source and positions: yoga derives `locations` from them).
    const { nodes, source, positions, path } = error;
    return new GraphQLError(masked.message, { nodes, source, positions, path, extensions: masked.extensions });
  };
}

/**
 * yoga's own log lines go to the same logger. It reports every GraphQLError of a result at error level: those are
 * the client's (or already logged, with their stack, by maskError), so they go to debug.
 */
function yogaLogging(logger: Logger) {
  const at = (level: 'debug' | 'info' | 'warn' | 'error') => (...args: unknown[]) => {
    const err = args.find((arg) => arg instanceof Error);
    const effective = level === 'error' && err instanceof GraphQLError ? 'debug' : level;
    if (!logger.isLevelEnabled(effective)) return;
    logger[effective]({ requestId: currentRequest()?.requestId, err }, args.filter((arg) => !(arg instanceof Error)).map(String).join(' ') || 'yoga');
  };
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

export type AppOptions = {
  /** Where logs go; by default a pino logger at LOG_LEVEL (info). */
  logger?: Logger;
  /** Request, GraphQL, pool, credit and rate-limit metrics, when the server exposes them. */
  metrics?: Metrics;
  /** Origins browsers may call from: '*' (any, the default) or a list. Credentials (cookies) are never allowed: the API takes bearer keys. */
  corsOrigins?: '*' | readonly string[];
  /** The readiness probe (GET /v1/ready); by default one over the services' pool and rate limiter. */
  readiness?: Readiness;
  /** Whether the MCP endpoint offers write tools (MCP_MUTATIONS). */
  mcpMutations?: boolean;
};

/** One yoga app: GraphQL (and GraphiQL) at /graphql, the REST surface at /v1, one schema and one context. */
export function createApp(given: AppServices, options: AppOptions = {}): App {
  const logger = options.logger ?? createLogger({ level: (process.env.LOG_LEVEL as 'info' | undefined) ?? 'info' });
  // The authenticator notes who called (for the access log): wrapped once here, never per request.
  const authenticate: Authenticator = async (authorization) => {
    const principal = await given.authenticate(authorization);
    noteIdentity(principal);
    return principal;
  };
  // Resolvers reach workspace tables only through workspaceDb(context) (src/schema/shared/workspace.ts).
  const services: AppServices = { ...given, authenticate, prisma: refuseWorkspaceTables(given.prisma) };
  const readiness = options.readiness ?? createReadiness({ pool: services.pool, rateLimiter: services.rateLimiter });
  // The pools are a workspace table: read with the plain client, for the caller's own workspace only.
  const credits = creditHeaders(given.prisma, services.noHold?.balances, services.metering ?? true);
  const corsOrigins = options.corsOrigins ?? '*';
  reportLiveHubErrors((err) => logger.warn({ err }, 'live events: the pub/sub (REDIS_URL) or the check of dispatched batches failed; open streams catch up from the database once it answers'));
  // The MCP tools call the app itself (src/mcp/): the same routes, keys, limits and prices as any client.
  const app: App = createYoga<Record<string, unknown>, Context>({
    schema,
    graphqlEndpoint: '/graphql',
    landingPage: false,
    healthCheckEndpoint: '/graphql/health',
    logging: yogaLogging(logger),
    cors: { origin: corsOrigins === '*' ? '*' : [...corsOrigins], credentials: false, allowedHeaders: ALLOWED_HEADERS, exposedHeaders: EXPOSED_HEADERS, maxAge: 600 },
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
        idempotentWrite: () => idempotentWrite(state),
      });
    },
    plugins: [
      useRequestState({ onAnswered: recordAnswers(logger, options.metrics) }),
      useHomePage({ publicBaseUrl: services.publicBaseUrl }),
      useSharePages(given.prisma, { publicBaseUrl: services.publicBaseUrl, rateLimiter: services.rateLimiter }),
      useMedia({ rateLimiter: services.rateLimiter }),
      useIdempotency({ pool: services.pool }),
      useMcp({ schema, routes, mutations: options.mcpMutations ?? false, metering: services.metering ?? true, fetch: async (request) => app.fetch(request), authenticate, rateLimiter: services.rateLimiter, logger }),
      useEventStream({ schema, authenticate, rateLimiter: services.rateLimiter, logger }),
      useExportFile({ pool: services.pool, authenticate, rateLimiter: services.rateLimiter, logger }),
      useRestApi({ schema, routes, authenticate, rateLimiter: services.rateLimiter, prisma: given.prisma, creditHeaders: credits, readiness, logger }),
      // After every plugin that answers a path: anything else but /graphql is a 404 in the envelope, never yoga's empty one.
      useNotFound({ graphqlEndpoint: '/graphql' }),
      useRequestBodyLimit(),
      useInputGuard(),
      useGraphQLLimits(services.rateLimiter, credits),
      useGraphQLProtection(),
      useCompiledExecution(),
    ],
  });
  return app;
}
