import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type HttpResult, type TestApp } from '../support/app.js';
import { expectViolation } from '../support/assertions.js';
import { recordStatements, statementsSettled } from '../support/statements.js';
import { A1, A2, A3, A4, A5, G_DENTAL, G_GLOW, SHOP_GLOW, googleAdsScenario } from './scenario.js';

// The Google Ads routes against the scenario's five ads (see scenario.ts).

let t: TestApp;
let key: string;
beforeAll(async () => {
  t = await createTestApp(googleAdsScenario);
  ({ apiKey: key } = await t.newKey());
});
afterAll(() => t?.close());

const get = (path: string) => t.rest('GET', path, { key });
const query = (body: unknown) => t.rest('POST', '/google-ads/query', { key, body });
const ids = (res: HttpResult): string[] => {
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.map((ad: { id: string }) => ad.id);
};
const sorted = (list: string[]) => [...list].sort();
const queried = async (body: Record<string, unknown>) => sorted(ids(await query(body)));

describe('POST /v1/google-ads/query', () => {
  it('an empty body lists every ad, newest first, with page pagination', async () => {
    const res = await query({});
    expect(ids(res)).toEqual([A2, A1, A4, A3, A5]);
    expect(res.body.pagination).toEqual({ page: 1, limit: 25, total: 5, totalPages: 1 });
    const last = await query({ limit: 2, page: 3 });
    expect(ids(last)).toEqual([A5]);
    expect(last.body.pagination).toEqual({ page: 3, limit: 2, total: 5, totalPages: 3 });
    // A text search counts its total with the page; past the end there is no row to carry it, yet it is kept.
    const searched = await query({ limit: 1, search: ['glow'] });
    const past = await query({ limit: 1, page: 40, search: ['glow'] });
    expect(ids(past)).toEqual([]);
    expect(past.body.pagination).toEqual({ page: 40, limit: 1, total: searched.body.pagination.total, totalPages: searched.body.pagination.total });
    expect(searched.body.pagination.total).toBeGreaterThan(1);
  });

  it('answers the row shape with exact values', async () => {
    const [a1] = (await query({ networks: ['search'] })).body.data;
    expect(a1).toEqual({
      id: A1,
      googleAdId: 'CR00000000000000000001',
      status: 'active',
      network: 'search',
      firstSeenAt: '2026-08-01T00:00:00.000Z',
      lastSeenAt: '2026-11-21T00:00:00.000Z',
      daysRunning: expect.any(Number),
      media: { type: 'image', url: 'http://api.test/media/google/1.png', format: 'text' },
      advertiser: {
        id: G_GLOW, name: 'Glow Lab', shopName: 'Glow Lab', domain: 'glowlab.co', websiteId: SHOP_GLOW, logoUrl: 'http://api.test/media/google/advertisers/glow.png',
        liveAds: { all: 2, search: 1, shopping: 0, maps: 0, youtube: 1, other: 0 },
      },
      reach: { value: 12000, lowerBound: 10000, upperBound: 20000 },
      audience: { mainCountry: 'US', countries: [{ countryCode: 'US', share: 0.7 }, { countryCode: 'CA', share: 0.3 }], remarketing: true, interest: false },
    });
    expect(a1.daysRunning).toBe(Math.floor((Date.now() - Date.UTC(2026, 7, 1)) / 86_400_000));
    const [a3] = (await query({ networks: ['shopping'] })).body.data;
    expect(a3.daysRunning).toBe(59);
    expect(a3.media.url).toBeNull();
    const [a4] = (await query({ networks: ['maps'] })).body.data;
    expect(a4.advertiser).toMatchObject({ id: G_DENTAL, shopName: null, websiteId: null });
  });

  it('search matches advertiser names, shop names and domains; any term', async () => {
    expect(await queried({ search: ['glow'] })).toEqual(sorted([A1, A2, A3]));
    expect(await queried({ search: ['brightdental.com'] })).toEqual(sorted([A4, A5]));
    expect(await queried({ search: ['brightdental'] })).toEqual(sorted([A4, A5]));
    expect(await queried({ search: ['dental', 'lab'] })).toHaveLength(5);
    expect(await queried({ search: ['nothing'] })).toEqual([]);
    expect(await queried({ search: ['  '] })).toHaveLength(5);
  });

  it('status and networks', async () => {
    expect(await queried({ status: 'active' })).toEqual(sorted([A1, A2, A4]));
    expect(await queried({ status: 'inactive' })).toEqual(sorted([A3, A5]));
    expect(await queried({ status: 'all' })).toHaveLength(5);
    expect(await queried({ networks: ['search', 'maps'] })).toEqual(sorted([A1, A4]));
    expect(await queried({ networks: ['youtube'], status: 'inactive' })).toEqual([]);
  });

  it('categoryIds match the advertiser categories', async () => {
    expect(await queried({ categoryIds: [491] })).toEqual(sorted([A4, A5]));
    expect(await queried({ categoryIds: [2915] })).toEqual(sorted([A1, A2, A3]));
    expect(await queried({ categoryIds: [166] })).toEqual([]);
    expect(await queried({ categoryIds: [166, 491] })).toEqual(sorted([A4, A5]));
  });

  it('audienceCountries include and exclude the main audience country', async () => {
    expect(await queried({ audienceCountries: { include: ['US'] } })).toEqual(sorted([A1, A4]));
    expect(await queried({ audienceCountries: { include: ['us', 'fr'] } })).toEqual(sorted([A1, A2, A4]));
    expect(await queried({ audienceCountries: { include: ['CA'] } })).toEqual([]); // CA is targeted by A1, but not its main country
    expect(await queried({ audienceCountries: { exclude: ['US', 'FR'] } })).toEqual(sorted([A3, A5]));
    expect(await queried({ audienceCountries: { include: ['US', 'GB'], exclude: ['GB'] } })).toEqual(sorted([A1, A4]));
  });

  it('published dates (inclusive days), days running and reach', async () => {
    expect(await queried({ publishedAfter: '2026-08-01' })).toEqual(sorted([A1, A2]));
    expect(await queried({ publishedBefore: '2025-01-01' })).toEqual(sorted([A3, A5]));
    expect(await queried({ publishedAfter: '2025-01-02', publishedBefore: '2026-07-31' })).toEqual([A4]);
    expect(await queried({ minDaysRunning: 59, maxDaysRunning: 59 })).toEqual([A3]);
    expect(await queried({ maxDaysRunning: 10 })).toEqual([A5]);
    expect(await queried({ minReach: 3000, maxReach: 12000 })).toEqual(sorted([A1, A3]));
    expect(await queried({ minReach: 500001 })).toEqual([]);
  });

  it('sorts by newest, reach and longestRunning in either order', async () => {
    expect(ids(await query({ sortBy: 'newest', order: 'asc' }))).toEqual([A5, A3, A4, A1, A2]);
    expect(ids(await query({ sortBy: 'reach' }))).toEqual([A2, A1, A3, A4, A5]);
    expect(ids(await query({ sortBy: 'reach', order: 'asc' }))).toEqual([A5, A4, A3, A1, A2]);
    expect(ids(await query({ sortBy: 'longestRunning' }))).toEqual([A4, A1, A2, A3, A5]);
  });

  it('validates the body, naming the field', async () => {
    expectViolation(await query({ limit: 101 }), 'body.limit', ['limit must not be greater than 100']);
    expectViolation(await query({ limit: 0 }), 'body.limit', ['limit must not be less than 1']);
    expectViolation(await query({ page: 0 }), 'body.page', ['page must not be less than 1']);
    expectViolation(await query({ sortBy: 'relevance' }), 'body.sortBy', ['sortBy must be one of the following values: newest, reach, longestRunning']);
    expectViolation(await query({ order: 'up' }), 'body.order');
    expectViolation(await query({ status: 'paused' }), 'body.status', ['status must be one of the following values: active, inactive, all']);
    expectViolation(await query({ networks: ['tv'] }), 'body.networks', ['each value in networks must be one of the following values: search, shopping, maps, youtube, other']);
    expectViolation(await query({ categoryIds: ['shoes'] }), 'body.categoryIds');
    expectViolation(await query({ audienceCountries: { include: ['XX'] } }), 'body.audienceCountries', ['audienceCountries.include must be ISO 3166-1 alpha-2 country codes']);
    expectViolation(await query({ audienceCountries: ['US'] }), 'body.audienceCountries');
    expectViolation(await query({ minReach: -1 }), 'body.minReach', ['minReach must not be less than 0']);
    expectViolation(await query({ minDaysRunning: -1 }), 'body.minDaysRunning');
    expectViolation(await query({ publishedAfter: '01/02/2026' }), 'body.publishedAfter');
  });

  it('unknown body fields are ignored', async () => {
    expect(ids(await query({ offset: 2, keywordMode: 'all', networks: ['maps'] }))).toEqual([A4]);
  });
});

