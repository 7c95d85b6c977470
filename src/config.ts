import path from 'node:path';
import { z } from 'zod';

/** The deadline of one Redis command by default (REDIS_COMMAND_TIMEOUT_MS). */
export const DEFAULT_REDIS_COMMAND_TIMEOUT_MS = 300;

const schema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./.data'),
  EMBEDDED_CACHE_MB: z.coerce.number().int().min(16).max(4096).default(32),
  DATABASE_URL: z.string().url().optional(),
  DATABASE_REPLICA_URLS: z.string().optional(),
  REPLICA_MAX_LAG_MS: z.coerce.number().int().min(0).max(3_600_000).default(1000),
  REDIS_URL: z.string().url().optional(),
  REDIS_COMMAND_TIMEOUT_MS: z.coerce.number().int().min(10).max(60_000).default(DEFAULT_REDIS_COMMAND_TIMEOUT_MS),
  PUBLIC_BASE_URL: z.string().url().optional(),
  METERING: z.enum(['on', 'off']).default('on'),
  RATE_LIMIT_PER_SECOND: z.coerce.number().positive().default(10),
  RATE_LIMIT_BURST: z.coerce.number().int().min(1).default(60),
  RATE_LIMIT_WRITE_PER_SECOND: z.coerce.number().positive().default(2),
  RATE_LIMIT_WRITE_BURST: z.coerce.number().int().min(1).default(20),
  AUTH_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(2000),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  LOG_FORMAT: z.enum(['auto', 'json', 'pretty']).default('auto'),
  METRICS: z.enum(['on', 'off']).default('off'),
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  CORS_ORIGINS: z.string().default('*'),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).max(600_000).default(10_000),
  MCP_MUTATIONS: z.enum(['on', 'off']).default('off'),
  WORKERS: z.enum(['on', 'off']).default('on'),
  HISTORY_PARTITIONS_AHEAD: z.coerce.number().int().min(0).max(24).default(3),
  HISTORY_RETENTION_MONTHS: z.coerce.number().int().min(0).max(1200).default(0),
});

export type Config = {
  port: number;
  host: string;
  dataDir: string;
  /** The embedded database's page cache (PGlite's shared_buffers), in MB: in the process's memory, never given back. */
  embeddedCacheMb: number;
  databaseUrl: string | undefined;
  /** Read replicas of DATABASE_URL (DATABASE_REPLICA_URLS, comma-separated) and how far behind one may be (src/db/replicas.ts). */
  replicas: { urls: string[]; maxLagMs: number };
  redisUrl: string | undefined;
  /** How long a rate-limit command waits for Redis before the request is served without a limit. */
  redisCommandTimeoutMs: number;
  publicBaseUrl: string;
  metering: boolean;
  rateLimits: { read: { capacity: number; perSecond: number }; write: { capacity: number; perSecond: number } };
  /** How long a credential lookup is reused (revocations take effect within it); 0 turns the cache off. */
  authCacheMs: number;
  logLevel: z.infer<typeof schema>['LOG_LEVEL'];
  /** JSON lines, or readable lines (`auto`: readable when stdout is a terminal). */
  logFormat: z.infer<typeof schema>['LOG_FORMAT'];
  /** /metrics on the API's port (METRICS=on), and/or on a port of its own (METRICS_PORT). */
  metrics: { onApiPort: boolean; port: number | undefined };
  /** Origins browsers may call from: '*' (any; never with credentials) or a list. */
  corsOrigins: '*' | string[];
  /** How long a SIGTERM waits for requests in flight before closing their connections. */
  shutdownTimeoutMs: number;
  /** Whether /v1/mcp offers the write routes as tools too. */
  mcpMutations: boolean;
  /** Whether this process works the job queue (the sync schedules); WORKERS=off for API-only instances. */
  workers: boolean;
  /** The history tables' month partitions: made `aheadMonths` ahead; months before the last `retentionMonths` dropped (null: kept). */
  history: { aheadMonths: number; retentionMonths: number | null };
};

/** Reads and validates the environment once; a bad value stops the process with a clear message. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = schema.safeParse(Object.fromEntries(Object.entries(env).filter(([, v]) => v !== '')));
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const replicaUrls = (e.DATABASE_REPLICA_URLS ?? '').split(',').map((url) => url.trim()).filter(Boolean);
  const badReplica = replicaUrls.findIndex((url) => !URL.canParse(url) || !/^postgres(?:ql)?:$/.test(new URL(url).protocol));
  if (badReplica >= 0) throw new Error(`invalid configuration:\n  DATABASE_REPLICA_URLS: entry ${badReplica + 1} is not a postgresql:// URL`);
  if (replicaUrls.length && !e.DATABASE_URL) {
    throw new Error('invalid configuration:\n  DATABASE_REPLICA_URLS: read replicas need DATABASE_URL (their primary); the embedded database (PGlite) has no replicas');
  }
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    embeddedCacheMb: e.EMBEDDED_CACHE_MB,
    databaseUrl: e.DATABASE_URL,
    replicas: { urls: replicaUrls, maxLagMs: e.REPLICA_MAX_LAG_MS },
    redisUrl: e.REDIS_URL,
    redisCommandTimeoutMs: e.REDIS_COMMAND_TIMEOUT_MS,
    publicBaseUrl: (e.PUBLIC_BASE_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ''),
    metering: e.METERING === 'on',
    rateLimits: {
      read: { capacity: e.RATE_LIMIT_BURST, perSecond: e.RATE_LIMIT_PER_SECOND },
      write: { capacity: e.RATE_LIMIT_WRITE_BURST, perSecond: e.RATE_LIMIT_WRITE_PER_SECOND },
    },
    authCacheMs: e.AUTH_CACHE_MS,
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT,
    metrics: { onApiPort: e.METRICS === 'on', port: e.METRICS_PORT },
    corsOrigins: e.CORS_ORIGINS.trim() === '*' ? '*' : e.CORS_ORIGINS.split(',').map((origin) => origin.trim().replace(/\/$/, '')).filter(Boolean),
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    mcpMutations: e.MCP_MUTATIONS === 'on',
    workers: e.WORKERS === 'on',
    history: { aheadMonths: e.HISTORY_PARTITIONS_AHEAD, retentionMonths: e.HISTORY_RETENTION_MONTHS || null },
  };
}

/**
 * A number setting read from the environment where it is used (a domain's own knob, outside loadConfig): `fallback`
 * when unset or empty, else the value within its bounds, or an error naming the variable, what it must be and what
 * it got. `whole` (the default) refuses fractions and numbers past JavaScript's exact integers.
 */
export function envNumber(
  name: string,
  fallback: number,
  bounds: { min?: number; max?: number; whole?: boolean; unit?: string } = {},
  env: NodeJS.ProcessEnv = process.env,
): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const { min, max, whole = true, unit } = bounds;
  const n = raw.trim() === '' ? NaN : Number(raw);
  const fits = (whole ? Number.isSafeInteger(n) : Number.isFinite(n)) && (min === undefined || n >= min) && (max === undefined || n <= max);
  if (fits) return n;
  const range = min !== undefined && max !== undefined ? ` from ${min} to ${max}` : min !== undefined ? ` of at least ${min}` : max !== undefined ? ` of at most ${max}` : '';
  throw new Error(`${name} must be a ${whole ? 'whole ' : ''}number${unit ? ` of ${unit}` : ''}${range}, got ${JSON.stringify(raw)}`);
}
