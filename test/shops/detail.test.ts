import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import { GLOW, LAB, PEAK, shopsScenario, TINY } from './scenario.js';
import { expectNotFound, expectViolation } from '../support/assertions.js';
import { idsOf } from './support.js';

// The shop detail, similar shops and the shop sub-resources, against the scenario (see scenario.ts).

let t: TestApp;
let key: string;
beforeAll(async () => {
  t = await createTestApp(shopsScenario);
  ({ apiKey: key } = await t.newKey());
});
afterAll(() => t?.close());

const get = (path: string) => t.rest('GET', path, { key });
const MISSING = '5b0e0000-0000-4000-8000-00000000ffff';

describe('GET /v1/shops/{shopId}', () => {
  it('answers the detail: the summary plus trustpilot, socials, technology, growths and similar shops', async () => {
    const res = await get(`/shops/${GLOW}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const shop = res.body.data;
    expect(Object.keys(shop)).toEqual([
      'id', 'domain', 'name', 'screenshotUrl', 'createdAt', 'profile', 'trustpilot', 'socials', 'catalog', 'traffic', 'advertising', 'technology', 'tiktok', 'latestAds', 'similarShops', 'provenance',
    ]);
    expect(shop.profile).toEqual({ countryCode: 'SE', currency: 'SEK', isShopifyPlus: true, defaultLanguage: 'sv' });
    expect(shop.trustpilot).toEqual({ rating: 4.5, reviewCount: 1200, brandName: 'Nordic Glow', brandLogo: 'http://api.test/media/shops/nordicglow-logo.png', url: 'https://www.trustpilot.com/review/nordicglow.com' });
    expect(shop.socials.facebook).toEqual({ handle: 'nordicglow', url: 'https://www.facebook.com/nordicglow', followers: 10099 });
    expect(shop.socials.instagram.followers).toBe(5099);
    expect(shop.socials.youtube).toBeNull();
    expect(shop.catalog).toMatchObject({ productsCount: 120, mainCategory: 'Health & Beauty', categories: ['Health & Beauty', 'Skin Care'], myShopifyDomain: 'nordic-glow.myshopify.com' });
    expect(shop.traffic).toMatchObject({ monthlyVisits: 50000, growth30d: 0.2, growth90d: 0.5, growth180d: 1 });
    expect(shop.traffic.mainMarkets).toEqual(shop.traffic.topCountries);
    expect(shop.advertising).toMatchObject({
      activeAds: 2,
      linkedAdvertisersCount: 1,
      linkedAdvertisers: [{ id: '1001', platform: 'facebook', facebookPageId: '1001', name: 'Nordic Glow', isPrimary: true, activeAds: 2 }],
      summary: { liveAdsCount: 2, reach30d: 7000, totalReach: 9000 },
    });
    expect(shop.technology.theme).toBe('Dawn');
    expect(shop.technology.apps.map((app: { id: number }) => app.id)).toEqual([101, 102]);
    expect(shop.technology.pixels.map((pixel: { slug: string }) => pixel.slug).sort()).toEqual(['meta-pixel', 'tiktok-pixel']);
    expect(shop.tiktok.handle).toBe('nordicglow');
    expect(shop.similarShops.map((row: { shop: { id: string } }) => row.shop.id)).toEqual([LAB]);
    expect(shop.similarShops[0].similarityScore).toBeGreaterThan(0);
  });

  it('answers 404 for an unknown or malformed id', async () => {
    expectNotFound(await get(`/shops/${MISSING}`));
    expectNotFound(await get('/shops/nordicglow.com'));
  });

  it('leaves out tiktok and trustpilot where the shop has none', async () => {
    const res = await get(`/shops/${TINY}`);
    expect(res.status).toBe(200);
    expect('tiktok' in res.body.data).toBe(false);
    expect(res.body.data.trustpilot).toBeNull();
    expect(res.body.data.similarShops).toEqual([]);
  });
});

describe('GET /v1/shops/{identifier}/similar', () => {
  it('resolves a domain, a URL, a related domain or an id, with meta.shopExists', async () => {
    for (const identifier of ['nordicglow.com', encodeURIComponent('https://nordicglow.com/collections/all'), 'nordicglow.se', GLOW]) {
      const res = await get(`/shops/${identifier}/similar`);
      expect(idsOf(res, (row) => row.shop.id)).toEqual([LAB]);
      expect(res.body.meta).toEqual({ shopExists: true });
      expect(res.body.pagination).toEqual({ limit: 32, offset: 0, total: 1 });
      expect(Object.keys(res.body.data[0])).toEqual(['shop', 'similarityScore']);
    }
  });

  it('scores what two shops share: more shared traits, a higher score', async () => {
    // LAB shares GLOW's category 1, app 101, the Meta pixel, Shopify, the home country and a close price; PEAK shares none of its categories.
    const res = await get(`/shops/${LAB}/similar`);
    expect(idsOf(res, (row) => row.shop.id)).toEqual([GLOW]);
    const score = res.body.data[0].similarityScore;
    expect(score).toBeGreaterThan(0.5);
    expect(score).toBeLessThanOrEqual(1);
    expect(idsOf(await get(`/shops/${PEAK}/similar`), (row) => row.shop.id)).toEqual([]);
  });

  it('answers 200 with empty data and shopExists false for an unknown shop', async () => {
    for (const identifier of ['unknown-shop.com', MISSING]) {
      const res = await get(`/shops/${identifier}/similar`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ data: [], pagination: { limit: 32, offset: 0, total: 0 }, meta: { shopExists: false } });
    }
  });

  it('explains the score in the OpenAPI document', async () => {
    const doc = (await t.rest('GET', '/openapi.json')).body;
    expect(JSON.stringify(doc.paths['/v1/shops/{identifier}/similar'].get.responses['200'].content['application/json'].schema)).toContain('"#/components/schemas/SimilarShopPage"');
    expect(doc.components.schemas.SimilarShop.properties.similarityScore.description).toContain('similarityScore (0..1) = 0.30 shared categories (Jaccard)');
  });

  it('validates its bounds', async () => {
    expectViolation(await get(`/shops/${GLOW}/similar?limit=101`), 'query-string.limit');
    expectViolation(await get(`/shops/${GLOW}/similar?sortBy=name`), 'query-string.sortBy');
  });
});

describe('shop sub-resources', () => {
  it('returns the sales readings as stored, oldest first, never summed', async () => {
    const res = await get(`/shops/${GLOW}/sales/history`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([
      { date: '2026-11-02', revenueUsd: 80000, revenueMinUsd: 60000, revenueMaxUsd: 100000, unitsSold: 2600, ordersCount: 2100 },
      { date: '2026-11-09', revenueUsd: 85000, revenueMinUsd: 64000, revenueMaxUsd: 106000, unitsSold: 2800, ordersCount: 2250 },
      { date: '2026-11-16', revenueUsd: 90000, revenueMinUsd: 67000, revenueMaxUsd: 113000, unitsSold: 3000, ordersCount: 2400 },
    ]);
    expect((await get(`/shops/${LAB}/sales/history`)).body.data).toEqual([]);
  });

  it('lists linked advertisers', async () => {
    const res = await get(`/shops/${PEAK}/advertisers?limit=5`);
    expect(res.body).toEqual({ requestId: res.body.requestId, data: [{ id: '1002', platform: 'facebook', facebookPageId: '1002', name: 'Peak Fitness', isPrimary: true, activeAds: 1 }] });
    expectViolation(await get(`/shops/${PEAK}/advertisers?limit=0`), 'query-string.limit');
  });

  it('returns follower history by day, week and month within the window', async () => {
    const daily = (await get(`/shops/${GLOW}/socials/history?days=7`)).body.data;
    expect(daily.facebook.map((p: { value: number }) => p.value)).toEqual([10093, 10094, 10095, 10096, 10097, 10098, 10099]);
    expect(daily.instagram).toHaveLength(7);
    const standard = (await get(`/shops/${GLOW}/socials/history`)).body.data;
    expect(standard.facebook).toHaveLength(90);
    expect(standard.instagram).toHaveLength(50);
    const weekly = (await get(`/shops/${GLOW}/socials/history?period=week&days=28`)).body.data.facebook;
    expect(weekly.at(-1).value).toBe(10099);
    for (const point of weekly) expect(new Date(`${point.period}T00:00:00Z`).getUTCDay()).toBe(1);
    const monthly = (await get(`/shops/${GLOW}/socials/history?period=month&days=365`)).body.data.facebook;
    for (const point of monthly) expect(point.period).toMatch(/^\d{4}-\d{2}-01$/);
    expect((await get(`/shops/${LAB}/socials/history`)).body.data).toEqual({ facebook: [], instagram: [] });
    expectViolation(await get(`/shops/${GLOW}/socials/history?days=6`), 'query-string.days');
    expectViolation(await get(`/shops/${GLOW}/socials/history?days=366`), 'query-string.days');
    expectViolation(await get(`/shops/${GLOW}/socials/history?period=year`), 'query-string.period');
  });

  it('lists products by popularity, price and creation date', async () => {
    const res = await get(`/shops/${GLOW}/products?limit=2&offset=1`);
    expect(res.status).toBe(200);
    expect(res.body.pagination).toEqual({ limit: 2, offset: 1, total: 4 });
    expect(res.body.data[0]).toEqual({
      id: '903', title: 'Glow serum no. 3', handle: 'glow-serum-3', imageUrl: 'http://api.test/media/p/3.jpg', productUrl: 'https://nordicglow.com/products/glow-serum-3',
      price: 300.5, currency: 'SEK', rank: 2, createdAt: '2026-03-10T00:00:00.000Z', publishedAt: '2026-03-11T00:00:00.000Z',
    });
    expect(idsOf(await get(`/shops/${GLOW}/products?sortBy=price`))).toEqual(['904', '903', '902', '901']);
    expect(idsOf(await get(`/shops/${GLOW}/products?sortBy=price&order=asc`))).toEqual(['901', '902', '903', '904']);
    expect(idsOf(await get(`/shops/${GLOW}/products?sortBy=createdAt`))).toEqual(['904', '903', '902', '901']);
    expectViolation(await get(`/shops/${GLOW}/products?offset=10001`), 'query-string.offset');
    expectViolation(await get(`/shops/${GLOW}/products?sortBy=rating`), 'query-string.sortBy');
  });

  it('answer 404 for an unknown shop', async () => {
    for (const path of ['sales/history', 'advertisers', 'socials/history', 'products']) expectNotFound(await get(`/shops/${MISSING}/${path}`));
  });

  it('agree on both surfaces', async () => {
    const gql = await t.graphql(`{ shop(shopId: "${GLOW}") { domain similarShops { similarityScore shop { id } } }
      shopSalesHistory(shopId: "${GLOW}") { date revenueUsd } shopProducts(shopId: "${GLOW}", limit: 1) { data { id price } } }`, undefined, key);
    expect(gql.body.errors).toBeUndefined();
    const rest = (await get(`/shops/${GLOW}`)).body.data;
    expect(gql.body.data.shop.similarShops).toEqual(rest.similarShops.map((row: { similarityScore: number; shop: { id: string } }) => ({ similarityScore: row.similarityScore, shop: { id: row.shop.id } })));
    expect(gql.body.data.shopSalesHistory[0]).toEqual({ date: '2026-11-02', revenueUsd: 80000 });
    expect(gql.body.data.shopProducts.data).toEqual([{ id: '904', price: 400.5 }]);
  });
});