describe('GET /v1/google-ads/facets/*', () => {
  it('networks: every network with its active ads', async () => {
    const res = await get('/google-ads/facets/networks');
    expect(Object.keys(res.body)).toEqual(['requestId', 'data']);
    expect(res.body.data).toEqual([
      { value: 'maps', label: 'Maps', adsCount: 1 },
      { value: 'search', label: 'Search', adsCount: 1 },
      { value: 'youtube', label: 'YouTube', adsCount: 1 },
      { value: 'other', label: 'Other', adsCount: 0 },
      { value: 'shopping', label: 'Shopping', adsCount: 0 },
    ]);
  });

  it('countries: observed audience countries with active ads, searchable, offset-paged', async () => {
    const res = await get('/google-ads/facets/countries');
    expect(res.body.data).toEqual([
      { value: 'US', label: 'United States', adsCount: 2 },
      { value: 'FR', label: 'France', adsCount: 1 },
      { value: 'DE', label: 'Germany', adsCount: 0 },
      { value: 'GB', label: 'United Kingdom', adsCount: 0 },
    ]);
    expect(res.body.pagination).toEqual({ limit: 100, offset: 0, total: 4 });
    expect((await get('/google-ads/facets/countries?search=UNITED')).body.data.map((v: { value: string }) => v.value)).toEqual(['US', 'GB']);
    expect((await get('/google-ads/facets/countries?search=fr')).body.data.map((v: { value: string }) => v.value)).toEqual(['FR']);
    const paged = await get('/google-ads/facets/countries?limit=1&offset=1');
    expect(paged.body.data).toEqual([{ value: 'FR', label: 'France', adsCount: 1 }]);
    expect(paged.body.pagination).toEqual({ limit: 1, offset: 1, total: 4 });
  });

  it('categories: taxonomy entries with advertiser counts, searchable, offset-paged', async () => {
    const res = await get('/google-ads/facets/categories');
    expect(res.body.data).toEqual([
      { id: 469, name: 'Health & Beauty', path: 'Health & Beauty', parentId: null, advertiserUsageCount: 1 },
      { id: 491, name: 'Health Care', path: 'Health & Beauty > Health Care', parentId: 469, advertiserUsageCount: 1 },
      { id: 2915, name: 'Personal Care', path: 'Health & Beauty > Personal Care', parentId: 469, advertiserUsageCount: 1 },
      { id: 166, name: 'Apparel & Accessories', path: 'Apparel & Accessories', parentId: null, advertiserUsageCount: 0 },
    ]);
    expect(res.body.pagination).toEqual({ limit: 100, offset: 0, total: 4 });
    const care = await get('/google-ads/facets/categories?search=CARE');
    expect(care.body.data.map((c: { id: number }) => c.id)).toEqual([491, 2915]);
    expect(care.body.pagination.total).toBe(2);
    expect((await get('/google-ads/facets/categories?search=100%25')).body.data).toEqual([]);
    const paged = await get('/google-ads/facets/categories?limit=2&offset=2');
    expect(paged.body.data.map((c: { id: number }) => c.id)).toEqual([2915, 166]);
    expect(paged.body.pagination).toEqual({ limit: 2, offset: 2, total: 4 });
  });

  it('facet limit is 1..500 and offset >= 0', async () => {
    for (const facet of ['countries', 'categories']) {
      expectViolation(await get(`/google-ads/facets/${facet}?limit=501`), 'query-string.limit', ['limit must not be greater than 500']);
      expectViolation(await get(`/google-ads/facets/${facet}?limit=0`), 'query-string.limit');
      expectViolation(await get(`/google-ads/facets/${facet}?offset=-1`), 'query-string.offset', ['offset must not be less than 0']);
      expect((await get(`/google-ads/facets/${facet}?limit=500`)).status).toBe(200);
    }
  });
});

