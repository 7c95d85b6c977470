import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Prisma, type PrismaClient } from '../../src/generated/prisma/client.js';
import { adsListQuery, type AdFilter, type AdSort } from '../../src/schema/ads/service/search.js';
import { findIds, searchBounds } from '../../src/schema/shared/list.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { SEARCH_ADS, searchAd, searchScenario } from './search-scenario.js';

// A text search's page and total at a bounded cost (src/schema/shared/list.ts), with the bounds lowered
// so that the scenario's 60 ads reach them: the total is exact up to the cap and a flagged lower bound past it;
// relevance ranks the first `candidates` matches by reach by text rank, the other matches following by reach.

const CAP = 30;
const CANDIDATES = 12;
const defaults = { ...searchBounds };
const ads = Array.from({ length: SEARCH_ADS }, (_, i) => searchAd(i + 1));
const byReach = (list: typeof ads) => [...list].sort((a, b) => b.reach - a.reach);
const summer = byReach(ads.filter((ad) => ad.summer > 0));
/** The relevance order of "summer": its 12 highest-reach matches by occurrences then reach, then the rest by reach. */
const summerByRelevance = [...summer.slice(0, CANDIDATES).sort((a, b) => b.summer - a.summer || b.reach - a.reach), ...summer.slice(CANDIDATES)].map((ad) => ad.id);

let t: TestApp;
let key: string;

beforeAll(async () => {
  Object.assign(searchBounds, { totalCap: CAP, candidates: CANDIDATES });
  t = await createTestApp(searchScenario);
  ({ apiKey: key } = await t.newKey());
});

afterAll(async () => {
  Object.assign(searchBounds, defaults);
  await t?.close();
});

const list = (query: string) => t.rest('GET', `/ads?${query}`, { key });
const ids = (res: { body: { data: { id: string }[] } }) => res.body.data.map((ad) => ad.id);

describe('a common word (more matches than the cap)', () => {
  it('counts up to the cap and flags the total as a lower bound; totalPages follows it', async () => {
    expect(summer.length).toBeGreaterThan(CAP);
    const res = await list('search=summer&limit=8');
    expect(res.status).toBe(200);
    expect(res.body.pagination).toEqual({ page: 1, limit: 8, total: CAP, totalPages: Math.ceil(CAP / 8) });
    expect(res.body.meta).toEqual({ totalRelation: 'gte' });
  });

  it('ranks the highest-reach candidates by text rank, then pages on by reach, across the boundary', async () => {
    const pages = await Promise.all([1, 2, 3, 4].map((page) => list(`search=summer&limit=5&page=${page}`)));
    expect(pages.flatMap(ids)).toEqual(summerByRelevance.slice(0, 20));
    // Among the candidates, the ads that say "summer" twice come first, ahead of others with more reach.
    const twice = summer.slice(0, CANDIDATES).filter((ad) => ad.summer === 2);
    expect(twice.length).toBeGreaterThan(0);
    expect(summer[0].summer).toBe(1);
    expect(ids(pages[0]).slice(0, twice.length)).toEqual(twice.map((ad) => ad.id));
  });

  it('a page past the cap still answers rows, and the total is never below the rows before them', async () => {
    const res = await list('search=summer&limit=5&page=7');
    expect(ids(res)).toEqual(summerByRelevance.slice(30, 35));
    expect(res.body.pagination.total).toBe(35);
    expect(res.body.meta).toEqual({ totalRelation: 'gte' });
  });

  it('another sort pages in its own order with the same capped total', async () => {
    const res = await list('search=summer&sortBy=newest&limit=10');
    const newest = [...summer].sort((a, b) => b.firstSeenAt.getTime() - a.firstSeenAt.getTime() || (a.id < b.id ? -1 : 1));
    expect(ids(res)).toEqual(newest.slice(0, 10).map((ad) => ad.id));
    expect(res.body.meta).toEqual({ totalRelation: 'gte' });
  });

  it('GraphQL answers the same meta', async () => {
    const res = await t.graphql('{ ads(search: "summer", limit: 3) { data { id } pagination { total totalPages } meta { totalRelation } } }', undefined, key);
    expect(res.body.data.ads).toEqual({ data: summerByRelevance.slice(0, 3).map((id) => ({ id })), pagination: { total: CAP, totalPages: 10 }, meta: { totalRelation: 'gte' } });
  });
});

