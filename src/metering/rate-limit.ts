import type { Redis } from 'ioredis';
import { apiError } from '../errors.js';

// Token buckets per credential: `capacity` requests at once (the burst), refilled at `perSecond`.
// Writes (mutations) draw from a separate, stricter bucket.

export type Bucket = { capacity: number; perSecond: number };
export type BucketState = { allowed: boolean; tokens: number };
export type Decision = { allowed: boolean; limit: number; remaining: number; resetSeconds: number; retryAfterSeconds: number };

export interface RateLimitStore {
  /** Refills the bucket, then takes one token if there is one. Atomic per key. */
  take(key: string, bucket: Bucket): Promise<BucketState>;
  /** Resolves once the store can answer (a Redis connection is up). */
  ready(): Promise<void>;
  /** Resolves when the store answers now (readiness probe); rejects when it does not. Undefined for a store in memory. */
  ping?(): Promise<void>;
  close(): Promise<void>;
}

export class MemoryRateLimitStore implements RateLimitStore {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(private readonly now: () => number = () => Date.now()) {}

  async take(key: string, bucket: Bucket): Promise<BucketState> {
    const now = this.now();
    const previous = this.buckets.get(key) ?? { tokens: bucket.capacity, at: now };
    const tokens = Math.min(bucket.capacity, previous.tokens + ((now - previous.at) / 1000) * bucket.perSecond);
    const allowed = tokens >= 1;
    const left = allowed ? tokens - 1 : tokens;
    this.buckets.delete(key); // re-insert: the map stays in least-recently-used order
    this.buckets.set(key, { tokens: left, at: now });
    if (this.buckets.size > 100_000) this.buckets.delete(this.buckets.keys().next().value!);
    return { allowed, tokens: left };
  }

  async ready() {}

  async close() {}
}

// Redis keeps one hash per bucket; the script refills and takes in one atomic step, on Redis' clock,
// so every instance sharing the Redis shares the bucket.
const TAKE = `
local capacity = tonumber(ARGV[1])
local rate = tonumber(ARGV[2])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(state[1])
local at = tonumber(state[2])
if tokens == nil then tokens = capacity; at = now end
tokens = math.min(capacity, tokens + (now - at) / 1000 * rate)
local allowed = 0
if tokens >= 1 then tokens = tokens - 1; allowed = 1 end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil(capacity / rate * 1000) + 1000)
return { allowed, tostring(tokens) }`;

export class RedisRateLimitStore implements RateLimitStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'mi:rl:',
  ) {
    redis.defineCommand('miTakeToken', { numberOfKeys: 1, lua: TAKE });
  }

  async take(key: string, bucket: Bucket): Promise<BucketState> {
    const run = (this.redis as unknown as Record<string, (...args: unknown[]) => Promise<[number, string]>>).miTakeToken;
    const [allowed, tokens] = await run.call(this.redis, this.prefix + key, bucket.capacity, bucket.perSecond);
    return { allowed: allowed === 1, tokens: Number(tokens) };
  }

  ready(): Promise<void> {
    if (this.redis.status === 'ready') return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.redis.once('ready', () => resolve());
      this.redis.once('end', () => reject(new Error('Redis connection closed before it was ready')));
    });
  }

  async ping() {
    await this.redis.ping(); // refused at once while disconnected (no offline queue)
  }

  async close() {
    await this.redis.quit().catch(() => this.redis.disconnect()); // a Redis that does not answer is not waited for
  }
}

export type RateLimits = { read: Bucket; write: Bucket };

/** 429 rate_limited, Retry-After in the error's own headers: both surfaces write those once (never also from `headers`). */
function rateLimited(decision: Decision, whose: string) {
  const seconds = String(decision.retryAfterSeconds);
  return apiError('rate_limited', `Too many requests for ${whose}. Retry after ${seconds} s.`, {
    headers: { 'Retry-After': seconds },
  });
}

export class RateLimiter {
  constructor(
    private readonly store: RateLimitStore,
    private readonly limits: RateLimits,
    /** Told of each failed store command (the caller decides how often to log). */
    private readonly onStoreError?: (error: Error) => void,
  ) {}

