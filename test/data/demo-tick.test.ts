import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AD_GROUP_TABLES } from '../../src/data/ad-groups.js';
import { demoTick, type DemoTickSummary } from '../../src/data/demo-tick.js';
import { EVENT_THRESHOLDS } from '../../src/data/events.js';
import { MARKET_TABLES } from '../../src/data/market.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { checksums } from '../support/checksums.js';
import { createCliHarness, type CliHarness } from '../support/cli.js';

// The demo market's daily tick: one day of changes written through the Meta and Shopify formats and the shop apps
// tables, with their events in the same transactions; the same day again changes nothing; the next day adds a day of
// history. The market is the tiny one of seed 7 as of 2025-06-01; the ticks use the default seed (42).

type Event = {
  id: string; type: string; source: string; advertiserId: string | null; adId: string | null; shopId: string | null; productId: string | null;
  dedupeKey: string; data: { before: Record<string, any> | null; after: Record<string, any> | null };
};

const SEEDED = new Date('2025-06-01T00:00:00Z');
const day = (n: number) => new Date(Date.UTC(2025, 5, 1 + n, 14, 30));
// The market tables; the events are compared by id (a dispatcher may number them meanwhile).
const TABLES = [...MARKET_TABLES, ...AD_GROUP_TABLES];

let t: TestApp;
let key: string;
beforeAll(async () => {
  t = await createTestApp(undefined, { market: { scale: 'tiny', seed: 7, asOf: SEEDED } });
  key = (await t.newKey()).apiKey;
});
afterAll(() => t?.close());

const get = (path: string) => t.rest('GET', path, { key });
const query = async <R>(text: string, params: unknown[] = []) => (await t.db.pool.query(text, params)).rows as R[];
const lastEventId = async () => (await query<{ id: string }>(`SELECT coalesce(max(id), 0)::text AS id FROM market_events`))[0].id;
const eventsAfter = (id: string) =>
  query<Event>(`SELECT id::text, type, source, "advertiserId", "adId", "shopId", "productId", "dedupeKey", data FROM market_events WHERE id > $1::int8 ORDER BY id`, [id]);
const ofType = (events: Event[], type: string) => events.filter((event) => event.type === type);
/** The summary's counts, without its timing. */
const counts = ({ ms, ...rest }: DemoTickSummary) => (void ms, rest);

/** The figures derived from the ads (page counts, the day's snapshot of each ad) that disagree with the ads. */
async function figuresThatDisagree(date: string): Promise<unknown[]> {
  return query(
    `SELECT v."id", v."liveAdsCount", v."totalReach", f.* FROM "advertisers" v
     JOIN LATERAL (SELECT count(*) FILTER (WHERE a."status" = 'active')::int AS live, coalesce(sum(a."reach"), 0)::int8 AS total
                   FROM "ads" a WHERE a."advertiserId" = v."id") f ON true
     WHERE (v."liveAdsCount", v."totalReach") IS DISTINCT FROM (f.live, f.total)
     UNION ALL
     SELECT a."id", r."reach"::int, a."reach", NULL, NULL FROM "ads" a JOIN "ad_reach_days" r ON r."adId" = a."id" AND r."date" = $1::date
     WHERE a."fetchedFrom" = 'meta-ads' AND r."reach" <> a."reach"`,
    [date],
  );
}

/** A digest of every product's, variant's and image's values but those a price or a stock change writes, by key. */
async function catalogue(): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const tables = [
    { table: 'products', key: `'p:' || x."id"`, changes: ['price', 'compareAtPrice', 'priceUsd', 'promoTypes', 'updatedAt'] },
    { table: 'product_variants', key: `'v:' || x."productId" || ':' || x."shopifyId"`, changes: ['price', 'available'] },
    { table: 'product_images', key: `'i:' || x."productId" || ':' || x."shopifyId"`, changes: [] },
  ];
  for (const { table, key, changes } of tables) {
    const columns = await query<{ name: string }>(
      `SELECT column_name AS name FROM information_schema.columns WHERE table_name = $1 AND NOT (column_name = ANY($2::text[])) ORDER BY ordinal_position`,
      [table, changes],
    );
    const rows = await query<{ id: string; rest: string }>(`SELECT ${key} AS id, md5(ROW(${columns.map((c) => `x."${c.name}"`).join(', ')})::text) AS rest FROM "${table}" x`);
    for (const row of rows) out[row.id] = row.rest;
  }
  return out;
}

const APP_DRIFT = `SELECT s.id::text FROM shops s WHERE s."appIds" <> coalesce((SELECT array_agg(x."appId" ORDER BY x."appId") FROM shop_apps x WHERE x."shopId" = s.id), '{}')
  UNION ALL SELECT a.id::text FROM shopify_apps a WHERE a."usageCount" <> (SELECT count(*) FROM shop_apps x WHERE x."appId" = a.id)`;

const summaries: DemoTickSummary[] = [];
let first: Event[] = [];

