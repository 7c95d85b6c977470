import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Prisma } from '../../src/generated/prisma/client.js';
import { refreshAdGroups } from '../../src/data/ad-groups.js';
import { daysRunningSql } from '../../src/schema/shared/days-running.js';
import { scopeToWorkspace } from '../../src/schema/shared/workspace.js';
import {
  adsOfScope, groupPage, GRANULARITIES, rankedAdsPage, rankedOrder, scopeSelect, storedGroupPage, timeSeriesOf, type AnalyticsScope, type GroupSort,
  type RankedAdsSort, type StoredGroupKind,
} from '../../src/schema/brandtracker-analytics/service.js';
import type { Frame } from '../../src/schema/brandtracker-analytics/service/frame.js';
import { createTestApp, type TestApp } from '../support/app.js';

// The workspace's hooks, ad copies, landing pages (groups precomputed per page, migration 0021) and top ads (each
// brand's first rows, then merged) against the on-the-fly statements they replace, on the tiny market: the same rows,
// figures and totals for every sort, order, EU subset, brand selection and page.

let t: TestApp;
let scope: AnalyticsScope;
let folderId: number;
let tracked: { id: string; pageId: string }[];

beforeAll(async () => {
  t = await createTestApp(undefined, { market: { scale: 'tiny' } });
  const { workspaceId } = await t.newKey();
  tracked = await t.db.prisma.$queryRaw<{ id: string; pageId: string }[]>`
    SELECT b."id", b."facebookPageId" AS "pageId" FROM "brandtrackers" b JOIN "advertisers" v ON v."id" = b."facebookPageId"
    WHERE b."isLoaded" ORDER BY v."liveAdsCount" DESC, b."id" LIMIT 12`;
  const db = scopeToWorkspace(t.db.prisma, workspaceId);
  folderId = (await db.brandtrackerFolder.create({ data: { workspaceId, name: 'Folder', rank: 1 } })).id;
  for (const [index, brandtracker] of tracked.entries()) {
    // Four in the folder; the last one removed (an inactive link never counts).
    await db.brandtrackerLink.create({ data: { workspaceId, brandtrackerId: brandtracker.id, folderId: index < 4 ? folderId : null, isActive: index < 11 } });
  }
  scope = { workspaceId };
});
afterAll(() => t?.close());

const SORTS: GroupSort[] = ['usageCount', 'activeAdsCount', 'longestRunning', 'totalImpressions', 'firstUsedAt', 'lastUsedAt'];
const KINDS: StoredGroupKind[] = ['hook', 'adCopy', 'landingPage'];
const PAGES = [{ page: 1, limit: 20 }, { page: 4, limit: 7 }, { page: 1, limit: 100 }, { page: 500, limit: 100 }];

describe('the precomputed groups', () => {
  it('answer what grouping the ads on the fly answers, for every kind, sort, order, EU subset and page', async () => {
    let rows = 0;
    for (const kind of KINDS) {
      for (const sort of SORTS) {
        for (const order of ['asc', 'desc'] as const) {
          for (const euOnly of [false, true]) {
            for (const page of PAGES) {
              const query = { scope, kind, euOnly, sort, order, page };
              const stored = await storedGroupPage(t.db.pool, query);
              expect([kind, sort, order, euOnly, page, stored]).toEqual([kind, sort, order, euOnly, page, await groupPage(t.db.prisma, query)]);
              rows += stored.data.length;
            }
          }
        }
      }
    }
    expect(rows).toBeGreaterThan(1000);
  });

  it('narrow to brandtrackers and folders as the scope does', async () => {
    const scopes: AnalyticsScope[] = [
      { ...scope, brandtrackerIds: [tracked[0].id, tracked[5].id, tracked[11].id] },
      { ...scope, folderIds: [folderId] },
      { ...scope, folderIds: [folderId], brandtrackerIds: [tracked[1].id, tracked[6].id] },
    ];
    for (const narrowed of scopes) {
      for (const kind of KINDS) {
        for (const euOnly of [false, true]) {
          const query = { scope: narrowed, kind, euOnly, sort: 'usageCount' as const, order: 'desc' as const, page: { page: 2, limit: 10 } };
          expect(await storedGroupPage(t.db.pool, query)).toEqual(await groupPage(t.db.prisma, query));
        }
      }
    }
  });
});

