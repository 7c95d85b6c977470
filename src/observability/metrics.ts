import type pg from 'pg';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

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

  constructor(pools: Record<string, Pick<pg.Pool, 'totalCount' | 'idleCount' | 'waitingCount'>> = {}, options: { processMetrics?: boolean } = {}) {
    new Gauge({
      name: 'mi_db_pool_connections',
      help: 'Database pool connections: open (total), idle, and requests waiting for one, per pool.',
      labelNames: ['pool', 'state'],
      registers: [this.registry],
      collect() {
        for (const [name, pool] of Object.entries(pools)) {
          this.set({ pool: name, state: 'total' }, pool.totalCount);
          this.set({ pool: name, state: 'idle' }, pool.idleCount);
          this.set({ pool: name, state: 'waiting' }, pool.waitingCount);
        }
      },
    });
    if (options.processMetrics ?? true) collectDefaultMetrics({ register: this.registry, prefix: 'mi_' });
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
