import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type HttpResult, type TestApp } from '../support/app.js';
import { expectViolation } from '../support/assertions.js';
import { recordStatements, statementsSettled } from '../support/statements.js';
import { P_AVA, P_GLOW, P_PEAK, SHOP_GLOW, SHOP_PEAK, T1, T2, T3, T4, T5, tiktokScenario } from './scenario.js';

// The TikTok library routes against the scenario's five items (see scenario.ts).

let t: TestApp;
let key: string;
beforeAll(async () => {
  t = await createTestApp(tiktokScenario);
  ({ apiKey: key } = await t.newKey());
});
afterAll(() => t?.close());

const get = (path: string) => t.rest('GET', path, { key });
const query = (body: unknown) => t.rest('POST', '/tiktok/library/query', { key, body });
const ids = (res: HttpResult): string[] => {
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.map((item: { tiktokId: string }) => item.tiktokId);
};
const sorted = (list: string[]) => [...list].sort();
const list = async (params: string) => sorted(ids(await get(`/tiktok/library?${params}`)));
const queried = async (body: Record<string, unknown>) => sorted(ids(await query(body)));

describe('GET /v1/tiktok/library', () => {
  it('lists every item, newest first, with page pagination', async () => {
    const res = await get('/tiktok/library');
    expect(ids(res)).toEqual([T5, T1, T2, T3, T4]);
    expect(res.body.pagination).toEqual({ page: 1, limit: 25, total: 5, totalPages: 1 });
    const second = await get('/tiktok/library?limit=2&page=2');
    expect(ids(second)).toEqual([T2, T3]);
    expect(second.body.pagination).toEqual({ page: 2, limit: 2, total: 5, totalPages: 3 });
    const beyond = await get('/tiktok/library?limit=2&page=4');
    expect(ids(beyond)).toEqual([]);
    expect(beyond.body.pagination).toEqual({ page: 4, limit: 2, total: 5, totalPages: 3 });
    // A text search counts its total with the page; past the end there is no row to carry it, yet it is kept.
    const searched = await query({ limit: 2, search: ['summer', 'serum'] });
    const past = await query({ limit: 2, page: 50, search: ['summer', 'serum'] });
    expect(ids(past)).toEqual([]);
    expect(past.body.pagination.total).toBe(searched.body.pagination.total);
    expect(searched.body.pagination.total).toBeGreaterThan(0);
  });

  it('search looks in the chosen area', async () => {
    expect(await list('search=serum')).toEqual([T1]);
    expect(await list('search=summer')).toEqual(sorted([T1, T2, T3, T5])); // T1 and T2 by their music, "Summer Nights"
    expect(await list('search=summer&searchArea=caption')).toEqual(sorted([T3, T5]));
    expect(await list('search=wedding&searchArea=caption')).toEqual([T3]);
    expect(await list('search=peak&searchArea=profile')).toEqual(sorted([T4, T5]));
    expect(await list('search=ava&searchArea=profile')).toEqual([T3]);
    expect(await list('search=gym&searchArea=hashtag')).toEqual([T4]);
    expect(await list('search=%23gym&searchArea=hashtag')).toEqual([T4]);
    expect(await list('search=luna&searchArea=music')).toEqual(sorted([T1, T2, T5]));
    expect(await list('search=luna&searchArea=caption')).toEqual([]);
    expect(await list('search=luna')).toEqual(sorted([T1, T2, T5]));
  });

  it('relevance ranks text matches first, and falls back to relevanceScore', async () => {
    expect(ids(await get('/tiktok/library?search=skincare&searchArea=caption&sortBy=relevance&order=asc'))).toEqual([T1, T2]);
    expect(ids(await get('/tiktok/library?search=skincare%20or%20gym&searchArea=hashtag&sortBy=relevance'))).toEqual([T1, T2, T4]);
    expect(ids(await get('/tiktok/library?sortBy=relevance&order=asc'))).toEqual([T3, T1, T2, T4, T5]);
  });

  it('type, status and mediaTypes', async () => {
    expect(await list('type=ad')).toEqual(sorted([T1, T4, T5]));
    expect(await list('type=organic')).toEqual(sorted([T2, T3]));
    expect(await list('type=all')).toHaveLength(5);
    expect(await list('status=inactive')).toEqual([T4]);
    expect(await list('status=active')).toEqual(sorted([T1, T2, T3, T5]));
    expect(await list('mediaTypes=carousel,image')).toEqual(sorted([T2, T4]));
    expect(await list('mediaTypes=carousel&mediaTypes=image')).toEqual(sorted([T2, T4]));
    expect(await list('mediaTypes=video')).toEqual(sorted([T1, T3, T5]));
  });

  it('languages take ISO 639-1 codes or English names; countries and hashtags match any value', async () => {
    expect(await list('languages=fr')).toEqual([T2]);
    expect(await list('languages=French')).toEqual([T2]);
    expect(await list('languages=german,FR')).toEqual(sorted([T2, T4]));
    expect(await list('countries=GB&countries=at')).toEqual(sorted([T1, T4]));
    expect(await list('countries=JP')).toEqual([]);
    expect(await list('hashtags=%23gym')).toEqual([T4]);
    expect(await list('hashtags=SKINCARE')).toEqual(sorted([T1, T2]));
    expect(await list('hashtags=grwm,running')).toEqual(sorted([T3, T5]));
  });

  it('tiktokPageId, domain and handle', async () => {
    expect(await list(`tiktokPageId=${P_PEAK}`)).toEqual(sorted([T4, T5]));
    expect(await list('domain=https://www.peakfitness.shop/products/x')).toEqual([T4]);
    expect(await list('domain=glowlab.co')).toEqual(sorted([T1, T2]));
    expect(await list('domain=lab.co')).toEqual([]);
    expect(await list('handle=@Ava.Skincare')).toEqual([T3]);
    expect(await list('handle=glowlab')).toEqual(sorted([T1, T2]));
  });

  it('published dates, views and engagement-rate bounds', async () => {
    expect(await list('publishedAfter=2026-11-01T00:00:00Z')).toEqual(sorted([T1, T5]));
    expect(await list('publishedBefore=2026-01-01T00:00:00Z')).toEqual([T4]);
    expect(await list('publishedAfter=2026-09-01T00:00:00Z&publishedBefore=2026-10-31T23:59:59Z')).toEqual(sorted([T2, T3]));
    expect(await list('minViews=40000&maxViews=250000')).toEqual(sorted([T1, T2]));
    expect(await list('minViews=3000000000')).toEqual([]);
    expect(await list('minEngagementRate=8')).toEqual(sorted([T2, T3]));
    expect(await list('maxEngagementRate=2')).toEqual(sorted([T4, T5]));
  });

  it('sorts by every sortBy value, descending by default', async () => {
    const order = async (sortBy: string, extra = '') => ids(await get(`/tiktok/library?sortBy=${sortBy}${extra}`));
    expect(await order('newest')).toEqual([T5, T1, T2, T3, T4]);
    expect(await order('newest', '&order=asc')).toEqual([T4, T3, T2, T1, T5]);
    expect(await order('updatedAt')).toEqual([T5, T1, T2, T3, T4]);
    expect(await order('views')).toEqual([T4, T1, T2, T3, T5]);
    expect(await order('likes')).toEqual([T4, T1, T2, T3, T5]);
    expect(await order('comments')).toEqual([T4, T1, T2, T3, T5]);
    expect(await order('shares', '&order=asc')).toEqual([T5, T3, T2, T1, T4]);
    expect(await order('saves')).toEqual([T1, T4, T2, T3, T5]);
    expect(await order('engagementRate')).toEqual([T3, T2, T1, T5, T4]);
    // The active ones run until today, T4 stopped at 300 days: the active ones oldest first, T4 where its 300 falls.
    const running = (await get('/tiktok/library?sortBy=daysRunning')).body.data as { id: string; status: string; daysRunning: number }[];
    expect(running.map((item) => item.daysRunning)).toEqual(running.map((item) => item.daysRunning).sort((a, b) => b - a));
    expect(running.filter((item) => item.status === 'active').map((item) => item.id)).toEqual([T3, T2, T1, T5].map((id) => `tiktok_${id}`));
    expect(running.find((item) => item.id === `tiktok_${T4}`)?.daysRunning).toBe(300);
    expect(await order('followers')).toEqual([T4, T5, T1, T2, T3]);
  });

  it('answers the specification shape with exact values', async () => {
    const res = await get(`/tiktok/library?tiktokPageId=${P_GLOW}&sortBy=views`);
    const [t1, t2] = res.body.data;
    expect(t1.id).toBe(`tiktok_${T1}`);
    expect(t1.tiktokId).toBe(T1);
    expect(t1).toMatchObject({ type: 'ad', status: 'active', isPinned: false, publishedAt: '2026-11-01T10:00:00.000Z', indexedAt: '2026-11-20T12:05:00.000Z' });
    expect(t1.metrics).toMatchObject({ views: 250000, likes: 10000, comments: 500, shares: 1500, saves: 800, reposts: 40, engagementRate: 4.8 });
    expect(t1.content).toEqual({
      description: 'Glow serum that actually works #skincare #serum #fyp',
      language: 'en',
      category: 'Beauty',
      hashtags: ['skincare', 'serum', 'fyp'],
      music: { id: '7200000000000000001', title: 'Summer Nights', author: 'Luna Vega' },
    });
    expect(t1.media.medias).toEqual([{ type: 'video', url: `http://api.test/media/tiktok/${T1}.mp4`, order: 0 }]);
    expect(t1.shop).toMatchObject({ id: SHOP_GLOW, domain: 'glowlab.co', countryCode: 'US', googleCategoryIds: [469], productsCount: 64, trafficGrowth30d: 0.18 });
    expect(t1.pin).toEqual({ isCurrent: false, firstPinnedAt: null, lastPinnedAt: null, lastUnpinnedAt: null });
    expect(t1.pageSnapshot).toEqual({ recordedAt: '2026-11-21T03:12:00.000Z', adsCount: 1, organicCount: 1, totalTikToks: 2, dailyViews: 4100, dailyLikes: 230, dailyFollowers: 55 });
    expect(t2.media).toMatchObject({ type: 'carousel', videoUrl: null, mediaCount: 3, imageCount: 3, durationSec: null });
    expect(t2.pin).toEqual({ isCurrent: true, firstPinnedAt: '2026-10-16T00:00:00.000Z', lastPinnedAt: '2026-10-20T00:00:00.000Z', lastUnpinnedAt: '2026-10-18T00:00:00.000Z' });
    const ava = (await get(`/tiktok/library?tiktokPageId=${P_AVA}`)).body.data[0];
    expect(ava.shop).toBeNull();
    expect(ava.pageSnapshot).toBeNull();
    const t4 = (await get('/tiktok/library?status=inactive')).body.data[0];
    expect(t4.daysRunning).toBe(300);
  });
});

