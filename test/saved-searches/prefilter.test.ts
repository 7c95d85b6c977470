import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importData } from '../../src/data/import/index.js';
import { dispatchOnce, eventConsumers } from '../../src/events/index.js';
import { metaAd, metaPageOf, type MetaAdRecord } from '../sources/fakes/meta.js';
import { createTestApp, type TestApp } from '../support/app.js';

// The searches a batch runs are picked by what its rows have and what each search requires of a row (the prefilter):
// it must never drop a search a row matches. For searches of every kind it reads (words, phrases, negations, keyword
// modes, brand names, domains as sent, countries in lower case or as UK, a status, a media type, a reach band) and
// some it does not, the rows each search announces after an import are exactly the rows the route itself answers
// after it and did not before (every row the import changed is named by an event).

let t: TestApp;
let scratch: string;
let key: string;
let workspaceId: string;

const running = (i: number, overrides: MetaAdRecord = {}) => {
  const record = metaAd(i, overrides);
  delete record.ad_delivery_stop_time;
  return record;
};
const pageB = metaPageOf(20);

type Spec = { name: string; method: 'GET' | 'POST'; path: string; params: Record<string, unknown> };
const SPECS: Spec[] = [
  { name: 'a word', method: 'GET', path: '/v1/ads', params: { search: 'cream' } },
  { name: 'a phrase', method: 'GET', path: '/v1/ads', params: { search: '"night cream"' } },
  { name: 'a negation alone', method: 'GET', path: '/v1/ads', params: { search: '-serum' } },
  { name: 'one word or another', method: 'GET', path: '/v1/ads', params: { search: 'mug or napkins' } },
  { name: 'all words', method: 'POST', path: '/v1/ads/query', params: { search: ['Merino', 'SCARF'], keywordMode: 'all' } },
  { name: 'all words, one missing', method: 'POST', path: '/v1/ads/query', params: { search: ['merino', 'zebra'], keywordMode: 'all' } },
  { name: 'a brand', method: 'GET', path: '/v1/ads', params: { search: pageB.pageName.split(' ')[1].toLowerCase(), searchType: 'brand' } },
  { name: 'a domain as a URL', method: 'POST', path: '/v1/ads/query', params: { search: [`https://www.${pageB.domain}/shop`], searchType: 'domain' } },
  { name: 'a parent domain', method: 'POST', path: '/v1/ads/query', params: { search: [pageB.domain.split('.').slice(-1)[0]], searchType: 'domain' } },
  { name: 'countries in lower case and as UK', method: 'POST', path: '/v1/ads/query', params: { adCountries: { include: ['fr', 'uk'] } } },
  { name: 'main countries', method: 'POST', path: '/v1/ads/query', params: { mainCountries: ['de'] } },
  { name: 'active videos', method: 'POST', path: '/v1/ads/query', params: { status: 'active', mediaType: 'video' } },
  { name: 'a reach band', method: 'POST', path: '/v1/ads/query', params: { minReach: 50_000, maxReach: 150_000 } },
  { name: 'a reach floor over a day', method: 'POST', path: '/v1/ads/query', params: { minReach: 1, reachPeriod: 'last24h' } },
  { name: 'tracked pages and a word', method: 'POST', path: '/v1/ads/query', params: { trackedPages: [pageB.pageId, '1'], search: ['jacket'] } },
  { name: 'a filter the prefilter does not read', method: 'POST', path: '/v1/ads/query', params: { minDaysRunning: 1, hideLowReach: true } },
  { name: 'advertisers by a brand word', method: 'GET', path: '/v1/advertisers', params: { search: [pageB.pageName.split(' ')[0]] } },
  { name: 'advertisers by any word', method: 'POST', path: '/v1/advertisers/query', params: { search: ['zebra', pageB.pageName.split(' ')[1]], keywordMode: 'any' } },
];

