import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import { DAWN, daysAgo, GLOW, IMPULSE, LAB, META_PIXEL, PEAK, shopsScenario, TIKTOK_PIXEL, TINY } from './scenario.js';
import { keyPaths } from '../support/shapes.js';
import { searchBounds } from '../../src/schema/shared/list.js';
import { SHOP_SUMMARY } from './shapes.js';
import { expectViolation } from '../support/assertions.js';
import { statementsOf } from '../support/statements.js';
import { idsOf } from './support.js';

// GET /v1/shops and POST /v1/shops/query against the scenario's four shops (see scenario.ts). Default order:
// monthly visits, most first: PEAK 300000, GLOW 50000, LAB 20000, TINY 900.

let t: TestApp;
let key: string;
beforeAll(async () => {
  t = await createTestApp(shopsScenario);
  ({ apiKey: key } = await t.newKey());
});
afterAll(() => t?.close());

const get = (path: string) => t.rest('GET', path, { key });
const query = (body: unknown) => t.rest('POST', '/shops/query', { key, body });
const sorted = (ids: unknown[]) => [...ids].map(String).sort();

describe('GET /v1/shops', () => {
  it('lists shop summaries in the offset envelope, most visited first, with the specification\'s keys', async () => {
    const res = await get('/shops');
    expect(idsOf(res)).toEqual([PEAK, GLOW, LAB, TINY]);
    expect(Object.keys(res.body)).toEqual(['requestId', 'data', 'pagination', 'meta']);
    expect(res.body.pagination).toEqual({ limit: 32, offset: 0, total: 4 });
    const glow = res.body.data[1];
    expect(Object.keys(glow)).toEqual(Object.keys(SHOP_SUMMARY));
    expect(keyPaths(glow)).toEqual(keyPaths(SHOP_SUMMARY));
    expect(glow.profile).toEqual({ countryCode: 'SE', currency: 'SEK', isShopifyPlus: true });
    expect(glow.catalog.bestSellers).toEqual([
      { imageUrl: 'http://api.test/media/p/4.jpg', title: 'Glow serum no. 4', price: 400.5, currency: 'SEK' },
      { imageUrl: 'http://api.test/media/p/3.jpg', title: 'Glow serum no. 3', price: 300.5, currency: 'SEK' },
      { imageUrl: 'http://api.test/media/p/2.jpg', title: 'Glow serum no. 2', price: 200.5, currency: 'SEK' },
    ]);
    expect(glow.traffic.history.map((p: { period: string }) => p.period)).toEqual(['2026-04-01', '2026-05-01', '2026-06-01', '2026-07-01', '2026-08-01', '2026-09-01']);
    expect(glow.traffic.topCountries).toEqual([{ countryCode: 'SE', share: 0.6 }, { countryCode: 'NO', share: 0.2 }, { countryCode: 'DE', share: 0.1 }]);
    expect(glow.advertising).toMatchObject({ activeAds: 2, linkedAdvertisersCount: 1, topCountries: [{ countryCode: 'SE', share: 0.6667 }, { countryCode: 'NO', share: 0.3333 }] });
    expect(glow.advertising.history).toHaveLength(26);
    // This week (from Monday): the two active ads, and facebook_73 when its last day (3 days ago) is this week's.
    const monday = daysAgo((new Date().getUTCDay() + 6) % 7);
    expect(glow.advertising.history.at(-1)).toEqual({ period: monday.toISOString().slice(0, 10), value: daysAgo(3) >= monday ? 3 : 2 });
    expect(glow.latestAds.map((ad: { id: string }) => ad.id)).toEqual(['facebook_72', 'facebook_71', 'facebook_73']);
    expect(glow.latestAds[1]).toEqual({ id: 'facebook_71', mediaType: 'video', mediaUrl: 'http://api.test/media/ads/facebook_71.mp4', thumbnailUrl: 'http://api.test/media/ads/facebook_71-thumb.jpg' });
    expect(glow.tiktok).toMatchObject({
      hasTikTok: true, pageId: '7900000000000000001', handle: 'nordicglow',
      profileMetrics: { followers: 5000, totalPosts: 3, newPosts: 1, totalViews: 80000, totalLikes: 4000 },
      activity: { activeAds: 2, totalAds: 2, avgActiveAds7d: 2, avgActiveAds30d: 2 },
    });
    // Indexed only: a shop without a TikTok account has no tiktok key.
    expect('tiktok' in res.body.data[0]).toBe(false);
  });

  it('pages by offset and limit', async () => {
    const res = await get('/shops?limit=2&offset=1');
    expect(idsOf(res)).toEqual([GLOW, LAB]);
    expect(res.body.pagination).toEqual({ limit: 2, offset: 1, total: 4 });
  });

  it('counts a filtered total up to the cap, then flags it as a lower bound (never below the rows up to the page)', async () => {
    const cap = searchBounds.totalCap;
    try {
      searchBounds.totalCap = 2;
      const first = await get('/shops?limit=1');
      expect(idsOf(first)).toEqual([PEAK]);
      expect(first.body.pagination.total).toBe(2);
      expect(first.body.meta).toEqual({ totalRelation: 'gte' });
      const last = await get('/shops?limit=2&offset=2');
      expect(idsOf(last)).toEqual([LAB, TINY]);
      expect(last.body.pagination.total).toBe(4);
      expect(last.body.meta).toEqual({ totalRelation: 'gte' });
      // A short page shows where the list ends: the total is exact again.
      const short = await get('/shops?limit=3&offset=2');
      expect(idsOf(short)).toEqual([LAB, TINY]);
      expect(short.body.pagination.total).toBe(4);
      expect(short.body.meta).toEqual({ totalRelation: 'eq' });
      // Past the end, only the cap is known: never the offset.
      const past = await get('/shops?limit=2&offset=10');
      expect(idsOf(past)).toEqual([]);
      expect(past.body.pagination.total).toBe(2);
      expect(past.body.meta).toEqual({ totalRelation: 'gte' });
      searchBounds.totalCap = 4;
      const exact = await get('/shops?limit=1');
      expect(exact.body.pagination.total).toBe(4);
      expect(exact.body.meta).toEqual({ totalRelation: 'eq' });
    } finally {
      searchBounds.totalCap = cap;
    }
  });

  it('searches names, domains and related domains broadly', async () => {
    expect(sorted(idsOf(await get('/shops?search=glow')))).toEqual(sorted([GLOW, LAB]));
    expect(idsOf(await get('/shops?search=nordicglow.se'))).toEqual([GLOW]);
    expect(idsOf(await get('/shops?search=candles'))).toEqual([TINY]);
  });

  it('sorts by the documented keys in both orders', async () => {
    expect(idsOf(await get('/shops?sortBy=productsCount&order=asc'))).toEqual([TINY, LAB, GLOW, PEAK]);
    expect(idsOf(await get('/shops?sortBy=createdAt'))).toEqual([TINY, LAB, GLOW, PEAK]);
    expect(idsOf(await get('/shops?sortBy=growth30d')).slice(0, 3)).toEqual([GLOW, PEAK, LAB]);
    expect(idsOf(await get('/shops?sortBy=activeAds')).slice(0, 2)).toEqual([GLOW, PEAK]);
    expect(idsOf(await get('/shops?sortBy=tiktokFollowers'))[0]).toBe(GLOW);
  });

  it('filters by the stable filters', async () => {
    expect(idsOf(await get('/shops?minMonthlyVisits=20000&maxMonthlyVisits=60000'))).toEqual([GLOW, LAB]);
    expect(idsOf(await get('/shops?minProductsCount=100'))).toEqual([PEAK, GLOW]);
    expect(idsOf(await get('/shops?createdAfter=2020-01-15&createdBefore=2023-06-01'))).toEqual([GLOW, LAB]);
    expect(idsOf(await get('/shops?isShopifyPlus=true'))).toEqual([GLOW]);
    expect(idsOf(await get('/shops?categoryIds=2,3'))).toEqual([PEAK, GLOW]);
    expect(idsOf(await get(`/shops?pixelIds=${META_PIXEL}`))).toEqual([GLOW, LAB]);
    expect(idsOf(await get(`/shops?excludePixelIds=${META_PIXEL}`))).toEqual([PEAK, TINY]);
    expect(idsOf(await get('/shops?shopifyAppIds=102'))).toEqual([PEAK, GLOW]);
    expect(idsOf(await get('/shops?excludeShopifyAppIds=101&excludeShopifyAppIds=102'))).toEqual([TINY]);
    expect(idsOf(await get('/shops?languages=French'))).toEqual([TINY]);
    expect(idsOf(await get('/shops?currencies=eur'))).toEqual([LAB, TINY]);
    expect(idsOf(await get('/shops?minTrustpilotRating=4&minTrustpilotReviewCount=1000'))).toEqual([GLOW]);
    expect(idsOf(await get('/shops?minActiveAds=2'))).toEqual([GLOW]);
    // The inactive ad last ran 3 days ago: it counts in a 7-day window, not in the live (24h) one.
    expect(idsOf(await get('/shops?minActiveAds=3&adsTimePeriod=last7d'))).toEqual([GLOW]);
    expect(idsOf(await get('/shops?minActiveAds=3'))).toEqual([]);
    expect(idsOf(await get('/shops?hasTikTok=true'))).toEqual([GLOW]);
    expect(idsOf(await get('/shops?hasTikTok=false'))).toEqual([PEAK, LAB, TINY]);
    expect(idsOf(await get('/shops?minTikTokFollowers=1000&minTikTokActiveAds=2&maxTikTokTotalPosts=3'))).toEqual([GLOW]);
  });

  it('filters by apps, pixels and technologies as the link tables hold them after any write', async () => {
    const { prisma } = t.db;
    await prisma.shopApp.delete({ where: { shopId_appId: { shopId: GLOW, appId: 102 } } });
    await prisma.shopPixel.create({ data: { shopId: TINY, pixelId: META_PIXEL } });
    await prisma.shopTechnology.deleteMany({ where: { shopId: LAB } });
    try {
      expect(idsOf(await get('/shops?shopifyAppIds=102'))).toEqual([PEAK]);
      expect(idsOf(await get(`/shops?pixelIds=${META_PIXEL}`))).toEqual([GLOW, LAB, TINY]);
      expect(idsOf(await query({ technologies: ['shopify'] }))).toEqual([PEAK, GLOW]);
    } finally {
      await prisma.shopApp.create({ data: { shopId: GLOW, appId: 102 } });
      await prisma.shopPixel.delete({ where: { shopId_pixelId: { shopId: TINY, pixelId: META_PIXEL } } });
      const shopify = await prisma.technology.findUniqueOrThrow({ where: { slug: 'shopify' } });
      await prisma.shopTechnology.create({ data: { shopId: LAB, technologyId: shopify.id } });
    }
    expect(idsOf(await get('/shops?shopifyAppIds=102'))).toEqual([PEAK, GLOW]);
    expect(idsOf(await query({ technologies: ['shopify'] }))).toEqual([PEAK, GLOW, LAB]);
  });

  it('keeps the arrays equal to the link tables through updates, cascades and truncation', async () => {
    const { prisma } = t.db;
    const agg = (table: string, column: string) => `coalesce((SELECT array_agg(x."${column}" ORDER BY x."${column}") FROM "${table}" x WHERE x."shopId" = s."id"), '{}')`;
    const drift = () => prisma.$queryRawUnsafe<{ id: string }[]>(`SELECT s."id" FROM "shops" s WHERE s."appIds" <> ${agg('shop_apps', 'appId')}
      OR s."pixelIds" <> ${agg('shop_pixels', 'pixelId')} OR s."technologyIds" <> ${agg('shop_technologies', 'technologyId')}`);
    const apps = await prisma.shopApp.findMany();
    const pixels = await prisma.shopPixel.findMany();
    try {
      // A link moved to another shop: both shops change.
      await prisma.shopApp.update({ where: { shopId_appId: { shopId: LAB, appId: 101 } }, data: { shopId: TINY } });
      expect(idsOf(await get('/shops?shopifyAppIds=101'))).toEqual([GLOW, TINY]);
      // An app removed from the catalogue: its links go by cascade.
      await prisma.shopifyApp.create({ data: { id: 103, label: 'Gone', slug: 'gone' } });
      await prisma.shopApp.create({ data: { shopId: PEAK, appId: 103 } });
      expect(idsOf(await get('/shops?shopifyAppIds=103'))).toEqual([PEAK]);
      await prisma.shopifyApp.delete({ where: { id: 103 } });
      expect(idsOf(await get('/shops?shopifyAppIds=103'))).toEqual([]);
      // A link table emptied at once.
      await prisma.$executeRaw`TRUNCATE "shop_pixels"`;
      expect(idsOf(await get(`/shops?pixelIds=${META_PIXEL}`))).toEqual([]);
      expect(await drift()).toEqual([]);
    } finally {
      await prisma.shopApp.deleteMany();
      await prisma.shopApp.createMany({ data: apps });
      await prisma.shopPixel.createMany({ data: pixels });
    }
    expect(await drift()).toEqual([]);
    expect(idsOf(await get(`/shops?pixelIds=${META_PIXEL}`))).toEqual([GLOW, LAB]);
  });

  it('answers bad bounds and enums with a 400 naming the field', async () => {
    expectViolation(await get('/shops?limit=101'), 'query-string.limit');
    expectViolation(await get('/shops?limit=0'), 'query-string.limit');
    expectViolation(await get('/shops?offset=-1'), 'query-string.offset');
    expectViolation(await get('/shops?sortBy=revenue'), 'query-string.sortBy');
    expectViolation(await get('/shops?order=up'), 'query-string.order');
    expectViolation(await get('/shops?minMonthlyVisits=1.5'), 'query-string.minMonthlyVisits');
    expectViolation(await get('/shops?minMonthlyVisits=-1'), 'query-string.minMonthlyVisits');
    expectViolation(await get('/shops?pixelIds=meta'), 'query-string.pixelIds');
    expectViolation(await get('/shops?currencies=EURO'), 'query-string.currencies');
    expectViolation(await get('/shops?languages=klingon'), 'query-string.languages');
    expectViolation(await get('/shops?maxTrustpilotRating=6'), 'query-string.maxTrustpilotRating');
    expectViolation(await get('/shops?createdAfter=yesterday'), 'query-string.createdAfter');
  });
});

