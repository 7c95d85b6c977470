import { describe, expect, it } from 'vitest';
import { BT_A, PAGE_A } from '../brandtrackers/scenario.js';
import { expectNotFound, expectViolation } from '../support/assertions.js';
import { GIFT_COPY, GIFT_URL, SERUM_COPY, SERUM_URL, seriesScenario } from './series-scenario.js';
import { useTrackingApp } from './support.js';

// The three evolution routes (one mechanism, three texts) on the series scenario: page A's copies, headlines and
// landing pages per snapshot day of November 2026, global mode's ranking and paging, exact mode, the snapshot day as
// the end, and the points checked against SQL and against the time-series' live ads.

const app = useTrackingApp(seriesScenario, { pages: [PAGE_A] });

type Point = { date: string; recordedAt: string; activeAds: number; totalAds: number; euAds: number; euActiveAds: number; totalReach: number; percentNewAds: number };
const get = (path: string, query: string, apiKey?: string) => app.get(`/brandtrackers/${BT_A}/${path}${query}`, apiKey);
const NOV = '?startDate=2026-11-09&endDate=2026-11-21';
const SNAPSHOT_DAYS = ['2026-11-10', '2026-11-12', '2026-11-15', '2026-11-18', '2026-11-19', '2026-11-20', '2026-11-21'];
const column = (points: Point[], name: keyof Point) => points.map((point) => point[name]);

