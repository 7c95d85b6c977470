import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import { expectViolation } from '../support/assertions.js';
import { adsScenario } from '../ads/scenario.js';

// The shared list toolkit's bounds (src/schema/shared/ranges.ts, countries.ts): a value the column could not
// compare is the client's 400 naming the field, never a failed statement (these were 500s: 22P02, 22003).

let t: TestApp;
let key: string;
beforeAll(async () => {
  t = await createTestApp(adsScenario);
  key = (await t.newKey()).apiKey;
});
afterAll(() => t?.close());

describe('count and amount bounds', () => {
  it('refuses fractions and out-of-range numbers on count filters, on every list', async () => {
    const ads = (body: object) => t.rest('POST', '/ads/query', { key, body });
    expectViolation(await ads({ minReach: 0.5 }), 'body.minReach', ['minReach must be an integer number']);
    expectViolation(await ads({ maxReach: 1000.7 }), 'body.maxReach', ['maxReach must be an integer number']);
    expectViolation(await ads({ maxReach: 9.3e18 }), 'body.maxReach', [`maxReach must not be greater than ${Number.MAX_SAFE_INTEGER}`]);
    expectViolation(await ads({ minReachPerPage: 1e-320 }), 'body.minReachPerPage', ['minReachPerPage must be an integer number']);
    expectViolation(await ads({ maxAdRankValue: 2147483648 }), 'body.maxAdRankValue', ['maxAdRankValue must not be greater than 2147483647']);
    expectViolation(await ads({ minSpend: 1e308 }), 'body.minSpend', ['minSpend must not be greater than 1000000000000000']);
    expectViolation(await t.rest('GET', '/tiktok/library?minViews=1.5', { key }), 'query-string.minViews', ['minViews must be an integer number']);
    expectViolation(await t.rest('POST', '/tiktok/library/query', { key, body: { minShares: 2147483648 } }), 'body.minShares', ['minShares must not be greater than 2147483647']);
    expectViolation(await t.rest('POST', '/google-ads/query', { key, body: { minReach: 0.5 } }), 'body.minReach', ['minReach must be an integer number']);
  });

  it('still takes whole numbers past 32 bits on bigint columns, and fractional ranks in percentile mode', async () => {
    const big = await t.rest('POST', '/ads/query', { key, body: { status: 'all', maxReach: 5_000_000_000 } });
    expect(big.status).toBe(200);
    expect(big.body.data.length).toBeGreaterThan(0);
    const percentile = await t.rest('POST', '/ads/query', { key, body: { status: 'all', adRankMode: 'percentile', maxAdRankValue: 99.5 } });
    expect(percentile.status, JSON.stringify(percentile.body)).toBe(200);
  });
});

describe('country codes', () => {
  it('are strict ISO 3166-1 alpha-2 on the ads query, as on Google Ads', async () => {
    expectViolation(await t.rest('POST', '/ads/query', { key, body: { adCountries: { include: ['XX'] } } }), 'body.adCountries', ['adCountries.include must be ISO 3166-1 alpha-2 country codes']);
    expectViolation(await t.rest('POST', '/ads/query', { key, body: { mainCountries: ['ZZ'] } }), 'body.mainCountries', ['mainCountries must be ISO 3166-1 alpha-2 country codes']);
  });

  it('read UK as GB everywhere', async () => {
    const fr = await t.rest('POST', '/ads/query', { key, body: { status: 'all', market: { main: ['fr'] } } });
    expect(fr.body.data.map((ad: { id: string }) => ad.id)).toEqual(['facebook_9001']);
    const uk = await t.rest('POST', '/ads/query', { key, body: { status: 'all', adCountries: { include: ['UK'] } } });
    const gb = await t.rest('POST', '/ads/query', { key, body: { status: 'all', adCountries: { include: ['GB'] } } });
    expect(uk.status).toBe(200);
    expect(uk.body.data).toEqual(gb.body.data);
  });
});
