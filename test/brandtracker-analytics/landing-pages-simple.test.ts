import { describe, expect, it } from 'vitest';
import { BT_A, BT_B, PAGE_A, PAGE_B, TECH } from '../brandtrackers/scenario.js';
import type { HttpResult } from '../support/app.js';
import { expectNotFound, expectViolation } from '../support/assertions.js';
import { insightsScenario } from './insights-scenario.js';
import { useTrackingApp } from './support.js';

// A brandtracker's landing pages grouped by normalized URL: the group of a www./query/fragment variant, the
// representative URL and its technologies and screenshots, usage and active counts in windows at a snapshot day,
// sorts, pages, bounds and enum errors, the 404s.

const app = useTrackingApp(insightsScenario, { pages: [PAGE_A, PAGE_B] });

const { get } = app;
const counts = (res: HttpResult) =>
  res.body.data.map((row: { normalizedLandingPage: string; usageCount: number; activeAdsCount: number }) => [row.normalizedLandingPage, row.usageCount, row.activeAdsCount]);

const SERUM = {
  landingPage: 'https://nordicglow.com/products/serum',
  normalizedLandingPage: 'nordicglow.com/products/serum',
  technologies: [{ id: TECH, name: 'Shopify', iconUrl: 'http://api.test/media/tech/shopify.png' }],
  screenshots: { desktop: 'http://api.test/media/lp/serum-desktop.png', mobile: null, head: null },
};
const WINTER = {
  landingPage: 'https://nordicglow.com/pages/winter',
  normalizedLandingPage: 'nordicglow.com/pages/winter',
  technologies: [],
  screenshots: { desktop: null, mobile: 'http://api.test/media/lp/winter-mobile.png', head: null },
};

describe('GET /v1/brandtrackers/{id}/landing-pages/simple', () => {
  it('groups the live ads by normalized landing page, most used first', async () => {
    const res = await get(`/brandtrackers/${BT_A}/landing-pages/simple`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      requestId: res.body.requestId,
      data: [{ ...SERUM, usageCount: 2, activeAdsCount: 2 }, { ...WINTER, usageCount: 1, activeAdsCount: 1 }],
      pagination: { page: 1, limit: 20, total: 2, totalPages: 1 },
    });
    expect(counts(await get(`/brandtrackers/${BT_B}/landing-pages/simple`))).toEqual([['peakfitness.example/drop', 1, 1]]);
  });

  it('counts the window at the snapshot day, active meaning running on that day', async () => {
    expect(counts(await get(`/brandtrackers/${BT_A}/landing-pages/simple?snapshotDate=2026-11-21&timePeriod=last3m`))).toEqual([
      ['nordicglow.com/products/serum', 2, 1], ['nordicglow.com/pages/winter', 1, 0],
    ]);
    expect(counts(await get(`/brandtrackers/${BT_A}/landing-pages/simple?snapshotDate=2026-11-21`))).toEqual([['nordicglow.com/products/serum', 1, 1]]);
    const old = await get(`/brandtrackers/${BT_A}/landing-pages/simple?snapshotDate=2025-06-01&timePeriod=last1y`);
    expect(old.body.data).toEqual([{ ...WINTER, usageCount: 1, activeAdsCount: 0 }]);
  });

  it('filters EU ads, sorts, orders and pages', async () => {
    expect(counts(await get(`/brandtrackers/${BT_A}/landing-pages/simple?euOnly=true`))).toEqual([['nordicglow.com/products/serum', 2, 2]]);
    expect(counts(await get(`/brandtrackers/${BT_A}/landing-pages/simple?order=asc`))).toEqual([['nordicglow.com/pages/winter', 1, 1], ['nordicglow.com/products/serum', 2, 2]]);
    expect(counts(await get(`/brandtrackers/${BT_A}/landing-pages/simple?snapshotDate=2026-11-21&timePeriod=last3m&sortBy=activeAdsCount&order=asc`))).toEqual([
      ['nordicglow.com/pages/winter', 1, 0], ['nordicglow.com/products/serum', 2, 1],
    ]);
    const second = await get(`/brandtrackers/${BT_A}/landing-pages/simple?limit=1&page=2`);
    expect(counts(second)).toEqual([['nordicglow.com/pages/winter', 1, 1]]);
    expect(second.body.pagination).toEqual({ page: 2, limit: 1, total: 2, totalPages: 2 });
  });

  it('counts what SQL counts: the live ads linking a landing page', async () => {
    const [{ n }] = await app.t.db.prisma.$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM "ads" WHERE "advertiserId" = ${PAGE_A} AND "status" = 'active' AND "landingPageId" IS NOT NULL`;
    const rows = (await get(`/brandtrackers/${BT_A}/landing-pages/simple`)).body.data as { usageCount: number }[];
    expect(rows.reduce((sum, row) => sum + row.usageCount, 0)).toBe(n);
  });

  it('rejects bad parameters naming them, and answers 404 for a brandtracker the workspace does not track', async () => {
    expectViolation(await get(`/brandtrackers/${BT_A}/landing-pages/simple?sortBy=totalImpressions`), 'query-string.sortBy');
    expectViolation(await get(`/brandtrackers/${BT_A}/landing-pages/simple?timePeriod=last2y`), 'query-string.timePeriod');
    expectViolation(await get(`/brandtrackers/${BT_A}/landing-pages/simple?limit=51`), 'query-string.limit');
    expectViolation(await get(`/brandtrackers/${BT_A}/landing-pages/simple?page=0`), 'query-string.page');
    expectViolation(await get(`/brandtrackers/${BT_A}/landing-pages/simple?snapshotDate=20261121`), 'query-string.snapshotDate');
    expectNotFound(await get(`/brandtrackers/${BT_A}/landing-pages/simple`, app.otherKey));
    await app.untracked(BT_A, async () => expect((await get(`/brandtrackers/${BT_A}/landing-pages/simple`)).status).toBe(404));
  });

  it('answers the same on GraphQL', async () => {
    const rest = await get(`/brandtrackers/${BT_A}/landing-pages/simple`);
    const data = await app.graphql(`query($id: String!) { brandtrackerLandingPagesSimple(brandtrackerId: $id) {
      data { landingPage normalizedLandingPage usageCount activeAdsCount technologies { id name iconUrl } screenshots { desktop mobile head } }
      pagination { page limit total totalPages } } }`, { id: BT_A });
    expect(data.brandtrackerLandingPagesSimple).toEqual({ data: rest.body.data, pagination: rest.body.pagination });
  });
});
