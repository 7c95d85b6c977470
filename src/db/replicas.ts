import pg from 'pg';
import { currentRequest, type RequestState } from '../plugins/use-request-state.js';
import { isDatabaseUnavailable } from './failures.js';
import { WorkspaceCheckedClient } from './workspace-check.js';

// Read replicas (DATABASE_REPLICA_URLS): PostgreSQL hot standbys fed by streaming replication from the primary.
//
// Where a statement runs is decided on the one pool every caller already uses (Db.pool, under Prisma's driver adapter
// too): its `query` sends a statement to a replica only when all of these hold, and to the primary otherwise.
//   - It runs inside an API request (not a job, a sweep, a migration or the CLI), and not in a GraphQL mutation.
//   - It is one read: it starts with SELECT or WITH and names no write, lock or sequence (a transaction, which
//     checks a connection out with `connect()`, always runs on the primary).
//   - It names none of the tables whose reads must see their own writes, or that meter: the workspace's own data
//     (boards and their items, favorites, brandtrackers, saved searches, webhooks, exports, audit events, shares,
//     image searches), keys and workspaces, credits, idempotency claims, the job queue.
//   - The request has not written yet (its first write pins the rest of it to the primary), and a replica is in
//     rotation that has replayed every write this process made for the request's workspace (read-your-writes
//     across requests: each write's time is noted per workspace, and a replica is only used for that workspace once
//     a sample shows it has replayed the primary's WAL position as of a moment after that write).
// A read that fails on a replica because the replica went away (or refused it as a standby) runs again on the
// primary, and the replica leaves the rotation until a sample finds it back: clients see no error.
//
// Lag is measured by sampling, every SAMPLE_MS, the primary's WAL position (pg_current_wal_insert_lsn()) and each replica's
// replayed position (pg_last_wal_replay_lsn()): a replica's lag is the age of the newest primary sample it has
// replayed (0 while it keeps up, idle primary included, unlike pg_last_xact_replay_timestamp()). A replica further
// behind than REPLICA_MAX_LAG_MS, not answering, or not a standby is out of rotation.
//
// Prisma's read-replicas extension (@prisma/extension-read-replicas 0.5, for Prisma 7 with driver adapters) is not
// used: it routes Prisma's model reads only (not $queryRaw, which runs most market reads here), to a replica picked at
// random without lag or health, with no retry on the primary, and without the request's context (a workspace's own
// data, the read after a write). Routing under the driver adapter covers Prisma's statements and the raw ones alike.

/** How often the primary's and the replicas' WAL positions are sampled. */
export const SAMPLE_MS = 250;
/**
 * Why a replica did not answer, in a few fixed words: the report is served without a key (GET /v1/ready), and the
 * driver's own message can name a database user or an internal host name.
 */
function whyNotAnswering(error: unknown): string {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'host not found';
  if (code === '28P01' || code === '28000') return 'credentials refused';
  if (code === '3D000') return 'database does not exist';
  if (code === 'ETIMEDOUT' || (typeof message === 'string' && /timeout|timed out/i.test(message))) return 'timed out';
  return 'connection failed';
}

/** How long a sample of a replica may take before the replica counts as not answering. */
const SAMPLE_TIMEOUT_MS = 1_000;
/** Primary samples kept to measure lag against (2 minutes). */
const SAMPLES_KEPT = 480;

