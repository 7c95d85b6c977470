import { fork, spawn, type ChildProcess } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import { isDeepStrictEqual, parseArgs } from 'node:util';
import pg from 'pg';
import { createKey, createWorkspace, setCredits } from '../../src/auth/admin.js';
import { connect } from '../../src/db/client.js';
import { migrate } from '../../src/db/migrate.js';
import { seedMarket } from '../../src/data/market.js';

// `npm run bench [-- --scale small --duration 5 --rounds 2 --connections 10]`: the project's REST and
// GraphQL surfaces against a hand-written floor on one PostgreSQL, alternating, with ratios to the floor.
// BENCH_DATABASE_URL (default the local server's mi_bench_<scale> database) is created and seeded once.

const { values: opts } = parseArgs({
  options: {
    scale: { type: 'string', default: 'small' },
    duration: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '2' },
    connections: { type: 'string', default: '10' },
    only: { type: 'string' },
  },
});
const scale = opts.scale as 'tiny' | 'small';
const root = path.resolve(import.meta.dirname, '../..');
const probe = path.join(import.meta.dirname, 'probe.cjs');
const databaseUrl = process.env.BENCH_DATABASE_URL ?? `postgresql://postgres@127.0.0.1:5432/mi_bench_${scale}`;

type Target = { name: string; server: 'floor' | 'rest' | 'unmetered'; method?: 'GET' | 'POST'; path: string; body?: string };
type Scenario = { id: string; title: string; targets: Target[]; compare?: 'throughput' | 'p50' };
type Result = { scenario: string; target: string; rps: number; p50: number; p99: number; statements: number; peakRssMb: number; non2xx: number };

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function prepareDatabase() {
  const url = new URL(databaseUrl);
  const admin = new pg.Client({ connectionString: Object.assign(new URL(databaseUrl), { pathname: '/postgres' }).toString() });
  await admin.connect();
  const name = url.pathname.slice(1);
  const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
  if (!exists.rowCount) await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const db = connect(databaseUrl);
  await migrate(db.pool);
  if (!(await db.prisma.ad.findFirst({ select: { id: true } }))) {
    console.log(`seeding ${name} at scale ${scale}…`);
    const { ms } = await seedMarket(db.pool, { scale });
    console.log(`seeded in ${(ms / 1000).toFixed(1)} s`);
  }
  const slug = `bench-${Date.now()}`;
  await createWorkspace(db.prisma, { slug, name: 'Bench' });
  await setCredits(db.prisma, { workspace: slug, recurringLimit: 2_000_000_000, recurringUsed: 0, topup: 0 });
  const { apiKey } = await createKey(db.prisma, { workspace: slug, name: 'bench' });
  const [popular] = await db.prisma.$queryRaw<{ id: string }[]>`
    SELECT a."id" FROM "ads" a JOIN "ad_transcripts" t ON t."adId" = a."id"
    WHERE a."isGroupLead" AND a."landingPageDomain" IS NOT NULL ORDER BY a."reach" DESC LIMIT 1`;
  const [domain] = await db.prisma.$queryRaw<{ domain: string }[]>`
    SELECT "landingPageDomain" AS domain FROM "ads" WHERE "landingPageDomain" IS NOT NULL GROUP BY 1 ORDER BY count(*) DESC LIMIT 1`;
  await db.close();
  return { apiKey, adId: popular.id, domain: domain.domain };
}

type Server = { port: number; child: ChildProcess; stats(reset?: boolean): Promise<{ statements: number; peakRss: number }> };

