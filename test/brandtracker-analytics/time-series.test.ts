import { describe, expect, it } from 'vitest';
import { BT_A, PAGE_A, PAGE_B } from '../brandtrackers/scenario.js';
import { expectNotFound, expectViolation } from '../support/assertions.js';
import { seriesScenario } from './series-scenario.js';
import { useTrackingApp } from './support.js';

// GET /brandtrackers/{id}/time-series on the series scenario: page A's launches, live ads and reach increments in
// November 2026 by day and week, EU-only, the snapshot day as the end, and the daily rows checked against SQL.

const app = useTrackingApp(seriesScenario, { pages: [PAGE_A, PAGE_B] });

const get = (query: string, apiKey?: string) => app.get(`/brandtrackers/${BT_A}/time-series${query}`, apiKey);
const NOV = '?startDate=2026-11-09&endDate=2026-11-21';
const days = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `2026-11-${String(from + i).padStart(2, '0')}`);
type Point = { date: string; count: number };
const byDate = (points: Point[]) => Object.fromEntries(points.filter((p) => p.count !== 0).map((p) => [p.date, p.count]));

describe('GET /v1/brandtrackers/{id}/time-series', () => {
  it('answers launches, live ads and reach increments per day', async () => {
    const res = await get(NOV);
    expect(res.status).toBe(200);
    const { data, meta } = res.body;
    expect(data.granularity).toBe('daily');
    expect(data.dateRange).toEqual({ startDate: '2026-11-09', endDate: '2026-11-21' });
    expect(data.cpm).toBe(9);
    expect(data.adsLaunched.map((p: Point) => p.date)).toEqual(days(9, 21));
    expect(byDate(data.adsLaunched)).toEqual({ '2026-11-10': 1, '2026-11-18': 1 });
    expect(data.liveAds.map((p: Point) => p.count)).toEqual([3, 4, 4, 4, 4, 4, 4, 3, 3, 4, 4, 4, 4]);
    const reach = Object.fromEntries(data.euImpressionsSpend.map((p: { date: string }) => [p.date, p]));
    expect(reach['2026-11-09']).toEqual({ date: '2026-11-09', impressions: 0, cumulativeImpressions: 0, estimatedSpend: 0 });
    expect(reach['2026-11-10']).toMatchObject({ impressions: 100, cumulativeImpressions: 100 });
    expect(reach['2026-11-19']).toMatchObject({ impressions: 100, cumulativeImpressions: 7550 });
    expect(reach['2026-11-20']).toEqual({ date: '2026-11-20', impressions: 450, cumulativeImpressions: 8000, estimatedSpend: 4 });
    expect(reach['2026-11-21']).toEqual({ date: '2026-11-21', impressions: 1000, cumulativeImpressions: 9000, estimatedSpend: 9 });
    expect(meta).toEqual({ requestedSnapshotDate: null, resolvedSnapshotDate: null, dataFreshnessLagDays: null, periodNote: 'daily buckets from 2026-11-09 to 2026-11-21.' });
  });

  it('buckets by ISO week and month, labelled by their first day in the range', async () => {
    const weekly = (await get(`${NOV}&granularity=weekly&cpm=20`)).body.data;
    expect(weekly.adsLaunched).toEqual([{ date: '2026-11-09', count: 1 }, { date: '2026-11-16', count: 1 }]);
    expect(weekly.liveAds).toEqual([{ date: '2026-11-09', count: 4 }, { date: '2026-11-16', count: 4 }]);
    expect(weekly.euImpressionsSpend).toEqual([
      { date: '2026-11-09', impressions: 600, cumulativeImpressions: 600, estimatedSpend: 12 },
      { date: '2026-11-16', impressions: 1600, cumulativeImpressions: 9000, estimatedSpend: 32 },
    ]);
    const monthly = (await get('?startDate=2026-10-20&endDate=2026-11-21&granularity=monthly')).body.data;
    expect(monthly.adsLaunched).toEqual([{ date: '2026-10-20', count: 0 }, { date: '2026-11-01', count: 3 }]);
    expect(monthly.liveAds).toEqual([{ date: '2026-10-20', count: 2 }, { date: '2026-11-01', count: 5 }]);
  });

  it('counts only EU ads with euOnly', async () => {
    const { data } = (await get(`${NOV}&euOnly=true`)).body;
    expect(byDate(data.adsLaunched)).toEqual({ '2026-11-18': 1 });
    expect(data.liveAds.map((p: Point) => p.count)).toEqual([3, 3, 3, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4]);
    expect(data.euImpressionsSpend.at(-1)).toMatchObject({ cumulativeImpressions: 8400 });
  });

  it('ends on the snapshot day, and a period ends there too', async () => {
    const snap = await get('?snapshotDate=2026-11-20');
    expect(snap.body.data.dateRange).toEqual({ startDate: '2025-11-20', endDate: '2026-11-20' });
    expect(snap.body.data.liveAds).toHaveLength(366);
    expect(snap.body.meta).toMatchObject({ requestedSnapshotDate: '2026-11-20', resolvedSnapshotDate: '2026-11-20', dataFreshnessLagDays: 0 });
    const week = await get('?snapshotDate=2026-11-20&period=7d');
    expect(week.body.data.dateRange).toEqual({ startDate: '2026-11-14', endDate: '2026-11-20' });
    const yesterday = await get('?snapshotDate=2026-11-20&period=yesterday');
    expect(yesterday.body.data.dateRange).toEqual({ startDate: '2026-11-19', endDate: '2026-11-19' });
    const today = new Date().toISOString().slice(0, 10);
    expect((await get('?period=today')).body.data.dateRange).toEqual({ startDate: today, endDate: today });
  });

  it('equals the daily rows in SQL: live ads from the ads\' lives, the last cumulative reach from the reach rows', async () => {
    const { data } = (await get(NOV)).body;
    const live = await app.t.db.prisma.$queryRaw<{ date: Date; n: number }[]>`
      SELECT d::date AS "date", (SELECT count(*) FROM "ads" a WHERE a."advertiserId" = ${PAGE_A} AND a."firstSeenAt" < d + interval '1 day'
        AND (a."status" = 'active' OR a."lastSeenAt" >= d))::int AS n
      FROM generate_series('2026-11-09'::timestamp, '2026-11-21'::timestamp, interval '1 day') d ORDER BY 1`;
    expect(data.liveAds.map((p: Point) => p.count)).toEqual(live.map((row) => row.n));
    const [{ total }] = await app.t.db.prisma.$queryRaw<{ total: number }[]>`
      SELECT sum(x."reach")::int AS total FROM (SELECT DISTINCT ON (r."adId") r."reach" FROM "ad_reach_days" r JOIN "ads" a ON a."id" = r."adId"
        WHERE a."advertiserId" = ${PAGE_A} AND r."date" <= '2026-11-21' ORDER BY r."adId", r."date" DESC) x`;
    expect(data.euImpressionsSpend.at(-1).cumulativeImpressions).toBe(total);
    const [{ launched }] = await app.t.db.prisma.$queryRaw<{ launched: number }[]>`
      SELECT count(*)::int AS launched FROM "ads" WHERE "advertiserId" = ${PAGE_A} AND "firstSeenAt" >= '2026-11-09' AND "firstSeenAt" < '2026-11-22'`;
    expect(data.adsLaunched.reduce((sum: number, p: Point) => sum + p.count, 0)).toBe(launched);
  });

  it('answers in two statements (the frame, the series)', async () => {
    const { res, statements } = await app.statementsOf(() => get(NOV));
    expect(res.status).toBe(200);
    expect(statements).toHaveLength(2);
  });

  it('rejects bad parameters naming them, and answers 404 for another workspace', async () => {
    expectViolation(await get('?period=7d&startDate=2026-11-01'), 'query-string.period');
    expectViolation(await get('?endDate=2026-11-20&snapshotDate=latest'), 'query-string.endDate');
    expectViolation(await get('?startDate=2026-11-22&endDate=2026-11-21'), 'query-string.startDate');
    expectViolation(await get('?startDate=2025-11-20&endDate=2026-11-21'), 'query-string.startDate');
    expectViolation(await get('?period=2w'), 'query-string.period');
    expectViolation(await get('?granularity=hourly'), 'query-string.granularity');
    expectViolation(await get('?cpm=0'), 'query-string.cpm');
    expectViolation(await get('?startDate=2026-13-01'), 'query-string.startDate');
    expectNotFound(await get(NOV, app.otherKey));
  });

  it('answers the same on GraphQL', async () => {
    const data = await app.graphql(`query($id: String!) { brandtrackerTimeSeries(brandtrackerId: $id, startDate: "2026-11-16", endDate: "2026-11-21", granularity: weekly) {
      data { adsLaunched { date count } liveAds { date count } euImpressionsSpend { date impressions cumulativeImpressions estimatedSpend } } } }`, { id: BT_A });
    const rest = (await get('?startDate=2026-11-16&endDate=2026-11-21&granularity=weekly')).body.data;
    expect(data.brandtrackerTimeSeries.data).toEqual({ adsLaunched: rest.adsLaunched, liveAds: rest.liveAds, euImpressionsSpend: rest.euImpressionsSpend });
  });
});