/** Tables read on the primary only (see above). Matched as words in the statement's text. */
const PRIMARY_TABLES = [
  // the workspace's own data
  'ad_shares', 'brandtracker_folders', 'brandtracker_links', 'brandtracker_quotas', 'brandtracker_quota_operations', 'brandtrackers',
  'brandtracker_websites', 'boards', 'board_items', 'board_shares', 'audit_events', 'image_searches', 'webhooks', 'webhook_deliveries',
  'saved_searches', 'saved_search_matches', 'exports',
  // identity, credits, idempotency, bookkeeping
  'workspaces', 'workspace_users', 'workspace_api_access', 'credentials', 'credit_accounts', 'credit_ledger', 'credit_reservations',
  'usage_records', 'idempotency_keys', 'pgboss',
];
const PRIMARY_TABLE = new RegExp(`\\b(?:${PRIMARY_TABLES.join('|')})\\b`, 'i');
const PRIMARY_TABLE_NAMES: ReadonlySet<string> = new Set(PRIMARY_TABLES);
/** The tables a statement writes: `INSERT INTO "public"."ads"`, `UPDATE credentials`, `DELETE FROM ONLY x`. */
const WRITE_TARGET = /\b(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM|MERGE\s+INTO)\s+(?:ONLY\s+)?(?:"?(\w+)"?\.)?"?(\w+)"?/gi;
/** Comments a statement may start with. */
const LEADING_COMMENTS = /^\s*(?:\/\*[\s\S]*?\*\/\s*|--[^\n]*\n\s*)*/;
const READ_START = /^(?:SELECT|WITH)\b/i;
/** A write, a row lock, a sequence or an advisory lock anywhere in a read's text (a CTE, a function): primary. */
/** What a write names besides its targets that the request's later reads must not race: locks, sequences. */
const LOCKS = /\b(?:FOR\s+(?:NO\s+KEY\s+)?UPDATE|FOR\s+(?:KEY\s+)?SHARE|nextval|setval|pg_advisory\w*)\b/i;
const WRITES = /\b(?:INSERT\s+INTO|UPDATE\s+[\w".]+\s+(?:[\w"]+\s+)?SET|DELETE\s+FROM|MERGE\s+INTO|FOR\s+(?:NO\s+KEY\s+)?UPDATE|FOR\s+(?:KEY\s+)?SHARE|nextval|setval|pg_advisory\w*|pg_notify|txid_current|pg_current_wal\w*|set_config)\b/i;

/**
 * `read`: a replica may answer it. `primary`: a read that stays on the primary. `write`: a write (or a lock, a
 * sequence, a statement that is not a plain read) that the request's later reads, and its workspace's next ones, must
 * see. `bookkeeping`: a write only to tables that are read on the primary anyway (a key's last use, a credit, an
 * idempotency claim, a board): it runs on the primary and sends no later read there.
 */
type Kind = 'read' | 'write' | 'primary' | 'bookkeeping';
/** The statements that frame a transaction: no write of their own. */
const TRANSACTION_CONTROL = /^\s*(?:BEGIN|START\s+TRANSACTION|COMMIT|END|ROLLBACK|SAVEPOINT|RELEASE|SET\s+TRANSACTION|SET\s+LOCAL)\b/i;
const kinds = new Map<string, Kind>();
const MAX_KINDS = 5_000;

/** What a statement is: a read a replica may answer, a write, or a read that stays on the primary. */
export function statementKind(text: string): Kind {
  let kind = kinds.get(text);
  if (kind !== undefined) return kind;
  const body = text.replace(LEADING_COMMENTS, '');
  if (!READ_START.test(body) || WRITES.test(body)) {
    const targets = [...body.matchAll(WRITE_TARGET)];
    kind = targets.length > 0 && targets.every(([, schema, table]) => (schema === 'pgboss' || PRIMARY_TABLE_NAMES.has(table))) && !LOCKS.test(body) ? 'bookkeeping' : 'write';
  } else kind = PRIMARY_TABLE.test(body) ? 'primary' : 'read';
  if (kinds.size < MAX_KINDS) kinds.set(text, kind);
  return kind;
}

/** A WAL position (`16/B374D848`) as a number. */
function lsn(text: string): bigint {
  const [high, low] = text.split('/');
  return (BigInt(`0x${high}`) << 32n) + BigInt(`0x${low}`);
}

/** A replica's state, as /metrics and GET /v1/ready show it. */
export type ReplicaStatus = {
  /** host:port/database of the replica (never its credentials). */
  name: string;
  /** It answered its last sample, and no statement has found it gone since. */
  reachable: boolean;
  /** It was further behind the primary than REPLICA_MAX_LAG_MS at its last sample: skipped until it catches up. */
  lagging: boolean;
  inRotation: boolean;
  /** Why it is out of rotation (not answering, too far behind, not a standby), or null. */
  reason: string | null;
  /** Milliseconds behind the primary at the last sample; null before the first one or while it does not answer. */
  lagMs: number | null;
  /** Statements this process sent it (reads that then ran on the primary included). */
  statements: number;
};

export type ReplicaReport = { maxLagMs: number; primaryStatements: number; replicas: ReplicaStatus[] };