/** The top-ads statement before the precomputed counts: every ranked ad of the brands, sorted, counted. */
async function rankedOnTheFly(query: Parameters<typeof rankedAdsPage>[1]) {
  const conditions = [Prisma.sql`a."isGroupLead"`, ...(query.includeInactive ? [] : [Prisma.sql`a."status" = 'active'`]), ...(query.where ?? [])];
  const days = daysRunningSql({ alias: 'a', start: 'firstSeenAt', since2018: true });
  const rows = await t.db.prisma.$queryRaw<{ adId: string | null; brandtrackerId: string; daysRunning: number; total: number }[]>`
    WITH s AS (${scopeSelect(query.scope)}),
    m AS MATERIALIZED (
      SELECT a."id" AS "adId", s."brandtrackerId", s."name", s."pageId", a."aggregatedReach", a."duplicates", ${days}::int AS "daysRunning",
             a."currentRank", a."rankDelta", a."improvementPct", a."rankDelta7d", a."rankDelta14d", a."rankDelta30d",
             a."reach", a."reachDelta1d", a."reachDelta7d", a."reachDelta30d"
      FROM s ${adsOfScope({ euOnly: query.euOnly })}
      WHERE ${Prisma.join(conditions, ' AND ')}
    )
    SELECT p.*, t.total
    FROM (SELECT count(*)::int AS total FROM m) t
    LEFT JOIN LATERAL (SELECT * FROM m ORDER BY ${rankedOrder(query.sorts, '')} LIMIT ${query.page.limit} OFFSET ${(query.page.page - 1) * query.page.limit}) p ON TRUE
    ORDER BY ${rankedOrder(query.sorts, 'p.')}`;
  return { total: rows[0]?.total ?? 0, rows: rows.filter((row) => row.adId !== null).map((row) => [row.adId, row.brandtrackerId, row.daysRunning]) };
}

const RANKED_SORTS: RankedAdsSort[][] = [
  ['currentRank', 'reach'], ['rankDelta'], ['rankDelta7d'], ['rankDelta14d'], ['rankDelta30d'], ['reach'], ['reachDelta1d'], ['reachDelta7d'],
  ['reachDelta30d'], ['daysRunning'], ['duplicates'],
];

describe('top ads, brand by brand', () => {
  it('answer what ranking every ad of the brands answers, with the total from the per-page counts', async () => {
    for (const sorts of RANKED_SORTS) {
      for (const includeInactive of [false, true]) {
        for (const euOnly of [false, true]) {
          for (const page of PAGES) {
            for (const where of [undefined, [Prisma.sql`a."rankDelta" >= 0`]]) {
              const query = { scope, euOnly, includeInactive, sorts, page, where };
              const found = await rankedAdsPage(t.db.pool, query);
              const mine = { total: found.total, rows: found.rows.map((row) => [row.adId, row.brandtracker.id, row.daysRunning]) };
              expect([sorts, includeInactive, euOnly, page, where?.length, mine]).toEqual([sorts, includeInactive, euOnly, page, where?.length, await rankedOnTheFly(query)]);
            }
          }
        }
      }
    }
  });
});

/** Every page's main landing pages grouped on the fly from its group leads, as GET /v1/advertisers counted them before migration 0024. */
const MAIN_LANDING_PAGES_ON_THE_FLY = Prisma.sql`
  SELECT "advertiserId", n AS "position", "landingPage", "screenshotUrl" FROM (
    SELECT a."advertiserId", p."normalizedUrl" AS "landingPage", max(p."screenshotDesktopUrl") AS "screenshotUrl",
      row_number() OVER (PARTITION BY a."advertiserId" ORDER BY count(*) DESC, sum(a."reach") DESC, p."normalizedUrl")::int AS n
    FROM "ads" a JOIN "landing_pages" p ON p."id" = a."landingPageId"
    WHERE a."isGroupLead"
    GROUP BY 1, 2) ranked
  WHERE n <= 3 ORDER BY 1, 2`;