describe('POST /v1/shops/query', () => {
  it('matches a domain exactly, from a URL with a path or a subdomain, and never falls back to text', async () => {
    expect(idsOf(await query({ search: 'https://www.nordicglow.com/products/serum?x=1', searchType: 'domain' }))).toEqual([GLOW]);
    expect(idsOf(await query({ search: 'shop.nordicglow.com', searchType: 'domain' }))).toEqual([GLOW]);
    expect(idsOf(await query({ search: 'nordicglow.se', searchType: 'domain' }))).toEqual([GLOW]);
    expect(idsOf(await query({ search: 'nordic-glow.myshopify.com', searchType: 'domain' }))).toEqual([GLOW]);
    // Text that names shops matches nothing as a domain; a look-alike domain neither.
    expect(idsOf(await query({ search: 'glow', searchType: 'domain' }))).toEqual([]);
    expect(idsOf(await query({ search: 'mynordicglow.com', searchType: 'domain' }))).toEqual([]);
    expect(sorted(idsOf(await query({ search: 'glow', searchType: 'shopContains' })))).toEqual(sorted([GLOW, LAB]));
  });

  it('searches product names with productName', async () => {
    expect(idsOf(await query({ search: 'kettlebell', searchType: 'productName' }))).toEqual([PEAK]);
  });

  it('filters by facets, countries, markets, money and flags', async () => {
    expect(idsOf(await query({ themeIds: [DAWN] }))).toEqual([GLOW, LAB]);
    expect(idsOf(await query({ excludeThemeIds: [DAWN] }))).toEqual([PEAK, TINY]);
    expect(idsOf(await query({ themeIds: [IMPULSE], pixelIds: [TIKTOK_PIXEL] }))).toEqual([PEAK]);
    expect(idsOf(await query({ technologies: ['klaviyo'] }))).toEqual([GLOW]);
    expect(idsOf(await query({ excludeTechnologies: ['shopify'] }))).toEqual([TINY]);
    expect(idsOf(await query({ excludeCategoryIds: [1] }))).toEqual([PEAK, TINY]);
    expect(idsOf(await query({ creationCountries: ['se'] }))).toEqual([GLOW, LAB]);
    expect(idsOf(await query({ excludeCreationCountries: ['SE', 'US'] }))).toEqual([TINY]);
    expect(idsOf(await query({ mainMarketCountries: ['DE'] }))).toEqual([LAB]);
    expect(idsOf(await query({ marketCountries: ['DE'] }))).toEqual([GLOW, LAB]);
    expect(idsOf(await query({ excludeMarketCountries: ['DE'] }))).toEqual([PEAK, TINY]);
    expect(idsOf(await query({ minEstimatedRevenue: 50000, maxEstimatedRevenue: 100000 }))).toEqual([GLOW]);
    expect(idsOf(await query({ minBestSellerPrice: 26, maxBestSellerPrice: 79 }))).toEqual([GLOW]);
    expect(idsOf(await query({ displayInTrending: true }))).toEqual([GLOW]);
    expect(idsOf(await query({ dtcRegion: 'all' }))).toEqual([PEAK, GLOW, LAB]);
    expect(idsOf(await query({ dtcRegion: 'us' }))).toEqual([PEAK]);
    expect(idsOf(await query({ dtcRegion: 'eu' }))).toEqual([GLOW, LAB]);
  });

  it('filters by growth conditions (percent), AND binding tighter than OR', async () => {
    expect(idsOf(await query({ trafficGrowth: [{ period: 'last30d', comparison: 'greater', value: 10 }] }))).toEqual([GLOW]);
    expect(idsOf(await query({ trafficGrowth: [{ period: 'last30d', comparison: 'lower', value: 0 }] }))).toEqual([LAB]);
    expect(idsOf(await query({ trafficGrowth: [{ period: 'last90d', comparison: 'greater', value: 40 }] }))).toEqual([GLOW]);
    const either = [{ period: 'last30d', comparison: 'greater', value: 10, operator: 'or' }, { period: 'last30d', comparison: 'lower', value: 0 }];
    expect(idsOf(await query({ trafficGrowth: either }))).toEqual([GLOW, LAB]);
    const both = [{ period: 'last30d', comparison: 'greater', value: 1, operator: 'and' }, { period: 'last30d', comparison: 'lower', value: 10 }];
    expect(idsOf(await query({ trafficGrowth: both }))).toEqual([PEAK]);
  });

  it('filters by ads growth, and accepts the reach growth conditions', async () => {
    // GLOW: 2 ads first seen in the last 30 days against 1 in the 30 before (+100%); no other shop launched any before.
    expect(idsOf(await query({ adsGrowth: [{ period: 'last30d', comparison: 'greater', value: 50 }] }))).toEqual([GLOW]);
    expect(idsOf(await query({ adsGrowth: [{ period: 'last30d', comparison: 'lower', value: 50 }] }))).toEqual([]);
    // No page impressions or daily reach in the scenario: a growth is unknown, and an unknown growth matches no condition.
    expect(idsOf(await query({ pageReachGrowth: [{ period: 'last14d', comparison: 'greater', value: 0 }] }))).toEqual([]);
    expect(idsOf(await query({ adReachGrowth: [{ period: 'last60d', comparison: 'lower', value: 0 }] }))).toEqual([]);
    // A condition without a value is refused, never dropped (dropping it would also relink its neighbours' operators).
    const valueless = await query({ adsGrowth: [{ period: 'last7d', comparison: 'greater' }] });
    expect(valueless.status).toBe(400);
    expect(valueless.body.error.details.validationErrors[0].field).toBe('body.adsGrowth');
    expect((await query({ trafficGrowth: [{ period: 'last30d', comparison: 'greater', value: -101 }] })).status).toBe(400);
  });

  it('ranks a text search by relevance and falls back to visits without one', async () => {
    expect(idsOf(await query({ sortBy: 'relevance' }))).toEqual([PEAK, GLOW, LAB, TINY]);
    expect(idsOf(await query({ search: 'nordic glow', sortBy: 'relevance' }))[0]).toBe(GLOW);
  });

  it('answers bad bodies with a 400 naming the field', async () => {
    expectViolation(await query({ searchType: 'fuzzy' }), 'body.searchType');
    expectViolation(await query({ limit: 500 }), 'body.limit');
    expectViolation(await query({ creationCountries: ['XX'] }), 'body.creationCountries');
    expectViolation(await query({ themeIds: ['dawn'] }), 'body.themeIds');
    expectViolation(await query({ shopifyAppIds: [1.5] }), 'body.shopifyAppIds');
    expectViolation(await query({ trafficGrowth: [{ period: 'last7d', comparison: 'greater', value: 1 }] }), 'body.trafficGrowth');
    expectViolation(await query({ dtcRegion: 'asia' }), 'body.dtcRegion');
  });

  it('ignores unknown body fields', async () => {
    expect(idsOf(await query({ domains: ['x.com'], name: 'y' }))).toEqual([PEAK, GLOW, LAB, TINY]);
  });
});

