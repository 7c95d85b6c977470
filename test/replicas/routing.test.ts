import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { refreshAdGroups } from '../../src/data/ad-groups.js';
import { seedMarket } from '../../src/data/market.js';
import { connect, type Db } from '../../src/db/client.js';
import { migrate } from '../../src/db/migrate.js';
import type { ReplicaReport } from '../../src/db/replicas.js';
import { Metrics } from '../../src/observability/metrics.js';
import { createReadiness } from '../../src/observability/readiness.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { replicaClusterUnavailable, startReplicatedCluster, type ReplicatedCluster } from '../support/replica.js';

// Read replicas (DATABASE_REPLICA_URLS, src/db/replicas.ts) against a real streaming standby: this file makes its own
// primary (initdb) and hot standby (pg_basebackup -R) on loopback ports, loads the tiny market before the base backup,
// and serves the app from the primary with the standby as its replica. It proves that market reads reach the standby
// (the router's counts, and the standby's own table statistics), that writes and workspace data run on the primary,
// that a workspace's read after its write sees the write while the standby has not replayed it, that a standby too far
// behind leaves the rotation, and that stopping the standby mid-run answers every request (no 5xx) from the primary.
// One cluster pair per run: the file runs in the project that always runs (pglite), and skips in the postgres one.

const unavailable = replicaClusterUnavailable();
const skip = process.env.TEST_DB === 'postgres' ? 'runs once, in the pglite project' : unavailable;
if (skip && process.env.TEST_DB !== 'postgres') console.warn(`test/replicas skipped: ${skip}`);

const MARKET_READS = ['/ads?search=summer&limit=5', '/advertisers?search=a&limit=5', '/shops?search=a&limit=5', '/products?search=a&limit=5', '/facets/categories'];

let cluster: ReplicatedCluster;
let db: Db;
let t: TestApp;
let a: string;
let b: string;
let adIds: string[];

const report = (): ReplicaReport => db.replicas!.report();
const noRateLimitStore = { external: () => false, ping: async () => {} };
const onReplica = (r: ReplicaReport) => r.replicas[0].statements;
const scansOfAds = async (server: 'primary' | 'replica') =>
  (await cluster.query<{ scans: number }>(server, `SELECT (coalesce(seq_scan, 0) + coalesce(idx_scan, 0))::int AS scans FROM pg_stat_user_tables WHERE relname = 'ads'`))[0].scans;