describe('POST /v1/tiktok/library/query', () => {
  it('an empty body lists every item newest first', async () => {
    expect(ids(await query({}))).toEqual([T5, T1, T2, T3, T4]);
  });

  it('search terms combine by keywordMode', async () => {
    expect(await queried({ search: ['serum', 'wedding'] })).toEqual(sorted([T1, T3]));
    expect(await queried({ search: ['serum', 'wedding'], keywordMode: 'any' })).toEqual(sorted([T1, T3]));
    expect(await queried({ search: ['glow', 'serum'], keywordMode: 'all' })).toEqual([T1]);
    expect(await queried({ search: ['serum', 'wedding'], keywordMode: 'all' })).toEqual([]);
    expect(await queried({ search: ['peak'], searchArea: 'profile' })).toEqual(sorted([T4, T5]));
  });

  it('takes the GET filters from the body', async () => {
    expect(await queried({ type: 'organic', languages: ['English'], countries: ['US'] })).toEqual([T3]);
    expect(await queried({ hashtags: ['#skincare'], mediaTypes: ['video'] })).toEqual([T1]);
    expect(await queried({ handle: 'peak_fitness', status: 'active' })).toEqual([T5]);
    expect(await queried({ domain: 'glowlab.co', minEngagementRate: 5 })).toEqual([T2]);
  });

  it('categories, tiktokPageIds, websiteId and hasShopLinked', async () => {
    expect(await queried({ categories: ['sports'] })).toEqual(sorted([T4, T5]));
    expect(await queried({ categories: ['Beauty', 'Food'] })).toEqual(sorted([T1, T2, T3]));
    expect(await queried({ tiktokPageIds: [P_GLOW, P_AVA] })).toEqual(sorted([T1, T2, T3]));
    expect(await queried({ tiktokPageIds: [P_GLOW], tiktokPageId: P_AVA })).toEqual([]);
    expect(await queried({ websiteId: SHOP_PEAK })).toEqual([T4]);
    expect(await queried({ websiteId: 'not-a-shop' })).toEqual([]);
    expect(await queried({ hasShopLinked: 'yes' })).toEqual(sorted([T1, T2, T4]));
    expect(await queried({ hasShopLinked: 'no' })).toEqual(sorted([T3, T5]));
  });

  it('updated dates and days running', async () => {
    expect(await queried({ updatedAfter: '2026-11-15T00:00:00Z' })).toEqual(sorted([T1, T5]));
    expect(await queried({ updatedBefore: '2026-07-01T00:00:00Z' })).toEqual([T4]);
    expect(await queried({ minDaysRunning: 299, maxDaysRunning: 301 })).toEqual([T4]);
    expect(await queried({ maxDaysRunning: 0, status: 'inactive' })).toEqual([]);
  });

  it('likes, shares, followers and profile views minimums; isPinned', async () => {
    expect(await queried({ minLikes: 10000 })).toEqual(sorted([T1, T4]));
    expect(await queried({ minShares: 1500 })).toEqual(sorted([T1, T4]));
    expect(await queried({ minFollowers: 100000 })).toEqual(sorted([T1, T2, T4, T5]));
    expect(await queried({ minProfileViews: 1000000 })).toEqual(sorted([T4, T5]));
    expect(await queried({ isPinned: true })).toEqual([T2]);
    expect(await queried({ isPinned: false })).toEqual(sorted([T1, T3, T4, T5]));
  });

  it('sorts and pages from the body', async () => {
    const res = await query({ sortBy: 'views', order: 'asc', limit: 2, page: 2 });
    expect(ids(res)).toEqual([T2, T1]);
    expect(res.body.pagination).toEqual({ page: 2, limit: 2, total: 5, totalPages: 3 });
  });
});

