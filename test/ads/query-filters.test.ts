import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import type { TestDatabase } from '../support/database.js';
import { adsScenario } from './scenario.js';

// adsScenario plus page and shop figures: Nordic Glow's primary shop has 42,000 visits, 150 products in
// category 2915; Peak Fitness Store's has 900 visits, 12 products in category 988.
async function scenario(db: TestDatabase) {
  await adsScenario(db);
  await db.prisma.shop.update({ where: { domain: 'nordicglow.com' }, data: { productsCount: 150, categoryIds: [2915] } });
  const peak = await db.prisma.shop.create({ data: { domain: 'peakfit.shop', name: 'Peak Fit', monthlyVisits: 900, productsCount: 12, categoryIds: [988] } });
  await db.prisma.advertiserShop.create({ data: { advertiserId: '1000000000000002', shopId: peak.id, isPrimary: true } });
}

let t: TestApp;
let key: string;
beforeAll(async () => {
  t = await createTestApp(scenario);
  key = (await t.newKey()).apiKey;
});
afterAll(() => t?.close());

/** Ids returned for a body, all statuses, sorted by reach. */
async function ids(body: Record<string, unknown>): Promise<string[]> {
  const res = await t.rest('POST', '/ads/query', { key, body: { status: 'all', sortBy: 'reach', ...body } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.map((ad: { id: string }) => ad.id);
}

describe('POST /v1/ads/query: page, shop, market, rank and copy filters', () => {
  it('baseline: every group lead', async () => {
    expect(await ids({})).toEqual(['facebook_9004', 'facebook_9001', 'facebook_9003']);
  });

  it("filters on the advertiser's primary shop: traffic, products, categories", async () => {
    expect(await ids({ minTraffic: 10_000 })).toEqual(['facebook_9001', 'facebook_9003']);
    expect(await ids({ maxTraffic: 1_000 })).toEqual(['facebook_9004']);
    expect(await ids({ minProducts: 100 })).toEqual(['facebook_9001', 'facebook_9003']);
    expect(await ids({ maxProducts: 20 })).toEqual(['facebook_9004']);
    expect(await ids({ categoryIds: [988] })).toEqual(['facebook_9004']);
    expect(await ids({ categoryIds: [2915, 988] })).toEqual(['facebook_9004', 'facebook_9001', 'facebook_9003']);
  });

  it('filters on page reach and spend over the chosen period', async () => {
    expect(await ids({ minReachPerPage: 50_000 })).toEqual(['facebook_9004']); // total: 100,000 vs 8,200
    expect(await ids({ maxReachPerPage: 10_000 })).toEqual(['facebook_9001', 'facebook_9003']);
    expect(await ids({ minReachPerPage: 5_000, reachPerPagePeriod: 'last30d' })).toEqual(['facebook_9004', 'facebook_9001', 'facebook_9003']);
    expect(await ids({ minReachPerPage: 150, reachPerPagePeriod: 'last24h' })).toEqual(['facebook_9001', 'facebook_9003']); // last daily snapshot: 200
    expect(await ids({ reachPerPagePeriod: 'last24h' })).toHaveLength(3); // a period alone filters nothing
    expect(await ids({ minSpendPerPage: 500 })).toEqual(['facebook_9004']); // 100,000 * 9 / 1000 = 900
    expect(await ids({ minSpendPerPage: 500, cpm: 0.01 })).toEqual([]);
  });

  it("filters on the advertiser's ads and caps rows per advertiser", async () => {
    expect(await ids({ minAds: 2 })).toEqual(['facebook_9001', 'facebook_9003']);
    expect(await ids({ maxAds: 1 })).toEqual(['facebook_9004']);
    expect(await ids({ maxAdsPerBrand: 1 })).toEqual(['facebook_9004', 'facebook_9001']);
    const page = await t.rest('POST', '/ads/query', { key, body: { status: 'all', sortBy: 'reach', maxAdsPerBrand: 1, limit: 1, page: 2 } });
    expect(page.body.data.map((ad: { id: string }) => ad.id)).toEqual(['facebook_9001']);
    expect(page.body.pagination).toEqual({ page: 2, limit: 1, total: 2, totalPages: 2 });
  });

  it('filters on copy length and copy hashes', async () => {
    expect(await ids({ minDescriptionLength: 30 })).toEqual(['facebook_9004', 'facebook_9001']);
    expect(await ids({ maxDescriptionLength: 30 })).toEqual(['facebook_9003']);
    const hash = createHash('md5').update('Winter jacket clearance').digest('hex').slice(0, 12);
    expect(await ids({ adCopyHashes: [hash.toUpperCase()] })).toEqual(['facebook_9003']);
    const bad = await t.rest('POST', '/ads/query', { key, body: { adCopyHashes: ['xyz'] } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.validationErrors[0]).toMatchObject({ field: 'body.adCopyHashes', location: 'body' });
  });

  it('filters on landing pages by host, the host read literally', async () => {
    expect(await ids({ landingPages: ['https://www.nordicglow.com/collections/all'] })).toEqual(['facebook_9001']);
    expect(await ids({ landingPages: ['peakfit.shop', 'nordicglow.com'] })).toEqual(['facebook_9001']);
    expect(await ids({ landingPages: ['nordic_low.com'] })).toEqual([]); // `_` is not a wildcard
    expect(await ids({ landingPages: ['%'] })).toEqual([]);
  });

  it('filters on markets', async () => {
    expect(await ids({ market: { main: ['fr'] } })).toEqual(['facebook_9001']);
    expect(await ids({ market: { among: ['CA'] } })).toEqual(['facebook_9004']);
    expect(await ids({ market: { exclude: ['DE'] } })).toEqual(['facebook_9004', 'facebook_9003']);
  });

  it('filters on rank, rank movement and growth direction', async () => {
    expect(await ids({ minRankDelta: 1 })).toEqual(['facebook_9001']);
    expect(await ids({ growthRank: { anyOf: [{ all: [{ direction: 'rising' }] }] } })).toEqual(['facebook_9001']);
    expect(await ids({ growthRank: { anyOf: [{ all: [{ direction: 'stable' }] }, { all: [{ direction: 'rising' }] }] } })).toEqual(['facebook_9004', 'facebook_9001']);
    expect(await ids({ growthRank: { anyOf: [{ all: [{ direction: 'falling' }] }] } })).toEqual([]);
    expect(await ids({ maxAdRankValue: 1 })).toEqual(['facebook_9004', 'facebook_9001']);
    expect(await ids({ maxAdRankValue: 60, adRankMode: 'percentile' })).toEqual(['facebook_9001']); // rank 1 of 2 live ads = 50%
    expect(await ids({ maxAdRankValue: 1, adRankBasis: 'alltime' })).toEqual(['facebook_9004', 'facebook_9001']);
    expect(await ids({ hideDecliningRankAds: true })).toHaveLength(3);
  });

  it('rejects malformed filter objects and enums, naming the body field', async () => {
    for (const [body, field] of [
      [{ rankDeltaWindow: '5d' }, 'body.rankDeltaWindow'],
      [{ growthRank: { anyOf: [{ all: [{ direction: 'sideways' }] }] } }, 'body.growthRank'],
      [{ growthRank: {} }, 'body.growthRank'],
      [{ market: { main: ['France'] } }, 'body.market'],
      [{ maxAdsPerBrand: 0 }, 'body.maxAdsPerBrand'],
      [{ categoryIds: ['shoes'] }, 'body.categoryIds'],
    ] as const) {
      const res = await t.rest('POST', '/ads/query', { key, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('validation_error');
      expect(res.body.error.details.validationErrors[0].field, JSON.stringify(body)).toBe(field);
    }
  });
});