describe('both surfaces', () => {
  it('return the same rows for the same filters', async () => {
    const rest = await query({ search: 'glow', searchType: 'shopContains', categoryIds: [1], sortBy: 'monthlyVisits', limit: 5 });
    const gql = await t.graphql(
      `{ shopsQuery(search: "glow", searchType: shopContains, categoryIds: [1], sortBy: monthlyVisits, limit: 5) {
          data { id domain traffic { monthlyVisits } advertising { activeAds } tiktok { handle } } pagination { limit offset total } } }`,
      undefined,
      key,
    );
    expect(gql.body.errors).toBeUndefined();
    const rows = gql.body.data.shopsQuery.data;
    expect(rows.map((row: { id: string }) => row.id)).toEqual(idsOf(rest));
    expect(rows[0]).toEqual({ id: GLOW, domain: 'nordicglow.com', traffic: { monthlyVisits: 50000 }, advertising: { activeAds: 2 }, tiktok: { handle: 'nordicglow' } });
    expect(gql.body.data.shopsQuery.pagination).toEqual(rest.body.pagination);
    const bad = await t.graphql('{ shops(limit: 101) { pagination { total } } }', undefined, key);
    expect(bad.body.errors[0].extensions.code).toBe('validation_error');
  });

  it('need a key', async () => {
    expect((await t.rest('GET', '/shops', { key: null })).status).toBe(401);
  });
});

describe('SQL statements per list request', () => {
  it('do not grow with the page size', async () => {
    await get('/shops?limit=1');
    const one = await statementsOf(() => get('/shops?limit=1'));
    const four = await statementsOf(() => get('/shops?limit=4'));
    expect(idsOf(one.res)).toHaveLength(1);
    expect(idsOf(four.res)).toHaveLength(4);
    // The page of ids and its count, the rows with their relations, the figures of the page's shops.
    expect(one.statements.length).toBeGreaterThan(0);
    expect(one.statements.length).toBeLessThanOrEqual(4);
    expect(four.statements).toHaveLength(one.statements.length);
    const filtered = await statementsOf(() => query({ search: 'glow', searchType: 'shopContains', pixelIds: [META_PIXEL], sortBy: 'activeAds', limit: 4 }));
    expect(idsOf(filtered.res)).toEqual([GLOW, LAB]);
    expect(filtered.statements.length).toBeLessThanOrEqual(one.statements.length);
  });
});