  /**
   * Takes a token for the credential, writes X-RateLimit-Limit/Remaining/Reset into `headers`, and
   * throws 429 rate_limited with Retry-After (seconds) when the bucket is empty.
   */
  async check(credentialId: string, kind: 'read' | 'write', headers: Map<string, string>): Promise<Decision> {
    const decision = await this.take(`${credentialId}:${kind}`, this.limits[kind]);
    headers.set('X-RateLimit-Limit', String(decision.limit));
    headers.set('X-RateLimit-Remaining', String(decision.remaining));
    headers.set('X-RateLimit-Reset', String(decision.resetSeconds));
    if (!decision.allowed) throw rateLimited(decision, 'this API key');
    return decision;
  }

  /**
   * A request refused at authentication (no key, an unknown, revoked or expired key, a workspace without API
   * access: any 401 or 403 of the authenticator) takes a token from its client address's bucket, of the size of
   * the read bucket: what this returns is the error to answer, 429 rate_limited once that bucket is empty, so keys
   * cannot be guessed at the rate the server answers. A valid key never draws from it.
   */
  async refusal(error: unknown, clientAddress: string): Promise<unknown> {
    const status = (error as { extensions?: { http?: { status?: unknown } } } | null)?.extensions?.http?.status;
    if (status !== 401 && status !== 403) return error;
    const decision = await this.take(`refused:${clientAddress}`, this.limits.read);
    return decision.allowed ? error : rateLimited(decision, 'requests refused at authentication from this address');
  }

  /**
   * A /media picture that is not cached (drawing and encoding it costs ~10-30 ms of work) takes a token from its
   * client address's bucket, four times the read bucket (a page of a dashboard shows dozens of pictures at once);
   * what this returns is the 429 to answer once it is empty, or null. Media need no key (an <img> sends none), so
   * the address is what the bucket can hold to.
   */
  async mediaDraw(clientAddress: string): Promise<ReturnType<typeof rateLimited> | null> {
    const { capacity, perSecond } = this.limits.read;
    const decision = await this.take(`media:${clientAddress}`, { capacity: 4 * capacity, perSecond: 4 * perSecond });
    return decision.allowed ? null : rateLimited(decision, 'media drawn for this address');
  }

  /**
   * A share page (GET /share/..., no key: a link anyone may open) takes a token from its client address's bucket,
   * twice the read bucket (a browser opens a board and pages through it); what this returns is the 429 to answer
   * once it is empty, or null. Each page reads the database, so an address cannot make the server read at will.
   */
  async sharePage(clientAddress: string): Promise<ReturnType<typeof rateLimited> | null> {
    const { capacity, perSecond } = this.limits.read;
    const decision = await this.take(`share:${clientAddress}`, { capacity: 2 * capacity, perSecond: 2 * perSecond });
    return decision.allowed ? null : rateLimited(decision, 'share pages read from this address');
  }

  private async take(key: string, bucket: Bucket): Promise<Decision> {
    let state: BucketState;
    try {
      state = await this.store.take(key, bucket);
    } catch (error) {
      // The limiter's store is down or not answering (its commands have a deadline): serve rather than fail every call.
      this.onStoreError?.(error as Error);
      state = { allowed: true, tokens: bucket.capacity - 1 };
    }
    return {
      allowed: state.allowed,
      limit: bucket.capacity,
      remaining: Math.max(0, Math.floor(state.tokens)),
      resetSeconds: Math.ceil((bucket.capacity - state.tokens) / bucket.perSecond),
      retryAfterSeconds: state.allowed ? 0 : Math.max(1, Math.ceil((1 - state.tokens) / bucket.perSecond)),
    };
  }

  /** Whether the buckets live in a store outside the process (Redis), and whether it answers now. */
  external(): boolean {
    return this.store.ping !== undefined;
  }

  async ping(): Promise<void> {
    await this.store.ping?.();
  }

  /** Resolves once the store can answer; serve only after it, or early calls would be let through unmetered. */
  ready() {
    return this.store.ready();
  }

  close() {
    return this.store.close();
  }
}