const storedMainLandingPages = () => t.db.prisma.$queryRaw`SELECT "advertiserId", "position", "landingPage", "screenshotUrl" FROM "advertiser_main_landing_pages" ORDER BY 1, 2`;

describe('the main landing pages of each advertiser', () => {
  it('are what counting its group leads on the fly gives', async () => {
    const expected = await t.db.prisma.$queryRaw<unknown[]>(MAIN_LANDING_PAGES_ON_THE_FLY);
    expect(expected.length).toBeGreaterThan(100);
    expect(await storedMainLandingPages()).toEqual(expected);
  });

  it('follow the ads of a page after a refresh', async () => {
    const page = tracked[1].pageId;
    const [other] = await t.db.prisma.$queryRaw<{ id: string }[]>`SELECT p."id" FROM "landing_pages" p ORDER BY p."id" DESC LIMIT 1`;
    const before = await t.db.prisma.ad.findMany({ where: { advertiserId: page, isGroupLead: true }, select: { id: true, landingPageId: true } });
    try {
      await t.db.prisma.$executeRaw`UPDATE "ads" SET "landingPageId" = ${other.id}::uuid WHERE "advertiserId" = ${page} AND "isGroupLead"`;
      await refreshAdGroups(t.db.pool, [page]);
      const stored = (await storedMainLandingPages()) as { advertiserId: string }[];
      expect(stored.filter((row) => row.advertiserId === page)).toHaveLength(1);
      expect(stored).toEqual(await t.db.prisma.$queryRaw(MAIN_LANDING_PAGES_ON_THE_FLY));
    } finally {
      for (const ad of before) await t.db.prisma.ad.update({ where: { id: ad.id }, data: { landingPageId: ad.landingPageId } });
      await refreshAdGroups(t.db.pool, [page]);
    }
  });
});

/**
 * A brand's series computed from every ad of its page and every reach row of those ads, as the time series and the
 * overview's graph did before migration 0038 (the per-page days they now sum), with its rule that nothing of an ad
 * counts before its first-seen day (a reach row dated earlier counts on that day, as does a stop).
 */
