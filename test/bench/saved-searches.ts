import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs, promisify } from 'node:util';
import pg from 'pg';
import { createKey, createWorkspace } from '../../src/auth/admin.js';
import { connect } from '../../src/db/client.js';
import { acrossWorkspaces } from '../../src/db/workspace-check.js';
import { migrate } from '../../src/db/migrate.js';
import { importData } from '../../src/data/import/index.js';
import { metaAd, type MetaAdRecord } from '../sources/fakes/meta.js';
import { createTestApp } from '../support/app.js';

// `npx tsx test/bench/saved-searches.ts [--market 40000 --ads 20000 --searches 10000 --repeat 3]`: the issue #36 target
// "10,000 saved searches in the database add at most 20% to an import's time", on PostgreSQL.
//
// The market: `--market` Meta ads (20 a page, each page a brand of its own) whose copy is drawn from a 20,000-word
// vocabulary with Zipf frequencies (a few words in most ads, most words in few), imported on day 1. The searches: `--searches` saved
// searches over 1,000 workspaces, made through POST /v1/saved-searches (each distinct params once, with its baseline;
// the workspaces that share params get a copy of the search and of its rows, as the route would have made them):
// keyword searches over the ads' copy (some with countries or a status), tracked pages, brand names, landing-page
// domains, advertisers by brand, a few narrow searches without any word (a reach band), and searches of lists a Meta
// import does not touch (shops, products, TikTok, Google Ads). Params are drawn with Zipf popularity, so many searches
// share theirs (a tenth of the workspaces at most).
// The measure: a Meta import of `--ads` new ads of the market's pages (files of 1,000, one transaction each) with the events' dispatcher
// running in the same process (a child process per run, so each starts cold), on a copy of the database without
// searches and on one with them, alternated `--repeat` times: the import's wall time, and the time until every event
// it caused (and every search.matched those caused) is dispatched.
// Database: BENCH_SAVED_SEARCHES_DATABASE_URL (default postgresql://postgres@127.0.0.1:5432/mi_bench_ss), recreated.

const { values: opts } = parseArgs({
  options: {
    market: { type: 'string', default: '40000' },
    ads: { type: 'string', default: '20000' },
    searches: { type: 'string', default: '10000' },
    repeat: { type: 'string', default: '3' },
    /** Keep the market and searches databases at the end, and use them when they exist (iterating on the consumer). */
    keep: { type: 'boolean', default: false },
    /** Write a CPU profile of each run with the searches and its events dispatched alone into this directory. */
    'cpu-prof': { type: 'string' },
    child: { type: 'string' },
  },
});
const url = process.env.BENCH_SAVED_SEARCHES_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/mi_bench_ss';
const DAY_1 = new Date('2026-11-27T10:00:00Z');
const DAY_2 = new Date('2026-11-28T10:00:00Z');

const dbUrl = (name: string) => {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
};
const baseName = new URL(url).pathname.slice(1);

async function admin<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: dbUrl('postgres') });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

