import { createAuthenticator } from '../../src/auth/authenticate.js';
import { createKey, createUser, createWorkspace, type ApiAccessOption } from '../../src/auth/admin.js';
import { refreshAdGroups } from '../../src/data/ad-groups.js';
import type { AccessLevel, WorkspaceRole } from '../../src/generated/prisma/client.js';
import { createRateLimiter } from '../../src/metering/index.js';
import { KnownBalances } from '../../src/metering/balances.js';
import { ChargeBatcher } from '../../src/metering/charges.js';
import type { RateLimits } from '../../src/metering/rate-limit.js';
import { Writable } from 'node:stream';
import { createLogger, type LogLevel } from '../../src/observability/logger.js';
import type { Metrics } from '../../src/observability/metrics.js';
import { createApp, type App } from '../../src/server.js';
import { createTestDatabase, type MarketTemplate, type TestDatabase } from './database.js';

export type HttpResult = { status: number; headers: Headers; body: any };

/** One line the server logged (pino's JSON). */
export type LogEntry = { level: string; msg: string; requestId?: string; err?: { message: string; stack: string }; [field: string]: unknown };

export type TestApp = {
  db: TestDatabase;
  app: App;
  /** What the server logged, oldest first. */
  logs: LogEntry[];
  /** A REST call below /v1: `rest('GET', '/ads?search=x', { key })`. */
  rest(method: string, path: string, options?: { key?: string | null; body?: unknown; rawBody?: string; headers?: Record<string, string> }): Promise<HttpResult>;
  /** A GraphQL call at /graphql. */
  graphql(query: string, variables?: Record<string, unknown>, key?: string | null): Promise<HttpResult>;
  /** A workspace with a key; `role` makes the key a delegated user's. */
  newKey(options?: { slug?: string; role?: WorkspaceRole; apiAccess?: ApiAccessOption; expiresAt?: Date }): Promise<{ apiKey: string; credentialId: string; workspaceId: string; userId?: string; slug: string }>;
  close(): Promise<void>;
};

let counter = 0;

/** Generous limits: tests that are not about rate limiting never meet them. */
export const TEST_RATE_LIMITS: RateLimits = { read: { capacity: 10_000, perSecond: 10_000 }, write: { capacity: 10_000, perSecond: 10_000 } };

export async function createTestApp(
  seed?: (db: TestDatabase) => Promise<void>,
  options: {
    rateLimits?: RateLimits;
    redisUrl?: string;
    redisPrefix?: string;
    database?: TestDatabase;
    /** Start from this seeded market (a copy of the run's template of it: see support/templates.ts), before `seed`. */
    market?: MarketTemplate;
    metering?: boolean;
    /** Credential lookup cache (0, the default here, looks every key up on every request). */
    authCacheMs?: number;
    /** Which log lines are kept in `logs` ('error' unless TEST_LOG_LEVEL says otherwise; 'info' keeps the access lines). */
    logLevel?: LogLevel;
    metrics?: Metrics;
    /** Offer the write routes as MCP tools too (MCP_MUTATIONS). */
    mcpMutations?: boolean;
  } = {},
): Promise<TestApp> {
  const db = options.database ?? (await createTestDatabase({ market: options.market }));
  if (seed) {
    await seed(db);
    // A scenario writes market rows as a loader does; what the loaders refresh after writing them is refreshed here.
    await refreshAdGroups(db.pool);
  }
  const rateLimiter = createRateLimiter(options.rateLimits ?? TEST_RATE_LIMITS, options.redisUrl, options.redisPrefix);
  await rateLimiter.ready();
  const services = {
    prisma: db.prisma,
    pool: db.pool,
    ledger: db.ledger,
    noHold: { balances: new KnownBalances(), charges: new ChargeBatcher(db.ledger) },
    authenticate: createAuthenticator(db.prisma, { cacheMs: options.authCacheMs ?? 0 }),
    rateLimiter,
    metering: options.metering,
    publicBaseUrl: 'http://api.test',
    startedAt: new Date(),
  };
  // Log lines are kept for the test to read (`logs`); errors also go to stderr. Errors only, unless the test or
  // TEST_LOG_LEVEL asks for more (info: every access line).
  const logs: LogEntry[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) {
        const entry = JSON.parse(line) as LogEntry;
        logs.push(entry);
        if (logs.length > 10_000) logs.shift();
        if (entry.level === 'error' || entry.level === 'fatal') process.stderr.write(`${line}\n`);
      }
      done();
    },
  });
  const logger = createLogger({ level: options.logLevel ?? (process.env.TEST_LOG_LEVEL as LogLevel | undefined) ?? 'error', destination });
  const app = createApp(services, { logger, metrics: options.metrics, mcpMutations: options.mcpMutations });

  const send = async (method: string, url: string, init: { key?: string | null; body?: string; headers?: Record<string, string> }) => {
    const headers: Record<string, string> = { ...init.headers };
    if (init.key) headers.authorization = `Bearer ${init.key}`;
    if (init.body !== undefined) headers['content-type'] ??= 'application/json';
    const response = await app.fetch(`http://api.test${url}`, { method, headers, body: init.body });
    const text = await response.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: keep the text
    }
    return { status: response.status, headers: response.headers, body };
  };

  return {
    db,
    app,
    logs,
    rest: (method, path, options = {}) =>
      send(method, `/v1${path}`, {
        key: options.key,
        headers: options.headers,
        body: options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
      }),
    graphql: (query, variables, key) => send('POST', '/graphql', { key, body: JSON.stringify({ query, variables }) }),
    async newKey(options = {}) {
      const slug = options.slug ?? `ws-${process.pid}-${++counter}`;
      await createWorkspace(db.prisma, { slug, name: `Workspace ${slug}`, apiAccess: options.apiAccess });
      let userId: string | undefined;
      let access: AccessLevel = 'full_access';
      if (options.role) {
        userId = (await createUser(db.prisma, { workspace: slug, name: 'Dana Delegate', role: options.role })).userId;
        access = 'delegated_user';
      }
      const key = await createKey(db.prisma, { workspace: slug, name: 'Test key', access, user: userId, expiresAt: options.expiresAt });
      return { ...key, userId, slug };
    },
    async close() {
      await rateLimiter.close();
      if (!options.database) await db.dispose();
    },
  };
}
