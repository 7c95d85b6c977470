import type pg from 'pg';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { replicaSetOf, type ReplicaReport } from '../db/replicas.js';

/** What one answered request tells the metrics (see access.ts). */
export type RequestOutcome = {
  method: string;
  /** The route template (`/v1/ads/:adId`, `/graphql`), never the raw path: a bounded set of label values. */
  route: string;
  status: number;
  seconds: number;
  /** Credits charged (X-Usage-Cost), when the request was metered. */
  cost?: number;
  errorCodes: readonly string[];
  graphql?: { operationType: string };
};

/** What the runs say about one source (src/sources/status.ts), read at each scrape. */
export type SourceFigures = {
  source: string;
  lastSucceededAt: Date | null;
  running: boolean;
  runs: Record<string, number>;
  rows: Record<string, number>;
  waits: number;
};

/**
 * The server's Prometheus metrics (prom-client), served at /metrics when METRICS=on or on METRICS_PORT.
 * Labels take bounded values only: route templates, methods, statuses, error codes, pool names.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly requests = new Counter({ name: 'mi_http_requests_total', help: 'HTTP requests answered, by route template and status.', labelNames: ['method', 'route', 'status'], registers: [this.registry] });
  private readonly duration = new Histogram({
    name: 'mi_http_request_duration_seconds',
    help: 'Time from a request to its answer, by route template and status.',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  private readonly operations = new Counter({ name: 'mi_graphql_operations_total', help: 'GraphQL operations executed at /graphql, by type and outcome.', labelNames: ['operation_type', 'outcome'], registers: [this.registry] });
  private readonly errors = new Counter({ name: 'mi_api_errors_total', help: 'Error answers by error code (both surfaces).', labelNames: ['code'], registers: [this.registry] });
  private readonly credits = new Counter({ name: 'mi_credits_charged_total', help: 'Credits charged to workspaces.', registers: [this.registry] });
  private readonly charges = new Counter({ name: 'mi_credit_charges_total', help: 'Requests that were charged credits.', registers: [this.registry] });
  private readonly refusals = new Counter({ name: 'mi_credit_refusals_total', help: 'Calls refused with 402 insufficient_credits.', registers: [this.registry] });
  private readonly rateLimited = new Counter({ name: 'mi_rate_limit_refusals_total', help: 'Calls refused with 429 rate_limited.', registers: [this.registry] });

  constructor(
    pools: Record<string, Pick<pg.Pool, 'totalCount' | 'idleCount' | 'waitingCount'>> = {},
    options: { processMetrics?: boolean; sources?: () => Promise<SourceFigures[]> } = {},
  ) {
    if (options.sources) this.sourceGauges(options.sources);
    new Gauge({
      name: 'mi_db_pool_connections',
      help: 'Database pool connections: open (total), idle, and requests waiting for one, per pool.',
      labelNames: ['pool', 'state'],
      registers: [this.registry],
      collect() {
        const set = (name: string, pool: Pick<pg.Pool, 'totalCount' | 'idleCount' | 'waitingCount'>) => {
          this.set({ pool: name, state: 'total' }, pool.totalCount);
          this.set({ pool: name, state: 'idle' }, pool.idleCount);
          this.set({ pool: name, state: 'waiting' }, pool.waitingCount);
        };
        for (const [name, pool] of Object.entries(pools)) {
          set(name, pool);
          // A pool that routes reads to replicas (DATABASE_REPLICA_URLS): each replica's own pool, as `<pool>@<replica>`.
          for (const replica of replicaSetOf(pool)?.replicas ?? []) set(`${name}@${replica.name}`, replica.pool);
        }
      },
    });
    for (const pool of Object.values(pools)) {
      const replicas = replicaSetOf(pool);
      if (replicas) this.replicaGauges(() => replicas.report());
    }
    if (options.processMetrics ?? true) collectDefaultMetrics({ register: this.registry, prefix: 'mi_' });
  }

  /** The read replicas' state (src/db/replicas.ts): lag, rotation, and the statements sent to each server. */
  private replicaGauges(report: () => ReplicaReport): void {
    const registers = [this.registry];
    new Gauge({
      name: 'mi_db_replica_lag_ms',
      help: 'How far behind the primary each read replica was at its last sample (ms); absent while it does not answer.',
      labelNames: ['replica'],
      registers,
      collect() {
        this.reset();
        for (const replica of report().replicas) if (replica.lagMs !== null) this.set({ replica: replica.name }, replica.lagMs);
      },
    });
    new Gauge({
      name: 'mi_db_replica_in_rotation',
      help: '1 while a read replica takes reads; 0 while it is out (not answering, further behind than REPLICA_MAX_LAG_MS, or not a standby).',
      labelNames: ['replica'],
      registers,
      collect() {
        for (const replica of report().replicas) this.set({ replica: replica.name }, replica.inRotation ? 1 : 0);
      },
    });
    new Counter({
      name: 'mi_db_routed_statements_total',
      help: 'Statements the data pool sent to the primary and to each read replica (a replica read retried on the primary counts on both).',
      labelNames: ['target'],
      registers,
      collect() {
        const now = report();
        this.reset();
        this.inc({ target: 'primary' }, now.primaryStatements);
        for (const replica of now.replicas) this.inc({ target: replica.name }, replica.statements);
      },
    });
  }

  /** The collection's figures per source, from the runs every instance stored (one read per scrape). */
  private sourceGauges(read: () => Promise<SourceFigures[]>): void {
    let pending: { at: number; figures: Promise<SourceFigures[]> } | null = null;
    const figures = () => {
      if (!pending || Date.now() - pending.at > 1000) pending = { at: Date.now(), figures: read().catch(() => []) };
      return pending.figures;
    };
    const gauge = (name: string, help: string, labelNames: string[], fill: (g: Gauge, f: SourceFigures) => void) =>
      new Gauge({
        name,
        help,
        labelNames,
        registers: [this.registry],
        async collect() {
          this.reset();
          for (const f of await figures()) fill(this, f);
        },
      });
    gauge('mi_sync_rows', 'Records of the sync runs kept (SYNC_RUNS_KEEP_DAYS), by source and outcome (fetched, inserted, updated, unchanged, skipped).', ['source', 'outcome'], (g, f) => {
      for (const [outcome, n] of Object.entries(f.rows)) g.set({ source: f.source, outcome }, n);
    });
    gauge('mi_sync_runs', 'Sync runs by source and status (failed runs are the errors).', ['source', 'status'], (g, f) => {
      for (const [status, n] of Object.entries(f.runs)) g.set({ source: f.source, status }, n);
    });
    gauge('mi_sync_lag_seconds', 'Seconds since the last succeeded run of the source.', ['source'], (g, f) => {
      if (f.lastSucceededAt) g.set({ source: f.source }, (Date.now() - f.lastSucceededAt.getTime()) / 1000);
    });
    gauge('mi_sync_running', '1 while a run of the source is running.', ['source'], (g, f) => g.set({ source: f.source }, f.running ? 1 : 0));
    gauge('mi_sync_waits', 'Waits (throttles, backoffs) of the sync runs kept, by source.', ['source'], (g, f) => g.set({ source: f.source }, f.waits));
  }

  observe(outcome: RequestOutcome): void {
    const labels = { method: outcome.method, route: outcome.route, status: String(outcome.status) };
    this.requests.inc(labels);
    this.duration.observe(labels, outcome.seconds);
    for (const code of outcome.errorCodes) {
      this.errors.inc({ code });
      if (code === 'insufficient_credits') this.refusals.inc();
      if (code === 'rate_limited') this.rateLimited.inc();
    }
    if (outcome.cost && outcome.cost > 0) {
      this.credits.inc(outcome.cost);
      this.charges.inc();
    }
    if (outcome.graphql) this.operations.inc({ operation_type: outcome.graphql.operationType, outcome: outcome.errorCodes.length ? 'error' : 'ok' });
  }

  /** The exposition text and its content type. */
  async render(): Promise<{ body: string; contentType: string }> {
    return { body: await this.registry.metrics(), contentType: this.registry.contentType };
  }
}