describe('GET /v1/tiktok/library/{itemId}', () => {
  it('takes the composite id and the raw TikTok id, and keeps 64-bit ids exact', async () => {
    const composite = await get(`/tiktok/library/tiktok_${T1}`);
    const raw = await get(`/tiktok/library/${T1}`);
    expect(composite.status).toBe(200);
    expect(raw.body.data).toEqual(composite.body.data);
    expect(composite.body.data.id).toBe('tiktok_7412345678901234567');
    expect(composite.body.data.tiktokId).toBe('7412345678901234567');
    expect(BigInt(composite.body.data.tiktokId) > BigInt(Number.MAX_SAFE_INTEGER)).toBe(true);
    // The neighbour id differs only past 2^53 precision and stays a different item.
    expect((await get(`/tiktok/library/${T2}`)).body.data.tiktokId).toBe(T2);
  });

  it('adds links and source', async () => {
    const { body } = await get(`/tiktok/library/tiktok_${T1}`);
    expect(body.data.links).toEqual({ tiktokUrl: `https://www.tiktok.com/@glowlab/video/${T1}`, profileUrl: 'https://www.tiktok.com/@glowlab' });
    expect(body.data.source).toEqual({ network: 'tiktok', sourceType: 'commercial_content_library', tiktokPageId: P_GLOW, websiteId: SHOP_GLOW, domain: 'glowlab.co' });
    const organic = (await get(`/tiktok/library/${T3}`)).body.data;
    expect(organic.source).toEqual({ network: 'tiktok', sourceType: 'profile', tiktokPageId: P_AVA, websiteId: null, domain: null });
    expect((await get(`/tiktok/library/${T2}`)).body.data.links.tiktokUrl).toBe(`https://www.tiktok.com/@glowlab/photo/${T2}`);
  });

  it('an unknown or malformed id is a 404 not_found', async () => {
    for (const id of ['tiktok_7412345678901234569', '7412345678901234569', 'tiktok_abc', 'facebook_123', '12.5']) {
      const res = await get(`/tiktok/library/${id}`);
      expect(res.status, id).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    }
  });
});

