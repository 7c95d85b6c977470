import { describe, expect, it } from 'vitest';
import { expectNotFound, expectViolation } from '../support/assertions.js';
import { BT_A, PAGE_A } from '../brandtrackers/scenario.js';
import { useTrackingApp } from './support.js';
import { testingScenario } from './testing-scenario.js';

// The overview of Nordic Glow (testing-scenario.ts): its sections equal the routes they summarise, the graph's
// series equal the rows SQL counts (daily, and summed into weeks and months), the date range rules, bad input, 404.

const app = useTrackingApp(testingScenario, { pages: [PAGE_A] });

const path = (route: string, query = '') => `/brandtrackers/${BT_A}/${route}${query}`;
const get = (query = '', apiKey?: string) => app.get(path('overview', query), apiKey);
type Point = { date: string; count: number };
type Spend = { date: string; impressions: number; cumulativeImpressions: number; estimatedSpend: number };
const asMap = (points: Point[]) => Object.fromEntries(points.filter((p) => p.count > 0).map((p) => [p.date, p.count]));
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const todayMs = () => Math.floor(Date.now() / 86_400_000) * 86_400_000;

describe('GET /v1/brandtrackers/{id}/overview', () => {
  it('answers the five sections as the routes they summarise', async () => {
    const res = await get();
    expect(res.status).toBe(200);
    const { graph, mediaMix, topLandingPages, topAds, adsPreview } = res.body.data;
    expect(graph).toMatchObject({ granularity: 'daily', dateRange: { startDate: isoDay(todayMs() - 365 * 86_400_000), endDate: isoDay(todayMs()) }, cpm: 9 });
    expect(graph.adsLaunched).toHaveLength(366);
    expect(mediaMix).toEqual((await app.get(path('media-mix'))).body.data);
    expect(topLandingPages).toEqual({ ...(await app.get(path('landing-pages', '?limit=5'))).body, requestId: undefined });
    const ranked = (await app.get(path('top-ads', '?sortBy=daysRunning&limit=5'))).body;
    expect(topAds).toEqual({ data: ranked.data, pagination: ranked.pagination });
    const [{ leads }] = await app.t.db.prisma.$queryRaw<{ leads: number }[]>`SELECT count(*)::int AS leads FROM "ads" WHERE "advertiserId" = ${PAGE_A} AND "isGroupLead"`;
    expect(adsPreview.pagination).toEqual({ page: 1, limit: 10, total: leads, totalPages: Math.ceil(leads / 10) });
    expect(adsPreview.data.map((ad: { id: string }) => ad.id).slice(0, 3)).toEqual(['facebook_98001', 'facebook_98002', 'facebook_96023']);
    expect(res.body.meta).toEqual({ requestedSnapshotDate: null, resolvedSnapshotDate: null, dataFreshnessLagDays: null, periodNote: 'Live data.' });
  });

  it('sorts top ads by reach when EU-only, and honours the section limits', async () => {
    // The scenario's ads are dated (2026-11-01): its two EU ads with a landing page are moved into the last 30 days
    // for this request, and back (the other tests count the ads by their first day).
    const move = (when: string) => app.t.db.pool.query(`UPDATE "ads" SET "firstSeenAt" = ${when} WHERE "id" = ANY($1::text[])`, [['facebook_96003', 'facebook_96006']]);
    await move(`now() - interval '10 days'`);
    const res = await get('?euOnly=true&topAdsLimit=2&landingPagesLimit=1&adsPreviewLimit=3&landingPagesTimePeriod=last30d');
    await move(`"createdAt"`); // the scenario's first day of each
    const ranked = (await app.get(path('top-ads', '?euOnly=true&sortBy=reach&limit=2'))).body;
    expect(res.body.data.topAds).toEqual({ data: ranked.data, pagination: ranked.pagination });
    expect(res.body.data.topLandingPages.data).toHaveLength(1);
    expect(res.body.data.topLandingPages.pagination).toMatchObject({ limit: 1, total: 2 });
    expect(res.body.data.adsPreview.data).toHaveLength(3);
    expect(res.body.data.mediaMix).toEqual((await app.get(path('media-mix', '?euOnly=true'))).body.data);
  });

  it('counts per day what SQL counts: ads first seen, reach rows, and EU reach gained', async () => {
    const res = await get('?timeSeriesStartDate=2026-09-01&timeSeriesEndDate=2026-11-23&cpm=9');
    const { graph } = res.body.data;
    expect(graph.dateRange).toEqual({ startDate: '2026-09-01', endDate: '2026-11-23' });
    expect(graph.adsLaunched).toHaveLength(84);
    const launched = await app.t.db.prisma.$queryRaw<{ day: Date; n: number }[]>`
      SELECT ("firstSeenAt" AT TIME ZONE 'UTC')::date AS day, count(*)::int AS n FROM "ads"
      WHERE "advertiserId" = ${PAGE_A} AND "firstSeenAt" >= '2026-09-01' AND "firstSeenAt" < '2026-11-24' GROUP BY 1`;
    expect(asMap(graph.adsLaunched)).toEqual(Object.fromEntries(launched.map((row) => [row.day.toISOString().slice(0, 10), row.n])));
    // The graph is the time-series route's answer for the same days and CPM (one engine, series.ts; its own tests
    // hold the live-ads and impressions series against SQL).
    const series = await app.get(path('time-series', '?startDate=2026-09-01&endDate=2026-11-23&cpm=9'));
    expect(graph).toEqual(series.body.data);
    const gained = (graph.euImpressionsSpend as Spend[]).reduce((sum, p) => sum + p.impressions, 0);
    expect(graph.euImpressionsSpend.at(-1).cumulativeImpressions).toBeGreaterThanOrEqual(gained);
    const later = await get('?timeSeriesStartDate=2026-11-17&timeSeriesEndDate=2026-11-18&cpm=1000');
    expect(later.body.data.graph).toEqual((await app.get(path('time-series', '?startDate=2026-11-17&endDate=2026-11-18&cpm=1000'))).body.data);
    for (const p of later.body.data.graph.euImpressionsSpend as Spend[]) expect(p.estimatedSpend).toBe(Math.round((p.impressions * 1000) / 1000));
    expect(later.body.data.graph.cpm).toBe(1000);
  });

  it('sums the days into weeks and months, a bucket cut by the range starting at the range start', async () => {
    const range = '&timeSeriesStartDate=2026-10-10&timeSeriesEndDate=2026-11-23';
    const daily = (await get(`?timeSeriesGranularity=daily${range}`)).body.data.graph;
    const weekly = (await get(`?timeSeriesGranularity=weekly${range}`)).body.data.graph;
    const monthly = (await get(`?timeSeriesGranularity=monthly${range}`)).body.data.graph;
    expect(weekly.adsLaunched.map((p: Point) => p.date)).toEqual(['2026-10-10', '2026-10-12', '2026-10-19', '2026-10-26', '2026-11-02', '2026-11-09', '2026-11-16', '2026-11-23']);
    expect(monthly.adsLaunched.map((p: Point) => p.date)).toEqual(['2026-10-10', '2026-11-01']);
    for (const [graph, bucket] of [[weekly, (d: string) => weekly.adsLaunched.filter((p: Point) => p.date <= d).at(-1).date], [monthly, (d: string) => (d < '2026-11-01' ? '2026-10-10' : '2026-11-01')]] as const) {
      const sums: Record<string, { launched: number; impressions: number }> = {};
      daily.adsLaunched.forEach((p: Point, i: number) => {
        const key = bucket(p.date);
        sums[key] ??= { launched: 0, impressions: 0 };
        sums[key].launched += p.count;
        sums[key].impressions += daily.euImpressionsSpend[i].impressions;
      });
      expect(Object.fromEntries(graph.adsLaunched.map((p: Point, i: number) => [p.date, { launched: p.count, impressions: graph.euImpressionsSpend[i].impressions }]))).toEqual(sums);
      expect(graph.euImpressionsSpend.at(-1).cumulativeImpressions).toBe(daily.euImpressionsSpend.at(-1).cumulativeImpressions);
    }
    // An ad is live in a week when its life (first seen .. last seen, or on while active) meets one of its days.
    const [{ n }] = await app.t.db.prisma.$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM "ads" a WHERE a."advertiserId" = ${PAGE_A}
        AND (a."firstSeenAt" AT TIME ZONE 'UTC')::date <= '2026-11-22' AND (a."status" = 'active' OR (a."lastSeenAt" AT TIME ZONE 'UTC')::date >= '2026-11-16')`;
    expect(weekly.liveAds.find((p: Point) => p.date === '2026-11-16').count).toBe(n);
  });

  it('anchors a period on the snapshot day, and reports the day read', async () => {
    const res = await get('?timeSeriesPeriod=7d&snapshotDate=2026-11-20');
    expect(res.body.data.graph.dateRange).toEqual({ startDate: '2026-11-14', endDate: '2026-11-20' });
    expect(res.body.meta).toMatchObject({ requestedSnapshotDate: '2026-11-20', resolvedSnapshotDate: '2026-11-20', dataFreshnessLagDays: 0 });
    expect(res.body.data.mediaMix).toEqual((await app.get(path('media-mix', '?snapshotDate=2026-11-20'))).body.data);
    expect(res.body.data.adsPreview.data.map((ad: { id: string }) => ad.id)).not.toContain('facebook_98001');
    const yesterday = await get('?timeSeriesPeriod=yesterday&snapshotDate=2026-11-20');
    expect(yesterday.body.data.graph.dateRange).toEqual({ startDate: '2026-11-19', endDate: '2026-11-19' });
  });

  it('sends at most nine statements', async () => {
    await get();
    const { res, statements } = await app.statementsOf(() => get('?adsPreviewLimit=50&topAdsLimit=20&landingPagesLimit=20'));
    expect(res.status).toBe(200);
    expect(statements.length).toBeLessThanOrEqual(9);
  });

  it('rejects bad values naming the parameter, and answers 404 for a brandtracker the workspace does not track', async () => {
    for (const [query, name] of [
      ['timeSeriesPeriod=7d&timeSeriesStartDate=2026-11-01', 'timeSeriesPeriod'], ['timeSeriesPeriod=30d&timeSeriesEndDate=2026-11-01', 'timeSeriesPeriod'],
      ['timeSeriesStartDate=2026-11-02&timeSeriesEndDate=2026-11-01', 'timeSeriesStartDate'], ['timeSeriesStartDate=2020-01-01&timeSeriesEndDate=2026-11-01', 'timeSeriesStartDate'],
      ['timeSeriesPeriod=2d', 'timeSeriesPeriod'], ['timeSeriesEndDate=2026-02-30', 'timeSeriesEndDate'], ['timeSeriesGranularity=hourly', 'timeSeriesGranularity'],
      ['cpm=0', 'cpm'], ['cpm=10001', 'cpm'], ['landingPagesLimit=21', 'landingPagesLimit'], ['topAdsLimit=0', 'topAdsLimit'], ['adsPreviewLimit=51', 'adsPreviewLimit'],
      ['topAdsSortBy=newest', 'topAdsSortBy'], ['topAdsPeriod=last2d', 'topAdsPeriod'], ['landingPagesTimePeriod=today', 'landingPagesTimePeriod'], ['snapshotDate=soon', 'snapshotDate'],
    ]) {
      expectViolation(await get(`?${query}`), `query-string.${name}`);
    }
    expectNotFound(await get('', app.otherKey));
  });

  it('answers the same on GraphQL', async () => {
    const rest = await get('?timeSeriesPeriod=30d&timeSeriesGranularity=weekly&adsPreviewLimit=2');
    const data = await app.graphql(`query($id: String!) { brandtrackerOverview(brandtrackerId: $id, timeSeriesPeriod: "30d", timeSeriesGranularity: weekly, adsPreviewLimit: 2) {
      data { graph { granularity dateRange { startDate endDate } adsLaunched { date count } liveAds { date count } euImpressionsSpend { date impressions cumulativeImpressions estimatedSpend } cpm }
             mediaMix { activeAds } topLandingPages { data { landingPage usageCount } } topAds { data { ad { id } metrics { totalReach } } pagination { total } } adsPreview { data { id } pagination { total } } }
      meta { resolvedSnapshotDate } } }`, { id: BT_A });
    const body = rest.body.data;
    expect(data.brandtrackerOverview).toEqual({
      data: {
        graph: body.graph, mediaMix: { activeAds: body.mediaMix.activeAds },
        topLandingPages: { data: body.topLandingPages.data.map((row: { landingPage: string; usageCount: number }) => ({ landingPage: row.landingPage, usageCount: row.usageCount })) },
        topAds: { data: body.topAds.data.map((row: { ad: { id: string }; metrics: { totalReach: number } }) => ({ ad: { id: row.ad.id }, metrics: { totalReach: row.metrics.totalReach } })), pagination: { total: body.topAds.pagination.total } },
        adsPreview: { data: body.adsPreview.data.map((ad: { id: string }) => ({ id: ad.id })), pagination: { total: body.adsPreview.pagination.total } },
      },
      meta: { resolvedSnapshotDate: null },
    });
    const graphOnly = await app.graphql(`query($id: String!) { brandtrackerOverview(brandtrackerId: $id) { data { graph { cpm } } } }`, { id: BT_A });
    expect(graphOnly.brandtrackerOverview.data.graph.cpm).toBe(9);
  });
});
