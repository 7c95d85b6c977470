import { describe, expect, it } from 'vitest';
import { BT_A, BT_B, PAGE_A, PAGE_B } from '../brandtrackers/scenario.js';
import type { HttpResult } from '../support/app.js';
import { expectNotFound, expectViolation, withoutRequestId } from '../support/assertions.js';
import { AD_SUMMARY, keyPaths } from '../support/shapes.js';
import { insightsScenario } from './insights-scenario.js';
import { useTrackingApp } from './support.js';

// The legacy rank movers of one brandtracker, on /scaling-ads and /ad-rank alike: the legacy 7-day change and the
// 7/14/30-day windows with their trajectories, the rank filters and sorts, the ignored snapshotDate, the 404s.

const app = useTrackingApp(insightsScenario, { pages: [PAGE_A, PAGE_B] });

const { get } = app;
const ids = (res: HttpResult) => res.body.data.map((row: { ad: { id: string } }) => row.ad.id);

describe('GET /v1/brandtrackers/{id}/scaling-ads and /ad-rank', () => {
  it('lists the ads that climbed over the legacy 7 days, with their trajectory and meta', async () => {
    const res = await get(`/brandtrackers/${BT_A}/scaling-ads`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['requestId', 'data', 'pagination', 'meta']);
    expect(res.body.data).toHaveLength(1);
    expect(res.body.data[0]).toMatchObject({
      ad: { id: 'facebook_9001', collationId: 'col_a' },
      metrics: { currentRank: 1, previousRank: 3, rankDelta: 2, improvementPct: 66.7 },
      trajectory: [
        { date: '2026-11-19', rank: 2, totalAds: 1 },
        { date: '2026-11-20', rank: 1, totalAds: 1 },
        { date: '2026-11-21', rank: 1, totalAds: 1 },
      ],
    });
    expect(res.body.pagination).toEqual({ page: 1, limit: 20, total: 1, totalPages: 1 });
    expect(res.body.meta).toMatchObject({ requestedSnapshotDate: null, resolvedSnapshotDate: null, dataFreshnessLagDays: null });
    const adRank = await get(`/brandtrackers/${BT_A}/ad-rank`);
    expect(withoutRequestId(adRank.body)).toEqual(withoutRequestId(res.body));
  });

  it('reads the window the timeWindow names, its change and its days of trajectory', async () => {
    const twoWeeks = await get(`/brandtrackers/${BT_B}/scaling-ads?timeWindow=last14d`);
    expect(ids(twoWeeks)).toEqual(['facebook_9101']);
    expect(keyPaths(twoWeeks.body.data[0])).toEqual(keyPaths({ ad: AD_SUMMARY, metrics: { currentRank: 1, previousRank: 1, rankDelta: 1, improvementPct: 1 }, trajectory: [{ date: 1, rank: 1, totalAds: 1 }] }));
    expect(twoWeeks.body.data[0]).toMatchObject({
      metrics: { currentRank: 2, previousRank: 5, rankDelta: 3, improvementPct: 60 },
      trajectory: [
        { date: '2026-11-08', rank: 5, totalAds: 1 },
        { date: '2026-11-15', rank: 3, totalAds: 1 },
        { date: '2026-11-21', rank: 2, totalAds: 2 },
      ],
    });
    const week = await get(`/brandtrackers/${BT_B}/ad-rank?timeWindow=7d`);
    expect(week.body.data[0]).toMatchObject({ metrics: { currentRank: 2, previousRank: 3, rankDelta: 1, improvementPct: 33.3 } });
    expect(week.body.data[0].trajectory.map((point: { date: string }) => point.date)).toEqual(['2026-11-15', '2026-11-21']);
    expect(ids(await get(`/brandtrackers/${BT_B}/scaling-ads?timeWindow=30d`))).toEqual(['facebook_9101']);
    // The legacy change: 9004 held its rank, 9101 has none.
    expect((await get(`/brandtrackers/${BT_B}/scaling-ads`)).body.data).toEqual([]);
  });

  it('filters by rank and change, and sorts by change or rank', async () => {
    expect(ids(await get(`/brandtrackers/${BT_B}/scaling-ads?timeWindow=14d&minRankDelta=0`))).toEqual(['facebook_9101', 'facebook_9004']);
    expect(ids(await get(`/brandtrackers/${BT_B}/scaling-ads?timeWindow=14d&minRankDelta=0&sortBy=current_rank`))).toEqual(['facebook_9004', 'facebook_9101']);
    expect(ids(await get(`/brandtrackers/${BT_B}/scaling-ads?timeWindow=14d&minRankDelta=0&maxCurrentRank=1`))).toEqual(['facebook_9004']);
    expect(ids(await get(`/brandtrackers/${BT_B}/scaling-ads?timeWindow=14d&minRankDelta=4`))).toEqual([]);
    const paged = await get(`/brandtrackers/${BT_B}/scaling-ads?timeWindow=14d&minRankDelta=0&limit=1&page=2`);
    expect(ids(paged)).toEqual(['facebook_9004']);
    expect(paged.body.pagination).toEqual({ page: 2, limit: 1, total: 2, totalPages: 2 });
    // The total is what SQL counts: active group leads of the page whose 14-day change is at least 0.
    const [{ n }] = await app.t.db.prisma.$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM "ads" WHERE "advertiserId" = ${PAGE_B} AND "isGroupLead" AND "status" = 'active' AND "rankDelta14d" >= 0`;
    expect(paged.body.pagination.total).toBe(n);
  });

  it('echoes and ignores snapshotDate', async () => {
    const res = await get(`/brandtrackers/${BT_A}/scaling-ads?snapshotDate=2020-01-01`);
    expect(ids(res)).toEqual(['facebook_9001']);
    expect(res.body.meta).toMatchObject({ requestedSnapshotDate: '2020-01-01', resolvedSnapshotDate: null, dataFreshnessLagDays: null });
    expect(ids(await get(`/brandtrackers/${BT_A}/ad-rank?snapshotDate=latest`))).toEqual(['facebook_9001']);
    expect(ids(await get(`/brandtrackers/${BT_A}/ad-rank?snapshotDate=2020-01-01T00:00:00Z`))).toEqual(['facebook_9001']);
  });

  it('validates the ignored snapshotDate: "latest", a date or a date-time', async () => {
    for (const path of ['scaling-ads', 'ad-rank']) {
      expectViolation(await get(`/brandtrackers/${BT_A}/${path}?snapshotDate=yesterday`), 'query-string.snapshotDate');
      expectViolation(await get(`/brandtrackers/${BT_A}/${path}?snapshotDate=2020-02-30`), 'query-string.snapshotDate');
    }
  });

  it('rejects bad parameters naming them, and answers 404 for a brandtracker the workspace does not track', async () => {
    expectViolation(await get(`/brandtrackers/${BT_A}/scaling-ads?timeWindow=last90d`), 'query-string.timeWindow');
    expectViolation(await get(`/brandtrackers/${BT_A}/ad-rank?sortBy=reach`), 'query-string.sortBy');
    expectViolation(await get(`/brandtrackers/${BT_A}/scaling-ads?maxCurrentRank=0`), 'query-string.maxCurrentRank');
    expectViolation(await get(`/brandtrackers/${BT_A}/scaling-ads?minRankDelta=-1`), 'query-string.minRankDelta');
    expectViolation(await get(`/brandtrackers/${BT_A}/ad-rank?limit=51`), 'query-string.limit');
    for (const path of ['scaling-ads', 'ad-rank']) expectNotFound(await get(`/brandtrackers/${BT_A}/${path}`, app.otherKey));
    await app.untracked(BT_B, async () => expect((await get(`/brandtrackers/${BT_B}/ad-rank`)).status).toBe(404));
  });

  it('answers the same on GraphQL', async () => {
    const rest = await get(`/brandtrackers/${BT_B}/ad-rank?timeWindow=last14d`);
    const data = await app.graphql(`query($id: String!) { brandtrackerAdRank(brandtrackerId: $id, timeWindow: "last14d") {
      data { ad { id } metrics { currentRank previousRank rankDelta improvementPct } trajectory { date rank totalAds } } pagination { total } } }`, { id: BT_B });
    expect(data.brandtrackerAdRank).toEqual({
      data: rest.body.data.map((row: { ad: { id: string } }) => ({ ...row, ad: { id: row.ad.id } })),
      pagination: { total: rest.body.pagination.total },
    });
  });
});