async function seriesOnTheFly(pageId: string, euOnly: boolean, range: { start: Date; end: Date }, granularity: string, cpm: number) {
  const [start, end] = [range.start.toISOString().slice(0, 10), range.end.toISOString().slice(0, 10)];
  const bucket = Prisma.raw(`'${{ daily: 'day', weekly: 'week', monthly: 'month' }[granularity]}'`);
  const eu = euOnly ? Prisma.sql`AND a."isEuAd"` : Prisma.empty;
  const rows = await t.db.prisma.$queryRaw<{ date: Date; launched: number; live: number; impressions: bigint; cumulative: bigint; spend: bigint }[]>`
    WITH x AS MATERIALIZED (
      SELECT a."id", (a."firstSeenAt" AT TIME ZONE 'UTC')::date AS "first",
             CASE WHEN a."status" = 'active' THEN ${end}::date ELSE (a."lastSeenAt" AT TIME ZONE 'UTC')::date END AS "last"
      FROM "ads" a WHERE a."advertiserId" = ${pageId} ${eu} AND a."firstSeenAt" < (${end}::date + 1)::timestamp AT TIME ZONE 'UTC'
    ),
    days AS (SELECT d::date AS "day", date_trunc(${bucket}, d)::date AS "bucket" FROM generate_series(${start}::timestamp, ${end}::timestamp, interval '1 day') d),
    s AS (SELECT greatest(x."first", ${start}::date) AS "day", count(*) AS "n", count(*) FILTER (WHERE x."first" >= ${start}::date) AS "launched" FROM x GROUP BY 1),
    e AS (SELECT greatest(x."last" + 1, x."first", ${start}::date) AS "day", count(*) AS "n" FROM x GROUP BY 1),
    r AS (
      SELECT greatest(r."date", x."first") AS "date", r."reach" - coalesce(lag(r."reach") OVER w, 0) AS "level",
             CASE WHEN lag(r."reach") OVER w IS NULL AND r."date" <> x."first" THEN 0 ELSE r."reach" - coalesce(lag(r."reach") OVER w, 0) END AS "delta"
      FROM x JOIN "ad_reach_days" r ON r."adId" = x."id" AND r."date" <= ${end}::date
      WINDOW w AS (PARTITION BY r."adId" ORDER BY r."date")
    ),
    rd AS (SELECT greatest(r."date", ${start}::date) AS "day", sum(r."level") AS "level", sum(r."delta") FILTER (WHERE r."date" >= ${start}::date) AS "delta" FROM r GROUP BY 1),
    daily AS (
      SELECT days."day", days."bucket", coalesce(s."launched", 0) AS "launched", coalesce(rd."delta", 0) AS "delta",
             sum(coalesce(s."n", 0)) OVER o AS "startedBy", sum(coalesce(e."n", 0)) OVER o AS "endedBy", sum(coalesce(rd."level", 0)) OVER o AS "cumulative"
      FROM days LEFT JOIN s ON s."day" = days."day" LEFT JOIN e ON e."day" = days."day" LEFT JOIN rd ON rd."day" = days."day"
      WINDOW o AS (ORDER BY days."day")
    )
    SELECT min("day") AS "date", sum("launched")::int AS "launched", (max("startedBy") - min("endedBy"))::int AS "live",
           sum("delta")::bigint AS "impressions", (array_agg("cumulative" ORDER BY "day" DESC))[1]::bigint AS "cumulative",
           round(sum("delta")::numeric * ${cpm}::numeric / 1000)::bigint AS "spend"
    FROM daily GROUP BY "bucket" ORDER BY 1`;
  return {
    adsLaunched: rows.map((row) => ({ date: row.date, count: row.launched })),
    liveAds: rows.map((row) => ({ date: row.date, count: row.live })),
    euImpressionsSpend: rows.map((row) => ({ date: row.date, impressions: row.impressions, cumulativeImpressions: row.cumulative, estimatedSpend: row.spend })),
  };
}