async function startServer(kind: Target['server']): Promise<Server> {
  const port = await freePort();
  const env = {
    ...process.env, DATABASE_URL: databaseUrl, PORT: String(port), HOST: '127.0.0.1', DEMO_DATA: 'false', METERING: kind === 'unmetered' ? 'off' : 'on',
    RATE_LIMIT_BURST: '1000000000', RATE_LIMIT_PER_SECOND: '1000000000', LOG_LEVEL: 'error', NODE_ENV: 'production',
  };
  const script = kind === 'floor' ? path.join(import.meta.dirname, 'floor.ts') : path.join(root, 'src/main.ts');
  const child = fork(script, [], { cwd: root, env, execArgv: ['--require', probe, '--import', 'tsx'], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/v1/health`);
      if (res.status < 500) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${kind} server did not start`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  type Stats = { statements: number; peakRss: number };
  const stats = (reset = false) =>
    new Promise<Stats>((resolve) => {
      const onMessage = (message: unknown) => {
        if (typeof message !== 'object' || message === null || !('statements' in message)) return; // e.g. the floor's { ready }
        child.off('message', onMessage);
        resolve(message as Stats);
      };
      child.on('message', onMessage);
      child.send('stats');
      if (reset) child.send('reset');
    });
  return { port, child, stats };
}

type Cannon = { requests: { average: number; total: number }; latency: { p50: number; p99: number }; non2xx: number; errors: number; '2xx': number };

function autocannon(url: string, target: Target, apiKey: string): Promise<Cannon> {
  const args = [path.join(root, 'node_modules/autocannon/autocannon.js'), '--json', '-c', opts.connections!, '-d', opts.duration!,
    '-H', `authorization=Bearer ${apiKey}`, '-H', 'content-type=application/json'];
  if (target.method === 'POST') args.push('-m', 'POST', '-b', target.body ?? '{}');
  args.push(url);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(out) as Cannon) : reject(new Error(`autocannon exited ${code}`))));
  });
}

const withoutRequestId = (body: Record<string, unknown>) => {
  const { requestId: _ignored, ...rest } = body;
  return rest;
};

