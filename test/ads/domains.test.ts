import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import type { TestDatabase } from '../support/database.js';
import { adsScenario } from './scenario.js';

// Domain filters match a host and its subdomains, never a longer name that merely ends the same way:
// the three group leads of adsScenario land on peakfit.shop, its subdomain and a look-alike.
async function scenario(db: TestDatabase) {
  await adsScenario(db);
  const lands = { facebook_9001: 'peakfit.shop', facebook_9003: 'eu.shop.peakfit.shop', facebook_9004: 'mypeakfit.shop' };
  for (const [id, domain] of Object.entries(lands)) {
    await db.prisma.ad.update({ where: { id }, data: { landingPageDomain: domain, landingPageUrl: `https://${domain}/p/${id}` } });
  }
}

let t: TestApp;
let key: string;
beforeAll(async () => {
  t = await createTestApp(scenario);
  key = (await t.newKey()).apiKey;
});
afterAll(() => t?.close());

const sorted = (list: string[]) => [...list].sort();

describe('domain filters', () => {
  it('ads searched by domain: the host and its subdomains', async () => {
    const found = async (search: string[]) => {
      const res = await t.rest('POST', '/ads/query', { key, body: { search, searchType: 'domain', status: 'all' } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return sorted(res.body.data.map((ad: { id: string }) => ad.id));
    };
    expect(await found(['peakfit.shop'])).toEqual(['facebook_9001', 'facebook_9003']);
    expect(await found(['shop.peakfit.shop'])).toEqual(['facebook_9003']);
    expect(await found(['https://www.mypeakfit.shop/x'])).toEqual(['facebook_9004']);
    expect(await found(['%.shop'])).toEqual([]);
  });

  it('landing pages scoped to a domain: the host and its subdomains', async () => {
    const res = await t.rest('GET', '/ads/facets/landing-pages?scopeDomain=peakfit.shop', { key });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(sorted(res.body.data.map((page: { url: string }) => page.url))).toEqual(['https://eu.shop.peakfit.shop/p/facebook_9003', 'https://peakfit.shop/p/facebook_9001']);
  });

  it('LIKE wildcards in a domain are plain characters', async () => {
    const res = await t.rest('GET', '/ads/facets/landing-pages?scopeDomain=%25.shop', { key });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toEqual([]);
  });
});
