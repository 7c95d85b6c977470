import { describe, expect, it } from 'vitest';
import { BT_A, BT_B, PAGE_A, PAGE_B } from '../brandtrackers/scenario.js';
import type { HttpResult } from '../support/app.js';
import { expectNotFound, expectViolation } from '../support/assertions.js';
import { idsOf } from '../support/discovery-helpers.js';
import { insightsScenario, P1, P2 } from './insights-scenario.js';
import { useTrackingApp } from './support.js';

// A brandtracker's partners: the creator pages of its ads in the window, their running ads, first launch, reach and
// spend at the CPM; windows at a snapshot day, EU-only, sorts, pages, bounds and enum errors, the 404s.

const app = useTrackingApp(insightsScenario, { pages: [PAGE_A, PAGE_B] });

const { get } = app;
const ids = (res: HttpResult) => idsOf(res, 'facebookPageId');

describe('GET /v1/brandtrackers/{id}/partners', () => {
  it('sums the live partnership ads of each creator page, most active ads first', async () => {
    const res = await get(`/brandtrackers/${BT_A}/partners`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      requestId: res.body.requestId,
      data: [
        { facebookPageId: P2, name: 'Skin Coach', activeAds: 2, launchDate: '2026-10-04T00:00:00.000Z', reach: 3050, estimatedSpend: 27 },
        { facebookPageId: P1, name: 'Glow Creator', activeAds: 1, launchDate: '2026-09-30T00:00:00.000Z', reach: 5000, estimatedSpend: 45 },
      ],
      pagination: { page: 1, limit: 20, total: 2, totalPages: 1 },
    });
    expect((await get(`/brandtrackers/${BT_B}/partners`)).body.data).toEqual([]);
  });

  it('reads the window at the snapshot day: running ads there, the names and launches of the window', async () => {
    const day = await get(`/brandtrackers/${BT_A}/partners?snapshotDate=2026-11-21`);
    expect(day.body.data).toEqual([{ facebookPageId: P1, name: 'Glow Creator', activeAds: 1, launchDate: '2026-09-30T00:00:00.000Z', reach: 5000, estimatedSpend: 45 }]);
    const quarter = await get(`/brandtrackers/${BT_A}/partners?snapshotDate=2026-11-21&timePeriod=last3m&sortBy=reach`);
    expect(quarter.body.data.map((row: { facebookPageId: string; activeAds: number }) => [row.facebookPageId, row.activeAds])).toEqual([[P1, 1], [P2, 0]]);
    const old = await get(`/brandtrackers/${BT_A}/partners?snapshotDate=2025-06-01&timePeriod=last1y`);
    expect(old.body.data).toEqual([{ facebookPageId: P1, name: 'Glow Creator Old', activeAds: 0, launchDate: '2025-01-09T00:00:00.000Z', reach: 200, estimatedSpend: 2 }]);
  });

  it('filters EU ads, sorts, orders, pages and prices at the CPM', async () => {
    expect((await get(`/brandtrackers/${BT_A}/partners?euOnly=true`)).body.data[0]).toMatchObject({ facebookPageId: P1, activeAds: 1, reach: 5000 });
    expect(ids(await get(`/brandtrackers/${BT_A}/partners?sortBy=reach`))).toEqual([P1, P2]);
    expect(ids(await get(`/brandtrackers/${BT_A}/partners?sortBy=launchDate`))).toEqual([P2, P1]);
    expect(ids(await get(`/brandtrackers/${BT_A}/partners?sortBy=estimatedSpend&order=asc`))).toEqual([P2, P1]);
    expect((await get(`/brandtrackers/${BT_A}/partners?cpm=10&sortBy=reach`)).body.data.map((row: { estimatedSpend: number }) => row.estimatedSpend)).toEqual([50, 31]);
    expect((await get(`/brandtrackers/${BT_A}/partners?cpm=0`)).body.data.map((row: { estimatedSpend: number }) => row.estimatedSpend)).toEqual([0, 0]);
    const second = await get(`/brandtrackers/${BT_A}/partners?limit=1&page=2`);
    expect(ids(second)).toEqual([P1]);
    expect(second.body.pagination).toEqual({ page: 2, limit: 1, total: 2, totalPages: 2 });
  });

  it('sums what SQL sums: the reach of the live ads naming a partner', async () => {
    const [{ reach }] = await app.t.db.prisma.$queryRaw<{ reach: number }[]>`
      SELECT sum("reach")::int AS reach FROM "ads" WHERE "advertiserId" = ${PAGE_A} AND "status" = 'active' AND "partnerPageId" IS NOT NULL`;
    const rows = (await get(`/brandtrackers/${BT_A}/partners`)).body.data as { reach: number }[];
    expect(rows.reduce((sum, row) => sum + row.reach, 0)).toBe(reach);
  });

  it('rejects bad parameters naming them, and answers 404 for a brandtracker the workspace does not track', async () => {
    expectViolation(await get(`/brandtrackers/${BT_A}/partners?cpm=-1`), 'query-string.cpm');
    expectViolation(await get(`/brandtrackers/${BT_A}/partners?cpm=1.5`), 'query-string.cpm');
    expectViolation(await get(`/brandtrackers/${BT_A}/partners?sortBy=name`), 'query-string.sortBy');
    expectViolation(await get(`/brandtrackers/${BT_A}/partners?timePeriod=all`), 'query-string.timePeriod');
    expectViolation(await get(`/brandtrackers/${BT_A}/partners?limit=51`), 'query-string.limit');
    expectViolation(await get(`/brandtrackers/${BT_A}/partners?snapshotDate=soon`), 'query-string.snapshotDate');
    expectNotFound(await get(`/brandtrackers/${BT_A}/partners`, app.otherKey));
    await app.untracked(BT_A, async () => expect((await get(`/brandtrackers/${BT_A}/partners`)).status).toBe(404));
  });

  it('answers the same on GraphQL', async () => {
    const rest = await get(`/brandtrackers/${BT_A}/partners?cpm=10`);
    const data = await app.graphql(`query($id: String!) { brandtrackerPartners(brandtrackerId: $id, cpm: 10) {
      data { facebookPageId name activeAds launchDate reach estimatedSpend } pagination { page limit total totalPages } } }`, { id: BT_A });
    expect(data.brandtrackerPartners).toEqual({ data: rest.body.data, pagination: rest.body.pagination });
  });
});
