import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importData, type ImportFormat, type ImportSummary } from '../../src/data/import/index.js';
import { parseJson } from '../../src/data/import/json.js';
import { checksums } from '../support/checksums.js';
import { createTestApp, type HttpResult, type TestApp } from '../support/app.js';

// Issue #35: every import builds history and every row says where it came from. The fixtures (test/fixtures) are
// imported on three consecutive days with changing reach, views and followers, then read back through the routes
// that show history (an ad's reach history and page analytics, the advertisers' reach windows, the ads query's
// all-time rank, a brandtracker's snapshot days, a TikTok item's page snapshot) and the provenance of the detail
// records. A fourth run repeats the third day: no ads, products, TikTok items or Google ads row changes, the
// snapshots' fetch times move.
//
// The days lie after the wall clock: a snapshot's fetch time is its import's asOf, and the detail never shows a last
// fetch before the first one (the database clock at insert).

const fixtures = path.resolve(import.meta.dirname, '../fixtures');
const DAY = 86_400_000;
const HOUR = 3_600_000;
const now = new Date();
const FIRST_DAY = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) + 8 * DAY;
const at = (day: number, hour: number) => new Date(FIRST_DAY + day * DAY + hour * HOUR);
const ymd = (day: number) => new Date(FIRST_DAY + day * DAY).toISOString().slice(0, 10);
const iso = (date: Date) => date.toISOString();

const AURORA = '100200300400500';
const FJORD = '200300400500600';
const AD_1 = 'facebook_120210000000001'; // Aurora Glow, running since 2026-10-03
const AD_3 = 'facebook_120210000000003'; // Fjord Outdoor, running
const AD_6 = 'facebook_120210000000006'; // Aurora Glow, running since 2026-11-10
const META_REACH: Record<string, number[]> = { [AD_1]: [15000, 16000, 16500], [AD_3]: [900, 1000, 1000], [AD_6]: [2500, 2500, 17000] };
const MAISON = '7012345678901234567';
const TT_ITEM = '7301234567890123456';
const TT_SEEN = ['30K', '40K', '45K'];
const TT_FOLLOWERS = [100, 150, 180];
const SHOP_DOMAIN = 'lumenceramics.com';
const SHOP = 'ff930908-32e3-50cf-8c77-9eb2909c1947'; // uuid5(NAMESPACE_URL, 'https://lumenceramics.com')
const CHECKED = ['ads', 'products', 'tiktok_items', 'google_ads'];

let t: TestApp;
let key: string;
let scratch: string;
/** The wall clock around the first day's imports: the rows' first fetch falls inside. */
const firstImport = { from: 0, to: 0 };
const runs: Record<string, ImportSummary>[] = [];

const sql = async <T = any>(text: string, params: unknown[] = []) => (await t.db.pool.query(text, params)).rows as T[];
const get = (route: string) => t.rest('GET', route, { key });
const ok = (res: HttpResult) => {
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
};

/** The fixtures as they read on `day`: Meta reach, TikTok reach and followers changed; Shopify and Google as they are. */
async function writeDay(day: number): Promise<Record<ImportFormat, string[]>> {
  const dir = path.join(scratch, `day-${day}`);
  await mkdir(path.join(dir, 'meta'), { recursive: true });
  for (const name of ['page-1.json', 'page-2.json']) {
    const page = parseJson(await readFile(path.join(fixtures, 'meta-ads', name), 'utf8')) as { data: Record<string, unknown>[] };
    for (const ad of page.data) {
      const reach = META_REACH[`facebook_${String(ad.id)}`];
      if (reach) ad.eu_total_reach = reach[day];
    }
    await writeFile(path.join(dir, 'meta', name), JSON.stringify(page));
  }
  const query = parseJson(await readFile(path.join(fixtures, 'tiktok-ads/query-1.json'), 'utf8')) as { data: { ads: { ad: any; advertiser: any }[] } };
  for (const record of query.data.ads) {
    if (String(record.ad.id) === TT_ITEM) record.ad.reach.unique_users_seen = TT_SEEN[day];
    if (String(record.advertiser.business_id) === MAISON) record.advertiser.follower_count = TT_FOLLOWERS[day];
  }
  const tiktok = path.join(dir, 'tiktok.json');
  await writeFile(tiktok, JSON.stringify(query));
  return {
    'meta-ads': [path.join(dir, 'meta')],
    'tiktok-ads': [tiktok],
    'shopify-products': [path.join(fixtures, 'shopify-products/pages')],
    'google-ads': [path.join(fixtures, 'google-ads/creative_stats.jsonl')],
  };
}

