import { execFile, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { createKey, createWorkspace, setCredits } from '../../src/auth/admin.js';
import { connect } from '../../src/db/client.js';
import { migrate } from '../../src/db/migrate.js';
import { seedMarket } from '../../src/data/market.js';
import type { MarketScale } from '../../src/data/market/generate.js';
import { recreateDatabase } from './database.js';

// `npm run bench:exports [-- --scale small|medium|large --seconds 8 --formats ndjson,parquet]`: the issue #37 targets of exports, on PostgreSQL.
// A market of the given scale (large: 1,000,000 ads) is seeded into a fresh database; a server (as `npm start` runs
// it: built, workers on) exports every ad of POST /v1/ads/query (newest first) as NDJSON, then as Parquet, each while one connection
// measures the API's S2 (GET /v1/ads?search=serum&limit=20). Reported: rows/s (rows ÷ the job's startedAt..finishedAt),
// the server's peak RSS (VmHWM of its process) and S2's p50 idle and during the export.
// Targets: ≥ 50,000 rows/s, server RSS ≤ 300 MB, S2 p50 during the export ≤ 1.5× idle.
// Database: BENCH_EXPORTS_DATABASE_URL (default postgresql://postgres@127.0.0.1:5432/mi_bench_exports), recreated
// unless --reuse (then the market already there is used).

const { values: opts } = parseArgs({
  options: { scale: { type: 'string', default: 'small' }, seconds: { type: 'string', default: '6' }, reuse: { type: 'boolean', default: false }, formats: { type: 'string', default: 'ndjson,parquet' } },
});
const root = path.resolve(import.meta.dirname, '../..');
const url = process.env.BENCH_EXPORTS_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/mi_bench_exports';

const recreate = () => recreateDatabase(url);

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function s2(base: string, key: string, seconds: number, until?: () => boolean): Promise<{ p50: number; n: number }> {
  const times: number[] = [];
  const end = Date.now() + seconds * 1000;
  while (until ? !until() : Date.now() < end) {
    const started = performance.now();
    const response = await fetch(`${base}/v1/ads?search=serum&limit=20`, { headers: { authorization: `Bearer ${key}` } });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`S2 answered ${response.status}`);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { p50: times[Math.floor(times.length / 2)] ?? NaN, n: times.length };
}

const kb = (pid: number, field: 'VmRSS' | 'VmHWM') => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);

if (!opts.reuse) {
  await recreate();
  const db = connect(url, { max: 4 });
  await migrate(db.pool);
  const seeded = await seedMarket(db.pool, { scale: opts.scale as MarketScale });
  console.error(`seeded ${opts.scale} in ${(seeded.ms / 1000).toFixed(0)} s`);
  await db.close();
}
const db = connect(url, { max: 2 });
await migrate(db.pool);
const slug = `bench-${Date.now()}`;
await createWorkspace(db.prisma, { slug, name: 'Bench' });
await setCredits(db.prisma, { workspace: slug, recurringLimit: 2_000_000_000, recurringUsed: 0, topup: 0 });
const { apiKey } = await createKey(db.prisma, { workspace: slug, name: 'bench' });
const exportDir = await mkdtemp(path.join(tmpdir(), 'mi-bench-exports-'));
const port = await freePort();
// The server as `npm start` runs it: the built code, its heap cap and malloc arenas.
await promisify(execFile)('npm', ['run', '-s', 'build'], { cwd: root });
const server = spawn('node', ['--max-old-space-size=256', '--max-semi-space-size=8', path.join(root, 'dist/src/main.js')], {
  env: { ...process.env, MALLOC_ARENA_MAX: '2', DATABASE_URL: url, PORT: String(port), HOST: '127.0.0.1', DEMO_DATA: 'false', EXPORT_DIR: exportDir, LOG_LEVEL: 'warn', RATE_LIMIT_PER_SECOND: '100000', RATE_LIMIT_BURST: '100000', RATE_LIMIT_WRITE_PER_SECOND: '1000', RATE_LIMIT_WRITE_BURST: '1000' },
  cwd: root,
  stdio: ['ignore', 'ignore', 'inherit'],
});
const base = `http://127.0.0.1:${port}`;
for (let i = 0; ; i++) {
  if (await fetch(`${base}/v1/health`).then((r) => r.ok, () => false)) break;
  if (i > 1200) throw new Error('the server did not start');
  await new Promise((resolve) => setTimeout(resolve, 100));
}
const headers = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };
await s2(base, apiKey, 2);
const idle = await s2(base, apiKey, Number(opts.seconds));
// The server's RSS before any export (the heap warmed by S2): what an export adds is the peak less this.
const idleRssMb = Math.round(kb(server.pid!, 'VmRSS') / 1024);
const results: Record<string, unknown> = {};
for (const format of opts.formats.split(',')) {
  const created = await fetch(`${base}/v1/exports`, { method: 'POST', headers, body: JSON.stringify({ method: 'POST', path: '/v1/ads/query', params: { sortBy: 'newest' }, format }) });
  const body = (await created.json()) as { data: { id: string } };
  if (created.status !== 201) throw new Error(`export refused: ${JSON.stringify(body)}`);
  let state: Record<string, any> = {};
  let done = false;
  let peakRss = 0;
  const watcher = (async () => {
    while (!done) {
      state = ((await (await fetch(`${base}/v1/exports/${body.data.id}`, { headers })).json()) as { data: Record<string, any> }).data;
      peakRss = Math.max(peakRss, kb(server.pid!, 'VmRSS'));
      if (!['queued', 'running'].includes(state.state)) done = true;
      else await new Promise((resolve) => setTimeout(resolve, 250));
    }
  })();
  const loadBefore = loadavg()[0]!;
  const during = await s2(base, apiKey, 0, () => done);
  await watcher;
  const loadAfter = loadavg()[0]!;
  const seconds = (Date.parse(state.finishedAt) - Date.parse(state.startedAt)) / 1000;
  results[format] = {
    state: state.state, rows: state.rowsWritten, seconds: +seconds.toFixed(1), rowsPerSecond: Math.round(state.rowsWritten / seconds),
    fileMb: +(state.fileBytes / 1e6).toFixed(1), peakServerRssMb: Math.round(peakRss / 1024), s2DuringP50Ms: +during.p50.toFixed(2), s2DuringRequests: during.n,
    s2Ratio: +(during.p50 / idle.p50).toFixed(2), loadAverage: `${loadBefore.toFixed(1)} → ${loadAfter.toFixed(1)}`,
  };
}
const report = {
  scale: opts.scale,
  s2IdleP50Ms: +idle.p50.toFixed(2),
  serverIdleRssMb: idleRssMb,
  ...results,
  serverPeakRssMb: Math.round(kb(server.pid!, 'VmHWM') / 1024),
  targets: '≥ 50,000 rows/s, server RSS ≤ 300 MB, S2 p50 during the export ≤ 1.5× idle',
};
console.log(JSON.stringify(report, null, 2));
server.kill('SIGTERM');
await rm(exportDir, { recursive: true, force: true });
await db.close();
process.exit(0);