describe("the brands' precomputed series", () => {
  it('answer what summing every ad and reach row of the page answers, for every range, granularity and EU subset', async () => {
    const day = (offset: number) => new Date(Math.floor(Date.now() / 86_400_000) * 86_400_000 + offset * 86_400_000);
    // The last 30 days, a year, a past month inside the 90-day history, one day, and days before any ad.
    const ranges = [{ start: day(-29), end: day(0) }, { start: day(-364), end: day(0) }, { start: day(-70), end: day(-41) }, { start: day(-5), end: day(-5) },
      { start: day(-800), end: day(-700) }];
    let points = 0;
    for (const brand of tracked.slice(0, 6)) {
      for (const euOnly of [false, true]) {
        const frame = { pageId: brand.pageId, euOnly, cpm: 7.5 } as Frame;
        for (const range of ranges) {
          for (const granularity of GRANULARITIES) {
            const { adsLaunched, liveAds, euImpressionsSpend } = await timeSeriesOf(t.db.prisma, frame, range, granularity);
            const expected = await seriesOnTheFly(brand.pageId, euOnly, range, granularity, 7.5);
            expect([brand.pageId, euOnly, range, granularity, { adsLaunched, liveAds, euImpressionsSpend }]).toEqual([brand.pageId, euOnly, range, granularity, expected]);
            points += euImpressionsSpend.filter((point) => point.impressions > 0n).length;
          }
        }
      }
    }
    expect(points).toBeGreaterThan(200);
  });

  it("follow a page's ads and reach rows after a refresh, an ad's rows before its first-seen day on that day", async () => {
    const page = tracked[2].pageId;
    const range = { start: new Date(Date.now() - 40 * 86_400_000), end: new Date() };
    const frame = { pageId: page, euOnly: false, cpm: 5 } as Frame;
    const ads = await t.db.prisma.$queryRaw<{ id: string; first: Date }[]>`
      SELECT a."id", (SELECT min(r."date") FROM "ad_reach_days" r WHERE r."adId" = a."id") AS "first" FROM "ads" a
      WHERE a."advertiserId" = ${page} AND a."status" = 'active' AND EXISTS (SELECT 1 FROM "ad_reach_days" r WHERE r."adId" = a."id") ORDER BY a."id" LIMIT 2`;
    const before = await timeSeriesOf(t.db.prisma, frame, range, 'daily');
    await t.db.prisma.$executeRaw`UPDATE "ad_reach_days" SET "reach" = "reach" + 1000000 WHERE "adId" = ${ads[0].id} AND "date" = (SELECT max("date") FROM "ad_reach_days" WHERE "adId" = ${ads[0].id})`;
    await t.db.prisma.$executeRaw`UPDATE "ads" SET "status" = 'inactive', "lastSeenAt" = now() - interval '10 days' WHERE "id" = ${ads[0].id}`;
    await refreshAdGroups(t.db.pool, [page]);
    const after = await timeSeriesOf(t.db.prisma, frame, range, 'daily');
    const total = (series: typeof after) => series.euImpressionsSpend.at(-1)!.cumulativeImpressions;
    expect(total(after) - total(before)).toBe(1_000_000n);
    expect(after.liveAds.at(-1)!.count).toBe(before.liveAds.at(-1)!.count - 1);
    // The second ad first seen 3 days after its first reach row (an importer that learnt its delivery start later),
    // and the first stopped before its first-seen day.
    const seen = new Date(ads[1].first.getTime() + 3 * 86_400_000);
    await t.db.prisma.$executeRaw`UPDATE "ads" SET "firstSeenAt" = ${seen} WHERE "id" = ${ads[1].id}`;
    await t.db.prisma.$executeRaw`UPDATE "ads" SET "firstSeenAt" = now() - interval '5 days' WHERE "id" = ${ads[0].id}`;
    await refreshAdGroups(t.db.pool, [page]);
    const day = 86_400_000;
    for (const checked of [range, { start: ads[1].first, end: new Date(ads[1].first.getTime() + day) }, { start: new Date(ads[1].first.getTime() - 5 * day), end: new Date(seen.getTime() + 5 * day) },
      { start: new Date(Date.now() - 12 * day), end: new Date(Date.now() - 7 * day) }]) {
      const { adsLaunched, liveAds, euImpressionsSpend } = await timeSeriesOf(t.db.prisma, frame, checked, 'daily');
      expect([checked, { adsLaunched, liveAds, euImpressionsSpend }]).toEqual([checked, await seriesOnTheFly(page, false, checked, 'daily', 5)]);
    }
  });
});

describe('a refresh', () => {
  it("recomputes a page's groups and counts from its ads", async () => {
    const page = tracked[0].pageId;
    const query = { scope, kind: 'hook' as const, euOnly: false, sort: 'usageCount' as const, order: 'desc' as const, page: { page: 1, limit: 100 } };
    const [hook] = await t.db.prisma.$queryRaw<{ adId: string }[]>`
      SELECT h."adId" FROM "ad_hooks" h JOIN "ads" a ON a."id" = h."adId" WHERE a."advertiserId" = ${page} ORDER BY h."adId" LIMIT 1`;
    await t.db.prisma.$executeRaw`UPDATE "ad_hooks" SET "text" = 'A hook of its own.' WHERE "adId" = ${hook.adId}`;
    await t.db.prisma.$executeRaw`UPDATE "ads" SET "status" = 'inactive' WHERE "advertiserId" = ${page} AND "status" = 'active' AND "id" <> ${hook.adId}`;
    await refreshAdGroups(t.db.pool, [page]);
    const stored = await storedGroupPage(t.db.pool, query);
    expect(stored.data.map((row) => row.key)).toContain('A hook of its own.');
    expect(stored).toEqual(await groupPage(t.db.prisma, query));
  });
});
