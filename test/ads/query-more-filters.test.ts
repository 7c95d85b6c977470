import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey } from '../../src/auth/admin.js';
import { createTestApp, type TestApp } from '../support/app.js';
import type { TestDatabase } from '../support/database.js';
import { adsScenario } from './scenario.js';

// Issue #33: every documented filter of POST /v1/ads/query filters, or is refused by name; none is accepted and
// ignored. adsScenario plus what these filters read: Nordic Glow (ads 9001 with its duplicate 9002, and 9003) is a
// big spender whose primary shop is a Swedish Shopify Plus shop on Shopify (sv, SEK, Trustpilot 4.5 from 1,200
// reviews, best seller at $39); Peak Fitness Store (ad 9004, a partnership ad with creator page 2000000000000009) is
// tracked by a brandtracker, and its primary shop is a US WooCommerce shop (en, USD, 3.1 from 40 reviews, $120).
// Ad 9001 is a 30-second video.
async function scenario(db: TestDatabase) {
  await adsScenario(db);
  const { prisma } = db;
  const [shopify, woo] = await Promise.all([
    prisma.technology.create({ data: { slug: 'shopify', name: 'Shopify' } }),
    prisma.technology.create({ data: { slug: 'woocommerce', name: 'WooCommerce' } }),
    prisma.technology.create({ data: { slug: 'wix', name: 'Wix' } }),
  ]);
  const glow = await prisma.shop.update({
    where: { domain: 'nordicglow.com' },
    data: { countryCode: 'SE', defaultLanguage: 'sv', currency: 'SEK', isShopifyPlus: true, trustpilotRating: 4.5, trustpilotReviews: 1200, bestSellerPriceUsd: 39 },
  });
  const peak = await prisma.shop.create({
    data: {
      domain: 'peakfit.shop', name: 'Peak Fit', countryCode: 'US', defaultLanguage: 'en', currency: 'USD', trustpilotRating: 3.1, trustpilotReviews: 40, bestSellerPriceUsd: 120,
    },
  });
  await prisma.advertiserShop.create({ data: { advertiserId: '1000000000000002', shopId: peak.id, isPrimary: true } });
  await prisma.shopTechnology.createMany({ data: [{ shopId: glow.id, technologyId: shopify.id }, { shopId: peak.id, technologyId: woo.id }] });
  await prisma.advertiser.update({ where: { id: '1000000000000001' }, data: { spenderSegment: 'big-spender' } });
  await prisma.brandtracker.create({ data: { facebookPageId: '1000000000000002', name: 'Peak Fitness Store' } });
  await prisma.ad.update({ where: { id: 'facebook_9001' }, data: { videoDurationSec: 30 } });
  await prisma.ad.update({ where: { id: 'facebook_9004' }, data: { partnerPageId: '2000000000000009', partnerPageName: 'Coach Ana' } });
}

let t: TestApp;
let key: string;
beforeAll(async () => {
  t = await createTestApp(scenario);
  key = (await t.newKey()).apiKey;
});
afterAll(() => t?.close());

const ALL = ['facebook_9004', 'facebook_9001', 'facebook_9003'];

