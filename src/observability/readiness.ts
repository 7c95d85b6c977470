import type pg from 'pg';
import { primaryQuery, replicaSetOf, type ReplicaStatus } from '../db/replicas.js';
import type { RateLimiter } from '../metering/rate-limit.js';

export type CheckResult = { status: 'up' | 'down'; latencyMs: number; error?: string };
/** A read replica as its lag sampler last saw it (src/db/replicas.ts), named host:port/database, never by its URL. */
export type ReplicaCheck = Omit<ReplicaStatus, 'statements'> & { maxLagMs: number };
export type ReadinessReport = { status: 'ready' | 'unavailable' | 'stopping'; checks: Record<string, CheckResult>; replicas: ReplicaCheck[] };
export type Readiness = { check(): Promise<ReadinessReport>; /** From now on the probe answers `stopping` (graceful shutdown). */ stop(): void };

/** How long one dependency may take to answer the probe before it counts as down. */
export const READINESS_TIMEOUT_MS = 2000;

async function timed(run: () => Promise<unknown>): Promise<CheckResult> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([run(), new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${READINESS_TIMEOUT_MS} ms`)), READINESS_TIMEOUT_MS)))]);
    return { status: 'up', latencyMs: Math.round(performance.now() - started) };
  } catch (error) {
    return { status: 'down', latencyMs: Math.round(performance.now() - started), error: error instanceof Error ? error.message : String(error) };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The readiness probe (GET /v1/ready): the database answers a statement on the server's pool, and the rate-limit
 * store (Redis) answers a PING when one is configured. GET /v1/health stays the liveness answer that touches nothing.
 * The read replicas (DATABASE_REPLICA_URLS) are reported as their lag sampler last saw them, and never make the server
 * unready: a replica that is down or behind is skipped, and its reads run on the others or the primary.
 */
export function createReadiness(deps: { pool: Pick<pg.Pool, 'query'>; rateLimiter: Pick<RateLimiter, 'external' | 'ping'> }): Readiness {
  let stopping = false;
  return {
    stop() {
      stopping = true;
    },
    async check() {
      const [database, redis] = await Promise.all([
        // The primary's answer, also when the pool sends reads to replicas (their state is below, and on /metrics).
        timed(() => primaryQuery(deps.pool, 'SELECT 1')),
        deps.rateLimiter.external() ? timed(() => deps.rateLimiter.ping()) : Promise.resolve(undefined),
      ]);
      const checks: Record<string, CheckResult> = redis ? { database, redis } : { database };
      const down = Object.values(checks).some((check) => check.status === 'down');
      const replicaSet = replicaSetOf(deps.pool);
      const replicas = replicaSet ? replicaSet.report().replicas.map(({ statements: _, ...replica }) => ({ ...replica, maxLagMs: replicaSet.maxLagMs })) : [];
      return { status: stopping ? 'stopping' : down ? 'unavailable' : 'ready', checks, replicas };
    },
  };
}
