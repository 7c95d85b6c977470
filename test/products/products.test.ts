import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findPage } from '../../src/schema/shared/list.js';
import { Prisma } from '../../src/generated/prisma/client.js';
import { createTestApp, type HttpResult, type TestApp } from '../support/app.js';
import { expectViolation } from '../support/assertions.js';
import { recordStatements, statementsSettled } from '../support/statements.js';
import { BEST_SELLING, P, PIXEL, productsScenario, SHOP, THEME } from './scenario.js';

let t: TestApp;
let key: string;
let proKey: string;
beforeAll(async () => {
  t = await createTestApp(productsScenario);
  ({ apiKey: key } = await t.newKey());
  const pro = await t.newKey();
  proKey = pro.apiKey;
  await t.db.prisma.creditAccount.update({ where: { workspaceId: pro.workspaceId }, data: { planCode: 'pro', billingConfigured: true } });
});
afterAll(() => t?.close());

const get = (path: string, k = key) => t.rest('GET', path, { key: k });
const query = (body: unknown, k = key) => t.rest('POST', '/products/query', { key: k, body });
const ids = (res: HttpResult): string[] => {
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.map((p: { id: string }) => p.id);
};
const same = (list: string[]) => [...list].sort();

/** Every page of a query, following nextCursor. */
async function allPages(body: Record<string, unknown>, limit: number) {
  const seen: string[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 20; page++) {
    const res = await query({ ...body, limit, ...(cursor ? { cursor } : {}) });
    seen.push(...ids(res));
    expect(res.body.pagination.limit).toBe(limit);
    cursor = res.body.pagination.nextCursor;
    if (!cursor) return seen;
  }
  throw new Error('too many pages');
}

