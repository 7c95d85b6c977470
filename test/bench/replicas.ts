import { parseArgs } from 'node:util';
import pg from 'pg';
import { refreshAdGroups } from '../../src/data/ad-groups.js';
import { seedMarket, type MarketScale } from '../../src/data/market.js';
import { connect } from '../../src/db/client.js';
import { migrate } from '../../src/db/migrate.js';
import type { ReplicaReport } from '../../src/db/replicas.js';
import { createTestApp } from '../support/app.js';
import { replicaClusterUnavailable, startReplicatedCluster } from '../support/replica.js';

// `npx tsx test/bench/replicas.ts [-- --scale tiny --seconds 20 --concurrency 8]`: the issue #38 targets of the read
// replicas, on a primary and a streaming hot standby made on loopback for the run (test/support/replica.ts).
//   1. A read-only mix (REST lists, details, analytics and facets of the market, and GraphQL queries) from
//      `concurrency` clients for `seconds`: the share of its statements the data pool sent to the replica (target
//      >= 95%), with each server's committed transactions (pg_stat_database) as the servers count them.
//   2. The same mix with the replica stopped (pg_ctl stop -m fast) mid-run: responses 5xx (target 0), and the time
//      from the stop to the replica's leaving the rotation and to the first read answered after the stop (target
//      <= 2 s: reads back on the primary).
// In process (app.fetch), as the tests call the app: the routing, not HTTP, is measured. Keys are cached as
// AUTH_CACHE_MS does by default (2 s).

const { values: opts } = parseArgs({ options: { scale: { type: 'string', default: 'tiny' }, seconds: { type: 'string', default: '20' }, concurrency: { type: 'string', default: '8' }, trace: { type: 'boolean', default: false } } });
const SECONDS = Number(opts.seconds);
const CONCURRENCY = Number(opts.concurrency);
const unavailable = replicaClusterUnavailable();
if (unavailable) {
  console.error(`bench:replicas cannot run here: ${unavailable}`);
  process.exit(1);
}

