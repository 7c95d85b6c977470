import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';

// Issue #33: the growth filters of POST /v1/ads/query (trafficGrowth, adsGrowth, pageReachGrowth, adReachGrowth) and
// POST /v1/advertisers/query (adsGrowth, pageReachGrowth), and the advertisers' countryFilterMode, on the tiny demo
// market as of today. Each filter narrows the list, and every row it returns satisfies it as computed here again, in
// plain SQL written for the test (not the server's expressions).

let t: TestApp;
let key: string;
beforeAll(async () => {
  t = await createTestApp(undefined, { market: { scale: 'tiny' } });
  key = (await t.newKey()).apiKey;
});
afterAll(() => t?.close());

type Rule = { period: string; operator: string; value: number };
const one = (rule: Rule) => ({ anyOf: [{ all: [rule] }] });
const DAYS: Record<string, number> = { last7d: 7, last14d: 14, last30d: 30, last60d: 60, last90d: 90, last180d: 180 };

/** The active image ads (a few hundred group leads: their totals are exact, under the 1,000 the list counts to). */
async function adsQuery(body: Record<string, unknown>) {
  const res = await t.rest('POST', '/ads/query', { key, body: { status: 'active', mediaType: 'image', limit: 100, ...body } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.meta?.totalRelation ?? 'eq').toBe('eq');
  return { ids: res.body.data.map((ad: { id: string }) => ad.id) as string[], total: res.body.pagination.total as number };
}

async function advertisersQuery(body: Record<string, unknown>) {
  const res = await t.rest('POST', '/advertisers/query', { key, body: { limit: 100, ...body } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { ids: res.body.data.map((page: { id: string }) => page.id) as string[], total: res.body.pagination.total as number };
}

const rows = <T>(text: string, values: unknown[] = []) => t.db.pool.query(text, values).then((r) => r.rows as T[]);

/** Growth in percent as the test computes it, null when the base is 0 or unknown. */
const growth = (now: number, then: number | null) => (then ? ((now - then) * 100) / then : null);
const holds = (value: number | null, rule: Rule) =>
  value !== null && ({ gte: value >= rule.value, greater: value >= rule.value, gt: value > rule.value, lte: value <= rule.value, lower: value <= rule.value, lt: value < rule.value } as Record<string, boolean>)[rule.operator];

/**
 * The ad's reach now and at the end of the period's first day: its last reach-history row by then; without one, 0
 * for an ad first seen after that day began (no growth to compare), else its reach (no row since: it stopped).
 */
async function adReachGrowthOf(adId: string, days: number) {
  const [row] = await rows<{ now: string; then: string | null; seenBefore: boolean }>(
    `WITH start AS (SELECT max(date) - $2::int AS day FROM ad_reach_days)
     SELECT a.reach AS now, a."firstSeenAt" < start.day AS "seenBefore",
            (SELECT r.reach FROM ad_reach_days r WHERE r."adId" = a.id AND r.date <= start.day ORDER BY r.date DESC LIMIT 1) AS then
     FROM ads a, start WHERE a.id = $1`, [adId, days]);
  const then = row.then !== null ? Number(row.then) : row.seenBefore ? Number(row.now) : 0;
  return growth(Number(row.now), then);
}

/** The page's ads first seen in the last `days` days against the `days` before. */
async function pageAdsGrowthOf(pageId: string, days: number) {
  const [row] = await rows<{ now: number; then: number }>(
    `SELECT count(*) FILTER (WHERE "firstSeenAt" >= now() - make_interval(days => $2))::int AS now,
            count(*) FILTER (WHERE "firstSeenAt" >= now() - make_interval(days => 2 * $2) AND "firstSeenAt" < now() - make_interval(days => $2))::int AS then
     FROM ads WHERE "advertiserId" = $1`, [pageId, days]);
  return growth(row.now, row.then);
}

/** The page's impressions over the last `days` snapshot days against the `days` before. */
async function pageReachGrowthOf(pageId: string, days: number) {
  const [row] = await rows<{ now: string | null; then: string | null }>(
    `WITH last AS (SELECT max(date) AS day FROM advertiser_metric_days)
     SELECT sum("totalImpressions") FILTER (WHERE date > last.day - $2::int) AS now,
            sum("totalImpressions") FILTER (WHERE date <= last.day - $2::int AND date > last.day - 2 * $2::int) AS then
     FROM advertiser_metric_days, last WHERE "advertiserId" = $1`, [pageId, days]);
  return growth(Number(row.now ?? 0), row.then === null ? null : Number(row.then));
}

async function pageOf(adId: string) {
  const [row] = await rows<{ advertiserId: string }>('SELECT "advertiserId" FROM ads WHERE id = $1', [adId]);
  return row.advertiserId;
}

describe('POST /v1/ads/query: growth filters', () => {
  let everything: { ids: string[]; total: number };
  beforeAll(async () => {
    everything = await adsQuery({});
  });

  it.each<Rule>([
    { period: 'last7d', operator: 'gte', value: 20 },
    { period: 'last30d', operator: 'gt', value: 100 },
    { period: 'last30d', operator: 'lte', value: 5 },
  ])('adReachGrowth %j: the ad\'s reach now against the period\'s start', async (rule) => {
    const found = await adsQuery({ adReachGrowth: one(rule) });
    expect(found.total).toBeGreaterThan(0);
    expect(found.total).toBeLessThan(everything.total);
    for (const id of found.ids) expect(holds(await adReachGrowthOf(id, DAYS[rule.period]), rule), id).toBe(true);
  });

  it('trafficGrowth: the primary shop\'s stored growth, in percent', async () => {
    const rule = { period: 'last30d', operator: 'gte', value: 10 };
    const found = await adsQuery({ trafficGrowth: one(rule) });
    expect(found.total).toBeGreaterThan(0);
    expect(found.total).toBeLessThan(everything.total);
    const shops = await rows<{ id: string; growth: number | null }>(
      `SELECT a.id, s."trafficGrowth30d" AS growth FROM ads a JOIN advertiser_shops l ON l."advertiserId" = a."advertiserId" AND l."isPrimary"
       JOIN shops s ON s.id = l."shopId" WHERE a.id = ANY($1)`, [found.ids]);
    expect(shops).toHaveLength(found.ids.length);
    for (const shop of shops) expect(shop.growth! * 100).toBeGreaterThanOrEqual(10);
  });

  it('trafficGrowth: a growth met exactly matches, on the ads query and the shops query alike', async () => {
    // The stored growths are fractions rounded to 0.001: a +35 % or +57 % shop is common, and 0.57 * 100 is not 57.
    const [shop] = await rows<{ shopId: string; adId: string; growth: number }>(
      `SELECT s.id AS "shopId", a.id AS "adId", s."trafficGrowth30d" AS growth FROM ads a
       JOIN advertiser_shops l ON l."advertiserId" = a."advertiserId" AND l."isPrimary" JOIN shops s ON s.id = l."shopId"
       WHERE a."isGroupLead" AND a.status = 'active' AND a."mediaType" = 'image' AND s."trafficGrowth30d" * 100 <> round((s."trafficGrowth30d" * 100)::numeric, 1)::float8
       ORDER BY s.id, a.id LIMIT 1`);
    expect(shop).toBeDefined();
    const value = Number((shop.growth * 100).toFixed(1));
    const exactly = [{ period: 'last30d', operator: 'gte', value }, { period: 'last30d', operator: 'lte', value }];
    const ads = await adsQuery({ trafficGrowth: { anyOf: [{ all: exactly }] } });
    expect(ads.ids).toContain(shop.adId);
    expect((await adsQuery({ trafficGrowth: one({ period: 'last30d', operator: 'gt', value }) })).ids).not.toContain(shop.adId);
    const shops = await t.rest('POST', '/shops/query', { key, body: { limit: 100, trafficGrowth: [
      { period: 'last30d', comparison: 'greater', value, operator: 'and' }, { period: 'last30d', comparison: 'lower', value },
    ] } });
    expect(shops.status).toBe(200);
    expect(shops.body.data.map((s: { id: string }) => s.id)).toContain(shop.shopId);
  });

  it('adsGrowth: the page\'s ads first seen in the period against the period before', async () => {
    const rule = { period: 'last30d', operator: 'gte', value: 50 };
    const found = await adsQuery({ adsGrowth: one(rule) });
    expect(found.total).toBeGreaterThan(0);
    expect(found.total).toBeLessThan(everything.total);
    for (const id of found.ids) expect(holds(await pageAdsGrowthOf(await pageOf(id), 30), rule), id).toBe(true);
  });

  it('pageReachGrowth: the page\'s impressions over the period against the period before', async () => {
    const rule = { period: 'last7d', operator: 'gte', value: 10 };
    const found = await adsQuery({ pageReachGrowth: one(rule) });
    expect(found.total).toBeGreaterThan(0);
    expect(found.total).toBeLessThan(everything.total);
    for (const id of found.ids) expect(holds(await pageReachGrowthOf(await pageOf(id), 7), rule), id).toBe(true);
  });

  it('anyOf ORs its groups, all ANDs its rules', async () => {
    const rising = { period: 'last7d', operator: 'gte', value: 50 };
    const flat = { period: 'last7d', operator: 'lte', value: 1 };
    const a = await adsQuery({ adReachGrowth: one(rising) });
    const b = await adsQuery({ adReachGrowth: one(flat) });
    const either = await adsQuery({ adReachGrowth: { anyOf: [{ all: [rising] }, { all: [flat] }] } });
    expect(either.total).toBe(a.total + b.total); // disjoint bounds
    const both = await adsQuery({ adReachGrowth: { anyOf: [{ all: [rising, flat] }] } });
    expect(both.total).toBe(0);
  });

  it('refuses a malformed growth filter by name, and null is not sent', async () => {
    for (const bad of [
      { anyOf: [] },
      { anyOf: [{ all: [] }] },
      { anyOf: [{ all: [{ period: 'last7d', operator: 'gte', value: -101 }] }] },
      { anyOf: [{ all: [{ period: 'last5d', operator: 'gte', value: 1 }] }] },
      { anyOf: [{ all: [{ period: 'last14d', operator: 'gte', value: 1 }] }] }, // no stored 14-day gain
      { anyOf: [{ all: [{ period: 'last7d', operator: 'about', value: 1 }] }] },
      { anyOf: [{ all: [{ period: 'last7d', operator: 'gte' }] }] },
    ]) {
      const res = await t.rest('POST', '/ads/query', { key, body: { adReachGrowth: bad } });
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.body.error.code).toBe('validation_error');
      expect(JSON.stringify(res.body.error.details)).toContain('adReachGrowth');
    }
    // trafficGrowth reads the shops' 30-, 90- and 180-day growths: a 7-day period is not one of them.
    expect((await t.rest('POST', '/ads/query', { key, body: { trafficGrowth: one({ period: 'last7d', operator: 'gte', value: 1 }) } })).status).toBe(400);
    expect(await adsQuery({ adReachGrowth: null, trafficGrowth: null })).toEqual(everything);
  });

  it('answers the same on GraphQL', async () => {
    const rule = { period: 'last7d', operator: 'gte', value: 20 };
    const rest = await adsQuery({ adReachGrowth: one(rule) });
    const res = await t.graphql(
      'query($g: AdReachGrowthFilter) { adsQuery(status: active, mediaType: image, limit: 100, adReachGrowth: $g) { data { id } pagination { total } } }',
      { g: one(rule) }, key);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.adsQuery.data.map((ad: { id: string }) => ad.id)).toEqual(rest.ids);
  });
});

describe('POST /v1/advertisers/query: growth filters and countryFilterMode', () => {
  let everything: { ids: string[]; total: number };
  beforeAll(async () => {
    everything = await advertisersQuery({});
  });

  it('adsGrowth and pageReachGrowth filter the pages as the ads query does', async () => {
    const adsRule = { period: 'last30d', operator: 'gte', value: 50 };
    const byAds = await advertisersQuery({ adsGrowth: one(adsRule) });
    expect(byAds.total).toBeGreaterThan(0);
    expect(byAds.total).toBeLessThan(everything.total);
    for (const id of byAds.ids) expect(holds(await pageAdsGrowthOf(id, 30), adsRule), id).toBe(true);

    const reachRule = { period: 'last14d', operator: 'lt', value: 0 };
    const byReach = await advertisersQuery({ pageReachGrowth: one(reachRule) });
    expect(byReach.total).toBeGreaterThan(0);
    expect(byReach.total).toBeLessThan(everything.total);
    for (const id of byReach.ids) expect(holds(await pageReachGrowthOf(id, 14), reachRule), id).toBe(true);
  });

  it('countryFilterMode: adCount (the default) reads targeted countries, reach the EU/UK reach rows', async () => {
    const [{ country }] = await rows<{ country: string }>(
      `SELECT d.country FROM ad_demography d GROUP BY d.country ORDER BY count(*) DESC, d.country LIMIT 1`);
    const byAdCount = await advertisersQuery({ adCountries: { include: [country] } });
    expect(await advertisersQuery({ adCountries: { include: [country] }, countryFilterMode: 'adCount' })).toEqual(byAdCount);
    const byReach = await advertisersQuery({ adCountries: { include: [country] }, countryFilterMode: 'reach' });
    expect(byReach.total).toBeGreaterThan(0);
    expect(byReach.ids).not.toEqual(byAdCount.ids);
    const reached = new Set((await rows<{ id: string }>(
      `SELECT DISTINCT a."advertiserId" AS id FROM ads a JOIN ad_demography d ON d."adId" = a.id WHERE a."isGroupLead" AND d.country = $1 AND d.reach > 0`, [country])).map((r) => r.id));
    for (const id of byReach.ids) expect(reached.has(id), id).toBe(true);
    // Alone it filters nothing, as spendPeriod does not.
    expect(await advertisersQuery({ countryFilterMode: 'reach' })).toEqual(everything);
    const bad = await t.rest('POST', '/advertisers/query', { key, body: { countryFilterMode: 'impressions' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('validation_error');
  });
});