describe('GET /v1/shops/{shopId}/tiktok/library', () => {
  it("lists the shop's items with the library filters", async () => {
    const res = await get(`/shops/${SHOP_GLOW}/tiktok/library`);
    expect(ids(res)).toEqual([T1, T2]);
    expect(res.body.pagination).toEqual({ page: 1, limit: 25, total: 2, totalPages: 1 });
    expect(ids(await get(`/shops/${SHOP_GLOW}/tiktok/library?type=ad`))).toEqual([T1]);
    expect(ids(await get(`/shops/${SHOP_GLOW}/tiktok/library?type=organic`))).toEqual([T2]);
    const limited = await get(`/shops/${SHOP_GLOW}/tiktok/library?limit=1`);
    expect(ids(limited)).toEqual([T1]);
    expect(limited.body.pagination).toEqual({ page: 1, limit: 1, total: 2, totalPages: 2 });
    expect(ids(await get(`/shops/${SHOP_PEAK}/tiktok/library`))).toEqual([T4]);
  });

  it('an unknown shop is a 404, a bad limit a 400', async () => {
    for (const shopId of ['5a0e0000-0000-4000-8000-0000000000ff', 'not-a-uuid']) {
      const res = await get(`/shops/${shopId}/tiktok/library`);
      expect(res.status, shopId).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    }
    expectViolation(await get(`/shops/${SHOP_GLOW}/tiktok/library?limit=51`), 'query-string.limit', ['limit must not be greater than 50']);
    expectViolation(await get(`/shops/${SHOP_GLOW}/tiktok/library?type=video`), 'query-string.type');
  });
});