const recreate = (name: string, template?: string) =>
  admin(async (client) => {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    // A template must have no session (an autovacuum worker counts).
    if (template) await client.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`, [template]);
    await client.query(`CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ''}`);
  });

// ---------------------------------------------------------------------------------------------------------------
// The child: one measured import with the dispatcher in its process.

if (opts.child) {
  const { dispatchOnce, eventConsumers, startEvents } = await import('../../src/events/index.js');
  const { marketLists } = await import('../../src/schema/saved-searches/service.js');
  const db = connect(opts.child, { max: 8 });
  await marketLists(); // the schema, built once per process like any server's
  const undispatched = async () => Number((await db.pool.query<{ n: string }>(`SELECT count(*) AS n FROM "market_events" WHERE "seq" IS NULL`)).rows[0].n);
  let out: Record<string, unknown>;
  if (process.env.BENCH_AFTER === '1') {
    // The import alone, then its events dispatched with nothing else running: what the consumers cost by themselves.
    await importData(db.pool, 'meta-ads', [process.env.BENCH_IMPORT_DIR!], { asOf: DAY_2 });
    const started = performance.now();
    while ((await dispatchOnce(db.pool, eventConsumers())) > 0);
    out = { dispatched: performance.now() - started };
  } else {
    const events = startEvents(db.pool, { logger: { warn: (object, message) => console.error(message, object) } });
    const started = performance.now();
    await importData(db.pool, 'meta-ads', [process.env.BENCH_IMPORT_DIR!], { asOf: DAY_2 });
    const imported = performance.now() - started;
    // Drained: nothing waits, and a drain dispatches nothing more (the searches' own events included).
    for (;;) {
      if ((await undispatched()) === 0 && (await events.drain()) === 0 && (await undispatched()) === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    out = { imported, drained: performance.now() - started };
    await events.stop();
  }
  const { rows } = await db.pool.query<{ type: string; n: string }>(`SELECT "type", count(*) AS n FROM "market_events" GROUP BY 1 ORDER BY 1`);
  await db.close();
  process.stdout.write(`${JSON.stringify({ ...out, events: Object.fromEntries(rows.map((r) => [r.type, Number(r.n)])) })}\n`);
  process.exit(0);
}

// ---------------------------------------------------------------------------------------------------------------
// The market's text and the searches' params, deterministic.

let seed = 20261129;
const random = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const SYLLABLES = ['ka', 'lo', 'mi', 're', 'su', 'ta', 'no', 'vi', 'be', 'da', 'fe', 'go', 'hu', 'ji', 'pa', 'ro', 'se', 'tu', 'za', 'ne', 'li', 'mo', 'ri', 'po'];
/** Distinct words of `n` syllables and more, deterministic. */
function words(count: number, offset: number): string[] {
  const out = new Set<string>();
  for (let i = offset; out.size < count; i++) {
    let word = '';
    for (let k = i; ; k = Math.floor(k / SYLLABLES.length) - 1) {
      word += SYLLABLES[k % SYLLABLES.length];
      if (k < SYLLABLES.length) break;
    }
    if (word.length >= 4) out.add(word);
  }
  return [...out];
}
const VOCABULARY = words(20_000, 0);
/** Zipf over ranks 0..n-1 with exponent s (inverse CDF over precomputed weights). */
function zipf(n: number, s: number) {
  const cdf: number[] = [];
  let total = 0;
  for (let r = 1; r <= n; r++) cdf.push((total += 1 / r ** s));
  return () => {
    const x = random() * total;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cdf[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}
const wordRank = zipf(VOCABULARY.length, 1.0);
const COUNTRY_CODES = ['FR', 'DE', 'IT', 'ES', 'NL', 'BE', 'PL', 'SE'];
const PAGE_COUNT = Math.ceil(Number(opts.market) / 20);
/** Page p: a brand of its own (one word, capitalised, then Studio, Home, …), its domain from it. */
const BRAND_WORDS = words(PAGE_COUNT, 600_000);
const KINDS = ['Studio', 'Home', 'Skin', 'Outdoor', 'Kitchen', 'Atelier', 'Sport', 'Pets'];
function page(p: number) {
  const word = BRAND_WORDS[p];
  return { pageId: String(700_000_000_000 + p * 13), pageName: `${word[0].toUpperCase()}${word.slice(1)} ${KINDS[p % KINDS.length]}`, domain: `${word}.com` };
}

/**
 * Ad i: metaAd's dates, reach and countries, on page floor(i / 20) for the market's ads and on an existing page for the
 * later ones (brands launch new ads, 10 at a time), with copy of 8 to 14 words from the vocabulary (a creative per 4 ads).
 */
function marketAd(i: number): MetaAdRecord {
  // A brand launches its new ads together: 10 consecutive ads on one page.
  const p = i < Number(opts.market) ? Math.floor(i / 20) : (Math.floor(i / 10) * 7919) % PAGE_COUNT;
  const { pageId, pageName, domain } = page(p);
  const creative = Math.floor(i / 4);
  const saved = seed;
  seed = creative * 2654435761;
  const copy = Array.from({ length: 8 + Math.floor(random() * 7) }, () => VOCABULARY[wordRank()]);
  seed = saved;
  return metaAd(i, {
    page_id: pageId,
    page_name: pageName,
    ad_creative_bodies: [`${pageName}: ${copy.join(' ')}.`],
    ad_creative_link_captions: [domain],
    ad_creative_link_titles: [copy.slice(0, 3).join(' ')],
    ad_creative_link_descriptions: [`${copy.slice(3, 6).join(' ')} at ${pageName}`],
    beneficiary_payers: [{ payer: `${pageName} SAS`, beneficiary: pageName, current: true }],
  });
}

async function writeFiles(dir: string, from: number, count: number) {
  await mkdir(dir, { recursive: true });
  for (let start = from; start < from + count; start += 1000) {
    const ads = Array.from({ length: Math.min(1000, from + count - start) }, (_, k) => marketAd(start + k));
    await writeFile(path.join(dir, `ads-${String(start).padStart(8, '0')}.json`), JSON.stringify({ data: ads }));
  }
}

/** A search's params, drawn from the kinds a competitor-tracking workspace saves. */
function drawParams(): { method: 'GET' | 'POST'; path: string; params: Record<string, unknown> } {
  const x = random();
  // A product or a theme: a word past the commonest hundred (a word in a tenth of the market is no alert).
  const word = () => VOCABULARY[100 + Math.floor(random() * (VOCABULARY.length - 100))];
  const brand = () => page(Math.floor(random() * PAGE_COUNT));
  if (x < 0.25) {
    const params: Record<string, unknown> = { search: [word()] };
    if (random() < 0.3) (params.search as string[]).push(word());
    if (random() < 0.4) params.adCountries = { include: [COUNTRY_CODES[Math.floor(random() * COUNTRY_CODES.length)]] };
    if (random() < 0.3) params.status = 'active';
    return { method: 'POST', path: '/v1/ads/query', params };
  }
  if (x < 0.45) return { method: 'GET', path: '/v1/ads', params: random() < 0.5 ? { search: `${word()} ${word()}` } : { search: word(), status: 'active' } };
  if (x < 0.63) {
    const params: Record<string, unknown> = { trackedPages: Array.from({ length: 1 + Math.floor(random() * 3) }, () => brand().pageId) };
    if (random() < 0.3) params.status = 'active';
    return { method: 'POST', path: '/v1/ads/query', params };
  }
  if (x < 0.71) return { method: 'GET', path: '/v1/ads', params: { search: brand().pageName.split(' ')[0], searchType: 'brand' } };
  if (x < 0.76) return { method: 'POST', path: '/v1/ads/query', params: { search: [brand().domain], searchType: 'domain' } };
  if (x < 0.86) return random() < 0.5
    ? { method: 'GET', path: '/v1/advertisers', params: { search: [brand().pageName.split(' ')[0]] } }
    : { method: 'POST', path: '/v1/advertisers/query', params: { search: [brand().pageName.split(' ')[0]], minActiveAds: 1 } };
  if (x < 0.9) {
    // No word: a narrow reach band (run on every batch's new ads).
    const low = 1000 + Math.floor(random() * 190) * 1000;
    return { method: 'POST', path: '/v1/ads/query', params: { minReach: low, maxReach: low + 500, sortBy: 'reach' } };
  }
  const other = Math.floor(random() * 4);
  if (other === 0) return { method: 'POST', path: '/v1/shops/query', params: { search: word() } };
  if (other === 1) return { method: 'GET', path: '/v1/products', params: { search: word() } };
  if (other === 2) return { method: 'GET', path: '/v1/tiktok/library', params: { search: word() } };
  return { method: 'POST', path: '/v1/google-ads/query', params: { search: [word()] } };
}

// ---------------------------------------------------------------------------------------------------------------
// The parent: the market, the searches, then the runs.

const MARKET = Number(opts.market);
const ADS = Number(opts.ads);
const SEARCHES = Number(opts.searches);
const REPEAT = Number(opts.repeat);
const WORKSPACES = Math.max(1, Math.min(1000, Math.ceil(SEARCHES / 10)));
const SHARED_MAX = Math.max(1, Math.round(WORKSPACES / 10));
const scratch = await mkdtemp(path.join(tmpdir(), 'mi-bench-ss-'));
const marketName = `${baseName}_market`;
const searchesName = `${baseName}_searches`;

const exists = (name: string) => admin(async (client) => (await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 1);
const reuse = opts.keep && (await exists(marketName)) && (await exists(searchesName));

let t0 = performance.now();
if (!reuse) await recreate(marketName);
if (!reuse) {
  const db = connect(dbUrl(marketName), { max: 3 });
  await migrate(db.pool);
  await writeFiles(path.join(scratch, 'market'), 0, MARKET);
  await importData(db.pool, 'meta-ads', [path.join(scratch, 'market')], { asOf: DAY_1 });
  // Day 1's events are old news: dispatched with nothing to match (no search exists yet).
  await db.pool.query(`UPDATE "market_events" SET "seq" = "id" WHERE "seq" IS NULL`);
  await db.pool.query('VACUUM ANALYZE');
  await db.close();
}
console.error(`market: ${MARKET} ads in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

t0 = performance.now();
if (!reuse) await recreate(searchesName, marketName);
const made = { distinct: 0, copies: 0, refused: 0 };
if (!reuse) {
  const db = connect(dbUrl(searchesName), { max: 4 });
  const t = await createTestApp(undefined, { database: { ...db, url: dbUrl(searchesName), kind: 'postgres', dispose: () => db.close() } });
  const keys: { apiKey: string; workspaceId: string }[] = [];
  for (let w = 0; w < WORKSPACES; w++) {
    const slug = `bench-${w}`;
    const { workspaceId } = await createWorkspace(db.prisma, { slug, name: `Bench ${w}`, credits: 1_000_000 });
    keys.push({ apiKey: (await createKey(db.prisma, { workspace: slug, name: 'bench', access: 'full_access' })).apiKey, workspaceId });
  }
  // A pool of distinct params, drawn with Zipf popularity: the popular ones are saved by many workspaces (at most
  // SHARED_MAX of them: a search a tenth of all workspaces saved word for word would be a template, not a search).
  const pool: { id: string | null; saved: number; spec: ReturnType<typeof drawParams> }[] = [];
  const popularity = zipf(Math.ceil(SEARCHES * 0.45), 0.9);
  for (let n = 0; n < SEARCHES; n++) {
    let pick = popularity();
    while (pool[pick]?.saved >= SHARED_MAX) pick = popularity();
    while (pool.length <= pick) pool.push({ id: null, saved: 0, spec: drawParams() });
    const entry = pool[pick];
    entry.saved++;
    const owner = keys[n % keys.length];
    if (entry.id === null) {
      const res = await t.rest('POST', '/saved-searches', { key: owner.apiKey, body: { name: `search ${n}`, ...entry.spec, notifyLeft: random() < 0.2 } });
      if (res.status !== 201) {
        made.refused++;
        entry.saved--;
        entry.spec = drawParams();
        n--;
        continue;
      }
      entry.id = res.body.data.id;
      made.distinct++;
    } else {
      await db.pool.query(
        `${acrossWorkspaces('the bench copies a search to another workspace')} WITH s AS (INSERT INTO "saved_searches" ("id", "workspaceId", "name", "method", "path", "params", "notifyLeft")
           SELECT gen_random_uuid(), $2::uuid, $3, o."method", o."path", o."params", o."notifyLeft" FROM "saved_searches" o WHERE o."id" = $1::uuid RETURNING "id")
         INSERT INTO "saved_search_matches" ("savedSearchId", "rowId") SELECT s."id", m."rowId" FROM s, "saved_search_matches" m WHERE m."savedSearchId" = $1::uuid`,
        [entry.id, owner.workspaceId, `search ${n}`],
      );
      made.copies++;
    }
    if (n % 1000 === 999) console.error(`  ${n + 1} searches (${made.distinct} distinct, ${made.refused} refused as too broad)`);
  }
  await t.close();
  await db.pool.query('VACUUM ANALYZE').catch(() => undefined);
}
const matches = await (async () => {
  const db = connect(dbUrl(searchesName), { max: 1 });
  const { rows } = await db.pool.query<{ n: string; s: string }>(
    `${acrossWorkspaces('the bench counts every workspace\'s searches')} SELECT count(*) AS n, (SELECT count(*) FROM "saved_searches") AS s FROM "saved_search_matches"`,
  );
  await db.close();
  return rows[0];
})();
console.error(`searches: ${matches.s} (${made.distinct} distinct, ${made.copies} sharing params, ${made.refused} drawn too broad and redrawn), ${matches.n} rows held, in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

await writeFiles(path.join(scratch, 'import'), MARKET, ADS);
const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');
type Result = { imported: number; drained: number; dispatched: number; events: Record<string, number> };
async function measure(template: string, after = false): Promise<Result> {
  const name = `${baseName}_run`;
  await recreate(name, template);
  const profile = after && template === searchesName && opts['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${opts['cpu-prof']}`] : [];
  const { stdout, stderr } = await run('node', [...profile, '--import', 'tsx', path.join(root, 'test/bench/saved-searches.ts'), '--child', dbUrl(name)], {
    cwd: root, env: { ...process.env, BENCH_IMPORT_DIR: path.join(scratch, 'import'), BENCH_AFTER: after ? '1' : '0', LOG_LEVEL: 'warn' }, maxBuffer: 1 << 24,
  });
  if (stderr.trim()) process.stderr.write(stderr);
  return JSON.parse(stdout.trim().split('\n').pop()!) as Result;
}