async function importDay(day: number, asOf: Date): Promise<Record<string, ImportSummary>> {
  const paths = await writeDay(day);
  const out: Record<string, ImportSummary> = {};
  for (const format of Object.keys(paths) as ImportFormat[]) {
    out[format] = await importData(t.db.pool, format, paths[format], { asOf, domain: SHOP_DOMAIN });
  }
  return out;
}


const fetchTimes = async () =>
  sql<{ adId: string; date: string; fetchedAt: Date }>(
    `SELECT "adId", to_char("date", 'YYYY-MM-DD') AS date, "fetchedAt" FROM ad_reach_days WHERE "adId" = ANY($1::text[]) ORDER BY 1, 2`,
    [[AD_1, AD_6]],
  );

beforeAll(async () => {
  t = await createTestApp();
  ({ apiKey: key } = await t.newKey());
  scratch = await mkdtemp(path.join(tmpdir(), 'mi-history-'));
  firstImport.from = Date.now();
  runs.push(await importDay(0, at(0, 10)));
  firstImport.to = Date.now();
  runs.push(await importDay(1, at(1, 10)));
  runs.push(await importDay(2, at(2, 10)));
});
afterAll(async () => {
  await t?.close();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

/** A first fetch made by the first day's imports (the database's clock, a second's slack for the clocks' rounding). */
const expectFirstFetch = (value: string | Date | null) => {
  expect(value).not.toBeNull();
  const time = new Date(value!).getTime();
  expect(time).toBeGreaterThanOrEqual(firstImport.from - 1000);
  expect(time).toBeLessThanOrEqual(firstImport.to + 1000);
};

describe('Meta: a day of history per run', () => {
  it('imports every day, and only the changed ads count as updated', () => {
    expect(runs.map((day) => day['meta-ads'])).toMatchObject([
      { read: 8, inserted: 5, updated: 0, skipped: 3 },
      { read: 8, inserted: 0, skipped: 3 },
      { read: 8, inserted: 0, skipped: 3 },
    ]);
  });

  it("an ad's reach history has the three days", async () => {
    const { data } = ok(await get(`/ads/${AD_1}/reach-history`));
    expect(data).toEqual([0, 1, 2].map((day) => ({ date: ymd(day), reach: META_REACH[AD_1][day] })));
  });

  it("the page's daily impressions are its ads' reach gains, on the ad detail's page analytics", async () => {
    const { data } = ok(await get(`/ads/${AD_1}`));
    // Day 1: no earlier snapshot of these older ads, no gain known. Day 2: 001 +1000. Day 3: 001 +500, 006 +14500.
    expect(data.pageAnalytics.impressionsHistory).toEqual([
      { date: ymd(0), totalImpressions: 0 },
      { date: ymd(1), totalImpressions: 1000 },
      { date: ymd(2), totalImpressions: 15000 },
    ]);
    expect(data.pageAnalytics.facebookLikesHistory).toEqual([0, 1, 2].map((day) => ({ date: ymd(day), value: 0 })));
    expect(data.pageAnalytics.instagramFollowersHistory).toHaveLength(3);
  });

  it("the advertisers' reach windows sum the days", async () => {
    const pages = async (params: string) => ok(await get(`/advertisers?${params}`)).data.map((row: { id: string }) => row.id).sort();
    expect(await pages('reachPeriod=last7d&minReach=16000')).toEqual([AURORA]);
    expect(await pages('reachPeriod=last7d&minReach=16001')).toEqual([]);
    expect(await pages('reachPeriod=last24h&minReach=15000')).toEqual([AURORA]);
    expect(await pages('reachPeriod=last7d&minReach=100&maxReach=100')).toEqual([FJORD]); // 003: +100 on day 2
  });

  it("each day's snapshot holds the ad's rank in its page: the all-time rank reads them", async () => {
    // 001 led Aurora Glow by reach on days 1 and 2; on day 3 006 overtook it.
    const ranks = await sql(`SELECT "adId", to_char("date", 'YYYY-MM-DD') AS date, rank FROM ad_reach_days WHERE "adId" = ANY($1::text[]) ORDER BY 1, 2`, [[AD_1, AD_6]]);
    expect(ranks.map((r) => [r.adId, r.rank])).toEqual([[AD_1, 1], [AD_1, 1], [AD_1, 2], [AD_6, 2], [AD_6, 2], [AD_6, 1]]);
    const ids = async (body: object) => {
      const res = await t.rest('POST', '/ads/query', { key, body: { ...body, status: 'all', limit: 50 } });
      return ok(res).data.map((row: { id: string }) => row.id);
    };
    const current = await ids({ maxAdRankValue: 1, adRankBasis: 'current' });
    const allTime = await ids({ maxAdRankValue: 1, adRankBasis: 'alltime' });
    expect(current).toContain(AD_6);
    expect(current).not.toContain(AD_1);
    expect(allTime).toEqual(expect.arrayContaining([AD_1, AD_6, AD_3]));
  });

  it("a brandtracker of the page shows the three snapshot days", async () => {
    const created = await t.rest('POST', '/brandtrackers', { key, body: { facebookPageId: AURORA } });
    expect([200, 201], JSON.stringify(created.body)).toContain(created.status);
    const { data } = ok(await get(`/brandtrackers/${created.body.data.id}/snapshots`));
    expect(data.snapshots.map((s: { date: string; status: string }) => [s.date, s.status])).toEqual([[ymd(2), 'ready'], [ymd(1), 'ready'], [ymd(0), 'ready']]);
  });

  it('the ad detail shows its provenance: the source, the first fetch, the latest snapshot', async () => {
    const { data } = ok(await get(`/ads/${AD_1}`));
    expect(data.provenance).toEqual({ source: 'meta-ads', firstFetchedAt: expect.any(String), lastFetchedAt: iso(at(2, 10)) });
    expectFirstFetch(data.provenance.firstFetchedAt);
  });
});

describe('TikTok: a page snapshot per run', () => {
  it("writes the profile's day with its live ads and the gains since the previous snapshot", async () => {
    const days = await sql(
      `SELECT to_char("date", 'YYYY-MM-DD') AS date, "recordedAt", "adsCount", "organicCount", "totalTikToks", "dailyViews"::int AS views, "dailyFollowers" AS followers
       FROM tiktok_page_snapshots WHERE "profileId" = $1 ORDER BY "date"`,
      [MAISON],
    );
    // Views: 30K + 1M, then +10K, then +5K; followers 100, 150, 180. The first day has nothing to measure from.
    expect(days).toEqual([
      { date: ymd(0), recordedAt: at(0, 10), adsCount: 1, organicCount: 0, totalTikToks: 2, views: 0, followers: 0 },
      { date: ymd(1), recordedAt: at(1, 10), adsCount: 1, organicCount: 0, totalTikToks: 2, views: 10000, followers: 50 },
      { date: ymd(2), recordedAt: at(2, 10), adsCount: 1, organicCount: 0, totalTikToks: 2, views: 5000, followers: 30 },
    ]);
  });

  it("the item detail shows the latest snapshot and its provenance", async () => {
    const { data } = ok(await get(`/tiktok/library/tiktok_${TT_ITEM}`));
    expect(data.pageSnapshot).toMatchObject({ recordedAt: iso(at(2, 10)), adsCount: 1, dailyViews: 5000, dailyFollowers: 30 });
    expect(data.provenance).toEqual({ source: 'tiktok-ads', firstFetchedAt: expect.any(String), lastFetchedAt: iso(at(2, 10)) });
    expectFirstFetch(data.provenance.firstFetchedAt);
  });
});

describe('Shopify and Google: provenance', () => {
  it("the shop detail shows where its products come from, the connector's last complete fetch once there is one", async () => {
    const shop = async () => ok(await get(`/shops/${SHOP}`)).data.provenance;
    const before = await shop();
    // Without a connector run, the last fetch known is the newest product's first fetch.
    expect(before).toEqual({ source: 'shopify', firstFetchedAt: expect.any(String), lastFetchedAt: expect.any(String) });
    expectFirstFetch(before.firstFetchedAt);
    expectFirstFetch(before.lastFetchedAt);
    // The Shopify connector records a complete fetch of the store as it does (src/sources/shopify).
    const [{ fetched }] = await sql<{ fetched: Date }>(
      `INSERT INTO shop_fetch_states ("domain", "state", "lastStatus", "lastFetchedAt") VALUES ($1, 'ok', 200, now() + interval '1 hour') RETURNING "lastFetchedAt" AS fetched`,
      [SHOP_DOMAIN],
    );
    expect(await shop()).toEqual({ ...before, lastFetchedAt: iso(fetched) });
  });

  it('stores the source and first fetch of products and Google ads on insert', async () => {
    for (const table of ['products', 'google_ads']) {
      const rows = await sql<{ fetchedFrom: string; firstFetchedAt: Date }>(`SELECT "fetchedFrom", "firstFetchedAt" FROM "${table}"`);
      expect(rows.length, table).toBeGreaterThan(1);
      expect(new Set(rows.map((row) => row.fetchedFrom)), table).toEqual(new Set([table === 'products' ? 'shopify' : 'google-ads']));
      for (const row of rows) expectFirstFetch(row.firstFetchedAt);
    }
  });

  it('a demo-market record (no source) shows as demo without dates', async () => {
    const saved = await sql(`SELECT id, "fetchedFrom", "firstFetchedAt" FROM products WHERE "shopId" = $1`, [SHOP]);
    const [state] = await sql(`DELETE FROM shop_fetch_states WHERE "domain" = $1 RETURNING *`, [SHOP_DOMAIN]);
    await sql(`UPDATE products SET "fetchedFrom" = NULL, "firstFetchedAt" = NULL WHERE "shopId" = $1`, [SHOP]);
    try {
      expect(ok(await get(`/shops/${SHOP}`)).data.provenance).toEqual({ source: 'demo', firstFetchedAt: null, lastFetchedAt: null });
    } finally {
      await sql(
        `UPDATE products p SET "fetchedFrom" = u.source, "firstFetchedAt" = u.first FROM unnest($1::text[], $2::text[], $3::timestamptz[]) AS u(id, source, first) WHERE p.id = u.id`,
        [saved.map((row) => row.id), saved.map((row) => row.fetchedFrom), saved.map((row) => row.firstFetchedAt)],
      );
      await sql(`INSERT INTO shop_fetch_states ("domain", "lastFetchedAt") VALUES ($1, $2)`, [state.domain, state.lastFetchedAt]);
    }
  });
});

describe('the same day again', () => {
  let before: Record<string, string>;
  let times: Awaited<ReturnType<typeof fetchTimes>>;
  let again: Record<string, ImportSummary>;
  beforeAll(async () => {
    before = await checksums(t.db.pool, CHECKED);
    times = await fetchTimes();
    again = await importDay(2, at(2, 18));
  });

  it('changes no ads, products, TikTok items or Google ads row', async () => {
    for (const summary of Object.values(again)) expect(summary).toMatchObject({ inserted: 0, updated: 0 });
    expect(await checksums(t.db.pool, CHECKED)).toEqual(before);
  });

  it("moves the day's fetch times and overwrites its snapshots, never a second row for the day", async () => {
    const after = await fetchTimes();
    expect(after.map((row) => [row.adId, row.date])).toEqual(times.map((row) => [row.adId, row.date]));
    for (const [i, row] of after.entries()) expect(row.fetchedAt, `${row.adId} ${row.date}`).toEqual(row.date === ymd(2) ? at(2, 18) : times[i].fetchedAt);
    expect(ok(await get(`/ads/${AD_1}/reach-history`)).data).toHaveLength(3);
    const ad = ok(await get(`/ads/${AD_1}`)).data;
    expect(ad.pageAnalytics.impressionsHistory.map((p: { totalImpressions: number }) => p.totalImpressions)).toEqual([0, 1000, 15000]);
    expect(ad.provenance.lastFetchedAt).toBe(iso(at(2, 18)));

    const item = ok(await get(`/tiktok/library/tiktok_${TT_ITEM}`)).data;
    expect(item.pageSnapshot).toMatchObject({ recordedAt: iso(at(2, 18)), dailyViews: 5000, dailyFollowers: 30 });
    expect(item.provenance.lastFetchedAt).toBe(iso(at(2, 18)));
    expect(await sql(`SELECT count(*)::int AS n FROM tiktok_page_snapshots WHERE "profileId" = $1`, [MAISON])).toEqual([{ n: 3 }]);
  });
});
