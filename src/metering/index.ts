import { Redis } from 'ioredis';
import { MemoryRateLimitStore, RateLimiter, RedisRateLimitStore, type RateLimits } from './rate-limit.js';

/** The rate limiter: buckets shared through Redis when a URL is given (several instances), else in memory. */
export function createRateLimiter(limits: RateLimits, redisUrl?: string, keyPrefix?: string): RateLimiter {
  const store = redisUrl
    ? new RedisRateLimitStore(new Redis(redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: false }), keyPrefix)
    : new MemoryRateLimitStore();
  return new RateLimiter(store, limits);
}