/** A replica's name without its credentials. */
function nameOf(url: string): string {
  const parsed = new URL(url);
  return `${parsed.hostname}:${parsed.port || '5432'}${parsed.pathname}`;
}

class Replica {
  readonly name: string;
  readonly pool: pg.Pool;
  private readonly sampler: pg.Pool;
  /** Set by a statement that failed because the replica went away; cleared by the next answered sample. */
  down = false;
  reason: string | null = 'not sampled yet';
  lagMs: number | null = null;
  /** Whether the last sample was answered (false before the first one). */
  answered = false;
  lagging = false;
  /** The send time of the newest primary sample this replica has replayed (ms since epoch), or 0. */
  coveredUntil = 0;
  statements = 0;
  private sampled = false;

  constructor(url: string, options: pg.PoolConfig) {
    this.name = nameOf(url);
    // A replica that does not answer is given up on quickly: its reads then run on the primary.
    this.pool = new pg.Pool({ ...options, connectionString: url, connectionTimeoutMillis: 2_000, Client: WorkspaceCheckedClient });
    this.pool.on('error', () => {});
    this.sampler = new pg.Pool({ connectionString: url, max: 1, connectionTimeoutMillis: SAMPLE_TIMEOUT_MS, statement_timeout: SAMPLE_TIMEOUT_MS, query_timeout: SAMPLE_TIMEOUT_MS, application_name: 'mi-replica-sampler' });
    this.sampler.on('error', () => {});
  }

  get inRotation(): boolean {
    return this.sampled && !this.down && this.reason === null;
  }

  /** Samples the replayed position against the primary's samples (newest last). */
  async sample(primary: { at: number; lsn: bigint }[], maxLagMs: number): Promise<void> {
    const at = Date.now();
    try {
      const { rows } = await this.sampler.query<{ standby: boolean; replayed: string | null }>(
        'SELECT pg_is_in_recovery() AS standby, pg_last_wal_replay_lsn()::text AS replayed',
      );
      const [row] = rows;
      this.answered = true;
      this.lagging = false;
      if (!row.standby || row.replayed === null) {
        this.lagMs = null;
        this.reason = 'not a standby (pg_is_in_recovery() is false)';
      } else {
        const replayed = lsn(row.replayed);
        let covered: { at: number } | undefined;
        for (let i = primary.length - 1; i >= 0 && !covered; i--) if (primary[i].lsn <= replayed) covered = primary[i];
        if (covered) this.coveredUntil = Math.max(this.coveredUntil, covered.at);
        // Behind every sample kept: at least as old as the oldest one.
        this.lagMs = Math.max(0, at - (covered ? this.coveredUntil : (primary[0]?.at ?? at)));
        this.lagging = this.lagMs > maxLagMs;
        this.reason = this.lagging ? `${this.lagMs} ms behind the primary (REPLICA_MAX_LAG_MS ${maxLagMs})` : null;
      }
      this.down = false;
    } catch (error) {
      this.answered = false;
      this.lagging = false;
      this.lagMs = null;
      this.reason = `not answering: ${whyNotAnswering(error)}`;
    }
    this.sampled = true;
  }

  status(): ReplicaStatus {
    return {
      name: this.name, reachable: this.answered && !this.down, lagging: this.lagging, inRotation: this.inRotation,
      reason: this.down ? 'a statement found it gone' : this.reason, lagMs: this.lagMs, statements: this.statements,
    };
  }

  async close(): Promise<void> {
    await Promise.all([this.pool.end(), this.sampler.end()]);
  }
}

type QueryConfig = string | (pg.QueryConfig & { submit?: unknown });
type Query = (config: QueryConfig, values?: unknown) => Promise<pg.QueryResult>;

/** Whether a read that failed on a replica runs again on the primary: the replica went away, or refused it as a standby. */
function retryOnPrimary(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  // 25006: read-only transaction (a function that writes); 40001: canceled by a conflict with recovery.
  return isDatabaseUnavailable(error) || code === '25006' || code === '40001';
}

/**
 * The replicas of one primary pool: their pools, the lag sampler, and the choice of where each statement runs.
 * `route(pool, replicas)` installs the choice on the primary pool.
 */