describe('fewer matches than the cap', () => {
  it('a word in five ads: the exact total, every match ranked', async () => {
    const res = await list('search=winter&limit=10');
    expect(ids(res)).toEqual(byReach(ads.filter((ad) => ad.id <= 'facebook_0005')).map((ad) => ad.id));
    expect(res.body.pagination).toEqual({ page: 1, limit: 10, total: 5, totalPages: 1 });
    expect(res.body.meta).toEqual({ totalRelation: 'eq' });
  });

  it('more matches than the candidates but fewer than the cap: the same relevance order, an exact total', async () => {
    Object.assign(searchBounds, { totalCap: summer.length + 5 });
    try {
      const pages = await Promise.all([1, 2, 3].map((page) => list(`search=summer&limit=8&page=${page}`)));
      expect(pages.flatMap(ids)).toEqual(summerByRelevance.slice(0, 24));
      expect(pages[0].body.pagination.total).toBe(summer.length);
      expect(pages[0].body.meta).toEqual({ totalRelation: 'eq' });
    } finally {
      Object.assign(searchBounds, { totalCap: CAP });
    }
  });

  it('a rare word of low-reach ads is found (no walk of the reach order misses it)', async () => {
    const res = await list('search=aurora');
    expect(ids(res)).toEqual(['facebook_0008', 'facebook_0007']);
    expect(res.body.meta).toEqual({ totalRelation: 'eq' });
    expect(res.body.pagination.total).toBe(2);
  });

  it('no match: an empty page with an exact zero', async () => {
    const res = await list('search=nothingmatches');
    expect(res.body).toMatchObject({ data: [], pagination: { total: 0, totalPages: 0 }, meta: { totalRelation: 'eq' } });
  });
});

describe('the plan: a first page reads a bounded part of the ads, whatever the number of matches', () => {
  /** The statement the list's page of ids sends, run under EXPLAIN ANALYZE: rows read by scans of "ads" (kept and filtered out). */
  async function adsRowsRead(filter: AdFilter, sort: AdSort): Promise<number> {
    const sent: Prisma.Sql[] = [];
    const capture = {
      $queryRaw: async (statement: Prisma.Sql) => (sent.push(statement), [{ id: null, total: 0 }]),
    } as unknown as PrismaClient;
    await findIds(capture, adsListQuery(filter, sort), { limit: 5, offset: 0 });
    expect(sent).toHaveLength(1);
    const [{ 'QUERY PLAN': plan }] = await t.db.prisma.$queryRawUnsafe<{ 'QUERY PLAN': unknown }[]>(`EXPLAIN (ANALYZE, FORMAT JSON) ${sent[0].text}`, ...sent[0].values);
    const json = (typeof plan === 'string' ? JSON.parse(plan) : plan) as { Plan: PlanNode }[];
    if (process.env.SHOW_PLAN) console.log(JSON.stringify(json[0].Plan, (k, v) => (["Plans","Node Type","Relation Name","Actual Rows","Rows Removed by Filter","Sort Key","Index Name","Filter"].includes(k) || /^\d+$/.test(k) || k === "" ? v : undefined), 1));
    return scansOfAds(json[0].Plan).reduce((sum, node) => sum + node['Actual Rows'] * node['Actual Loops'] + (node['Rows Removed by Filter'] ?? 0), 0);
  }

  it('reads fewer rows than the matches (neither ranking nor counting them all)', async () => {
    // 1,000 more ads that say "summer", so that the matches outnumber the bounds many times over.
    await t.db.prisma.$executeRaw`INSERT INTO "ads" ("id", "collationId", "isGroupLead", "status", "createdAt", "firstSeenAt", "lastSeenAt", "mediaType", "advertiserId", "body", "reach")
      SELECT 'facebook_x' || n, 'col_x' || n, true, 'active', now(), now() - n * interval '1 minute', now(), 'image', '2000000000000001', 'summer sale ' || n, n
      FROM generate_series(1, 1000) n`;
    await t.db.prisma.$executeRaw`ANALYZE "ads"`;
    const relevance = await adsRowsRead({ search: { websearch: 'summer', type: 'adCopy' } }, { sortBy: 'relevance' });
    const newest = await adsRowsRead({ search: { websearch: 'summer', type: 'adCopy' } }, { sortBy: 'newest' });
    // The count stops after CAP + 1 matches and the candidates after CANDIDATES (each reading a few non-matches).
    for (const read of [relevance, newest]) expect(read).toBeLessThan(400);
  });
});

type PlanNode = { 'Node Type': string; 'Relation Name'?: string; 'Actual Rows': number; 'Actual Loops': number; 'Rows Removed by Filter'?: number; Plans?: PlanNode[] };

function scansOfAds(node: PlanNode): PlanNode[] {
  const own = node['Relation Name'] === 'ads' && !node['Node Type'].startsWith('Bitmap Index') ? [node] : [];
  return [...own, ...(node.Plans ?? []).flatMap(scansOfAds)];
}
