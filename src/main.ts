import type { Server } from 'node:http';
import { createAuthenticator } from './auth/authenticate.js';
import { loadConfig } from './config.js';
import { connect } from './db/client.js';
import { migrate } from './db/migrate.js';
import { describeMaintenance, maintainHistoryPartitions, startHistoryMaintenance } from './db/partitions.js';
import { openDatabase } from './db/open.js';
import { ensureDemo } from './data/demo.js';
import { seedProgressPrinter } from './data/market/progress.js';
import { startDemoTicks } from './data/demo-ticks.js';
import { createHttpServer, createMetricsServer } from './http.js';
import { KnownBalances } from './metering/balances.js';
import { ChargeBatcher } from './metering/charges.js';
import { releaseStaleHolds } from './metering/ledger.js';
import { createRateLimiter } from './metering/index.js';
import { createLogger } from './observability/logger.js';
import { Metrics } from './observability/metrics.js';
import { createReadiness } from './observability/readiness.js';
import { sweepIdempotencyKeys } from './plugins/use-idempotency.js';
import { createApp } from './server.js';
import { startEvents } from './events/index.js';
import { startJobs } from './jobs/index.js';
import { sourceStatuses } from './sources/index.js';
import { embeddedIsNew, emptyDatabaseHint, listen, listenFailure, migrationLines, portRefusal, settingsRefusal } from './startup.js';
import { useBaselineWasmCompilerOnly } from './wasm-tiering.js';

// `npm start`: open the database (embedded unless DATABASE_URL), apply migrations, load the demo data
// on the first embedded start, and serve GraphQL at /graphql and REST at /v1.
const startedAt = new Date();
const config = loadConfig();
const logger = createLogger({ level: config.logLevel, pretty: config.logFormat === 'auto' ? undefined : config.logFormat === 'pretty' });
const log = (line: string) => logger.info(line);
// Signals are taken from the first moment: one that comes while the server is still starting stops it as soon as it
// has started (never midway through a migration, and never by the signal's default action).
let stopRequested: string | null = null;
let shutdown: ((signal: string) => Promise<void>) | null = null;
const onSignal = (signal: string) => {
  if (shutdown) void shutdown(signal);
  else stopRequested ??= signal;
};
process.on('SIGINT', () => onSignal('SIGINT'));
process.on('SIGTERM', () => onSignal('SIGTERM'));
/** A start that cannot go on: one line, then exit 1 (after `close`, what was opened so far). */
async function stopStarting(line: string, close?: () => Promise<void>): Promise<never> {
  logger.error(line);
  logger.flush();
  await close?.().catch(() => undefined);
  process.exit(1);
}
// A malformed setting and a busy port are told at once, not after the migrations and the demo load.
const badSetting = settingsRefusal();
if (badSetting) await stopStarting(badSetting);
for (const [port, variable] of [[config.port, 'PORT'], [config.metrics.port, 'METRICS_PORT']] as const) {
  const refusal = await portRefusal(port, config.host, variable);
  if (refusal) await stopStarting(refusal);
}
const creating = !config.databaseUrl && embeddedIsNew(config.dataDir);
if (creating) log(`creating the embedded database in ${config.dataDir} (first start)…`);
const location = await openDatabase(config, { shareRunning: false }).catch((error: Error) => stopStarting(error.message));
if (!location.inProcess) useBaselineWasmCompilerOnly();
if (creating) log(`embedded database created in ${((Date.now() - startedAt.getTime()) / 1000).toFixed(1)} s`);
// Read replicas (DATABASE_REPLICA_URLS): market reads go to them while they keep up (src/db/replicas.ts).
const db = connect(location.url, {
  max: location.embedded ? 4 : 10,
  replicas: {
    ...config.replicas,
    onChange: (replica) =>
      replica.inRotation ? logger.info({ replica: replica.name, lagMs: replica.lagMs }, 'read replica in rotation') : logger.warn({ replica: replica.name, reason: replica.reason }, 'read replica out of rotation: its reads run on the primary'),
  },
});
const closeDatabase = async () => {
  await db.close();
  await location.close();
};

await migrate(db.pool, migrationLines(log));

const demoWanted = process.env.DEMO_DATA ? process.env.DEMO_DATA === 'true' : location.embedded;
let demoKey: string | null = null;
if (demoWanted) {
  // The demo load's progress on stderr: a bar per table, redrawn in place on a terminal, plain lines otherwise.
  const progress = seedProgressPrinter(process.stderr);
  demoKey = await ensureDemo(db.prisma, db.pool, log, progress.onProgress).finally(() => progress.finish());
}
// The history tables' month partitions: this month's and the next ones', and one for each month the data covers (a demo
// or bulk load of past months lands in the default partition until then); old months dropped with a retention.
const partitioned = await maintainHistoryPartitions(db.pool, config.history);
const partitionLine = describeMaintenance(partitioned);
if (partitionLine) log(partitionLine);

// Reported once per period (src/metering/index.ts), however many requests meet the failure meanwhile.
const rateLimiter = createRateLimiter(config.rateLimits, config.redisUrl, undefined, (err) => {
  logger.warn({ err }, 'the rate-limit store (Redis) is unreachable or not answering: requests are served without rate limits until it answers');
}, { commandTimeoutMs: config.redisCommandTimeoutMs });
// Serve once the limiter's store answers; a Redis that stays down is reported, and limits then fail open.
const limiterReady = await Promise.race([rateLimiter.ready().then(() => true, () => false), new Promise<false>((resolve) => setTimeout(() => resolve(false), 10_000))]);
if (!limiterReady) logger.warn('the rate-limit store (REDIS_URL) is not reachable; requests are served without rate limits until it is');
// Holds left by an instance that died mid-call go back to their pools after ten minutes.
const sweep = setInterval(() => {
  void releaseStaleHolds(db.ledger, 10 * 60_000).catch((err: unknown) => logger.warn({ err }, 'stale-hold sweep failed'));
  void sweepIdempotencyKeys(db.pool).catch((err: unknown) => logger.warn({ err }, 'idempotency-key sweep failed'));
}, 60_000);
sweep.unref();