describe('validation', () => {
  it('limit is 1..50 (default 25), page >= 1', async () => {
    expectViolation(await get('/tiktok/library?limit=51'), 'query-string.limit', ['limit must not be greater than 50']);
    expectViolation(await get('/tiktok/library?limit=0'), 'query-string.limit', ['limit must not be less than 1']);
    expectViolation(await get('/tiktok/library?page=0'), 'query-string.page', ['page must not be less than 1']);
    expectViolation(await query({ limit: 51 }), 'body.limit', ['limit must not be greater than 50']);
    expectViolation(await query({ limit: 'ten' }), 'body.limit', ['limit must be an integer number']);
    expect((await get('/tiktok/library?limit=50')).status).toBe(200);
  });

  it('enums name their values', async () => {
    expectViolation(await get('/tiktok/library?sortBy=popular'), 'query-string.sortBy', [
      'sortBy must be one of the following values: relevance, newest, updatedAt, views, likes, comments, shares, saves, engagementRate, daysRunning, followers',
    ]);
    expectViolation(await get('/tiktok/library?order=up'), 'query-string.order', ['order must be one of the following values: asc, desc']);
    expectViolation(await get('/tiktok/library?searchArea=bio'), 'query-string.searchArea', ['searchArea must be one of the following values: all, caption, profile, hashtag, music']);
    expectViolation(await get('/tiktok/library?type=video'), 'query-string.type', ['type must be one of the following values: all, ad, organic']);
    expectViolation(await get('/tiktok/library?status=unknown'), 'query-string.status', ['status must be one of the following values: all, active, inactive']);
    expectViolation(await get('/tiktok/library?mediaTypes=dco'), 'query-string.mediaTypes');
    expectViolation(await query({ keywordMode: 'some' }), 'body.keywordMode', ['keywordMode must be one of the following values: any, all']);
    expectViolation(await query({ hasShopLinked: 'maybe' }), 'body.hasShopLinked', ['hasShopLinked must be one of the following values: yes, no']);
  });

  it('string lengths, ranges, codes and dates', async () => {
    expectViolation(await get(`/tiktok/library?search=${'a'.repeat(501)}`), 'query-string.search', ['search must be shorter than or equal to 500 characters']);
    expect((await get(`/tiktok/library?search=${'a'.repeat(500)}`)).status).toBe(200);
    expectViolation(await get(`/tiktok/library?tiktokPageId=${'1'.repeat(256)}`), 'query-string.tiktokPageId');
    expectViolation(await get(`/tiktok/library?domain=${'a'.repeat(254)}`), 'query-string.domain');
    expectViolation(await get(`/tiktok/library?handle=${'a'.repeat(65)}`), 'query-string.handle');
    expectViolation(await get('/tiktok/library?minViews=-1'), 'query-string.minViews', ['minViews must not be less than 0']);
    expectViolation(await get('/tiktok/library?minEngagementRate=101'), 'query-string.minEngagementRate', ['minEngagementRate must not be greater than 100']);
    expectViolation(await get('/tiktok/library?languages=klingon'), 'query-string.languages', ['languages must be ISO 639-1 codes or English language names']);
    expectViolation(await get('/tiktok/library?countries=XX'), 'query-string.countries', ['countries must be ISO 3166-1 alpha-2 country codes']);
    expectViolation(await get('/tiktok/library?publishedAfter=yesterday'), 'query-string.publishedAfter');
    expectViolation(await query({ minDaysRunning: -1 }), 'body.minDaysRunning');
    expectViolation(await query({ search: ['x'.repeat(501)] }), 'body.search');
  });

  it('array filters take at most 20 values', async () => {
    const values = (n: number) => Array.from({ length: n }, (_, i) => `tag${i}`);
    expectViolation(await get(`/tiktok/library?hashtags=${values(21).join(',')}`), 'query-string.hashtags');
    expectViolation(await get(`/tiktok/library?${values(21).map((v) => `hashtags=${v}`).join('&')}`), 'query-string.hashtags');
    expect((await get(`/tiktok/library?hashtags=${values(20).join(',')}`)).status).toBe(200);
    for (const field of ['hashtags', 'categories', 'tiktokPageIds', 'search']) {
      expectViolation(await query({ [field]: values(21) }), `body.${field}`);
      expect((await query({ [field]: values(20) })).status, field).toBe(200);
    }
    expectViolation(await query({ countries: Array(21).fill('US') }), 'body.countries');
    expectViolation(await query({ languages: Array(21).fill('en') }), 'body.languages');
    expectViolation(await query({ mediaTypes: Array(21).fill('video') }), 'body.mediaTypes');
  });

  it('unknown parameters are ignored', async () => {
    expect(ids(await get('/tiktok/library?offset=3&legacy=1&type=organic'))).toEqual([T2, T3]);
    expect(ids(await query({ offset: 3, nope: true, type: 'organic' }))).toEqual([T2, T3]);
  });
});

