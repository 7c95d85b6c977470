import { describe, expect, it } from 'vitest';
import { expectNotFound, expectViolation } from '../support/assertions.js';
import { BT_A, LP_DROP, LP_SERUM, PAGE_A, TECH } from '../brandtrackers/scenario.js';
import { useTrackingApp } from './support.js';
import { testingScenario } from './testing-scenario.js';

// Landing pages of Nordic Glow's ads (testing-scenario.ts): live, EU-only, a lastN window, a snapshot day, sorts,
// pages, bad input, and a brandtracker the workspace does not track.

const app = useTrackingApp(testingScenario, { pages: [PAGE_A] });

const get = (query = '', apiKey?: string) => app.get(`/brandtrackers/${BT_A}/landing-pages${query}`, apiKey);
const usage = (body: { data: { landingPage: string; usageCount: number }[] }) => body.data.map((row) => [row.landingPage, row.usageCount]);
const SERUM = 'https://nordicglow.com/products/serum';
const DROP = 'https://peakfitness.example/drop';

describe('GET /v1/brandtrackers/{id}/landing-pages', () => {
  it('groups the live ads by landing page with their figures, technologies and screenshots', async () => {
    const res = await get();
    expect(res.status).toBe(200);
    expect(res.body.data[0]).toEqual({
      landingPage: SERUM, usageCount: 7, longestRunning: expect.any(Number), totalImpressions: 14500,
      technologies: [{ id: TECH, name: 'Shopify', iconUrl: 'http://api.test/media/tech/shopify.png' }],
      screenshots: { desktop: 'http://api.test/media/lp/serum-desktop.png', mobile: null, head: null },
    });
    expect(usage(res.body)).toEqual([[SERUM, 7], [DROP, 3]]);
    expect(res.body.pagination).toEqual({ page: 1, limit: 20, total: 2, totalPages: 1 });
    for (const lp of [LP_SERUM, LP_DROP]) {
      const [{ n }] = await app.t.db.prisma.$queryRaw<{ n: number }[]>`
        SELECT count(*)::int AS n FROM "ads" WHERE "advertiserId" = ${PAGE_A} AND "status" = 'active' AND "landingPageId" = ${lp}::uuid`;
      expect(res.body.data.find((row: { landingPage: string }) => row.landingPage === (lp === LP_SERUM ? SERUM : DROP)).usageCount).toBe(n);
    }
  });

  it('narrows by window, EU-only and snapshot day, and sorts and pages', async () => {
    expect(usage((await get('?euOnly=true')).body)).toEqual([[SERUM, 3], [DROP, 1]]);
    // The last 30 days: the scenario's ads are dated (2026-11-01), so two Serum ads and one Drop ad are moved 10 days
    // back from now and the other ads with a landing page 40 days back.
    await app.t.db.pool.query(
      `UPDATE "ads" SET "firstSeenAt" = now() - CASE WHEN "id" = ANY($2::text[]) THEN interval '10 days' ELSE interval '40 days' END
       WHERE "advertiserId" = $1 AND "landingPageId" IS NOT NULL`,
      [PAGE_A, ['facebook_96001', 'facebook_96002', 'facebook_96006']],
    );
    expect(usage((await get('?timePeriod=last30d')).body)).toEqual([[SERUM, 2], [DROP, 1]]);
    expect(usage((await get('?snapshotDate=2026-11-20')).body)).toEqual([[SERUM, 1]]);
    expect(usage((await get('?snapshotDate=2026-01-01')).body)).toEqual([]);
    expect(usage((await get('?order=asc')).body)).toEqual([[DROP, 3], [SERUM, 7]]);
    expect(usage((await get('?sortBy=totalImpressions&order=asc&timePeriod=last30d')).body)).toEqual([[DROP, 1], [SERUM, 2]]);
    const second = await get('?limit=1&page=2');
    expect(usage(second.body)).toEqual([[DROP, 3]]);
    expect(second.body.pagination).toEqual({ page: 2, limit: 1, total: 2, totalPages: 2 });
  });

  it('rejects bad values naming the parameter, and answers 404 for a brandtracker the workspace does not track', async () => {
    for (const [query, name] of [['timePeriod=last2d', 'timePeriod'], ['sortBy=reach', 'sortBy'], ['order=up', 'order'], ['limit=51', 'limit'], ['page=0', 'page'], ['snapshotDate=soon', 'snapshotDate']]) {
      expectViolation(await get(`?${query}`), `query-string.${name}`);
    }
    expectNotFound(await get('', app.otherKey));
  });

  it('answers the same on GraphQL', async () => {
    const rest = await get('?sortBy=longestRunning');
    const data = await app.graphql(`query($id: String!) { brandtrackerLandingPages(brandtrackerId: $id, sortBy: longestRunning) {
      data { landingPage usageCount longestRunning totalImpressions technologies { id name iconUrl } screenshots { desktop mobile head } } pagination { page limit total totalPages } } }`, { id: BT_A });
    expect(data.brandtrackerLandingPages).toEqual({ data: rest.body.data, pagination: rest.body.pagination });
  });
});
