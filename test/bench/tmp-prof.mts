// scratch: profile one route under load
import { spawn } from 'node:child_process';
import { createKey, createWorkspace, setCredits } from '../../src/auth/admin.js';
import { connect } from '../../src/db/client.js';
const url = 'postgresql://postgres@127.0.0.1:5432/mi_bench_small';
const db = connect(url);
const slug = `prof-${Date.now()}`;
await createWorkspace(db.prisma, { slug, name: 'Prof' });
await setCredits(db.prisma, { workspace: slug, recurringLimit: 2_000_000_000, recurringUsed: 0, topup: 0 });
const { apiKey } = await createKey(db.prisma, { workspace: slug, name: 'p' });
const [tracked] = await db.prisma.$queryRaw<{ id: string }[]>`SELECT a."id" FROM "ads" a WHERE EXISTS (SELECT 1 FROM "ad_reach_days" d WHERE d."adId" = a."id") ORDER BY a."reach" DESC LIMIT 1`;
const [domain] = await db.prisma.$queryRaw<{ domain: string }[]>`SELECT "landingPageDomain" AS domain FROM "ads" WHERE "landingPageDomain" IS NOT NULL GROUP BY 1 ORDER BY count(*) DESC LIMIT 1`;
await db.close();
const paths: Record<string, string> = { S3: `/v1/ads/${tracked.id}/reach-history`, S1b: '/v1/me', S5: `/v1/ads/facets/landing-pages?scopeDomain=${domain.domain}&limit=25` };
const route = paths[process.argv[2] ?? 'S3'];
const metering = process.argv[3] ?? 'on';
const server = spawn('node', ['--cpu-prof', '--cpu-prof-dir=/tmp/prof', '--max-old-space-size=256', 'dist/src/main.js'], {
  env: { ...process.env, DATABASE_URL: url, PORT: '4555', HOST: '127.0.0.1', DEMO_DATA: 'false', METERING: metering, RATE_LIMIT_BURST: '1000000000', RATE_LIMIT_PER_SECOND: '1000000000', LOG_LEVEL: 'error', NODE_ENV: 'production' },
  stdio: 'inherit',
});
for (;;) { try { await fetch('http://127.0.0.1:4555/v1/health'); break; } catch { await new Promise((r) => setTimeout(r, 200)); } }
const run = (d: string) => new Promise<string>((resolve) => { let out = ''; const c = spawn('node', ['node_modules/autocannon/autocannon.js', '--json', '-c', '10', '-d', d, '-H', `authorization=Bearer ${apiKey}`, `http://127.0.0.1:4555${route}`]); c.stdout.on('data', (x) => (out += x)); c.on('close', () => resolve(out)); });
await run('2');
const r = JSON.parse(await run('10'));
console.log(route, 'req/s', r.requests.average, 'p50', r.latency.p50);
server.kill('SIGINT');
await new Promise((r) => server.on('exit', r));