describe('demo tick', () => {
  it('records the first day\'s new ads, price and stock changes and app changes, with subjects that exist, in the same writes', async () => {
    const before = await lastEventId();
    const products = await catalogue();
    const productIds = await query<{ id: string }>(`SELECT id FROM products ORDER BY id`);
    const summary = await demoTick(t.db.pool, { asOf: day(1) });
    summaries.push(summary);
    first = await eventsAfter(before);

    expect(summary.day).toBe('2025-06-02');
    expect(summary.events.recorded).toBe(first.length);
    const byType = Object.fromEntries(Object.keys(summary.events.byType).map((type) => [type, ofType(first, type).length]));
    expect(summary.events.byType).toEqual(byType);
    for (const type of ['ad.created', 'product.price_changed', 'product.out_of_stock']) expect([type, ofType(first, type).length > 0]).toEqual([type, true]);
    expect(ofType(first, 'shop.app_installed').length + ofType(first, 'shop.app_removed').length).toBeGreaterThan(0);
    expect(summary.ads.created).toBe(ofType(first, 'ad.created').length);
    expect(summary.products.repriced).toBe(ofType(first, 'product.price_changed').length);
    // Each event names rows that exist, and went through the source's own write path.
    const missing = await query(
      `SELECT e.id FROM market_events e WHERE e.id > $1::int8 AND NOT (
         (e."adId" IS NULL OR EXISTS (SELECT 1 FROM ads a WHERE a.id = e."adId" AND a."advertiserId" = e."advertiserId"))
         AND (e."advertiserId" IS NULL OR EXISTS (SELECT 1 FROM advertisers v WHERE v.id = e."advertiserId"))
         AND (e."productId" IS NULL OR EXISTS (SELECT 1 FROM products p WHERE p.id = e."productId" AND p."shopId" = e."shopId"))
         AND (e."shopId" IS NULL OR EXISTS (SELECT 1 FROM shops s WHERE s.id = e."shopId")))`,
      [before],
    );
    expect(missing).toEqual([]);
    const SOURCES: Record<string, string> = { ad: 'meta-ads', advertiser: 'meta-ads', brandtracker: 'meta-ads', product: 'shopify', shop: 'demo' };
    expect(first.filter((event) => event.source !== SOURCES[event.type.split('.')[0]])).toEqual([]);

    // The demo products are the same rows: none added, and nothing but their prices and stock changed.
    expect(await query<{ id: string }>(`SELECT id FROM products ORDER BY id`)).toEqual(productIds);
    const after = await catalogue();
    expect(Object.keys(after).filter((id) => after[id] !== products[id])).toEqual([]);
    expect(Object.keys(after).length).toBe(Object.keys(products).length);

    // The figures the routes read follow the changes.
    expect(await figuresThatDisagree('2025-06-02')).toEqual([]);
    expect(await query(APP_DRIFT)).toEqual([]);
  });

  it('shows the changes on the routes: a new ad, a product\'s new price, a shop\'s apps', async () => {
    const created = ofType(first, 'ad.created')[0];
    const ad = await get(`/ads/${created.adId}`);
    expect(ad.status).toBe(200);
    expect(ad.body.data).toMatchObject({ id: created.adId, status: 'active' });
    expect(JSON.stringify(ad.body.data)).toContain(created.advertiserId);
    expect((await get(`/ads/${created.adId}/reach-history`)).body.data.map((point: { date: string }) => point.date.slice(0, 10))).toEqual(['2025-06-02']);

    const repriced = ofType(first, 'product.price_changed')[0];
    const list = await get(`/shops/${repriced.shopId}/products?limit=50`);
    expect(list.status).toBe(200);
    // The shop's products list names a product by its Shopify id.
    const product = list.body.data.find((row: { id: string }) => `${repriced.shopId}:${row.id}` === repriced.productId);
    expect(product.price).toBe(repriced.data.after!.price);
    expect(repriced.data.before!.price).not.toBe(repriced.data.after!.price);

    for (const event of [...ofType(first, 'shop.app_installed'), ...ofType(first, 'shop.app_removed')]) {
      const installed = event.type === 'shop.app_installed';
      const app = (installed ? event.data.after : event.data.before)!.app as { id: number; name: string };
      const shop = await get(`/shops/${event.shopId}`);
      expect(shop.status).toBe(200);
      expect([event.type, shop.body.data.technology.apps.some((row: { id: number }) => row.id === app.id)]).toEqual([event.type, installed]);
      const using = await get(`/shops?shopifyAppIds=${app.id}&limit=100`);
      expect([event.type, using.body.data.some((row: { id: string }) => row.id === event.shopId)]).toEqual([event.type, installed]);
    }
  });

  it('changes no row and records nothing on a second tick of the same day', async () => {
    const before = await checksums(t.db.pool, TABLES);
    const lastEvent = await lastEventId();
    const again = await demoTick(t.db.pool, { asOf: new Date('2025-06-02T23:59:00Z') });
    expect(again.events).toEqual({ recorded: 0, byType: {} });
    expect(again.ads).toMatchObject({ reported: summaries[0].ads.reported, created: 0, stopped: 0, updated: 0 });
    expect(again.products.reported).toBe(0);
    expect(await checksums(t.db.pool, TABLES)).toEqual(before);
    expect(await lastEventId()).toBe(lastEvent);
  });

  it('adds a day of history on the next day: the running ads\' snapshots, stops, reach jumps and a landing page moved', async () => {
    const before = await lastEventId();
    const summary = await demoTick(t.db.pool, { asOf: day(2) });
    summaries.push(summary);
    const events = await eventsAfter(before);
    for (const type of ['ad.stopped', 'ad.reach_jumped', 'ad.landing_page_changed', 'ad.created']) expect([type, ofType(events, type).length > 0]).toEqual([type, true]);
    expect(summary.ads.stopped).toBe(ofType(events, 'ad.stopped').length);
    // Every ad reported today has its snapshot of the day; the ads of the first day have two.
    const [{ n }] = await query<{ n: number }>(`SELECT count(*)::int AS n FROM ad_reach_days WHERE date = '2025-06-03' AND "fetchedAt" IS NOT NULL`);
    expect(n).toBe(summary.ads.reported);
    const running = ofType(first, 'ad.created').map((event) => event.adId!).find((id) => !ofType(events, 'ad.stopped').some((event) => event.adId === id))!;
    const history = (await get(`/ads/${running}/reach-history`)).body.data as { date: string; reach: number }[];
    expect(history.map((point) => point.date.slice(0, 10))).toEqual(['2025-06-02', '2025-06-03']);
    expect(history[1].reach).toBeGreaterThan(history[0].reach);

    const stopped = ofType(events, 'ad.stopped')[0];
    expect(ofType(first, 'ad.created').map((event) => event.adId)).toContain(stopped.adId);
    expect((await get(`/ads/${stopped.adId}`)).body.data).toMatchObject({ status: 'inactive' });
    const jumped = ofType(events, 'ad.reach_jumped')[0];
    expect(jumped.data.after!.gain).toBeGreaterThanOrEqual(EVENT_THRESHOLDS.reachJump);
    const [ad] = await query<{ reach: string }>(`SELECT reach::text FROM ads WHERE id = $1`, [jumped.adId]);
    expect(Number(ad.reach)).toBe(jumped.data.after!.reach);
    const moved = ofType(events, 'ad.landing_page_changed')[0];
    const [landing] = await query<{ landingPageDomain: string }>(`SELECT "landingPageDomain" FROM ads WHERE id = $1`, [moved.adId]);
    expect(landing.landingPageDomain).toBe(moved.data.after!.landingPageDomain);
    expect(moved.data.before!.landingPageDomain).not.toBe(moved.data.after!.landingPageDomain);
    expect(await figuresThatDisagree('2025-06-03')).toEqual([]);
  });

  it('bursts one page every third day and restocks what it sold out a few days before', async () => {
    const before = await lastEventId();
    summaries.push(await demoTick(t.db.pool, { asOf: day(3) }));
    const events = [...first, ...(await eventsAfter(before))];
    const bursts = summaries.map((summary) => summary.events.byType['advertiser.burst'] ?? 0);
    expect(bursts.filter((n) => n > 0)).toEqual([1]);
    const [burst] = await query<Event>(`SELECT "advertiserId", data FROM market_events WHERE type = 'advertiser.burst'`);
    expect(burst.data.after!.newAds).toBeGreaterThanOrEqual(EVENT_THRESHOLDS.burstAds);
    const restocked = ofType(events, 'product.back_in_stock');
    expect(restocked.length).toBeGreaterThan(0);
    const all = await eventsAfter('0');
    for (const event of restocked) expect(ofType(all, 'product.out_of_stock').some((sold) => sold.productId === event.productId)).toBe(true);
    expect(await query(APP_DRIFT)).toEqual([]);
  });

  it('refuses a day before the last one it advanced to', async () => {
    await expect(demoTick(t.db.pool, { asOf: day(1) })).rejects.toThrow(/already advanced to 2025-06-04/);
  });
});

describe('cli demo tick', () => {
  let harness: CliHarness;
  beforeAll(async () => {
    harness = await createCliHarness({ market: { scale: 'tiny', seed: 7, asOf: SEEDED } });
  });
  afterAll(() => harness?.close());

  it('prints the day\'s summary, the same as in process for the same market and day, and nothing on the same day again', async () => {
    const result = await harness.cli('demo', 'tick', '--as-of', '2025-06-02');
    expect(result.code).toBe(0);
    expect(counts(result.json)).toEqual(counts(summaries[0]));
    const again = await harness.cli('demo', 'tick', '--as-of', '2025-06-02');
    expect(again.json.events).toEqual({ recorded: 0, byType: {} });
    expect(await harness.cli('demo', 'tick', '--as-of', 'someday')).toMatchObject({ code: 2, json: { error: { code: 'validation_error' } } });
    expect(await harness.cli('demo', 'tick', '--as-of', '2025-05-20')).toMatchObject({ code: 1, json: { error: { code: 'conflict' } } });
  });
});