const cluster = await startReplicatedCluster();
try {
  let started = performance.now();
  const loader = connect(cluster.primaryUrl);
  await migrate(loader.pool);
  await seedMarket(loader.pool, { scale: opts.scale as MarketScale, seed: 7, asOf: new Date('2025-06-01T00:00:00Z') });
  await refreshAdGroups(loader.pool);
  const pick = async (table: string) => (await loader.pool.query<{ id: string }>(`SELECT "id" FROM "${table}" ORDER BY "id" LIMIT 3`)).rows.map((row) => row.id);
  const [ads, advertisers, shops] = [await pick('ads'), await pick('advertisers'), await pick('shops')];
  await loader.close();
  await cluster.makeReplica();
  console.log(`primary and standby ready (${opts.scale} market) in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  let leftRotation = 0;
  const db = connect(cluster.primaryUrl, { replicas: { urls: [cluster.replicaUrl], maxLagMs: 1000, onChange: (replica) => void (replica.inRotation || leftRotation++) }, max: 10 });
  await db.replicas!.ready;
  const t = await createTestApp(undefined, { database: { ...db, url: cluster.primaryUrl, kind: 'postgres', dispose: () => db.close() }, authCacheMs: 2000 });
  const { apiKey: key } = await t.newKey();
  await cluster.caughtUp();

  const rest = [
    '/ads?search=summer&limit=20', '/ads?search=sale&limit=20&sort=reach', ...ads.map((id) => `/ads/${id}`), ...ads.map((id) => `/ads/${id}/reach-history`),
    '/advertisers?search=a&limit=20', ...advertisers.map((id) => `/advertisers/${id}`), ...advertisers.map((id) => `/advertisers/${id}/ads`),
    '/shops?search=a&limit=20', ...shops.map((id) => `/shops/${id}`), ...shops.map((id) => `/shops/${id}/sales/history`), ...shops.map((id) => `/shops/${id}/socials/history`),
    '/products?search=a&limit=20', '/products/facets', '/facets/categories', '/facets/technologies', '/facets/pixels', '/google-ads/facets/networks',
  ];
  const graphql = ['{ ads(search: "summer", limit: 10) { data { id status advertiser { name } } pagination { total } } }', '{ shops(search: "a", limit: 10) { data { id } } }'];
  // Only what answers 200 here is in the mix (a route may want other arguments at this scale).
  const mix: (() => Promise<number>)[] = [];
  for (const path of rest) {
    const call = async () => (await t.rest('GET', path, { key })).status;
    if ((await call()) === 200) mix.push(call);
    else console.log(`  left out of the mix (not 200): GET /v1${path}`);
  }
  for (const query of graphql) {
    const call = async () => {
      const res = await t.graphql(query, {}, key);
      return res.status === 200 && !res.body.errors ? 200 : 500;
    };
    if ((await call()) === 200) mix.push(call);
  }

  const commits = async () => {
    const read = async (server: 'primary' | 'replica') =>
      Number((await cluster.query<{ n: string }>(server, `SELECT xact_commit::text AS n FROM pg_stat_database WHERE datname = 'postgres'`))[0].n);
    return { primary: await read('primary'), replica: await read('replica') };
  };
  const statements = (r: ReplicaReport) => ({ primary: r.primaryStatements, replica: r.replicas[0].statements });

  /** `CONCURRENCY` clients running the mix until `until()` says stop; each answer's status and end time. */
  const load = async (until: () => boolean) => {
    const answers: { status: number; at: number }[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (!until()) {
          const status = await mix[next++ % mix.length]().catch(() => 599);
          answers.push({ status, at: performance.now() });
        }
      }),
    );
    return answers;
  };

  // --trace: which statements of the mix ran on the primary (the first 100 characters of each text, most frequent first).
  const traced = new Map<string, number>();
  if (opts.trace) {
    const primaryPort = Number(new URL(cluster.primaryUrl).port);
    const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text?: string } | null)?.text;
      const sampler = (this as unknown as { connectionParameters?: { application_name?: string } }).connectionParameters?.application_name === 'mi-replica-sampler';
      if (this.port === primaryPort && text && !sampler) traced.set(text.replace(/\s+/g, ' ').slice(0, 100), (traced.get(text.replace(/\s+/g, ' ').slice(0, 100)) ?? 0) + 1);
      return query.apply(this, args);
    } as typeof pg.Client.prototype.query;
  }

  // 1. The read-only mix.
  const before = statements(db.replicas!.report());
  const commitsBefore = await commits();
  started = performance.now();
  const answers = await load(() => performance.now() - started > SECONDS * 1000);
  await new Promise((resolve) => setTimeout(resolve, 1500)); // the servers' statistics are flushed within a second
  const commitsAfter = await commits();
  const after = statements(db.replicas!.report());
  const leftDuringMix = leftRotation;
  const toReplica = after.replica - before.replica;
  const toPrimary = after.primary - before.primary;
  const failed = answers.filter((answer) => answer.status !== 200).length;
  console.log(`read-only mix: ${answers.length} requests of ${mix.length} kinds in ${SECONDS} s (${(answers.length / SECONDS).toFixed(0)}/s), ${failed} not 200`);
  console.log(`  statements: ${toReplica} to the replica, ${toPrimary} to the primary: ${((100 * toReplica) / (toReplica + toPrimary)).toFixed(1)}% to the replica (target >= 95%)`);
  console.log(`  the replica left the rotation ${leftDuringMix} time(s) during the mix (REPLICA_MAX_LAG_MS 1000); lag at the end ${db.replicas!.report().replicas[0].lagMs} ms`);
  console.log(`  committed transactions as the servers count them (the lag sampler's ~4/s on each included): replica +${commitsAfter.replica - commitsBefore.replica}, primary +${commitsAfter.primary - commitsBefore.primary}`);

  if (opts.trace) for (const [text, n] of [...traced].sort((x, y) => y[1] - x[1]).slice(0, 15)) console.log(`  primary ${String(n).padStart(5)}  ${text}`);

  // 2. The replica stopped mid-run.
  let stopAt = 0;
  let outAt = 0;
  const watch = setInterval(() => {
    if (stopAt && !outAt && !db.replicas!.report().replicas[0].inRotation) outAt = performance.now();
  }, 5);
  started = performance.now();
  const running = load(() => performance.now() - started > 10_000);
  await new Promise((resolve) => setTimeout(resolve, 3000));
  stopAt = performance.now();
  await cluster.stopReplica();
  const stopped = performance.now();
  const during = await running;
  clearInterval(watch);
  const firstAfter = during.find((answer) => answer.at > stopped && answer.status === 200);
  console.log(`replica stopped mid-run: ${during.length} requests, ${during.filter((answer) => answer.status >= 500).length} answered 5xx (target 0), ${during.filter((answer) => answer.status !== 200).length} not 200`);
  console.log(`  out of rotation ${outAt ? `${(outAt - stopAt).toFixed(0)} ms` : 'never'} after the stop began (pg_ctl stop returned after ${(stopped - stopAt).toFixed(0)} ms); first read answered after the stop returned: ${firstAfter ? `${(firstAfter.at - stopAt).toFixed(0)} ms after the stop began` : 'none'} (target <= 2 s)`);
  await t.close();
  await db.close();
} finally {
  await cluster.close();
}
