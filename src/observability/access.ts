import type { AnsweredHook } from '../plugins/use-request-state.js';
import type { Logger } from './logger.js';
import type { Metrics } from './metrics.js';

/** The route template of a request no REST route served: /graphql, or one bounded name for everything else. */
function routeOf(pathname: string): string {
  if (pathname === '/graphql' || pathname.startsWith('/graphql/')) return '/graphql';
  return 'unmatched';
}

/**
 * One access line per answered request (pino, level info; error for a 5xx) and the request metrics: request id,
 * method, route template, status, duration, workspace and credential ids (never the key), credits charged,
 * error codes, and the GraphQL operation type.
 */
export function recordAnswers(logger: Logger, metrics?: Metrics): AnsweredHook {
  return (state, request, response) => {
    const durationMs = performance.now() - state.startedAt;
    const route = state.route ?? routeOf(new URL(request.url).pathname);
    const costHeader = state.responseHeaders.get('X-Usage-Cost');
    const cost = costHeader === undefined ? undefined : Number(costHeader);
    const errorCodes = state.errorCodes ?? [];
    metrics?.observe({
      method: request.method,
      route,
      status: response.status,
      seconds: durationMs / 1000,
      cost,
      errorCodes,
      graphql: state.operationType ? { operationType: state.operationType } : undefined,
    });
    const level = response.status >= 500 ? 'error' : 'info';
    if (!logger.isLevelEnabled(level)) return;
    logger[level]({
      requestId: state.requestId,
      method: request.method,
      route,
      status: response.status,
      durationMs: Math.round(durationMs * 100) / 100,
      workspaceId: state.identity?.workspaceId,
      credentialId: state.identity?.credentialId,
      cost,
      errorCodes: errorCodes.length ? errorCodes : undefined,
      operationType: state.operationType,
    }, 'request');
  };
}