describe('SQL statements per list request', () => {
  it('do not grow with the page size', async () => {
    await get('/tiktok/library'); // warm up: the key's last-use write happens on its first call
    await statementsSettled(t.db);
    // The key's own statements (its lookup, its last-use write whenever it falls due) are not the list's work.
    const sql = recordStatements();
    const count = async (call: () => Promise<HttpResult>, rows: number) => {
      sql.clear();
      expect(ids(await call())).toHaveLength(rows);
      return sql.own().length;
    };
    try {
      const one = await count(() => get('/tiktok/library?limit=1'), 1);
      expect(one).toBeGreaterThan(0);
      expect(await count(() => get('/tiktok/library?limit=5'), 5)).toBe(one);
      expect(await count(() => query({ limit: 5 }), 5)).toBe(one);
      // A text search visits every match: its total comes with the page, one statement fewer.
      expect(await count(() => query({ limit: 2, search: ['summer', 'serum'] }), 2)).toBe(one - 1);
      const shopOne = await count(() => get(`/shops/${SHOP_GLOW}/tiktok/library?limit=1`), 1);
      expect(await count(() => get(`/shops/${SHOP_GLOW}/tiktok/library?limit=2`), 2)).toBe(shopOne);
    } finally {
      sql.restore();
    }
  });
});

describe('credits', () => {
  it('one per returned item on the lists, one per found item on the detail', async () => {
    const cost = async (path: string) => (await get(path)).headers.get('x-usage-cost');
    expect(await cost('/tiktok/library?limit=2')).toBe('2');
    expect(await cost('/tiktok/library?type=organic')).toBe('2');
    expect(await cost(`/shops/${SHOP_GLOW}/tiktok/library?limit=1`)).toBe('1');
    expect((await query({ isPinned: true })).headers.get('x-usage-cost')).toBe('1');
    expect(await cost(`/tiktok/library/${T1}`)).toBe('1');
    expect(await cost('/tiktok/library?handle=nobody')).toBe('0');
  });
});