/** The ids the route itself answers for a saved search's params (every page). */
async function routeIds(spec: Spec): Promise<string[]> {
  const ids: string[] = [];
  for (let page = 1; page < 20; page++) {
    const paging = spec.path.startsWith('/v1/advertisers') ? { limit: 100, offset: (page - 1) * 100 } : { limit: 100, page };
    const where = spec.path.slice('/v1'.length);
    const res = spec.method === 'GET'
      ? await t.rest('GET', `${where}?${new URLSearchParams(Object.entries({ ...spec.params, ...paging }).flatMap(([k, v]) => (Array.isArray(v) ? v : [v]).map((x) => [k, String(x)])))}`, { key })
      : await t.rest('POST', where, { key, body: { ...spec.params, ...paging } });
    expect(res.status, `${spec.name}: ${JSON.stringify(res.body)}`).toBe(200);
    ids.push(...(res.body.data as { id: string }[]).map((row) => row.id));
    if (res.body.data.length < 100) break;
  }
  return ids.sort();
}

async function importMeta(batch: MetaAdRecord[], asOf: Date, name: string) {
  const file = path.join(scratch, `${name}.json`);
  await writeFile(file, JSON.stringify({ data: batch }));
  await importData(t.db.pool, 'meta-ads', [file], { asOf });
  while ((await dispatchOnce(t.db.pool, eventConsumers())) > 0);
}

const saved = new Map<string, { id: string; before: string[] }>();

beforeAll(async () => {
  t = await createTestApp();
  scratch = await mkdtemp(path.join(tmpdir(), 'mi-saved-prefilter-'));
  await importMeta(Array.from({ length: 20 }, (_, i) => running(i)), new Date('2026-11-27T10:00:00Z'), 'day-1');
  ({ apiKey: key, workspaceId } = await t.newKey());
  for (const spec of SPECS) {
    const res = await t.rest('POST', '/saved-searches', { key, body: spec });
    expect(res.status, `${spec.name}: ${JSON.stringify(res.body)}`).toBe(201);
    saved.set(spec.name, { id: res.body.data.id, before: await routeIds(spec) });
    expect(res.body.data.matches, spec.name).toBe(saved.get(spec.name)!.before.length);
  }
  // Day 2: page B's ads arrive (some with a domain below page B's); page A's copy gains a word (ad.copy_changed: a
  // search notices the rows an event names) and its reach moves on.
  const rewritten = (i: number) => ({ ad_creative_bodies: [`${(metaAd(i).ad_creative_bodies as string[])[0]} Now in cream.`], eu_total_reach: Number(metaAd(i).eu_total_reach) + 30_000 });
  await importMeta(
    [
      ...Array.from({ length: 20 }, (_, i) => running(20 + i, i % 5 === 0 ? { ad_creative_link_captions: [`shop.${pageB.domain}`] } : {})),
      ...Array.from({ length: 20 }, (_, i) => running(i, rewritten(i))),
    ],
    new Date('2026-11-28T10:00:00Z'),
    'day-2',
  );
});
afterAll(async () => {
  await t?.close();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe('the prefilter', () => {
  it.each(SPECS.map((spec) => [spec.name, spec] as const))('%s: announces exactly the rows the route answers now and did not before', async (name, spec) => {
    const { id, before } = saved.get(name)!;
    const after = await routeIds(spec);
    const { rows } = await t.db.pool.query<{ rowId: string }>(
      `SELECT e."data"->'after'->>'rowId' AS "rowId" FROM "market_events" e
       WHERE e."workspaceId" = $1::uuid AND e."savedSearchId" = $2::uuid AND e."type" = 'search.matched' ORDER BY 1`,
      [workspaceId, id],
    );
    expect(rows.map((row) => row.rowId)).toEqual(after.filter((row) => !before.includes(row)));
    expect((await t.rest('GET', `/saved-searches/${id}`, { key })).body.data.matches).toBe(after.length);
  });

  it('has something to say: most of these searches gained rows', async () => {
    let gained = 0;
    for (const spec of SPECS) {
      const { before } = saved.get(spec.name)!;
      if ((await routeIds(spec)).some((row) => !before.includes(row))) gained++;
    }
    expect(gained).toBeGreaterThan(SPECS.length / 2);
  });
});