export class ReplicaSet {
  readonly maxLagMs: number;
  readonly replicas: Replica[];
  private readonly samples: { at: number; lsn: bigint }[] = [];
  private readonly primarySampler: pg.Pool;
  /** When this process last saw a write of each workspace complete (ms since epoch). */
  private readonly writes = new Map<string, number>();
  /** Requests that wrote: the rest of each runs on the primary. */
  private readonly pinned = new WeakSet<RequestState>();
  private next = 0;
  private timer: NodeJS.Timeout | null = null;
  private closed = false;
  primaryStatements = 0;
  private onChange?: (status: ReplicaStatus) => void;

  constructor(primaryUrl: string, urls: string[], options: { maxLagMs: number; poolOptions: pg.PoolConfig; onChange?: (status: ReplicaStatus) => void }) {
    this.maxLagMs = options.maxLagMs;
    this.onChange = options.onChange;
    this.replicas = urls.map((url) => new Replica(url, options.poolOptions));
    this.primarySampler = new pg.Pool({ connectionString: primaryUrl, max: 1, connectionTimeoutMillis: SAMPLE_TIMEOUT_MS, statement_timeout: SAMPLE_TIMEOUT_MS, query_timeout: SAMPLE_TIMEOUT_MS, application_name: 'mi-replica-sampler' });
    this.primarySampler.on('error', () => {});
  }

  /** Resolves once the first sample is taken (replicas are out of rotation until then: reads run on the primary). */
  ready: Promise<void> = Promise.resolve();

  /** Samples now, then every SAMPLE_MS until close(). */
  start(): void {
    const loop = () => {
      if (this.closed) return;
      this.timer = setTimeout(() => void this.sample().finally(loop), SAMPLE_MS);
      this.timer.unref();
    };
    this.ready = this.sample().finally(loop);
  }

  /** One sample of the primary's position, then of every replica's. */
  async sample(): Promise<void> {
    const at = Date.now();
    try {
      const { rows } = await this.primarySampler.query<{ position: string }>('SELECT pg_current_wal_insert_lsn()::text AS position');
      this.samples.push({ at, lsn: lsn(rows[0].position) });
      if (this.samples.length > SAMPLES_KEPT) this.samples.shift();
    } catch {
      // The primary does not answer: the replicas' lag grows from their last covered sample.
    }
    await Promise.all(
      this.replicas.map(async (replica) => {
        const before = replica.inRotation;
        await replica.sample(this.samples, this.maxLagMs);
        if (replica.inRotation !== before) this.onChange?.(replica.status());
      }),
    );
    // A workspace's write that every replica has replayed needs no more tracking; nor one older than any lag a replica in
    // rotation can have (twice REPLICA_MAX_LAG_MS, at least ten minutes).
    const oldest = Math.min(...this.replicas.map((replica) => replica.coveredUntil));
    const forgetAfter = Math.max(600_000, 2 * this.maxLagMs);
    for (const [workspace, wroteAt] of this.writes) if (wroteAt < oldest || at - wroteAt > forgetAfter) this.writes.delete(workspace);
  }

  report(): ReplicaReport {
    return { maxLagMs: this.maxLagMs, primaryStatements: this.primaryStatements, replicas: this.replicas.map((replica) => replica.status()) };
  }

  /** The replica a read of the current request may run on, or null for the primary. */
  private replicaFor(text: string): Replica | null {
    const request = currentRequest();
    if (!request || this.pinned.has(request)) return null;
    if (request.operationType !== undefined && request.operationType !== 'query') return null;
    const kind = statementKind(text);
    if (kind === 'write') {
      this.pinned.add(request);
      return null;
    }
    if (kind !== 'read') return null;
    const workspace = request.identity?.workspaceId;
    const wroteAt = workspace === undefined ? undefined : this.writes.get(workspace);
    for (let i = 0; i < this.replicas.length; i++) {
      const replica = this.replicas[(this.next + i) % this.replicas.length];
      if (replica.inRotation && (wroteAt === undefined || replica.coveredUntil > wroteAt)) {
        this.next = (this.next + i + 1) % this.replicas.length;
        return replica;
      }
    }
    return null;
  }

  /** Notes that a request's write completed: the rest of it, and its workspace's next reads, see it. */
  private wrote(request = currentRequest()): void {
    if (!request) return;
    this.pinned.add(request);
    const workspace = request.identity?.workspaceId;
    if (workspace !== undefined) this.writes.set(workspace, Date.now());
  }

