import { Redis } from 'ioredis';
import { MemoryRateLimitStore, RateLimiter, RedisRateLimitStore, type RateLimits } from './rate-limit.js';

/** The rate limiter: buckets shared through Redis when a URL is given (several instances), else in memory. */
export function createRateLimiter(limits: RateLimits, redisUrl?: string, keyPrefix?: string, onError?: (error: Error) => void): RateLimiter {
  let store;
  if (redisUrl) {
    const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: false });
    // ioredis reconnects by itself; without a listener each failed attempt is printed as an unhandled error.
    redis.on('error', (error: Error) => onError?.(error));
    store = new RedisRateLimitStore(redis, keyPrefix);
  } else store = new MemoryRateLimitStore();
  return new RateLimiter(store, limits);
}