const results: { without: Result[]; with: Result[]; withoutAfter: Result[]; withAfter: Result[] } = { without: [], with: [], withoutAfter: [], withAfter: [] };
for (let r = 0; r < REPEAT; r++) {
  results.without.push(await measure(marketName));
  results.with.push(await measure(searchesName));
  results.withoutAfter.push(await measure(marketName, true));
  results.withAfter.push(await measure(searchesName, true));
  const [a, b, c, d] = [results.without, results.with, results.withoutAfter, results.withAfter].map((list) => list.at(-1)!);
  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  console.error(`run ${r + 1}: import without ${s(a.imported)} (drained ${s(a.drained)}), with ${s(b.imported)} (drained ${s(b.drained)}); dispatch after the import: without ${s(c.dispatched)}, with ${s(d.dispatched)}; ${JSON.stringify(b.events)}`);
}
const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)];
const row = (label: string, without: Result[], withSearches: Result[], pick: (r: Result) => number) => {
  const a = median(without.map(pick));
  const b = median(withSearches.map(pick));
  return `| ${label} | ${(a / 1000).toFixed(2)} s | ${(b / 1000).toFixed(2)} s | **${(b / a).toFixed(3)}×** |`;
};
const last = results.with.at(-1)!;
console.log(`| measure (median of ${REPEAT}) | without searches | with ${matches.s} searches | ratio |`);
console.log('|---|---|---|---|');
console.log(row(`import of ${ADS.toLocaleString('en')} new Meta ads, dispatcher in the process`, results.without, results.with, (r) => r.imported));
console.log(row('…until every event it caused is dispatched', results.without, results.with, (r) => r.drained));
console.log(row('its events dispatched after it, alone (the consumers\' own cost)', results.withoutAfter, results.withAfter, (r) => r.dispatched));
console.log(`\nEvents of a run with the searches: ${JSON.stringify(last.events)}; searches ${matches.s}, rows held before ${matches.n}.`);
await rm(scratch, { recursive: true, force: true });
await admin(async (client) => {
  for (const name of opts.keep ? [`${baseName}_run`] : [marketName, searchesName, `${baseName}_run`]) await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
});