describe('GET /v1/products', () => {
  it('answers the cursor envelope with best sellers first by default', async () => {
    const res = await get('/products');
    expect(Object.keys(res.body)).toEqual(['requestId', 'data', 'pagination']);
    expect(ids(res)).toEqual(BEST_SELLING);
    expect(res.body.pagination).toEqual({ limit: 25, total: 9, totalRelation: 'eq', nextCursor: null });
  });

  it('shows the Product record of the specification', async () => {
    const [a1] = (await get('/products?limit=1')).body.data;
    expect(Object.keys(a1)).toEqual(['id', 'shopifyId', 'title', 'description', 'url', 'handle', 'imageUrl', 'publishedAt', 'price', 'reviews', 'bestSellerRank', 'optionNames', 'sales', 'ads', 'euMetrics', 'weeklyHistory', 'shop']);
    expect(a1.id).toBe(P.A1);
    expect(a1.price).toEqual({ amount: 29, currency: 'EUR', amountUsd: 31.5, compareAtAmount: 39, onSale: true, discountPercent: 25.6, isSubscription: false, promoTypes: ['percent-off'] });
    expect(a1.reviews).toEqual({ rating: 4.6, count: 320 });
    expect(a1.bestSellerRank).toEqual({ position: 1, percentile: 100 });
    expect(a1.sales).toEqual({ dailyRevenueUsd: 1000, dailyRevenueRangeUsd: { min: 667, mean: 1000, max: 1500 }, monthlyRevenueUsd: 30000, dailyUnitsSold: 33.33, monthlyUnitsSold: 1000 });
    expect(a1.ads).toMatchObject({ active: 12, total: 30, launched30d: 8, adShare: 60, hasPartnershipAds: true, sellingCountries: ['FR', 'DE'] });
    expect(Object.keys(a1.euMetrics)).toEqual(['locked', 'spendUsd', 'dailySpendUsd', 'reach', 'spendShare', 'reachByCountry']);
    expect(a1.weeklyHistory.map((w: { from: string; to: string; activeAds: number }) => [w.from, w.to, w.activeAds])).toEqual([['2026-11-09', '2026-11-15', 10], ['2026-11-16', '2026-11-22', 12]]);
    expect(a1.shop).toEqual({
      id: SHOP.A, domain: 'glowskin.com', name: 'Glow Skin', avatarUrl: null, countryCode: 'FR', currency: 'EUR', productsCount: 4,
      monthlyVisits: 50000, monthlyRevenueUsd: null, createdAt: '2024-01-10T00:00:00.000Z', categoryIds: [567],
    });
  });

  it('shopId keeps one shop, and every sort has its default order with missing values last', async () => {
    expect(ids(await get(`/products?shopId=${SHOP.B}`))).toEqual([P.B1, P.B2, P.B3]);
    expect(ids(await get('/products?sortBy=best-selling&order=desc'))).toEqual([P.B3, P.A3, P.C2, P.B2, P.A2, P.C1, P.B1, P.A1, P.A4]);
    // newest: C1 and C2 share their date (id breaks the tie, in the order's direction); A3 is unpublished.
    expect(ids(await get('/products?sortBy=newest'))).toEqual([P.B1, P.A1, P.B2, P.A2, P.C2, P.C1, P.A4, P.B3, P.A3]);
    expect(ids(await get('/products?sortBy=newest&order=asc'))).toEqual([P.B3, P.A4, P.C1, P.C2, P.A2, P.B2, P.A1, P.B1, P.A3]);
    expect(ids(await get('/products?sortBy=est-sales')).slice(0, 4)).toEqual([P.B1, P.A1, P.A3, P.A2]);
    expect(ids(await get('/products?sortBy=active-ads')).slice(0, 3)).toEqual([P.B1, P.A1, P.B2]);
    expect(ids(await get('/products?sortBy=ad-pressure')).slice(0, 2)).toEqual([P.B1, P.A1]);
  });

  it('query: + all words, / any word, - excludes', async () => {
    expect(same(ids(await get('/products?query=vitamin')))).toEqual(same([P.A1, P.A3, P.B2]));
    expect(same(ids(await get(`/products?query=${encodeURIComponent('vitamin + serum')}`)))).toEqual([P.A1]);
    expect(same(ids(await get(`/products?query=${encodeURIComponent('serum / candle')}`)))).toEqual(same([P.A1, P.C2]));
    expect(same(ids(await get(`/products?query=${encodeURIComponent('vitamin -water')}`)))).toEqual(same([P.A1, P.A3]));
    expect(same(ids(await get(`/products?query=${encodeURIComponent('vitamin / lantern -serum')}`)))).toEqual(same([P.A3, P.B2, P.B3]));
    expect(same(ids(await get(`/products?query=${encodeURIComponent('-water')}`)))).toEqual(same(BEST_SELLING.filter((id) => id !== P.B2)));
    expect(ids(await get('/products?query=vitamin&sortBy=relevance')).length).toBe(3);
  });

  it('validates its parameters, naming them', async () => {
    expectViolation(await get('/products?limit=0'), 'query-string.limit', ['limit must not be less than 1']);
    expectViolation(await get('/products?limit=101'), 'query-string.limit', ['limit must not be greater than 100']);
    expectViolation(await get('/products?sortBy=cheapest'), 'query-string.sortBy');
    expectViolation(await get('/products?order=up'), 'query-string.order');
    expectViolation(await get('/products?shopId=nope'), 'query-string.shopId');
    expectViolation(await get(`/products?query=${'a'.repeat(201)}`), 'query-string.query');
    expectViolation(await get(`/products?query=${encodeURIComponent(' + / ')}`), 'query-string.query');
    expectViolation(await get(`/products?cursor=${'x'.repeat(2001)}`), 'query-string.cursor');
  });
});

