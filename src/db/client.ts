import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaClient } from '../generated/prisma/client.js';
import { isDatabaseUnavailable } from './failures.js';
import { CHANGES_CHANNEL, Notices, registerNotices } from './notices.js';
import { ReplicaSet, type ReplicaStatus } from './replicas.js';
import { prismaStatementName } from './statements.js';
import { WorkspaceCheckedClient } from './workspace-check.js';

export type { PrismaClient };

export type Db = {
  pool: pg.Pool;
  prisma: PrismaClient;
  /** The credit ledger's own small pool: its short statements never wait behind data queries for a connection. */
  ledger: pg.Pool;
  /** The read replicas `pool` routes market reads to (DATABASE_REPLICA_URLS), when there are any (src/db/replicas.ts). */
  replicas?: ReplicaSet;
  close(): Promise<void>;
};

/** DATABASE_REPLICA_URLS and REPLICA_MAX_LAG_MS; `onChange` hears a replica enter or leave the rotation. */
export type ReplicaOptions = { urls: readonly string[]; maxLagMs: number; onChange?: (status: ReplicaStatus) => void };

/**
 * Fields no read returns unless it selects them: an email's captured HTML (about 2.4 kB, compressed out of line) is
 * read only by GET /v1/emails/{emailId}/html. The JSON loaders (src/schema/shared/json-rows.ts) leave them out too.
 */
export const OMITTED = { email: { html: true } } as const;

/**
 * The session settings of the API's connections (a startup parameter: no statement, and PGlite ignores it). JIT off:
 * PostgreSQL compiles a statement whose estimated cost passes jit_above_cost, and the market's statements at the large
 * scale pass it while running in milliseconds (the brand diff: 100–180 ms of compilation for a 20 ms statement, on
 * each of its first custom plans). A DATABASE_URL that sets `options` itself keeps its own.
 */
export const SESSION_OPTIONS = '-c jit=off';

/**
 * One pool per process, shared by Prisma (through the pg driver adapter) and the few raw SQL paths. Its connections
 * refuse a statement on workspace data that does not state the workspace filter (src/db/workspace-check.ts).
 */
export function connect(url: string, options: { max?: number; replicas?: ReplicaOptions } = {}): Db {
  // Generous connect timeout: on the embedded database a new connection waits its turn behind a long transaction (a seed).
  const pool = new pg.Pool({ connectionString: url, max: options.max ?? 8, connectionTimeoutMillis: 30_000, options: SESSION_OPTIONS, Client: WorkspaceCheckedClient });
  pool.on('error', () => {}); // an idle client's error is reported on its next use
  // With replicas, the pool's query() sends market reads to them (Prisma's statements reach it through the adapter).
  const replicas = options.replicas?.urls.length
    ? new ReplicaSet(url, [...options.replicas.urls], { maxLagMs: options.replicas.maxLagMs, poolOptions: { max: options.max ?? 8, options: SESSION_OPTIONS }, onChange: options.replicas.onChange })
    : undefined;
  replicas?.install(pool);
  replicas?.start();
  // What kept answers depend on is heard as it changes (src/db/notices.ts), unless reads may come from a replica
  // (which can be behind the notice): then each kept answer is checked by a statement.
  const notices = replicas ? undefined : new Notices(url, CHANGES_CHANNEL);
  if (notices) registerNotices(pool, notices);
  // Prisma's own statements run prepared, its $queryRaw ones unnamed (src/db/statements.ts).
  const prisma = eachLookupAlone(new PrismaClient({
    adapter: new PrismaPg(pool, { statementNameGenerator: (query) => prismaStatementName(query.sql) }),
    omit: OMITTED,
  }));
  // The ledger's statements are few, prepared and keyed by ids: their generic plans fit every call, so its
  // connections skip the custom re-planning PostgreSQL otherwise repeats on every call of a CTE this size. A startup parameter: PGlite ignores it, and nothing else is affected.
  const ledger = new pg.Pool({
    connectionString: url, max: 4, connectionTimeoutMillis: 30_000, options: `${SESSION_OPTIONS} -c plan_cache_mode=force_generic_plan`, Client: WorkspaceCheckedClient,
  });
  ledger.on('error', () => {});
  return {
    pool,
    prisma,
    ledger,
    replicas,
    async close() {
      await prisma.$disconnect();
      await Promise.all([pool.end(), ledger.end(), replicas?.close(), notices?.close()]);
    },
  };
}

type Lookup = 'findUnique' | 'findUniqueOrThrow';
type Delegate = Record<Lookup, (args: unknown) => Promise<unknown>>;

/**
 * Prisma sends the findUnique lookups of one tick, from any number of requests, as ONE statement (`WHERE id IN
 * (...)`): when that statement fails, every lookup in it fails, so one request's bad value would fail other
 * requests, other workspaces' included. A lookup that fails is run again alone (in its own one-statement batch,
 * which nothing else joins): the innocent ones then succeed, the guilty one fails with its own error. Not when the
 * database is unreachable (every lookup fails alike), nor for "not found" (an answer of that lookup alone).
 * Query extensions change no method's types, so the extended client is still typed as a PrismaClient.
 */
function eachLookupAlone(base: PrismaClient): PrismaClient {
  const alone = (model: string, operation: Lookup, args: unknown) => {
    const delegate = (base as unknown as Record<string, Delegate>)[model.charAt(0).toLowerCase() + model.slice(1)]!;
    return base.$transaction([delegate[operation](args) as never]).then(([row]) => row as unknown);
  };
  const retried = (operation: Lookup) =>
    async ({ model, args, query }: { model: string; args: unknown; query: (args: unknown) => Promise<unknown> }) => {
      try {
        return await query(args);
      } catch (error) {
        if ((error as { code?: unknown }).code === 'P2025' || isDatabaseUnavailable(error)) throw error;
        return alone(model, operation, args);
      }
    };
  return base.$extends({
    query: { $allModels: { findUnique: retried('findUnique'), findUniqueOrThrow: retried('findUniqueOrThrow') } },
  }) as unknown as PrismaClient;
}