const metrics = config.metrics.onApiPort || config.metrics.port !== undefined ? new Metrics({ data: db.pool, ledger: db.ledger }, { sources: () => sourceStatuses(db.pool) }) : undefined;
const readiness = createReadiness({ pool: db.pool, rateLimiter });
const app = createApp(
  {
    prisma: db.prisma,
    pool: db.pool,
    ledger: db.ledger,
    noHold: { balances: new KnownBalances(), charges: new ChargeBatcher(db.ledger) },
    authenticate: createAuthenticator(db.prisma, { cacheMs: config.authCacheMs }),
    rateLimiter,
    metering: config.metering,
    publicBaseUrl: config.publicBaseUrl,
    startedAt,
  },
  { logger, metrics, corsOrigins: config.corsOrigins, readiness, mcpMutations: config.mcpMutations },
);
const server = createHttpServer(app, { logger, metrics, metricsOnThisPort: config.metrics.onApiPort });
await listen(server, config.port, config.host).catch((error) => stopStarting(listenFailure(error, config.port, config.host, 'PORT'), closeDatabase));
let metricsServer: Server | undefined;
if (metrics && config.metrics.port !== undefined) {
  metricsServer = createMetricsServer(metrics);
  const port = config.metrics.port;
  await listen(metricsServer, port, config.host).catch((error) => stopStarting(listenFailure(error, port, config.host, 'METRICS_PORT'), closeDatabase));
}
const address = server.address();
const port = typeof address === 'object' && address ? address.port : config.port;
const base = `http://localhost:${port}`;
log(`database: ${location.embedded ? `embedded PostgreSQL (PGlite) in ${config.dataDir}` : 'DATABASE_URL'}${db.replicas ? ` and ${db.replicas.replicas.length} read replica(s) (DATABASE_REPLICA_URLS)` : ''}`);
if (metricsServer) {
  const metricsAddress = metricsServer.address();
  log(`metrics on port ${typeof metricsAddress === 'object' && metricsAddress ? metricsAddress.port : config.metrics.port} (/metrics)`);
}
logger.info({ port, pid: process.pid }, `REST ${base}/v1 · GraphQL and GraphiQL ${base}/graphql · ready in ${((Date.now() - startedAt.getTime()) / 1000).toFixed(1)} s`);
if (demoKey) {
  log('demo workspace "demo" created. Its API key is shown this once (only a hash is stored):');
  console.log(`\n  ${demoKey}\n\n  curl -H "Authorization: Bearer ${demoKey}" "${base}/v1/ads?search=summer&limit=3"\n`);
}
const hint = demoWanted ? null : await emptyDatabaseHint(db.pool);
if (hint) log(hint);

// The job queue's workers (the sync schedules) and the events' dispatcher run in this process unless WORKERS=off
// (`npm run worker` runs them alone).
const jobs = config.workers ? await startJobs(db.pool, { work: true, logger }) : null;
const events = config.workers ? startEvents(db.pool, { logger }) : null;
const historyPartitions = config.workers ? startHistoryMaintenance(db.pool, { ...config.history, logger }) : null;
// The demo market lives: a day's tick now and each day after (DEMO_TICK=off keeps it as loaded).
const demoTicks = config.workers && demoWanted && process.env.DEMO_TICK !== 'off' ? startDemoTicks(db.pool, logger) : null;

let stopping = false;
/**
 * Graceful shutdown: the readiness probe answers `stopping`, the server stops accepting connections and closes idle
 * keep-alive ones, requests in flight are answered (their charges committed before their answers), connections
 * still busy after SHUTDOWN_TIMEOUT_MS are closed; then the pools, Redis and the embedded database are closed.
 */
async function stop(signal: string) {
  if (stopping) return;
  stopping = true;
  readiness.stop();
  const drained = new Promise((resolve) => server.close(resolve));
  server.closeIdleConnections();
  logger.info({ signal }, 'draining requests in flight, then shutting down');
  const force = setTimeout(() => {
    logger.warn({ timeoutMs: config.shutdownTimeoutMs }, 'requests still in flight after the shutdown timeout: closing their connections');
    server.closeAllConnections();
  }, config.shutdownTimeoutMs);
  await drained;
  clearTimeout(force);
  clearInterval(sweep);
  // A sync in flight stops at its page boundary and is marked interrupted: the next run resumes it.
  await jobs?.stop();
  await demoTicks?.stop();
  await events?.stop();
  await historyPartitions?.stop();
  // Closing the pools and the database is bounded too: a connection that never ends must not keep the process alive.
  const stuck = setTimeout(() => {
    logger.error('the pools or the database did not close within 5 s: exiting anyway');
    process.exit(1);
  }, 5_000);
  metricsServer?.close();
  metricsServer?.closeAllConnections();
  await rateLimiter.close().catch(() => undefined);
  await db.close();
  await location.close();
  clearTimeout(stuck);
  logger.info('stopped');
  logger.flush();
  process.exit(0);
}
shutdown = stop;
if (stopRequested) void stop(stopRequested);