describe('GET /v1/brandtrackers/{id}/ad-copy-evolution, headline-evolution, landing-page-evolution', () => {
  it('answers one series per copy, one point per snapshot day, ranked by live ads then ads', async () => {
    const res = await get('ad-copy-evolution', NOV);
    expect(res.status).toBe(200);
    expect(res.body.dateRange).toEqual({ startDate: '2026-11-09', endDate: '2026-11-21' });
    expect(res.body.pagination).toEqual({ page: 1, limit: 10, total: 2, totalPages: 1 });
    expect(res.body.meta).toMatchObject({ requestedSnapshotDate: null, resolvedSnapshotDate: null });
    const [serum, gift] = res.body.data;
    expect(serum.adCopy).toBe(SERUM_COPY);
    expect(column(serum.points, 'date')).toEqual(SNAPSHOT_DAYS);
    expect(serum.points[0]).toEqual({ date: '2026-11-10', recordedAt: '2026-11-10T00:00:00.000Z', activeAds: 3, totalAds: 3, euAds: 2, euActiveAds: 2, totalReach: 100, percentNewAds: 33.3 });
    expect(column(serum.points, 'activeAds')).toEqual([3, 3, 3, 2, 2, 2, 2]);
    expect(column(serum.points, 'totalReach')).toEqual([100, 300, 600, 600, 5400, 5500, 5600]);
    expect(gift.adCopy).toBe(GIFT_COPY);
    expect(column(gift.points, 'activeAds')).toEqual([1, 1, 1, 2, 2, 2, 2]);
    expect(column(gift.points, 'percentNewAds')).toEqual([0, 0, 0, 50, 0, 0, 0]);
    expect(column(gift.points, 'totalReach')).toEqual([0, 0, 0, 50, 2150, 2500, 3400]);
    expect(column(gift.points, 'euActiveAds')).toEqual([1, 1, 1, 2, 2, 2, 2]);
  });

  it('pages over series, and exact mode answers one series or none', async () => {
    const second = await get('ad-copy-evolution', `${NOV}&limit=1&page=2`);
    expect(second.body.pagination).toEqual({ page: 2, limit: 1, total: 2, totalPages: 2 });
    expect(second.body.data.map((series: { adCopy: string }) => series.adCopy)).toEqual([GIFT_COPY]);
    const exact = await get('ad-copy-evolution', `${NOV}&adCopy=${encodeURIComponent(GIFT_COPY)}&page=3&limit=5`);
    expect(exact.body.pagination).toEqual({ page: 1, limit: 1, total: 1, totalPages: 1 });
    expect(exact.body.data).toHaveLength(1);
    expect(exact.body.data[0].points).toEqual((await get('ad-copy-evolution', NOV)).body.data[1].points);
    const none = await get('ad-copy-evolution', `${NOV}&adCopy=${encodeURIComponent('holiday glow gift set')}`);
    expect(none.body).toMatchObject({ data: [], pagination: { page: 1, limit: 1, total: 0, totalPages: 0 } });
  });

  it('keys the headline and landing-page series by the ad title and the landing page URL', async () => {
    const headlines = (await get('headline-evolution', NOV)).body.data;
    expect(headlines.map((series: { headline: string }) => series.headline)).toEqual(['Glow serum', 'Gift set']);
    expect(column(headlines[0].points, 'activeAds')).toEqual([4, 4, 4, 3, 3, 3, 3]);
    const pages = (await get('landing-page-evolution', NOV)).body.data;
    expect(pages.map((series: { landingPage: string }) => series.landingPage)).toEqual([SERUM_URL, GIFT_URL]);
    const exact = await get('landing-page-evolution', `${NOV}&landingPage=${encodeURIComponent(GIFT_URL)}`);
    expect(exact.body.data[0]).toMatchObject({ landingPage: GIFT_URL });
    expect(column(exact.body.data[0].points, 'totalAds')).toEqual([0, 0, 0, 1, 1, 1, 1]);
  });

  it('ends on the snapshot day and leaves out texts no ad uses in the range', async () => {
    const snap = await get('ad-copy-evolution', '?snapshotDate=2026-11-20');
    expect(snap.body.dateRange).toEqual({ startDate: '2025-11-20', endDate: '2026-11-20' });
    expect(snap.body.meta).toMatchObject({ requestedSnapshotDate: '2026-11-20', resolvedSnapshotDate: '2026-11-20', dataFreshnessLagDays: 0 });
    expect(snap.body.data[0].points.at(-1).date).toBe('2026-11-20');
    const early = await get('ad-copy-evolution', '?startDate=2025-01-01&endDate=2025-03-01');
    expect(early.body.data.map((series: { adCopy: string }) => series.adCopy)).toEqual(['Winter jacket clearance']);
    expect(early.body.data[0].points).toEqual([]);
  });

  it('agrees with SQL and with the time-series: reach from the reach rows, live ads summed over headlines', async () => {
    const gift = (await get('ad-copy-evolution', NOV)).body.data[1];
    const [{ reach }] = await app.t.db.prisma.$queryRaw<{ reach: number }[]>`
      SELECT sum(x."reach")::int AS reach FROM (SELECT DISTINCT ON (r."adId") r."reach" FROM "ad_reach_days" r JOIN "ads" a ON a."id" = r."adId"
        WHERE a."advertiserId" = ${PAGE_A} AND a."body" = ${GIFT_COPY} AND r."date" <= '2026-11-20' ORDER BY r."adId", r."date" DESC) x`;
    expect(gift.points.find((point: Point) => point.date === '2026-11-20').totalReach).toBe(reach);
    const series = (await app.get(`/brandtrackers/${BT_A}/time-series${NOV}`)).body.data.liveAds as { date: string; count: number }[];
    const headlines = (await get('headline-evolution', NOV)).body.data as { points: Point[] }[];
    for (const day of SNAPSHOT_DAYS) {
      const summed = headlines.reduce((sum, s) => sum + s.points.find((point) => point.date === day)!.activeAds, 0);
      expect(summed).toBe(series.find((point) => point.date === day)!.count);
    }
  });

  it('answers in two statements (the frame, the page)', async () => {
    const { res, statements } = await app.statementsOf(() => get('headline-evolution', NOV));
    expect(res.status).toBe(200);
    expect(statements).toHaveLength(2);
  });

  it('rejects bad parameters naming them, and answers 404 for another workspace', async () => {
    expectViolation(await get('ad-copy-evolution', '?endDate=2026-11-20&snapshotDate=latest'), 'query-string.endDate');
    expectViolation(await get('headline-evolution', '?startDate=2026-11-22&endDate=2026-11-21'), 'query-string.startDate');
    expectViolation(await get('landing-page-evolution', '?startDate=2024-01-01&endDate=2026-11-21'), 'query-string.startDate');
    expectViolation(await get('ad-copy-evolution', '?limit=21'), 'query-string.limit');
    expectViolation(await get('ad-copy-evolution', '?page=0'), 'query-string.page');
    expectViolation(await get('headline-evolution', '?snapshotDate=2026-02-30'), 'query-string.snapshotDate');
    for (const path of ['ad-copy-evolution', 'headline-evolution', 'landing-page-evolution']) expectNotFound(await get(path, NOV, app.otherKey));
  });

  it('answers the same on GraphQL', async () => {
    const data = await app.graphql(`query($id: String!) { brandtrackerHeadlineEvolution(brandtrackerId: $id, startDate: "2026-11-09", endDate: "2026-11-21", limit: 1) {
      dateRange { startDate endDate } pagination { page limit total totalPages } data { headline points { date activeAds totalAds euAds euActiveAds totalReach percentNewAds } } } }`, { id: BT_A });
    const rest = (await get('headline-evolution', `${NOV}&limit=1`)).body;
    const points = rest.data[0].points.map(({ recordedAt: _recordedAt, ...point }: Point) => point);
    expect(data.brandtrackerHeadlineEvolution).toEqual({ dateRange: rest.dateRange, pagination: rest.pagination, data: [{ headline: 'Glow serum', points }] });
  });
});