describe('SQL statements per list request', () => {
  it('do not grow with the page size', async () => {
    await query({}); // warm up: the key's last-use write happens on its first call
    await statementsSettled(t.db);
    // The key's own statements (its lookup, its last-use write whenever it falls due) are not the list's work.
    const sql = recordStatements();
    const count = async (body: unknown, rows: number) => {
      sql.clear();
      expect(ids(await query(body))).toHaveLength(rows);
      return sql.own().length;
    };
    try {
      const one = await count({ limit: 1 }, 1);
      expect(one).toBeGreaterThan(0);
      expect(await count({ limit: 5 }, 5)).toBe(one);
      // A text search visits every match: its total comes with the page, one statement fewer.
      expect(await count({ limit: 3, search: ['glow'] }, 3)).toBe(one - 1);
      // The facets' own statements (the key's lookup left out: it is cached per key in production).
      const own = () => sql.own().length;
      // networks lists every network (no paging); countries and categories are offset-paged.
      sql.clear();
      expect((await get('/google-ads/facets/networks')).status).toBe(200);
      expect(own()).toBe(1);
      for (const facet of ['countries', 'categories']) {
        const facetStatements = async (limit: number) => {
          sql.clear();
          const res = await get(`/google-ads/facets/${facet}?limit=${limit}`);
          expect(res.status, facet).toBe(200);
          return { rows: res.body.data.length as number, statements: own() };
        };
        const small = await facetStatements(1);
        const large = await facetStatements(500);
        expect(large.rows, facet).toBeGreaterThan(small.rows);
        expect(large.statements, facet).toBe(small.statements);
        expect(small.statements, facet).toBeLessThanOrEqual(2);
      }
    } finally {
      sql.restore();
    }
  });
});

describe('credits', () => {
  it('one per returned ad; the facets are free', async () => {
    expect((await query({ limit: 3 })).headers.get('x-usage-cost')).toBe('3');
    expect((await query({ networks: ['maps'] })).headers.get('x-usage-cost')).toBe('1');
    for (const facet of ['networks', 'countries', 'categories']) {
      expect((await get(`/google-ads/facets/${facet}`)).headers.get('x-usage-cost'), facet).toBe('0'); // free: X-Usage-Cost 0 with X-Credits-Remaining
    }
  });
});