describe.skipIf(!!skip)('read replicas on a real streaming standby', () => {
  beforeAll(async () => {
    cluster = await startReplicatedCluster();
    const loader = connect(cluster.primaryUrl);
    try {
      await migrate(loader.pool);
      await seedMarket(loader.pool, { scale: 'tiny', seed: 7, asOf: new Date('2025-06-01T00:00:00Z') });
      await refreshAdGroups(loader.pool);
      adIds = (await loader.prisma.ad.findMany({ select: { id: true }, orderBy: { id: 'asc' }, take: 3 })).map((row) => row.id);
    } finally {
      await loader.close();
    }
    await cluster.makeReplica();
    // Far enough for the read-your-writes test to hold the standby's replay paused while it runs.
    db = connect(cluster.primaryUrl, { replicas: { urls: [cluster.replicaUrl], maxLagMs: 60_000 } });
    await db.replicas!.ready;
    t = await createTestApp(undefined, { database: { ...db, url: cluster.primaryUrl, kind: 'postgres', dispose: () => db.close() }, authCacheMs: 60_000 });
    a = (await t.newKey()).apiKey;
    b = (await t.newKey()).apiKey;
    await cluster.caughtUp();
    await vi.waitFor(() => expect(report().replicas[0].inRotation).toBe(true), { timeout: 10_000, interval: 50 });
  });
  afterAll(async () => {
    await t?.close();
    await db?.close();
    await cluster?.close();
  });

  it('sends market reads (lists, details, facets, GraphQL queries) to the standby', async () => {
    for (const key of [a, b]) {
      const res = await t.rest('GET', '/ads?search=summer&limit=1', { key });
      expect(res.status, JSON.stringify(res.body)).toBe(200); // keys known (auth cache)
    }
    const scansBefore = await scansOfAds('replica');
    const before = report();
    const paths = [...MARKET_READS, `/ads/${adIds[0]}`, `/ads/${adIds[1]}/reach-history`];
    for (let round = 0; round < 3; round++) {
      for (const path of paths) {
        const res = await t.rest('GET', path, { key: b });
        expect(res.status, `${path}: ${JSON.stringify(res.body).slice(0, 300)}`).toBe(200);
      }
      const gql = await t.graphql('{ ads(search: "summer", limit: 2) { data { id } } }', {}, b);
      expect(gql.body.errors).toBeUndefined();
      expect(gql.body.data.ads.data).toBeInstanceOf(Array);
    }
    const after = report();
    const replica = onReplica(after) - onReplica(before);
    const primary = after.primaryStatements - before.primaryStatements;
    // Every statement of these requests but the credit balance's (a workspace table) ran on the standby.
    expect(replica).toBeGreaterThan(paths.length * 3);
    expect(replica / (replica + primary)).toBeGreaterThanOrEqual(0.8);
    // The standby's own statistics saw the reads (they are flushed by its backends within seconds).
    await vi.waitFor(async () => expect(await scansOfAds('replica')).toBeGreaterThan(scansBefore), { timeout: 30_000, interval: 250 });
  });

  it('shows the standby on /metrics: its lag, its rotation, and its own pool beside the primary\'s', async () => {
    // A metered market read: its credits on the primary, its rows on the standby; each pool has a connection open now
    // (an idle one closes after 10 s, and the test above may have waited longer than that).
    expect((await t.rest('GET', '/ads?search=summer&limit=1', { key: b })).status).toBe(200);
    const { body } = await new Metrics({ data: db.pool }, { processMetrics: false }).render();
    const name = report().replicas[0].name;
    expect(body).toContain(`mi_db_replica_in_rotation{replica="${name}"} 1`);
    expect(body).toMatch(new RegExp(`mi_db_replica_lag_ms\\{replica="${name}"\\} \\d+`));
    // The read opened connections on the standby's pool: it is counted as a pool of its own.
    expect(body).toMatch(/mi_db_pool_connections\{pool="data",state="total"\} [1-9]/);
    expect(body).toMatch(new RegExp(`mi_db_pool_connections\\{pool="data@${name.replace(/[.]/g, '\\.')}",state="total"\\} [1-9]`));
  });

  it('reports the standby on GET /v1/ready: reachable, its lag, in rotation; by host:port/database, never its URL', async () => {
    const answer = await t.rest('GET', '/ready');
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ status: 'ready', checks: { database: { status: 'up' } } });
    const { port } = new URL(cluster.replicaUrl);
    expect(answer.body.replicas).toEqual([
      { name: `127.0.0.1:${port}/postgres`, reachable: true, lagMs: expect.any(Number), maxLagMs: 60_000, lagging: false, inRotation: true, reason: null },
    ]);
    expect(JSON.stringify(answer.body)).not.toContain('postgresql://');
  });

  it('runs writes and workspace data on the primary; the next request sees the write while the standby has not replayed it', async () => {
    await cluster.query('replica', 'SELECT pg_wal_replay_pause()');
    try {
      const before = report();
      const created = await t.rest('POST', '/boards', { key: a, body: { name: 'Replicated picks' } });
      expect(created.status).toBeLessThan(300);
      const boardId = created.body.data.id as string;
      expect(onReplica(report())).toBe(onReplica(before));
      expect(report().primaryStatements).toBeGreaterThan(before.primaryStatements);
      // The row is on the primary, and not on the paused standby.
      expect(await cluster.query('primary', 'SELECT name FROM boards WHERE id = $1', [boardId])).toEqual([{ name: 'Replicated picks' }]);
      expect(await cluster.query('replica', 'SELECT name FROM boards WHERE id = $1', [boardId])).toEqual([]);

      // The next request reads it back (workspace data runs on the primary)…
      const read = await t.rest('GET', `/boards/${boardId}`, { key: a });
      expect(read.status).toBe(200);
      expect(read.body.data.name).toBe('Replicated picks');
      // …and the write, to data read on the primary only, sends none of the workspace's market reads there: they still
      // run on the standby, as another workspace's do.
      for (const key of [a, b]) {
        const mid = report();
        expect((await t.rest('GET', '/ads?search=summer&limit=5', { key })).status).toBe(200);
        expect(onReplica(report())).toBeGreaterThan(onReplica(mid));
      }

      // A GraphQL mutation runs wholly on the primary.
      const beforeMutation = report();
      const gql = await t.graphql('mutation { boardCreate(name: "From GraphQL") { id name } }', {}, a);
      expect(gql.body.errors).toBeUndefined();
      expect(onReplica(report())).toBe(onReplica(beforeMutation));
    } finally {
      await cluster.query('replica', 'SELECT pg_wal_replay_resume()');
    }
    // Once the standby has replayed the write, the workspace's reads go back to it.
    await vi.waitFor(
      async () => {
        const before = onReplica(report());
        expect((await t.rest('GET', '/ads?search=summer&limit=1', { key: a })).status).toBe(200);
        expect(onReplica(report())).toBeGreaterThan(before);
      },
      { timeout: 15_000, interval: 100 },
    );
  });

  it('takes a standby further behind than REPLICA_MAX_LAG_MS out of the rotation, and back once it catches up', async () => {
    const strict = connect(cluster.primaryUrl, { replicas: { urls: [cluster.replicaUrl], maxLagMs: 200 } });
    try {
      await strict.replicas!.ready;
      await vi.waitFor(() => expect(strict.replicas!.report().replicas[0].inRotation).toBe(true), { timeout: 10_000, interval: 50 });
      await cluster.query('replica', 'SELECT pg_wal_replay_pause()');
      try {
        await cluster.query('primary', 'CREATE TABLE IF NOT EXISTS lag_probe (at timestamptz)');
        await cluster.query('primary', 'INSERT INTO lag_probe VALUES (now())');
        await vi.waitFor(() => expect(strict.replicas!.report().replicas[0]).toMatchObject({ inRotation: false, reason: expect.stringMatching(/behind the primary/) }), { timeout: 15_000, interval: 50 });
        expect(strict.replicas!.report().replicas[0].lagMs).toBeGreaterThan(200);
        // The readiness probe says it is skipped for its lag, and the server stays ready (its reads run on the primary).
        const probe = await createReadiness({ pool: strict.pool, rateLimiter: noRateLimitStore }).check();
        expect(probe.status).toBe('ready');
        expect(probe.replicas).toEqual([expect.objectContaining({ reachable: true, lagging: true, inRotation: false, maxLagMs: 200 })]);
        expect(probe.replicas[0].lagMs).toBeGreaterThan(200);
      } finally {
        await cluster.query('replica', 'SELECT pg_wal_replay_resume()');
      }
      await vi.waitFor(() => expect(strict.replicas!.report().replicas[0]).toMatchObject({ inRotation: true, reason: null }), { timeout: 15_000, interval: 50 });
    } finally {
      await strict.close();
    }
  });

  it('answers every request while the standby stops mid-run (reads back on the primary), and takes it back when it returns', async () => {
    const statuses: number[] = [];
    let stopping = false;
    let done = false;
    let afterStop = 0;
    const loop = async (offset: number) => {
      for (let i = offset; !done; i++) {
        const res = await t.rest('GET', MARKET_READS[i % MARKET_READS.length], { key: b });
        statuses.push(res.status);
        if (stopping) afterStop++;
      }
    };
    const loops = [0, 1, 2, 3].map(loop);
    await vi.waitFor(() => expect(statuses.length).toBeGreaterThanOrEqual(12), { timeout: 60_000, interval: 20 });
    const before = report();
    stopping = true;
    await cluster.stopReplica();
    await vi.waitFor(() => expect(afterStop).toBeGreaterThanOrEqual(24), { timeout: 60_000, interval: 20 });
    done = true;
    await Promise.all(loops);

    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    const after = report();
    expect(after.replicas[0].inRotation).toBe(false);
    // Ready all along (the primary answers), and the probe says the standby is gone.
    const probe = await t.rest('GET', '/ready');
    expect([probe.status, probe.body.status]).toEqual([200, 'ready']);
    expect(probe.body.replicas).toEqual([expect.objectContaining({ reachable: false, inRotation: false, lagging: false })]);
    expect(after.primaryStatements - before.primaryStatements).toBeGreaterThan(0);
    // Now every read runs on the primary, none is tried on the standby.
    const settled = report();
    expect((await t.rest('GET', '/ads?search=summer&limit=5', { key: b })).status).toBe(200);
    expect(onReplica(report())).toBe(onReplica(settled));
    expect(report().primaryStatements).toBeGreaterThan(settled.primaryStatements);

    await cluster.startReplica();
    await vi.waitFor(() => expect(report().replicas[0].inRotation).toBe(true), { timeout: 30_000, interval: 50 });
    expect((await t.rest('GET', '/ready')).body.replicas).toEqual([expect.objectContaining({ reachable: true, inRotation: true })]);
    const back = onReplica(report());
    expect((await t.rest('GET', '/ads?search=summer&limit=5', { key: b })).status).toBe(200);
    expect(onReplica(report())).toBeGreaterThan(back);
  });
});