describe('cursor pages', () => {
  it('walk every row once across page boundaries, ties included, whatever the page size', async () => {
    for (const limit of [1, 2, 4]) expect(await allPages({}, limit)).toEqual(BEST_SELLING);
    const byRevenue = ids(await query({ sortBy: 'est-sales', limit: 100 }));
    expect(await allPages({ sortBy: 'est-sales' }, 2)).toEqual(byRevenue);
    const newestAsc = ids(await query({ sortBy: 'newest', order: 'asc', limit: 100 }));
    expect(await allPages({ sortBy: 'newest', order: 'asc' }, 3)).toEqual(newestAsc);
    expect(await allPages({ sortBy: 'best-selling', order: 'desc' }, 2)).toEqual(ids(await query({ sortBy: 'best-selling', order: 'desc', limit: 100 })));
  });

  it('the page size may change between pages', async () => {
    const first = await query({ limit: 2 });
    const second = await query({ limit: 5, cursor: first.body.pagination.nextCursor });
    expect([...ids(first), ...ids(second)]).toEqual(BEST_SELLING.slice(0, 7));
  });

  it('a GET cursor continues the GET list; total and totalRelation stay', async () => {
    const first = await get('/products?limit=4');
    expect(first.body.pagination).toMatchObject({ total: 9, totalRelation: 'eq' });
    const second = await get(`/products?limit=4&cursor=${first.body.pagination.nextCursor}`);
    expect(ids(second)).toEqual(BEST_SELLING.slice(4, 8));
    expect(second.body.pagination.total).toBe(9);
  });

  it('is bound to its query: another filter or sort is a 400 naming cursor, not a wrong page', async () => {
    const first = await query({ limit: 2, currencies: ['EUR'] });
    const cursor = first.body.pagination.nextCursor as string;
    expect((await query({ limit: 2, currencies: ['EUR'], cursor })).status).toBe(200);
    const refused = ['cursor belongs to another query: send it with the same filters and sort as the request that returned it'];
    expectViolation(await query({ limit: 2, currencies: ['USD'], cursor }), 'body.cursor', refused);
    expectViolation(await query({ limit: 2, currencies: ['EUR'], sortBy: 'newest', cursor }), 'body.cursor', refused);
    expectViolation(await query({ limit: 2, currencies: ['EUR'], order: 'desc', cursor }), 'body.cursor', refused);
  });

  it('refuses a foreign cursor before any statement of the route runs (the plan read included)', async () => {
    const cursor = (await query({ limit: 2, currencies: ['EUR'] })).body.pagination.nextCursor as string;
    const recorder = recordStatements();
    try {
      expect((await query({ limit: 2, currencies: ['USD'], cursor })).status).toBe(400);
      await statementsSettled(t.db); // a statement started beside the refusal would still be on its way
      expect(recorder.own().filter((sql) => /SELECT "planCode" FROM "credit_accounts"|FROM "products"/.test(sql))).toEqual([]);
    } finally {
      recorder.restore();
    }
  });

  it('a tampered or malformed cursor is a 400 naming cursor', async () => {
    const cursor = (await query({ limit: 2 })).body.pagination.nextCursor as string;
    const [payload, signature] = cursor.split('.');
    const decoded = JSON.parse(Buffer.from(payload, 'base64url').toString());
    decoded.k[0] = '5';
    const forged = `${Buffer.from(JSON.stringify(decoded)).toString('base64url')}.${signature}`;
    for (const bad of [forged, `${payload}.AAAA${signature.slice(4)}`, 'garbage', '', `${payload}`, `${payload}.${signature}.x`, '%%%.%%%']) {
      const res = await query({ limit: 2, cursor: bad });
      if (bad === '') expect(res.status).toBe(200); // an empty cursor is no cursor
      else expectViolation(res, 'body.cursor');
    }
  });

  it('each page costs the same statements, page 1 or page 5', async () => {
    const recorder = recordStatements();
    // Not the key's statements (its lookup, and its last-use write whenever that falls due), nor the plan's and the ledger's.
    const count = () => recorder.own().filter((text) => !/"credit_|usage_records/.test(text)).length;
    try {
      let cursor: string | null = null;
      const perPage: number[] = [];
      for (let page = 0; page < 5; page++) {
        recorder.clear();
        const res: HttpResult = await query({ limit: 2, ...(cursor ? { cursor } : {}) });
        expect(res.status).toBe(200);
        perPage.push(count());
        cursor = res.body.pagination.nextCursor;
      }
      // The page of ids, the bounded count and the rows with their shops and weeks: one statement.
      expect(new Set(perPage)).toEqual(new Set([1]));
    } finally {
      recorder.restore();
    }
  });

  it('a filtered, sorted page costs the same statements whatever its size (1 or 4 products)', async () => {
    const body = { shopifyAppIds: [101], themeIds: [THEME], minShopMonthlyVisits: 50000, minShopTrafficGrowth30d: 10, sortBy: 'best-selling' };
    await query({ ...body, limit: 1 }); // the key's first use writes its last-use time
    const recorder = recordStatements();
    // The route's own statements: not the key's, nor the credit ledger's (one charge per request, whatever its rows).
    const counted = () => recorder.own().filter((text) => !/"credit_|usage_records/.test(text)).length;
    try {
      expect(ids(await query({ ...body, limit: 1 }))).toHaveLength(1);
      const one = counted();
      recorder.clear();
      expect(ids(await query({ ...body, limit: 4 }))).toEqual([P.A1, P.A2, P.A3, P.A4].filter((id) => BEST_SELLING.includes(id)).sort((a, b) => BEST_SELLING.indexOf(a) - BEST_SELLING.indexOf(b)));
      expect(one).toBeGreaterThan(0);
      expect(counted()).toBe(one);
    } finally {
      recorder.restore();
    }
  });

  it('counts at a bounded cost: exact within the cap, else a lower bound (gte) never below the rows paged', async () => {
    const bestSelling = [{ key: Prisma.sql`coalesce(p."bestSellerPosition", 2147483647)`, type: 'int4' as const }, { key: Prisma.sql`(-p."monthlyRevenueUsd")`, type: 'float8' as const }];
    const page = async (by: 'matches' | 'window', bound: number, where: Prisma.Sql[] = [], limit = 2) => {
      const { data, pagination } = await findPage(t.db.pool, {
        id: Prisma.sql`p."id"`, from: Prisma.sql`FROM "products" p`, where, keys: bestSelling, direction: 'ASC', digestOf: null, page: { limit },
        count: by === 'matches' ? { by, cap: bound } : { by, rows: bound },
        rows: { load: async (ids) => ids.map((id) => ({ id })) },
      });
      return { ids: data.map((row) => row.id), total: pagination.total, totalRelation: pagination.totalRelation, next: pagination.nextCursor };
    };
    for (const countBy of ['matches', 'window'] as const) {
      expect(await page(countBy, 3)).toMatchObject({ total: 3, totalRelation: 'gte' });
      expect(await page(countBy, 100)).toMatchObject({ total: 9, totalRelation: 'eq' });
    }
    expect(await page('matches', 9)).toMatchObject({ total: 9, totalRelation: 'eq' });
    // The window (the first 3 best sellers: A1 B1 C1) holds one of the two GBP products; a page of one shows there is
    // another, so at least 2 match; a page of two reaches the end: exactly 2.
    const gbp = [Prisma.sql`p."currency" = 'GBP'`];
    expect(await page('window', 3, gbp, 1)).toMatchObject({ ids: [P.C1], total: 2, totalRelation: 'gte' });
    expect(await page('window', 3, gbp, 2)).toMatchObject({ ids: [P.C1, P.C2], total: 2, totalRelation: 'eq', next: null });
    expect(await page('matches', 3, gbp, 1)).toMatchObject({ total: 2, totalRelation: 'eq' });
  });

  it('the total stays the same on every page of a query', async () => {
    const totals = new Set<string>();
    let cursor: string | null = null;
    do {
      const res: HttpResult = await query({ limit: 2, minActiveAds: 1, ...(cursor ? { cursor } : {}) });
      totals.add(`${res.body.pagination.total} ${res.body.pagination.totalRelation}`);
      cursor = res.body.pagination.nextCursor;
    } while (cursor);
    expect([...totals]).toEqual(['7 eq']);
  });
});

describe('POST /v1/products/query: filter families', () => {
  const cases: [string, Record<string, unknown>, string[]][] = [
    ['subscription', { subscription: 'subscription' }, [P.A2]],
    ['one-time', { subscription: 'one-time', currencies: ['EUR'] }, [P.A1, P.A3, P.A4]],
    ['published bounds (inclusive)', { publishedAfter: '2026-09-15', publishedBefore: '2026-10-01' }, [P.A1, P.B2]],
    ['promoTypes', { promoTypes: ['percent-off'] }, [P.A1]],
    ['currencies', { currencies: ['gbp'] }, [P.C1, P.C2]],
    ['shopCountries', { shopCountries: ['US', 'GB'] }, [P.B1, P.B2, P.B3, P.C1, P.C2]],
    ['sellingCountries by ads', { sellingCountries: ['DE'] }, [P.A1, P.A2]],
    ['sellingCountries by EU reach', { sellingCountries: ['IE'], sellingCountriesBasis: 'reach' }, [P.B1]],
    ['mainSellingCountries', { mainSellingCountries: ['US'] }, [P.A3, P.B1, P.B2]],
    ['mainSellingCountries by reach', { mainSellingCountries: ['DE'], sellingCountriesBasis: 'reach' }, [P.A2]],
    ['excludeSellingCountries', { excludeSellingCountries: ['US', 'GB'] }, [P.A1, P.A2, P.A4, P.B3]],
    ['shopVisitorCountries', { shopVisitorCountries: ['CA'] }, [P.B1, P.B2, P.B3]],
    ['categoryIds', { categoryIds: [567, 1011] }, [P.A1, P.A2, P.B3]],
    ['shop created bounds', { shopCreatedAfter: '2025-06-01', shopCreatedBefore: '2026-02-01' }, [P.B1, P.B2, P.B3, P.C1, P.C2]],
    ['pixelIds', { pixelIds: [PIXEL.tiktok] }, [P.B1, P.B2, P.B3]],
    ['shopifyAppIds', { shopifyAppIds: [101] }, [P.A1, P.A2, P.A3, P.A4]],
    ['themeIds', { themeIds: [THEME] }, [P.A1, P.A2, P.A3, P.A4]],
    ['ads launched in 7 days', { adsLaunchedPeriod: '7d', minAdsLaunched: 2 }, [P.A1, P.B1]],
    ['ads launched in 30 days', { adsLaunchedPeriod: '30d', minAdsLaunched: 2, maxAdsLaunched: 8 }, [P.A1, P.A2, P.B2]],
    ['partnership', { partnership: true }, [P.A1]],
    ['price in USD drops free products once set', { minPrice: 0 }, BEST_SELLING.filter((id) => id !== P.A3)],
    ['price bounds', { minPrice: 25, maxPrice: 48.9 }, [P.A1, P.A2, P.B2, P.B3, P.C2]],
    ['rating', { minRating: 4.5 }, [P.A1, P.B1]],
    ['review count', { minReviewCount: 50, maxReviewCount: 320 }, [P.A1, P.A2, P.B2]],
    ['best-seller percentile', { minBestSellerRank: 75 }, [P.A1, P.A2, P.B1, P.C1]],
    ['monthly revenue', { minMonthlyRevenue: 12000 }, [P.A1, P.A2, P.A3, P.B1]],
    ['monthly units', { maxMonthlyUnitsSold: 33 }, [P.A4, P.B3, P.C1]],
    ['active ads', { minActiveAds: 5, maxActiveAds: 12 }, [P.A1, P.A2, P.B2]],
    ['ad share', { minAdShare: 50 }, [P.A1, P.B1, P.C1, P.C2]],
    ['shop monthly visits', { minShopMonthlyVisits: 50000, maxShopMonthlyVisits: 100000 }, [P.A1, P.A2, P.A3, P.A4]],
    ['shop traffic growth (percent)', { minShopTrafficGrowth30d: 10 }, [P.A1, P.A2, P.A3, P.A4]],
    ['shop traffic growth below zero', { maxShopTrafficGrowth30d: -5 }, [P.B1, P.B2, P.B3]],
    ['shop products count', { maxShopProductsCount: 3 }, [P.B1, P.B2, P.B3, P.C1, P.C2]],
    ['searchFields description', { query: 'night', searchFields: ['description'] }, [P.A2]],
    ['searchFields shopName', { query: 'peak', searchFields: ['shopName', 'productName'] }, [P.B1, P.B2, P.B3]],
  ];
  it.each(cases)('%s', async (_name, body, expected) => {
    expect(same(ids(await query({ ...body, limit: 100 })))).toEqual(same(expected));
  });

  it('an empty body is the whole catalogue, best sellers first', async () => {
    expect(ids(await query({}))).toEqual(BEST_SELLING);
  });

  it('validates every family strictly, naming the field', async () => {
    expectViolation(await query({ minAdsLaunched: 1 }), 'body.adsLaunchedPeriod');
    expectViolation(await query({ adsLaunchedPeriod: '3d', minAdsLaunched: 1 }), 'body.adsLaunchedPeriod');
    expectViolation(await query({ minPrice: 50, maxPrice: 10 }), 'body.maxPrice', ['maxPrice must not be less than minPrice']);
    expectViolation(await query({ minActiveAds: 1.5 }), 'body.minActiveAds');
    expectViolation(await query({ minActiveAds: -1 }), 'body.minActiveAds');
    expectViolation(await query({ minBestSellerRank: 0 }), 'body.minBestSellerRank');
    expectViolation(await query({ maxAdShare: 101 }), 'body.maxAdShare');
    expectViolation(await query({ minShopTrafficGrowth30d: -101 }), 'body.minShopTrafficGrowth30d');
    expectViolation(await query({ cpm: 0 }), 'body.cpm');
    expectViolation(await query({ cpm: 1001 }), 'body.cpm');
    expectViolation(await query({ currencies: ['EURO'] }), 'body.currencies');
    expectViolation(await query({ currencies: ['XYZ'] }), 'body.currencies');
    expectViolation(await query({ shopCountries: ['XX'] }), 'body.shopCountries');
    expectViolation(await query({ pixelIds: ['meta'] }), 'body.pixelIds');
    expectViolation(await query({ subscription: 'monthly' }), 'body.subscription');
    expectViolation(await query({ sellingCountriesBasis: 'revenue' }), 'body.sellingCountriesBasis');
    expectViolation(await query({ searchFields: ['tags'] }), 'body.searchFields');
    expectViolation(await query({ publishedAfter: '2026-13-01' }), 'body.publishedAfter');
    expectViolation(await query({ categoryIds: [0] }), 'body.categoryIds');
    expect((await query({ someLegacyField: 1 })).status).toBe(200);
  });
});

describe('EU/UK data needs a Pro plan', () => {
  it('below Pro: euMetrics is locked with null figures, weekly EU figures null', async () => {
    const [a1] = (await query({ limit: 1 })).body.data;
    expect(a1.euMetrics).toEqual({ locked: true, spendUsd: null, dailySpendUsd: null, reach: null, spendShare: null, reachByCountry: null });
    expect(a1.weeklyHistory[0]).toEqual({ from: '2026-11-09', to: '2026-11-15', activeAds: 10, euDailySpendUsd: null, euDailyReach: null });
  });

  it('below Pro: EU filters and the spend sorts are a 403 forbidden naming the plan', async () => {
    for (const body of [{ minEuAdSpend: 1 }, { maxSpendShare: 50 }, { sortBy: 'spend' }, { sortBy: 'spend-14d' }]) {
      const res = await query(body);
      expect(res.status, JSON.stringify(body)).toBe(403);
      expect(res.body.error.code).toBe('forbidden');
      expect(res.body.error.message).toMatch(/Pro plan/);
    }
    expect((await get('/products?sortBy=spend')).status).toBe(403);
  });

  it('on Pro: figures at the request cpm, EU filters and spend sorts', async () => {
    const [a1] = (await query({ limit: 1 }, proKey)).body.data;
    expect(a1.euMetrics).toEqual({ locked: false, spendUsd: 900, dailySpendUsd: 30, reach: 100000, spendShare: 75, reachByCountry: [{ countryCode: 'FR', reach: 70000 }, { countryCode: 'DE', reach: 30000 }] });
    expect(a1.weeklyHistory[1]).toEqual({ from: '2026-11-16', to: '2026-11-22', activeAds: 12, euDailySpendUsd: 36, euDailyReach: 4000 });
    const [doubled] = (await query({ limit: 1, cpm: 18 }, proKey)).body.data;
    expect(doubled.euMetrics.spendUsd).toBe(1800);
    expect(doubled.weeklyHistory[1].euDailySpendUsd).toBe(72);
    expect(ids(await query({ sortBy: 'spend', limit: 3 }, proKey))).toEqual([P.A1, P.A2, P.B1]);
    expect(ids(await query({ sortBy: 'spend-14d', limit: 3 }, proKey))).toEqual([P.A1, P.A2, P.B1]);
    // EU spend bounds are at the request cpm: A2's 300 at cpm 9 is 600 at cpm 18.
    expect(same(ids(await query({ minEuAdSpend: 500 }, proKey)))).toEqual([P.A1]);
    expect(same(ids(await query({ minEuAdSpend: 500, cpm: 18 }, proKey)))).toEqual(same([P.A1, P.A2]));
    expect(same(ids(await query({ minSpendShare: 75 }, proKey)))).toEqual(same([P.A1, P.B1]));
  });
});

describe('GET /v1/products/facets', () => {
  it('lists currency, shop-origin and visitor-country values with product counts', async () => {
    const res = await get('/products/facets');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      currencies: [{ value: 'EUR', label: 'Euro', productsCount: 4 }, { value: 'USD', label: 'US Dollar', productsCount: 3 }, { value: 'GBP', label: 'British Pound', productsCount: 2 }],
      shopCountries: [{ value: 'FR', label: 'France', productsCount: 4 }, { value: 'US', label: 'United States', productsCount: 3 }, { value: 'GB', label: 'United Kingdom', productsCount: 2 }],
      shopVisitorCountries: [
        { value: 'DE', label: 'Germany', productsCount: 4 }, { value: 'FR', label: 'France', productsCount: 4 }, { value: 'CA', label: 'Canada', productsCount: 3 },
        { value: 'US', label: 'United States', productsCount: 3 }, { value: 'GB', label: 'United Kingdom', productsCount: 2 },
      ],
    });
  });
});

