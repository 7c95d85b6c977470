import { execFile, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { parseArgs, promisify } from 'node:util';
import pg from 'pg';
import { createKey, createWorkspace, setCredits } from '../../src/auth/admin.js';
import { connect } from '../../src/db/client.js';
import { migrate } from '../../src/db/migrate.js';
import { bossOn } from '../../src/jobs/index.js';
import { metaAd, startFakeMeta } from '../sources/fakes/meta.js';
import { recreateDatabase } from './database.js';

// `npm run bench:sync [-- --ads 100000 --limit 1000]`: the issue #35 targets of the collection system, on PostgreSQL.
//   1. A Meta sync of N ads from the loopback fake at full speed, in a worker process of its own: ads/s stored and
//      the worker's peak RSS.
//   2. The same sync again: its speed against the first, and the rows it wrote (pg_stat_user_tables: only the
//      snapshot table may move).
//   3. The API's S2 (GET /v1/ads?search=) p50, one connection, idle and then while a sync of N new ads runs in the
//      same server process (started by the job queue, as a schedule would).
// Database: BENCH_SYNC_DATABASE_URL (default postgresql://postgres@127.0.0.1:5432/mi_bench_sync), recreated each time.

const { values: opts } = parseArgs({ options: { ads: { type: 'string', default: '100000' }, limit: { type: 'string', default: '1000' }, seconds: { type: 'string', default: '8' } } });
const N = Number(opts.ads);
const LIMIT = Number(opts.limit);
const root = path.resolve(import.meta.dirname, '../..');
const url = process.env.BENCH_SYNC_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/mi_bench_sync';
const TOKEN = 'bench-token';
const QUERY = { countries: ['FR'], search: 'our', limit: LIMIT };
const run = promisify(execFile);

const recreate = () => recreateDatabase(url);

async function tableWrites(pool: pg.Pool): Promise<Record<string, number>> {
  const { rows } = await pool.query<{ relname: string; n: string }>(
    // The history tables are partitioned by month (migration 0037): their writes are their partitions', summed.
    `SELECT t.name AS relname, sum(s.n_tup_ins + s.n_tup_upd + s.n_tup_del)::text AS n
     FROM pg_stat_user_tables s CROSS JOIN LATERAL (SELECT coalesce(pg_partition_root(s.relid)::regclass::text, s.relname) AS name) t
     WHERE t.name IN ('ads', 'advertisers', 'ad_demography', 'ad_reach_days', 'advertiser_metric_days', 'ad_groups') GROUP BY 1`,
  );
  return Object.fromEntries(rows.map((row) => [row.relname, Number(row.n)]));
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function p50(base: string, key: string, seconds: number, until?: () => boolean): Promise<{ p50: number; n: number }> {
  const times: number[] = [];
  const end = Date.now() + seconds * 1000;
  while (Date.now() < end && (until ? !until() : true)) {
    const started = performance.now();
    const response = await fetch(`${base}/v1/ads?search=serum&limit=20`, { headers: { authorization: `Bearer ${key}` } });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`S2 answered ${response.status}`);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { p50: times[Math.floor(times.length / 2)] ?? NaN, n: times.length };
}

await recreate();
const db = connect(url, { max: 3 });
await migrate(db.pool);
const fake = await startFakeMeta({ token: TOKEN, ads: { count: N, make: (i) => metaAd(i) }, maxLimit: LIMIT });
const env = { ...process.env, DATABASE_URL: url, META_ACCESS_TOKEN: TOKEN, META_GRAPH_URL: fake.url, SYNC_QUERY: JSON.stringify(QUERY), LOG_LEVEL: 'warn' };
const child = async () => JSON.parse((await run('node', ['--import', 'tsx', path.join(root, 'test/bench/sync-child.ts')], { env, cwd: root, maxBuffer: 1 << 24 })).stdout);

const first = await child();
const before = await tableWrites(db.pool);
const second = await child();
const after = await tableWrites(db.pool);
const written = Object.fromEntries(Object.keys(after).map((table) => [table, after[table] - (before[table] ?? 0)]));

// 3. S2 while a sync runs in the server's own process.
await createWorkspace(db.prisma, { slug: 'bench', name: 'Bench' });
await setCredits(db.prisma, { workspace: 'bench', recurringLimit: 2_000_000_000, recurringUsed: 0, topup: 0 });
const { apiKey } = await createKey(db.prisma, { workspace: 'bench', name: 'bench' });
const port = await freePort();
const schedule = { schedules: [{ name: 'bench-meta', source: 'meta-ads', cron: '0 0 1 1 *', query: QUERY }] };
const server = spawn('node', ['--import', 'tsx', path.join(root, 'src/main.ts')], {
  env: { ...env, PORT: String(port), HOST: '127.0.0.1', SYNC_SCHEDULES: JSON.stringify(schedule), DEMO_DATA: 'false', RATE_LIMIT_PER_SECOND: '100000', RATE_LIMIT_BURST: '100000' },
  cwd: root,
  stdio: ['ignore', 'ignore', 'inherit'],
});
const base = `http://127.0.0.1:${port}`;
for (let i = 0; ; i++) {
  if (await fetch(`${base}/v1/health`).then((r) => r.ok, () => false)) break;
  if (i > 600) throw new Error('the server did not start');
  await new Promise((resolve) => setTimeout(resolve, 100));
}
await p50(base, apiKey, 2);
const idle = await p50(base, apiKey, Number(opts.seconds));
fake.setAds({ count: N, make: (i) => metaAd(i + N) });
const boss = bossOn(db.pool, { work: false });
await boss.start();
await boss.send('sync-bench-meta', { schedule: 'bench-meta' });
const state = async () => (await db.pool.query<{ status: string }>(`SELECT "status" FROM "sync_runs" WHERE "trigger" = 'schedule:bench-meta' ORDER BY "startedAt" DESC LIMIT 1`)).rows[0]?.status;
while ((await state()) !== 'running') await new Promise((resolve) => setTimeout(resolve, 100));
let done = false;
const watcher = (async () => {
  while ((await state()) === 'running') await new Promise((resolve) => setTimeout(resolve, 200));
  done = true;
})();
const busy = await p50(base, apiKey, Number(opts.seconds), () => done);
await watcher.catch(() => {});
await boss.stop({ graceful: false, wait: true }).catch(() => {});
server.kill('SIGTERM');

const rate = (result: { ms: number; run: { fetched: number } }) => Math.round(result.run.fetched / (result.ms / 1000));
const report = {
  ads: N,
  pageSize: LIMIT,
  first: { seconds: +(first.ms / 1000).toFixed(1), adsPerSecond: rate(first), inserted: first.run.inserted, peakRssMb: first.peakRssMb, target: '≥ 5,000 ads/s, ≤ 300 MB' },
  second: { seconds: +(second.ms / 1000).toFixed(1), adsPerSecond: rate(second), speedup: +(first.ms / second.ms).toFixed(2), inserted: second.run.inserted, updated: second.run.updated, unchanged: second.run.unchanged, rowsWritten: written, peakRssMb: second.peakRssMb, target: '≥ 3× faster, only snapshots written' },
  s2: { idleP50Ms: +idle.p50.toFixed(2), idleRequests: idle.n, duringSyncP50Ms: +busy.p50.toFixed(2), duringRequests: busy.n, ratio: +(busy.p50 / idle.p50).toFixed(2), target: '≤ 1.5×' },
};
console.log(JSON.stringify(report, null, 2));
await fake.close();
await db.close();
process.exit(0);