async function main() {
  const { apiKey, adId, domain } = await prepareDatabase();
  const gql = (query: string) => JSON.stringify({ query });
  const SUMMARY = `id collationId platform status createdAt firstSeenAt lastSeenAt daysRunning media { type thumbnailUrl mediaUrl }
    advertiser { id name logoUrl facebookPageId liveAdsCount reach30d totalReach countriesCount facebookLikes instagramFollowers }
    content { title body transcript callToAction landingPageUrl landingPageDomain ctaDescription ctaLinkDescription }
    metrics { reach aggregatedReach estimatedSpend duplicates reachDelta1d reachDelta7d reachDelta30d }
    audience { targetedCountries mainCountry gender ageMin ageMax } rank { positionInPage currentRank rankDelta improvementPct }
    flags { isEuAd isLowReach isMediaChanged hasPartnerBadge }`;
  const DETAIL = `${SUMMARY} transcript { language languageConfidence segments { start end text } fullText }
    creativeAnalysis { hook { text source sourceDescription isFallback } } links { adLibraryUrl landingPageUrl }
    shops { shopId domain name isPrimary traffic categories }
    pageAnalytics { impressionsHistory { date totalImpressions } facebookLikesHistory { date value } instagramFollowersHistory { date value } }`;
  const list = '/v1/ads?search=summer&limit=25';
  const all: Scenario[] = [
    { id: 'S1a', title: 'GET /v1/ads/{id} (auth + ad detail)', targets: [{ name: 'floor', server: 'floor', path: `/v1/ads/${adId}` }, { name: 'REST', server: 'rest', path: `/v1/ads/${adId}` }] },
    { id: 'S1b', title: 'GET /v1/me', targets: [{ name: 'floor', server: 'floor', path: '/v1/me' }, { name: 'REST', server: 'rest', path: '/v1/me' }] },
    {
      id: 'S2', title: 'list page: ads search, 25 rows with advertiser',
      targets: [
        { name: 'floor', server: 'floor', path: list },
        { name: 'REST', server: 'rest', path: list },
        { name: 'GraphQL', server: 'rest', method: 'POST', path: '/graphql', body: gql(`{ ads(search: "summer", limit: 25) { data { ${SUMMARY} } pagination { page limit total totalPages } } }`) },
      ],
    },
    { id: 'S3', title: 'reach history of a popular ad', compare: 'p50', targets: [{ name: 'floor', server: 'floor', path: `/v1/ads/${adId}/reach-history` }, { name: 'REST', server: 'rest', path: `/v1/ads/${adId}/reach-history` }] },
    {
      id: 'S4', title: 'the same ad detail on REST and GraphQL',
      targets: [
        { name: 'floor', server: 'floor', path: `/v1/ads/${adId}` },
        { name: 'REST', server: 'rest', path: `/v1/ads/${adId}` },
        { name: 'GraphQL', server: 'rest', method: 'POST', path: '/graphql', body: gql(`{ ad(adId: "${adId}") { ${DETAIL} } }`) },
      ],
    },
    {
      id: 'S5', title: 'metered list (landing pages, 25 rows) vs the same with METERING=off',
      targets: [
        { name: 'unmetered', server: 'unmetered', path: `/v1/ads/facets/landing-pages?scopeDomain=${domain}&limit=25` },
        { name: 'metered', server: 'rest', path: `/v1/ads/facets/landing-pages?scopeDomain=${domain}&limit=25` },
      ],
    },
  ];
  const scenarios = all.filter((scenario) => !opts.only || opts.only.split(',').includes(scenario.id));

  const servers: Record<string, Server> = {};
  for (const kind of ['floor', 'rest', 'unmetered'] as const) servers[kind] = await startServer(kind);
  try {
    // The project must answer what the floor answers, or the comparison means nothing.
    for (const scenario of scenarios) {
      const floor = scenario.targets.find((target) => target.server === 'floor');
      const rest = scenario.targets.find((target) => target.name === 'REST');
      if (!floor || !rest) continue;
      const get = async (target: Target) =>
        withoutRequestId(await (await fetch(`http://127.0.0.1:${servers[target.server].port}${target.path}`, { headers: { authorization: `Bearer ${apiKey}` } })).json());
      const same = isDeepStrictEqual(await get(floor), await get(rest));
      console.log(`${scenario.id}: floor and REST answer ${same ? 'the same JSON' : 'DIFFERENT JSON (ratios are not comparable)'}`);
    }

    const results: Result[] = [];
    for (const scenario of scenarios) {
      const runs = new Map<string, Result[]>();
      for (let round = 0; round < Number(opts.rounds); round++) {
        for (const target of scenario.targets) {
          const server = servers[target.server];
          await server.stats(true);
          const cannon = await autocannon(`http://127.0.0.1:${server.port}${target.path}`, target, apiKey);
          const { statements, peakRss } = await server.stats();
          const requests = Math.max(1, cannon['2xx'] + cannon.non2xx);
          const run = { scenario: scenario.id, target: target.name, rps: cannon.requests.average, p50: cannon.latency.p50, p99: cannon.latency.p99, statements: statements / requests, peakRssMb: peakRss / 1_048_576, non2xx: cannon.non2xx };
          runs.set(target.name, [...(runs.get(target.name) ?? []), run]);
        }
      }
      for (const [, list] of runs) {
        const median = (key: keyof Result) => [...list].map((r) => r[key] as number).sort((a, b) => a - b)[Math.floor(list.length / 2)];
        results.push({ ...list[0], rps: median('rps'), p50: median('p50'), p99: median('p99'), statements: median('statements'), peakRssMb: Math.max(...list.map((r) => r.peakRssMb)), non2xx: list.reduce((s, r) => s + r.non2xx, 0) });
      }
    }
    const rows = results.map((r) => {
      const scenario = scenarios.find((s) => s.id === r.scenario)!;
      const base = results.find((b) => b.scenario === r.scenario && b.target === scenario.targets[0].name)!;
      const ratio = scenario.compare === 'p50' ? r.p50 / Math.max(base.p50, 0.001) : r.rps / base.rps;
      return { ...r, ratio };
    });
    const table = [
      `| scenario | target | req/s | p50 ms | p99 ms | SQL/req | peak RSS MB | ratio | non-2xx |`,
      `|---|---|---|---|---|---|---|---|---|`,
      ...rows.map((r) => `| ${r.scenario} | ${r.target} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.statements.toFixed(2)} | ${r.peakRssMb.toFixed(0)} | ${r.ratio.toFixed(2)}${scenarios.find((s) => s.id === r.scenario)?.compare === 'p50' ? ' (p50)' : ''} | ${r.non2xx} |`),
    ].join('\n');
    const legend = scenarios.map((s) => `- ${s.id}: ${s.title}; ratio to ${s.targets[0].name}`).join('\n');
    const header = `Bench at scale ${scale}, ${opts.connections} connections, ${opts.duration} s x ${opts.rounds} rounds (medians), node ${process.version}`;
    console.log(`\n${header}\n\n${table}\n\n${legend}\n`);
    const dir = path.join(import.meta.dirname, 'results');
    await mkdir(dir, { recursive: true });
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    await writeFile(path.join(dir, `${stamp}.json`), JSON.stringify({ scale, options: opts, results: rows }, null, 2));
    await writeFile(path.join(dir, `${stamp}.md`), `${header}\n\n${table}\n\n${legend}\n`);
  } finally {
    await Promise.all(Object.values(servers).map((server) => new Promise((resolve) => server.child.once('exit', resolve).kill('SIGTERM'))));
  }
}

await main();