describe('REST and GraphQL', () => {
  it('return the same rows and pages', async () => {
    const body = { currencies: ['EUR', 'USD'], sortBy: 'est-sales', limit: 3 };
    const rest = await query(body);
    const gql = await t.graphql(
      `query($c: [String!], $s: String, $l: Int, $cursor: String) { productsQuery(currencies: $c, sortBy: $s, limit: $l, cursor: $cursor) {
        data { id title price { amount currency } euMetrics { locked spendUsd } shop { domain } } pagination { limit total totalRelation nextCursor } } }`,
      { c: body.currencies, s: body.sortBy, l: body.limit },
      key,
    );
    expect(gql.body.errors).toBeUndefined();
    const page = gql.body.data.productsQuery;
    expect(page.data.map((p: { id: string }) => p.id)).toEqual(ids(rest));
    expect(page.data[0]).toEqual({ id: rest.body.data[0].id, title: rest.body.data[0].title, price: { amount: rest.body.data[0].price.amount, currency: rest.body.data[0].price.currency }, euMetrics: { locked: true, spendUsd: null }, shop: { domain: rest.body.data[0].shop.domain } });
    expect({ ...page.pagination, nextCursor: null }).toEqual({ ...rest.body.pagination, nextCursor: null });
    // A GraphQL cursor continues the REST query, and the other way round: the cursor belongs to the query, not the surface.
    const next = await query({ ...body, cursor: page.pagination.nextCursor });
    const gqlNext = await t.graphql(`query($c: [String!], $s: String, $l: Int, $cursor: String) { productsQuery(currencies: $c, sortBy: $s, limit: $l, cursor: $cursor) { data { id } } }`, { c: body.currencies, s: body.sortBy, l: body.limit, cursor: rest.body.pagination.nextCursor }, key);
    expect(gqlNext.body.data.productsQuery.data.map((p: { id: string }) => p.id)).toEqual(ids(next));
  });

  it('GraphQL errors carry the same codes', async () => {
    const bad = await t.graphql(`{ productsQuery(minAdsLaunched: 1) { data { id } } }`, undefined, key);
    expect(bad.body.errors[0].extensions.code).toBe('validation_error');
    const locked = await t.graphql(`{ products(sortBy: "spend") { data { id } } }`, undefined, key);
    expect(locked.body.errors[0].extensions.code).toBe('forbidden');
  });

  it('the OpenAPI document says what each route costs', async () => {
    const { body } = await t.rest('GET', '/openapi.json');
    expect(body.paths['/v1/products'].get.description).toMatch(/one credit per returned product/);
    expect(body.paths['/v1/products/query'].post.description).toMatch(/one credit per returned product/);
    expect(body.paths['/v1/products/facets'].get.description).toMatch(/Free/);
    expect(body.paths['/v1/products/image-search'].post.description).toMatch(/one credit per returned product/);
    expect(body.paths['/v1/shops/image-search'].post.description).toMatch(/one credit per returned shop/);
  });

  it('needs an API key', async () => {
    expect((await t.rest('GET', '/products', { key: null })).status).toBe(401);
  });
});
