import { describe, expect, it } from 'vitest';
import { BT_A, BT_B, PAGE_A, PAGE_B } from '../brandtrackers/scenario.js';
import type { HttpResult } from '../support/app.js';
import { expectNotFound, expectViolation } from '../support/assertions.js';
import { idsOf } from '../support/discovery-helpers.js';
import { insightsScenario } from './insights-scenario.js';
import { useTrackingApp } from './support.js';

// A brandtracker's creatives: one per duplicate group in the window (live, lastN, at a snapshot day), the media
// type filter, the sorts and order, pages, bounds and enum errors, the 404s.

const app = useTrackingApp(insightsScenario, { pages: [PAGE_A, PAGE_B] });

const { get } = app;
const ids = (res: HttpResult) => idsOf(res, 'adId');

describe('GET /v1/brandtrackers/{id}/creatives', () => {
  it('lists the live creatives, one per duplicate group, newest first', async () => {
    const res = await get(`/brandtrackers/${BT_A}/creatives`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['requestId', 'data', 'pagination']);
    expect(res.body.data).toEqual([
      { adId: 'facebook_9005', mediaType: 'image', mediaUrl: 'http://api.test/media/ads/facebook_9005.jpg', thumbnailUrl: 'http://api.test/media/ads/facebook_9005-thumb.jpg', firstSeenAt: '2026-11-01T00:00:00.000Z', daysRunning: res.body.data[0].daysRunning, duplicates: 1 },
      { adId: 'facebook_9001', mediaType: 'video', mediaUrl: 'http://api.test/media/ads/facebook_9001.mp4', thumbnailUrl: 'http://api.test/media/ads/facebook_9001-thumb.jpg', firstSeenAt: '2026-09-30T00:00:00.000Z', daysRunning: res.body.data[1].daysRunning, duplicates: 2 },
    ]);
    expect(res.body.data[1].daysRunning - res.body.data[0].daysRunning).toBe(32);
    expect(res.body.pagination).toEqual({ page: 1, limit: 20, total: 2, totalPages: 1 });
    // A carousel is of an unknown media type here.
    expect((await get(`/brandtrackers/${BT_B}/creatives?sortBy=duplicates`)).body.data.map((row: { mediaType: string }) => row.mediaType)).toEqual(['unknown', 'image']);
  });

  it('reads the window at the snapshot day', async () => {
    expect(ids(await get(`/brandtrackers/${BT_A}/creatives?snapshotDate=2026-11-21`))).toEqual(['facebook_9001']);
    expect(ids(await get(`/brandtrackers/${BT_A}/creatives?snapshotDate=2026-11-21&timePeriod=last30d`))).toEqual(['facebook_9005']);
    expect(ids(await get(`/brandtrackers/${BT_A}/creatives?snapshotDate=2026-11-21&timePeriod=last3m`))).toEqual(['facebook_9005', 'facebook_9001']);
    const old = await get(`/brandtrackers/${BT_A}/creatives?snapshotDate=2025-06-01&timePeriod=last1y`);
    expect(old.body.data).toEqual([
      { adId: 'facebook_9003', mediaType: 'image', mediaUrl: 'https://scontent.fbcdn.net/v/facebook_9003.jpg', thumbnailUrl: 'http://api.test/media/ads/facebook_9003-thumb.jpg', firstSeenAt: '2025-01-09T00:00:00.000Z', daysRunning: 30, duplicates: 1 },
    ]);
    // No snapshot day on or before the date: nothing was live.
    expect(ids(await get(`/brandtrackers/${BT_A}/creatives?snapshotDate=2025-06-01`))).toEqual([]);
  });

  it('filters by media type and EU, sorts, orders and pages', async () => {
    expect(ids(await get(`/brandtrackers/${BT_A}/creatives?mediaType=video`))).toEqual(['facebook_9001']);
    expect(ids(await get(`/brandtrackers/${BT_A}/creatives?mediaType=image`))).toEqual(['facebook_9005']);
    expect(ids(await get(`/brandtrackers/${BT_A}/creatives?euOnly=true`))).toEqual(['facebook_9001']);
    expect(ids(await get(`/brandtrackers/${BT_A}/creatives?order=asc`))).toEqual(['facebook_9001', 'facebook_9005']);
    expect(ids(await get(`/brandtrackers/${BT_A}/creatives?sortBy=daysRunning`))).toEqual(['facebook_9001', 'facebook_9005']);
    expect(ids(await get(`/brandtrackers/${BT_A}/creatives?sortBy=duplicates&order=asc`))).toEqual(['facebook_9005', 'facebook_9001']);
    const second = await get(`/brandtrackers/${BT_A}/creatives?limit=1&page=2`);
    expect(ids(second)).toEqual(['facebook_9001']);
    expect(second.body.pagination).toEqual({ page: 2, limit: 1, total: 2, totalPages: 2 });
  });

  it('counts what SQL counts: the live group leads of the page', async () => {
    const [{ n }] = await app.t.db.prisma.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM "ads" WHERE "advertiserId" = ${PAGE_B} AND "isGroupLead" AND "status" = 'active'`;
    expect((await get(`/brandtrackers/${BT_B}/creatives`)).body.pagination.total).toBe(n);
  });

  it('rejects bad parameters naming them, and answers 404 for a brandtracker the workspace does not track', async () => {
    expectViolation(await get(`/brandtrackers/${BT_A}/creatives?timePeriod=last2d`), 'query-string.timePeriod');
    expectViolation(await get(`/brandtrackers/${BT_A}/creatives?mediaType=carousel`), 'query-string.mediaType');
    expectViolation(await get(`/brandtrackers/${BT_A}/creatives?sortBy=reach`), 'query-string.sortBy');
    expectViolation(await get(`/brandtrackers/${BT_A}/creatives?order=up`), 'query-string.order');
    expectViolation(await get(`/brandtrackers/${BT_A}/creatives?limit=0`), 'query-string.limit');
    expectViolation(await get(`/brandtrackers/${BT_A}/creatives?limit=51`), 'query-string.limit');
    expectViolation(await get(`/brandtrackers/${BT_A}/creatives?snapshotDate=2026-13-01`), 'query-string.snapshotDate');
    expectNotFound(await get(`/brandtrackers/${BT_A}/creatives`, app.otherKey));
    await app.untracked(BT_B, async () => expect((await get(`/brandtrackers/${BT_B}/creatives`)).status).toBe(404));
  });

  it('sends the same statements whatever the page size', async () => {
    await get(`/brandtrackers/${BT_A}/creatives`);
    const count = async (limit: number) => {
      const { res, statements } = await app.statementsOf(() => get(`/brandtrackers/${BT_A}/creatives?sortBy=daysRunning&limit=${limit}`));
      expect(ids(res)).toHaveLength(limit);
      return statements.length;
    };
    const one = await count(1);
    expect(one).toBeLessThanOrEqual(3);
    expect(await count(2)).toBe(one);
  });

  it('answers the same on GraphQL', async () => {
    const rest = await get(`/brandtrackers/${BT_A}/creatives?order=asc`);
    const data = await app.graphql(`query($id: String!) { brandtrackerCreatives(brandtrackerId: $id, order: asc) {
      data { adId mediaType mediaUrl thumbnailUrl firstSeenAt daysRunning duplicates } pagination { page limit total totalPages } } }`, { id: BT_A });
    expect(data.brandtrackerCreatives).toEqual({ data: rest.body.data, pagination: rest.body.pagination });
  });
});
