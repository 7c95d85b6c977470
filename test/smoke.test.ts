import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/app.js';
import { adsScenario } from './support/scenarios.js';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(adsScenario); });
afterAll(() => t?.close());

it('smoke', async () => {
  const { apiKey } = await t.newKey();
  for (const [m, p, b] of [['GET', ''], ['GET', '/health'], ['GET', '/system/freshness'], ['GET', '/me'], ['GET', '/workspace'], ['GET', '/usage'], ['GET', '/ads?search=summer&limit=2'], ['POST', '/ads/query', {}], ['GET', '/ads/facebook_9002'], ['GET', '/ads/facebook_9001/reach-history?limit=2'], ['GET', '/ads/facebook_9001/media-url'], ['POST', '/ads/facebook_9001/share'], ['GET', '/ads?limit=500'], ['GET', '/nope']] as const) {
    const r = await t.rest(m, p, { key: apiKey, body: b });
    console.log(m, p, r.status, r.headers.get('x-request-id'), JSON.stringify(r.body).slice(0, 600));
  }
  expect(1).toBe(1);
});