/** Ids returned for a body, all statuses, sorted by reach. */
async function ids(body: Record<string, unknown>, as = key): Promise<string[]> {
  const res = await t.rest('POST', '/ads/query', { key: as, body: { status: 'all', sortBy: 'reach', ...body } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.map((ad: { id: string }) => ad.id);
}

describe('POST /v1/ads/query: filters on the ad, its page and its primary shop (issue #33)', () => {
  it('baseline: every group lead', async () => {
    expect(await ids({})).toEqual(ALL);
  });

  it('technologies: the primary shop uses one of them', async () => {
    expect(await ids({ technologies: ['wix'] })).toEqual([]);
    expect(await ids({ technologies: ['shopify'] })).toEqual(['facebook_9001', 'facebook_9003']);
    expect(await ids({ technologies: ['woocommerce', 'shopify'] })).toEqual(ALL);
    const res = await t.rest('POST', '/ads/query', { key, body: { technologies: ['joomla'] } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('validation_error');
  });

  it('creationCountry: where the primary shop is based', async () => {
    expect(await ids({ creationCountry: { include: ['US'] } })).toEqual(['facebook_9004']);
    expect(await ids({ creationCountry: { include: ['SE', 'US'] } })).toEqual(ALL);
    expect(await ids({ creationCountry: { exclude: ['US'] } })).toEqual(['facebook_9001', 'facebook_9003']);
    expect(await ids({ creationCountry: { include: ['FR'] } })).toEqual([]);
  });

  it('languages, currencies and shopifyPlus of the primary shop', async () => {
    expect(await ids({ languages: ['sv'] })).toEqual(['facebook_9001', 'facebook_9003']);
    expect(await ids({ languages: ['English'] })).toEqual(['facebook_9004']);
    expect(await ids({ currencies: ['usd'] })).toEqual(['facebook_9004']);
    expect(await ids({ currencies: ['EUR'] })).toEqual([]);
    expect(await ids({ shopifyPlus: 'plus' })).toEqual(['facebook_9001', 'facebook_9003']);
    expect(await ids({ shopifyPlus: 'non-plus' })).toEqual(['facebook_9004']);
    expect(await ids({ shopifyPlus: 'all' })).toEqual(ALL);
  });

  it('Trustpilot score and reviews, best seller price of the primary shop', async () => {
    expect(await ids({ minTrustpilotScore: 4 })).toEqual(['facebook_9001', 'facebook_9003']);
    expect(await ids({ maxTrustpilotScore: 4 })).toEqual(['facebook_9004']);
    expect(await ids({ minTrustpilotReviews: 100 })).toEqual(['facebook_9001', 'facebook_9003']);
    expect(await ids({ maxTrustpilotReviews: 100 })).toEqual(['facebook_9004']);
    expect(await ids({ minBestSellerPrice: 50 })).toEqual(['facebook_9004']);
    expect(await ids({ maxBestSellerPrice: 50 })).toEqual(['facebook_9001', 'facebook_9003']);
    expect(await ids({ minBestSellerPrice: 40, maxBestSellerPrice: 100 })).toEqual([]);
  });

  it('video duration, partner ids and spender segment', async () => {
    expect(await ids({ minVideoDuration: 10 })).toEqual(['facebook_9001']);
    expect(await ids({ maxVideoDuration: 10 })).toEqual([]); // only video ads have a length
    expect(await ids({ partnerIds: ['2000000000000009'] })).toEqual(['facebook_9004']);
    expect(await ids({ partnerIds: ['2000000000000001'] })).toEqual([]);
    expect(await ids({ spender: 'big-spender' })).toEqual(['facebook_9001', 'facebook_9003']);
    expect(await ids({ spender: 'rising-star' })).toEqual([]);
    expect(await ids({ spender: 'brandtracker' })).toEqual(['facebook_9004']);
    const res = await t.rest('POST', '/ads/query', { key, body: { spender: 'whale' } });
    expect(res.status).toBe(400);
    expect(res.body.error.details.validationErrors[0].field).toBe('body.spender');
  });

  it("hideSavedAds: leaves out the ads saved in the caller's workspace, with their duplicates", async () => {
    const other = (await t.newKey()).apiKey;
    // The duplicate 9002 is saved: its group lead 9001 goes.
    const saved = await t.rest('POST', '/favorites/ads', { key, body: { scope: 'workspace', adId: 'facebook_9002' } });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(await ids({ hideSavedAds: true })).toEqual(['facebook_9004', 'facebook_9003']);
    expect(await ids({ hideSavedAds: false })).toEqual(ALL);
    expect(await ids({ hideSavedAds: true }, other)).toEqual(ALL); // another workspace's saved ads are not the caller's
  });

  it("hideSavedAds: a delegated user's personal saved ads are theirs alone", async () => {
    const dana = await t.newKey({ role: 'member' });
    const workspaceKey = (await createKey(t.db.prisma, { workspace: dana.slug, name: 'Workspace key', access: 'full_access' })).apiKey;
    const saved = await t.rest('POST', '/favorites/ads', { key: dana.apiKey, body: { scope: 'personal', adId: 'facebook_9003' } });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(await ids({ hideSavedAds: true }, dana.apiKey)).toEqual(['facebook_9004', 'facebook_9001']);
    expect(await ids({ hideSavedAds: true }, workspaceKey)).toEqual(ALL);
    const shared = await t.rest('POST', '/favorites/ads', { key: workspaceKey, body: { scope: 'workspace', adId: 'facebook_9004' } });
    expect(shared.status, JSON.stringify(shared.body)).toBe(200);
    expect(await ids({ hideSavedAds: true }, workspaceKey)).toEqual(['facebook_9001', 'facebook_9003']);
    expect(await ids({ hideSavedAds: true }, dana.apiKey)).toEqual(['facebook_9001']);
  });

  it('the status: active total changes under the filters of the issue', async () => {
    const total = async (body: Record<string, unknown>) => (await t.rest('POST', '/ads/query', { key, body: { status: 'active', ...body } })).body.pagination.total;
    const all = await total({});
    expect(all).toBe(2);
    expect(await total({ technologies: ['wix'] })).toBe(0);
    expect(await total({ creationCountry: { include: ['US'] } })).toBe(1);
    expect(await total({ adReachGrowth: { anyOf: [{ all: [{ period: 'last7d', operator: 'gte', value: 999999 }] }] } })).toBe(0);
  });

  it.each([
    ['minDate', '2026-01-01'],
    ['maxDate', '2026-01-01'],
  ])('%s is refused by name, never ignored', async (name, value) => {
    const res = await t.rest('POST', '/ads/query', { key, body: { status: 'active', [name]: value } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('validation_error');
    expect(res.body.error.details.validationErrors).toEqual([{ field: `body.${name}`, location: 'body', expected: [`${name} is not supported by this server yet`] }]);
    expect(await ids({ [name]: null })).toEqual(ALL); // null is not sent
  });
});
