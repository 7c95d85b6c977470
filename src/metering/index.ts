import { Redis } from 'ioredis';
import { DEFAULT_REDIS_COMMAND_TIMEOUT_MS } from '../config.js';
import { MemoryRateLimitStore, RateLimiter, RedisRateLimitStore, type RateLimits } from './rate-limit.js';

/** How often a Redis that is unreachable or not answering is reported (ioredis retries every few hundred ms). */
export const REDIS_REPORT_INTERVAL_MS = 30_000;

/** Calls `report` at most once per interval: the first failure of a period is reported, the others of it are not. */
function oncePer(intervalMs: number, report: (error: Error) => void): (error: Error) => void {
  let reportedAt = -Infinity;
  return (error) => {
    const now = performance.now();
    if (now - reportedAt < intervalMs) return;
    reportedAt = now;
    report(error);
  };
}

/**
 * The rate limiter: buckets shared through Redis when a URL is given (several instances), else in memory.
 * A Redis command that gets no answer within `commandTimeoutMs` fails, and the request is served without a limit;
 * a connection that answers nothing for a few such deadlines is closed and opened again. `onError` hears of
 * connection errors and failed commands, once per REDIS_REPORT_INTERVAL_MS.
 */
export function createRateLimiter(
  limits: RateLimits,
  redisUrl?: string,
  keyPrefix?: string,
  onError?: (error: Error) => void,
  options: { commandTimeoutMs?: number } = {},
): RateLimiter {
  const report = oncePer(REDIS_REPORT_INTERVAL_MS, (error) => onError?.(error));
  if (!redisUrl) return new RateLimiter(new MemoryRateLimitStore(), limits);
  const commandTimeout = options.commandTimeoutMs ?? DEFAULT_REDIS_COMMAND_TIMEOUT_MS;
  const redis = new Redis(redisUrl, {
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    lazyConnect: false,
    commandTimeout,
    // A connection that stays silent is dead: closed, so that commands fail at once until it is opened again.
    socketTimeout: Math.max(1000, 3 * commandTimeout),
  });
  // ioredis reconnects by itself; without a listener each failed attempt is printed as an unhandled error.
  redis.on('error', report);
  return new RateLimiter(new RedisRateLimitStore(redis, keyPrefix), limits, report);
}