  /** Installs the routing on `pool` (the primary's): its query() and connect() as described above. */
  install(pool: pg.Pool): void {
    const primaryQuery = pool.query.bind(pool) as unknown as Query;
    const primaryConnect = pool.connect.bind(pool) as () => Promise<pg.PoolClient>;
    const onPrimary = (config: QueryConfig, values: unknown, write: boolean): Promise<pg.QueryResult> => {
      this.primaryStatements++;
      if (!write) return primaryQuery(config, values);
      // The write's time is noted once it completed (its commit is then in the primary's WAL position).
      return primaryQuery(config, values).finally(() => this.wrote());
    };
    // The statements of a checked-out connection count as the primary's too, and whether one of them wrote is noted
    // per checkout (its query is wrapped once per connection: pg keeps the connection for the next checkout).
    const checkouts = new WeakMap<pg.PoolClient, { wrote: boolean }>();
    const watch = (client: pg.PoolClient) => {
      const existing = checkouts.get(client);
      if (existing) return existing;
      const checkout = { wrote: false };
      checkouts.set(client, checkout);
      const query = client.query;
      client.query = ((...args: unknown[]) => {
        this.primaryStatements++;
        const [config] = args;
        const text = typeof config === 'string' ? config : (config as { text?: unknown } | null)?.text;
        if (!checkout.wrote && typeof text === 'string' && !TRANSACTION_CONTROL.test(text) && statementKind(text) === 'write') {
          checkout.wrote = true;
          const request = currentRequest();
          if (request) this.pinned.add(request);
        }
        return (query as (...args: unknown[]) => unknown).apply(client, args);
      }) as pg.PoolClient['query'];
      return checkout;
    };
    const routed = (...args: unknown[]): unknown => {
      const [config, values] = args;
      const text = typeof config === 'string' ? config : (config as { text?: unknown } | null)?.text;
      // A callback, a submittable (cursor) or anything else unusual: the primary, as it was.
      if (typeof text !== 'string' || args.length > 2 || typeof values === 'function' || typeof (config as { submit?: unknown }).submit === 'function') {
        this.primaryStatements++;
        return (primaryQuery as (...args: unknown[]) => unknown)(...args);
      }
      const replica = this.replicaFor(text);
      if (!replica) return onPrimary(config as QueryConfig, values, currentRequest() !== undefined && statementKind(text) === 'write');
      replica.statements++;
      return (replica.pool.query(config as pg.QueryConfig, values as unknown[]) as Promise<pg.QueryResult>).catch((error: unknown) => {
        if (!retryOnPrimary(error)) throw error;
        if (isDatabaseUnavailable(error)) replica.down = true;
        return onPrimary(config as QueryConfig, values, false);
      });
    };
    const connect = (...args: unknown[]): unknown => {
      if (args.length > 0) return (primaryConnect as (...args: unknown[]) => unknown)(...args);
      // A checked-out connection (a transaction, or statements that belong together) runs on the primary. When one of
      // its statements wrote, the rest of the request runs there too, and its end is noted as the workspace's write
      // (pg's pool gives each checkout its own release function). A transaction that only read (Prisma's batches of
      // reads) leaves the request's next reads to the replicas.
      const request = currentRequest();
      return primaryConnect().then((client) => {
        const checkout = watch(client);
        checkout.wrote = false;
        if (!request) return client;
        const release = client.release;
        client.release = (error?: Error | boolean) => {
          if (checkout.wrote) this.wrote(request);
          return release.call(client, error);
        };
        return client;
      });
    };
    Object.assign(pool, { query: routed, connect, replicaSet: this });
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    await Promise.all([...this.replicas.map((replica) => replica.close()), this.primarySampler.end()]);
  }
}

/** The replica set a pool routes with, if any. */
export function replicaSetOf(pool: object): ReplicaSet | undefined {
  return (pool as { replicaSet?: ReplicaSet }).replicaSet;
}

/** A statement on the primary itself, whatever the request (the readiness probe's check of the primary). */
export function primaryQuery(pool: Pick<pg.Pool, 'query'>, text: string): Promise<unknown> {
  return replicaSetOf(pool) ? (pg.Pool.prototype.query as (text: string) => Promise<unknown>).call(pool, text) : pool.query(text);
}
