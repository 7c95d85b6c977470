import { createServer } from 'node:http';
import { createAuthenticator } from './auth/authenticate.js';
import { loadConfig } from './config.js';
import { connect } from './db/client.js';
import { migrate } from './db/migrate.js';
import { openDatabase } from './db/open.js';
import { ensureDemo } from './data/demo.js';
import { KnownBalances } from './metering/balances.js';
import { ChargeBatcher } from './metering/charges.js';
import { releaseStaleHolds } from './metering/ledger.js';
import { createRateLimiter } from './metering/index.js';
import { sweepIdempotencyKeys } from './plugins/use-idempotency.js';
import { createApp } from './server.js';

// `npm start`: open the database (embedded unless DATABASE_URL), apply migrations, load the demo data
// on the first embedded start, and serve GraphQL at /graphql and REST at /v1.
const log = (line: string) => console.log(`[api] ${line}`);
const startedAt = new Date();
const config = loadConfig();
const location = await openDatabase(config, { shareRunning: false });
const db = connect(location.url, { max: location.embedded ? 4 : 10 });

const applied = await migrate(db.pool);
if (applied.length) log(`applied migrations: ${applied.join(', ')}`);

const demoWanted = process.env.DEMO_DATA ? process.env.DEMO_DATA === 'true' : location.embedded;
const demoKey = demoWanted ? await ensureDemo(db.prisma, db.pool, log) : null;

const rateLimiter = createRateLimiter(config.rateLimits, config.redisUrl);
// Serve once the limiter's store answers; a Redis that stays down is reported, and limits then fail open.
const limiterReady = await Promise.race([rateLimiter.ready().then(() => true, () => false), new Promise<false>((resolve) => setTimeout(() => resolve(false), 10_000))]);
if (!limiterReady) log('warning: the rate-limit store (REDIS_URL) is not reachable; requests are served without rate limits until it is');
// Holds left by an instance that died mid-call go back to their pools after ten minutes.
const sweep = setInterval(() => {
  void releaseStaleHolds(db.ledger, 10 * 60_000).catch(() => {});
  void sweepIdempotencyKeys(db.pool).catch(() => {});
}, 60_000);
sweep.unref();

const app = createApp({
  prisma: db.prisma,
  pool: db.pool,
  ledger: db.ledger,
  noHold: { balances: new KnownBalances(), charges: new ChargeBatcher(db.ledger) },
  authenticate: createAuthenticator(db.prisma, { cacheMs: config.authCacheMs }),
  rateLimiter,
  metering: config.metering,
  publicBaseUrl: config.publicBaseUrl,
  startedAt,
}, { mcpMutations: config.mcpMutations });
const server = createServer(app);
await new Promise<void>((resolve) => server.listen(config.port, config.host, resolve));
const address = server.address();
const port = typeof address === 'object' && address ? address.port : config.port;
const base = `http://localhost:${port}`;
log(`database: ${location.embedded ? `embedded PostgreSQL (PGlite) in ${config.dataDir}` : 'DATABASE_URL'}`);
log(`REST ${base}/v1 · GraphQL and GraphiQL ${base}/graphql · ready in ${((Date.now() - startedAt.getTime()) / 1000).toFixed(1)} s`);
if (demoKey) {
  log('demo workspace "demo" created. Its API key is shown this once (only a hash is stored):');
  console.log(`\n  ${demoKey}\n\n  curl -H "Authorization: Bearer ${demoKey}" "${base}/v1/ads?search=summer&limit=3"\n`);
}

let stopping = false;
async function stop(signal: string) {
  if (stopping) return;
  stopping = true;
  log(`${signal}: draining requests in flight, then shutting down`);
  // Stop accepting, let requests in flight finish (idle keep-alive sockets close now), force after 10 s.
  const drained = new Promise((resolve) => server.close(resolve));
  server.closeIdleConnections();
  const force = setTimeout(() => server.closeAllConnections(), 10_000);
  await drained;
  clearTimeout(force);
  clearInterval(sweep);
  await rateLimiter.close();
  await db.close();
  await location.close();
  process.exit(0);
}
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
