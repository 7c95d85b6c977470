import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordEvents } from '../../src/data/events.js';
import { NOTICES_APPLICATION, noticesOf } from '../../src/db/notices.js';
import { dispatchOnce } from '../../src/events/dispatch.js';
import { importData } from '../../src/data/import/index.js';
import { parseJson } from '../../src/data/import/json.js';
import { connect, parse, type TextResult } from '../mcp/client.js';
import { metaAd, type MetaAdRecord } from '../sources/fakes/meta.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { statementsOf } from '../support/statements.js';

// A brand's changes between two dates (issue #37), through REST and GraphQL: a tracked page's ads imported on three
// days (starts, a stop, copy, hook and landing-page changes, the new ads moving into the top), its shop's products (a new one, a price
// change, a sell-out) and an app installed; the diff of day 2 counts and lists exactly those, and nothing of days 1
// and 3.

let t: TestApp;
let scratch: string;
let files = 0;
let key: Awaited<ReturnType<TestApp['newKey']>>;
let other: Awaited<ReturnType<TestApp['newKey']>>;
let brandtrackerId: string;
let shopId: string;
/** The shop's products as imported on day 2. */
let catalogue: { id: number; title: string }[];

const PAGE = '888000111';
const DOMAIN = 'diffbrand.example';
const DAY_1 = new Date('2026-10-01T10:00:00Z');
const DAY_2 = new Date('2026-10-02T10:00:00Z');
const DAY_3 = new Date('2026-10-03T10:00:00Z');
const fixtures = path.resolve(import.meta.dirname, '../fixtures/shopify-products/pages');

const ad = (i: number, overrides: MetaAdRecord = {}) => {
  const record = metaAd(900 + i, { page_id: PAGE, page_name: 'Diff Brand', ad_delivery_start_time: '2026-09-20', ad_creative_link_captions: [DOMAIN], ...overrides });
  if (!('ad_delivery_stop_time' in overrides)) delete record.ad_delivery_stop_time;
  return record;
};
const id = (i: number) => `facebook_${metaAd(900 + i).id}`;

async function importMeta(records: MetaAdRecord[], asOf: Date) {
  const file = path.join(scratch, `meta-${++files}.json`);
  await writeFile(file, JSON.stringify({ data: records }));
  return importData(t.db.pool, 'meta-ads', [file], { asOf });
}

async function importShop(page: unknown, asOf: Date) {
  const file = path.join(scratch, `products-${++files}.json`);
  await writeFile(file, JSON.stringify(page));
  return importData(t.db.pool, 'shopify-products', [file], { asOf, domain: DOMAIN });
}

type Product = { id: number; title: string; handle: string; created_at: string; variants: Record<string, unknown>[] };
const day1 = Array.from({ length: 6 }, (_, i) => ad(i));
const day2 = [
  ad(0, { ad_delivery_stop_time: '2026-10-02T01:00:00+0000' }),
  ad(1, { ad_creative_link_captions: ['new-landing.example'] }),
  ad(2, { ad_creative_bodies: ['A fresh opening line. The rest is new too.'] }),
  ad(3, { ad_creative_link_titles: ['Only the title changed'] }),
  ad(4),
  ad(5),
  ad(6, { ad_delivery_start_time: '2026-10-02' }),
  ad(7, { ad_delivery_start_time: '2026-10-02', ad_creative_link_captions: ['launch.example'] }),
];
const day3 = [...day2.slice(0, 5), ad(5, { ad_creative_bodies: ['Day three copy.'] }), ...day2.slice(6), ad(8, { ad_delivery_start_time: '2026-10-03' })];

beforeAll(async () => {
  t = await createTestApp();
  scratch = await mkdtemp(path.join(tmpdir(), 'mi-brand-changes-'));
  key = await t.newKey();
  other = await t.newKey();
  await importMeta(day1, DAY_1);
  const tracked = await t.rest('POST', '/brandtrackers', { key: key.apiKey, body: { facebookPageId: PAGE } });
  expect(tracked.status).toBeLessThan(300);
  brandtrackerId = tracked.body.data.id;
  expect((await t.rest('POST', '/brandtrackers', { key: other.apiKey, body: { facebookPageId: '888000222' } })).status).toBeLessThan(500);

  const page = parseJson(await readFile(path.join(fixtures, 'products-1.json'), 'utf8')) as { products: Product[] };
  await importShop(page, DAY_1);
  shopId = (await t.db.pool.query<{ id: string }>(`SELECT "id" FROM "shops" WHERE "domain" = $1`, [DOMAIN])).rows[0].id;
  await t.db.pool.query(`INSERT INTO "brandtracker_websites" ("brandtrackerId", "shopId") VALUES ($1, $2)`, [brandtrackerId, shopId]);

  await importMeta(day2, DAY_2);
  const [first, second] = page.products;
  first.variants = first.variants.map((variant) => ({ ...variant, price: '99.50', available: false }));
  const launched = { ...second, id: 7412345670001, handle: 'launched-in-october', title: 'Launched in October', created_at: '2026-10-02T08:00:00Z',
    variants: second.variants.map((variant, n) => ({ ...variant, id: 7412345670100 + n, product_id: 7412345670001 })) };
  catalogue = [...page.products, launched];
  await importShop({ products: catalogue }, DAY_2);
  await recordEvents(t.db.pool, 'demo', [{ type: 'shop.app_installed', dedupeKey: `test:app:${shopId}`, shopId, data: { before: null, after: { app: { id: 42, name: 'Reviews Pro' } } } }], DAY_2);

  await importMeta(day3, DAY_3);
});
afterAll(async () => {
  await t?.close();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

const changes = (base: string, query = 'from=2026-10-02&to=2026-10-02', apiKey = key.apiKey) => t.rest('GET', `${base}/changes?${query}`, { key: apiKey });

async function recorded(type: string, from: Date, to: Date) {
  const { rows } = await t.db.pool.query<{ id: string; adId: string | null; productId: string | null }>(
    `SELECT "id"::text AS "id", "adId", "productId" FROM "market_events" WHERE "type" = $1 AND "occurredAt" >= $2 AND "occurredAt" < $3 AND ("advertiserId" = $4 OR "shopId" = $5::uuid) ORDER BY "id" DESC`,
    [type, from, to, PAGE, shopId],
  );
  return rows;
}

describe('GET /v1/brandtrackers/{brandtrackerId}/changes', () => {
  it("counts and lists the day's changes of the brand's page and shop, and nothing of the days around it", async () => {
    const res = await changes(`/brandtrackers/${brandtrackerId}`, 'from=2026-10-02&to=2026-10-02&expand=ads,products');
    expect(res.status).toBe(200);
    const data = res.body.data;
    expect(data).toMatchObject({ brandtrackerId, advertiserIds: [PAGE], shopIds: [shopId], from: '2026-10-02T00:00:00.000Z', to: '2026-10-03T00:00:00.000Z' });
    const totals = Object.fromEntries(Object.entries(data).flatMap(([name, section]) => (section && typeof section === 'object' && 'total' in section ? [[name, (section as { total: number }).total]] : [])));
    const rankEvents = await recorded('brandtracker.rank_changed', new Date('2026-10-02T00:00:00Z'), new Date('2026-10-03T00:00:00Z'));
    expect(rankEvents.length).toBeGreaterThan(0);
    expect(totals).toEqual({
      adsStarted: 2, adsStopped: 1, copyChanges: 2, hookChanges: 1, landingPageChanges: 1, newLandingPages: 2, newProducts: 1,
      priceChanges: 1, stockChanges: 1, rankMoves: rankEvents.length, appsInstalled: 1, appsRemoved: 0,
    });
    expect(data.adsStarted.items.map((item: { adId: string }) => item.adId).sort()).toEqual([id(6), id(7)].sort());
    expect(data.adsStarted.items[0].ad).toMatchObject({ advertiser: { id: PAGE } });
    expect(data.adsStopped.items).toEqual([expect.objectContaining({ at: '2026-10-02T01:00:00.000Z', adId: id(0), ad: expect.objectContaining({ id: id(0), status: 'inactive' }) })]);
    expect(data.copyChanges.items.map((item: { adId: string }) => item.adId).sort()).toEqual([id(2), id(3)].sort());
    const copy = data.copyChanges.items.find((item: { adId: string }) => item.adId === id(3));
    expect(copy.before.title).not.toBe('Only the title changed');
    expect(copy.after.title).toBe('Only the title changed');
    expect(copy.eventId).toMatch(/^evt_\d+$/);
    expect(data.hookChanges.items).toEqual([
      expect.objectContaining({ adId: id(2), before: (day1[2].ad_creative_bodies as string[])[0], after: 'A fresh opening line.' }),
    ]);
    expect(data.landingPageChanges.items).toEqual([expect.objectContaining({ adId: id(1), before: DOMAIN, after: 'new-landing.example', occurredAt: DAY_2.toISOString() })]);
    expect(data.newLandingPages.items.map((item: { domain: string }) => item.domain).sort()).toEqual(['launch.example', 'new-landing.example']);
    expect(data.newProducts.items).toEqual([expect.objectContaining({ createdAt: '2026-10-02T08:00:00.000Z', shopId, product: expect.objectContaining({ title: 'Launched in October' }) })]);
    expect(data.priceChanges.items).toEqual([expect.objectContaining({ after: 99.5, shopId, product: expect.objectContaining({ id: expect.any(String) }) })]);
    expect(data.stockChanges.items).toEqual([expect.objectContaining({ available: false })]);
    expect(data.rankMoves.items.map((item: { eventId: string }) => item.eventId)).toEqual(rankEvents.slice(0, 10).map((row) => `evt_${row.id}`));
    expect(data.rankMoves.items).toContainEqual(expect.objectContaining({ adId: id(6), before: null, after: 1, ad: expect.objectContaining({ id: id(6) }) }));
    expect(data.appsInstalled.items).toEqual([expect.objectContaining({ shopId, appId: 42, appName: 'Reviews Pro', occurredAt: DAY_2.toISOString() })]);
  });

  it('is compact by default: ids, titles, dates and what changed, without the Ad summaries and products, the totals the same', async () => {
    const compact = (await changes(`/brandtrackers/${brandtrackerId}`)).body.data;
    const expanded = (await changes(`/brandtrackers/${brandtrackerId}`, 'from=2026-10-02&to=2026-10-02&expand=ads,products')).body.data;
    const onlyAds = (await changes(`/brandtrackers/${brandtrackerId}`, 'from=2026-10-02&to=2026-10-02&expand=ads')).body.data;
    type Item = { ad?: { content: { title: string | null } } | null; product?: { title: string } | null; adTitle?: string | null; productTitle?: string | null };
    type Sections = Record<string, { total: number; hasMore: boolean; items: Item[] } | unknown>;
    const sectionsOf = (data: Sections) => Object.entries(data).filter((entry): entry is [string, { total: number; hasMore: boolean; items: Item[] }] => !!entry[1] && typeof entry[1] === 'object' && 'items' in entry[1]);
    const strip = (data: Sections) => Object.fromEntries(sectionsOf(data).map(([name, section]) => [name, { ...section, items: section.items.map(({ ad: _a, product: _p, ...item }) => item) }]));
    expect(sectionsOf(compact)).toHaveLength(12);
    expect(strip(compact)).toEqual(strip(expanded));
    for (const [name, section] of sectionsOf(compact)) {
      expect(section.total, name).toBe((expanded[name] as { total: number }).total);
      for (const item of section.items) {
        expect(item.ad ?? null, name).toBeNull();
        expect(item.product ?? null, name).toBeNull();
      }
    }
    const adItems = sectionsOf(expanded).flatMap(([, section]) => section.items.filter((item) => item.ad));
    expect(adItems.length).toBeGreaterThan(5);
    for (const item of adItems) if (item.ad!.content.title) expect(item.adTitle).toBe(item.ad!.content.title);
    expect(compact.copyChanges.items.find((item: { adId: string }) => item.adId === id(3)).adTitle).toBe('Only the title changed');
    expect(compact.newProducts.items).toEqual([expect.objectContaining({ productTitle: 'Launched in October' })]);
    expect(compact.priceChanges.items[0].productTitle).toBe(expanded.priceChanges.items[0].product.title);
    expect(onlyAds.adsStarted.items[0].ad).toMatchObject({ id: onlyAds.adsStarted.items[0].adId });
    expect(onlyAds.newProducts.items[0].product).toBeNull();
    const bad = await changes(`/brandtrackers/${brandtrackerId}`, 'expand=ads,everything');
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.validationErrors).toEqual([expect.objectContaining({ field: 'query-string.expand' })]);
  });

  it("widens to day 3's changes with a wider window, and date-times bound it exactly", async () => {
    const wide = (await changes(`/brandtrackers/${brandtrackerId}`, 'from=2026-10-02&to=2026-10-03&sections=adsStarted,copyChanges')).body.data;
    expect(wide.adsStarted.total).toBe(3);
    expect(wide.copyChanges.total).toBe(3);
    expect(wide.adsStopped).toBeNull();
    const instants = (await changes(`/brandtrackers/${brandtrackerId}`, 'from=2026-10-02T10:00:00Z&to=2026-10-02T10:00:00.001Z&sections=copyChanges,adsStarted')).body.data;
    expect(instants.copyChanges.total).toBe(2);
    expect(instants.adsStarted.total).toBe(0);
    const before = (await changes(`/brandtrackers/${brandtrackerId}`, 'from=2026-09-01&to=2026-10-01T10:00:00Z')).body.data;
    expect(before.copyChanges.total + before.landingPageChanges.total + before.priceChanges.total + before.adsStopped.total).toBe(0);
  });

  it("answers by default in one statement; expanded, it loads the items' ads and products once each", async () => {
    // Windows no other request asked for, so that no kept answer serves them (see "kept answers").
    const compact = await statementsOf(() => changes(`/brandtrackers/${brandtrackerId}`, `to=${new Date().toISOString()}`));
    expect(compact.res.status).toBe(200);
    expect(compact.statements).toHaveLength(1);
    expect(compact.statements[0]).toContain('"market_events"');
    const { res, statements } = await statementsOf(() => changes(`/brandtrackers/${brandtrackerId}`, 'from=2026-10-02&to=2026-10-02T23:59:59Z&expand=ads,products'));
    expect(res.status).toBe(200);
    expect(statements.filter((text) => text.includes('"market_events"'))).toHaveLength(1);
    expect(statements.filter((text) => text.includes('"product_weeks"'))).toHaveLength(1);
    // The statement, the workspace's plan (the products' EU figures), the Ad summaries, the products.
    expect(statements).toHaveLength(4);
  });

  it('pages a section with limit and offset, the total exact', async () => {
    const first = (await changes(`/brandtrackers/${brandtrackerId}`, 'from=2026-10-02&to=2026-10-03&sections=adsStarted&limit=2')).body.data.adsStarted;
    const next = (await changes(`/brandtrackers/${brandtrackerId}`, 'from=2026-10-02&to=2026-10-03&sections=adsStarted&limit=2&offset=2')).body.data.adsStarted;
    expect([first.total, first.hasMore, first.items.length, next.total, next.hasMore, next.items.length]).toEqual([3, true, 2, 3, false, 1]);
    expect(first.items[0].adId).toBe(id(8)); // newest first: the ad started on day 3
    expect(new Set([...first.items, ...next.items].map((item: { adId: string }) => item.adId))).toEqual(new Set([id(6), id(7), id(8)]));
  });

  it("answers another workspace's brandtracker as a missing one: 404 not_found, expanded or not", async () => {
    const theirs = await changes(`/brandtrackers/${brandtrackerId}`, undefined, other.apiKey);
    const theirsExpanded = await changes(`/brandtrackers/${brandtrackerId}`, 'expand=ads,products', other.apiKey);
    const missing = await changes(`/brandtrackers/${randomUUID()}`);
    for (const res of [theirs, theirsExpanded, missing]) {
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('not_found');
      expect(res.body.error.message).toMatch(/^Brandtracker "[0-9a-f-]{36}" was not found\.$/);
    }
  });

  it('refuses bad dates, from after to and a window over 366 days, naming the argument', async () => {
    const cases: [string, string, RegExp][] = [
      ['from=yesterday', 'query-string.from', /from must be a date \(YYYY-MM-DD\) or an ISO 8601 date-time/],
      ['to=2026-13-01', 'query-string.to', /to must be a date/],
      ['from=2026-10-03&to=2026-10-01', 'query-string.from', /from must be on or before to/],
      ['from=2025-01-01&to=2026-10-01', 'query-string.from', /from must be at most 366 days before to/],
      ['limit=51', 'query-string.limit', /limit must not be greater than 50/],
      ['sections=adsStarted,nope', 'query-string.sections', /sections/],
    ];
    for (const [query, field, expected] of cases) {
      const res = await changes(`/brandtrackers/${brandtrackerId}`, query);
      expect(res.status, query).toBe(400);
      expect(res.body.error.code).toBe('validation_error');
      expect(res.body.error.details.validationErrors).toEqual([expect.objectContaining({ field, expected: [expect.stringMatching(expected)] })]);
    }
  });
});

describe('GET /v1/advertisers/{advertiserId}/changes and /v1/shops/{shopId}/changes', () => {
  it("gives an advertiser's ad changes and a shop's product and app changes, the same as the brandtracker's sections", async () => {
    const brand = (await changes(`/brandtrackers/${brandtrackerId}`)).body.data;
    const page = await changes(`/advertisers/${PAGE}`);
    expect(page.status).toBe(200);
    expect(page.body.data).toMatchObject({ brandtrackerId: null, advertiserIds: [PAGE], shopIds: [] });
    for (const section of ['adsStarted', 'adsStopped', 'copyChanges', 'hookChanges', 'landingPageChanges', 'newLandingPages', 'rankMoves']) expect(page.body.data[section]).toEqual(brand[section]);
    expect(page.body.data.priceChanges).toEqual({ total: 0, hasMore: false, items: [] });
    const shop = await changes(`/shops/${shopId}`);
    expect(shop.status).toBe(200);
    expect(shop.body.data).toMatchObject({ brandtrackerId: null, advertiserIds: [], shopIds: [shopId] });
    for (const section of ['newProducts', 'priceChanges', 'stockChanges', 'appsInstalled', 'appsRemoved']) expect(shop.body.data[section]).toEqual(brand[section]);
    expect(shop.body.data.adsStarted.total).toBe(0);
  });

  it('answers 404 not_found for an advertiser or a shop that does not exist', async () => {
    for (const [base, what] of [['/advertisers/123456789000', 'Advertiser'], [`/shops/${randomUUID()}`, 'Shop'], ['/shops/not-a-uuid', 'Shop']]) {
      const res = await changes(base);
      expect(res.status, base).toBe(404);
      expect(res.body.error.message).toMatch(new RegExp(`^${what} `));
    }
  });
});

describe('GraphQL', () => {
  it('answers what REST answers, and validates alike', async () => {
    const rest = (await changes(`/brandtrackers/${brandtrackerId}`, 'from=2026-10-02&to=2026-10-02&sections=copyChanges,priceChanges')).body.data;
    const gql = await t.graphql(
      `query($id: String!) { brandtrackerChanges(brandtrackerId: $id, from: "2026-10-02", to: "2026-10-02", sections: [copyChanges, priceChanges], expand: [ads, products]) {
        brandtrackerId from to
        copyChanges { total hasMore items { occurredAt eventId adId ad { id status } before { title body } after { title body } } }
        priceChanges { total items { eventId productId before after currency product { id title } } }
        adsStarted { total } } }`,
      { id: brandtrackerId },
      key.apiKey,
    );
    expect(gql.body.errors).toBeUndefined();
    const answer = gql.body.data.brandtrackerChanges;
    expect(answer.copyChanges.total).toBe(2);
    expect(answer.copyChanges.items.map((item: { eventId: string }) => item.eventId)).toEqual(rest.copyChanges.items.map((item: { eventId: string }) => item.eventId));
    expect(answer.priceChanges.items[0]).toMatchObject({ eventId: rest.priceChanges.items[0].eventId, after: 99.5, product: { id: rest.priceChanges.items[0].productId } });
    expect(answer.adsStarted).toBeNull();
    const shop = await t.graphql(`{ shopChanges(shopId: "${shopId}", from: "2026-10-02", to: "2026-10-02") { appsInstalled { total items { appName } } } }`, {}, key.apiKey);
    expect(shop.body.data.shopChanges.appsInstalled).toEqual({ total: 1, items: [{ appName: 'Reviews Pro' }] });
    const bad = await t.graphql(`{ advertiserChanges(advertiserId: "${PAGE}", from: "2026-10-05", to: "2026-10-01") { from } }`, {}, key.apiKey);
    expect(bad.body.errors[0].extensions.code).toBe('validation_error');
  });

  it('loads the Ad summaries only when expanded and selected', async () => {
    const kept = await keptStatements();
    const query = (args: string, fields: string) =>
      statementsOf(() => t.graphql(`{ brandtrackerChanges(brandtrackerId: "${brandtrackerId}", from: "2026-10-02", to: "2026-10-02", sections: [adsStarted]${args}) { adsStarted { total items { adId adTitle ${fields} } } } }`, {}, key.apiKey));
    const selected = await query(', expand: [ads]', 'ad { id }');
    const unexpanded = await query('', 'ad { id }');
    const unselected = await query(', expand: [ads]', '');
    const items = (run: typeof selected) => (run.res.body.data.brandtrackerChanges.adsStarted.items as { adId: string; ad?: { id: string } | null }[]);
    expect(items(selected).map((item) => item.ad?.id)).toEqual(items(selected).map((item) => item.adId));
    expect(items(unexpanded).map((item) => item.ad)).toEqual([null, null]);
    expect([selected.statements.length, unexpanded.statements.length, unselected.statements.length]).toEqual([2, kept, kept]);
  });
});

/**
 * What serving a kept answer costs in statements: none where the server hears the database's notices (PostgreSQL:
 * src/db/notices.ts, waited for here), else brandRevision's one (the embedded database).
 */
async function keptStatements(): Promise<number> {
  return (await noticesOf(t.db.pool)?.listen()) ? 0 : 1;
}

/** Once a write committed, its notices heard by the server (none to wait for where it hears none). */
async function noticed(): Promise<void> {
  await noticesOf(t.db.pool)?.caughtUp();
}

describe('kept answers', () => {
  // An answer is served again while the brand's recorded events are the same (BRAND_CHANGES_CACHE_SECONDS, 60 by
  // default): with the window it read, without a statement where the server hears the database's notices of its
  // changes (PostgreSQL), else after one small statement instead of the diff's.
  const DIFF = /'totals'/;
  const appRemoved = (n: number, at: Date) =>
    recordEvents(t.db.pool, 'demo', [{ type: 'shop.app_removed', dedupeKey: `test:app-removed:${shopId}:${n}`, shopId, data: { before: { app: { id: 40 + n, name: `App ${n}` } }, after: null } }], at);

  it('serves the same answer again, window and all, until an event of the brand is recorded, dispatched or not', async () => {
    const kept = await keptStatements();
    const path = `/brandtrackers/${brandtrackerId}`;
    const first = await statementsOf(() => changes(path, 'sections=appsRemoved,adsStarted'));
    expect(first.statements.filter((text) => DIFF.test(text))).toHaveLength(1);
    const again = await statementsOf(() => changes(path, 'sections=appsRemoved,adsStarted'));
    expect(again.res.body.data).toEqual(first.res.body.data);
    expect(again.statements).toHaveLength(kept);
    expect(again.statements.filter((text) => DIFF.test(text))).toHaveLength(0);
    const removed = first.res.body.data.appsRemoved.total;

    // Recorded (not yet dispatched): the next answer is read anew, its window ending later.
    await appRemoved(1, new Date(Date.now() - 60_000));
    await noticed();
    const fresh = await statementsOf(() => changes(path, 'sections=appsRemoved,adsStarted'));
    expect(fresh.statements.filter((text) => DIFF.test(text))).toHaveLength(1);
    expect(fresh.res.body.data.appsRemoved.total).toBe(removed + 1);
    expect(Date.parse(fresh.res.body.data.to)).toBeGreaterThan(Date.parse(first.res.body.data.to));

    // Dispatching the waiting events (they get their sequence numbers) reads it anew once where each kept answer is
    // checked by the revision (which counts the events waiting), then keeps it again; numbering changes nothing a
    // diff shows, so no notice is sent for it.
    await dispatchOnce(t.db.pool, []);
    await noticed();
    const dispatched = await changes(path, 'sections=appsRemoved,adsStarted');
    expect(dispatched.body.data.appsRemoved.total).toBe(removed + 1);
    if (kept) expect(dispatched.body.data.to).not.toBe(fresh.res.body.data.to);
    else expect(dispatched.body.data.to).toBe(fresh.res.body.data.to);
    expect((await changes(path, 'sections=appsRemoved,adsStarted')).body.data.to).toBe(dispatched.body.data.to);

    // An event recorded and dispatched between two requests, occurring before the window's end.
    await appRemoved(2, new Date(Date.now() - 60_000));
    await dispatchOnce(t.db.pool, []);
    await noticed();
    const later = (await changes(path, 'sections=appsRemoved,adsStarted')).body.data;
    expect(later.appsRemoved.total).toBe(removed + 2);
    expect(later.appsRemoved.items.map((item: { appName: string }) => item.appName).slice(0, 2)).toEqual(['App 2', 'App 1']);
  });

  it("reads anew when the brand's shops change, and answers a brandtracker no longer tracked as not_found", async () => {
    await importMeta([metaAd(950, { page_id: '888000333', page_name: 'Third Brand' })], DAY_1);
    const tracked = await t.rest('POST', '/brandtrackers', { key: other.apiKey, body: { facebookPageId: '888000333' } });
    expect(tracked.status).toBeLessThan(300);
    const id = tracked.body.data.id as string;
    const path = `/brandtrackers/${id}`;
    const before = (await changes(path, 'from=2026-10-02&to=2026-10-02', other.apiKey)).body.data;
    expect(before).toMatchObject({ shopIds: [], newProducts: { total: 0 } });
    await t.db.pool.query(`INSERT INTO "brandtracker_websites" ("brandtrackerId", "shopId") VALUES ($1, $2)`, [id, shopId]);
    await noticed();
    const after = (await changes(path, 'from=2026-10-02&to=2026-10-02', other.apiKey)).body.data;
    expect(after).toMatchObject({ shopIds: [shopId], newProducts: { total: 1 } });
    // A workspace that does not track it never sees the kept answer.
    expect((await changes(path, 'from=2026-10-02&to=2026-10-02')).status).toBe(404);
    expect((await t.rest('DELETE', path, { key: other.apiKey })).status).toBeLessThan(300);
    await noticed();
    const gone = await changes(path, 'from=2026-10-02&to=2026-10-02', other.apiKey);
    expect([gone.status, gone.body.error?.code]).toEqual([404, 'not_found']);
  });

  it('reads anew when a shop without any event joins the brand (its revision unchanged)', async () => {
    await importMeta([metaAd(960, { page_id: '888000444', page_name: 'Fourth Brand' })], DAY_1);
    const tracked = await t.rest('POST', '/brandtrackers', { key: other.apiKey, body: { facebookPageId: '888000444' } });
    expect(tracked.status).toBeLessThan(300);
    const id = tracked.body.data.id as string;
    const quiet = randomUUID();
    await t.db.pool.query(`INSERT INTO "shops" ("id", "domain", "name") VALUES ($1, 'quiet-shop.example', 'Quiet Shop')`, [quiet]);
    await t.db.pool.query(
      `INSERT INTO "products" ("id", "shopId", "shopifyId", "title", "handle", "url", "createdAt", "updatedAt", "currency", "price", "priceUsd")
       VALUES ('quiet-1', $1, 1, 'Quiet product', 'quiet', 'https://quiet-shop.example/products/quiet', '2026-10-02T09:00:00Z', now(), 'USD', 10, 10)`,
      [quiet],
    );
    const query = 'from=2026-10-02&to=2026-10-02&sections=newProducts';
    const before = (await changes(`/brandtrackers/${id}`, query, other.apiKey)).body.data;
    expect(before).toMatchObject({ shopIds: [], newProducts: { total: 0 } });
    await t.db.pool.query(`INSERT INTO "brandtracker_websites" ("brandtrackerId", "shopId") VALUES ($1, $2)`, [id, quiet]);
    await noticed();
    const after = (await changes(`/brandtrackers/${id}`, query, other.apiKey)).body.data;
    expect(after).toMatchObject({ shopIds: [quiet], newProducts: { total: 1, items: [{ productId: 'quiet-1', productTitle: 'Quiet product' }] } });
  });

  it("reads anew after a change the source records no event for (an ad's first day corrected, a product renamed)", async () => {
    const events = async () => Number((await t.db.pool.query<{ n: string }>(`SELECT count(*) AS n FROM "market_events"`)).rows[0].n);
    const query = 'from=2026-10-02&to=2026-10-02&sections=adsStarted,newProducts';
    const before = (await changes(`/brandtrackers/${brandtrackerId}`, query)).body.data;
    expect(before.newProducts.items.map((item: { productTitle: string }) => item.productTitle)).toEqual(['Launched in October']);
    const recorded = await events();
    // The Ad Library corrects ad 4's first day to day 2; the store renames the product launched on day 2.
    const corrected = day3.map((record, i) => (i === 4 ? ad(4, { ad_delivery_start_time: '2026-10-02' }) : record));
    await importMeta(corrected, DAY_3);
    const renamed = (title: string) => ({ products: catalogue.map((product) => (product.title === 'Launched in October' ? { ...product, title } : product)) });
    await importShop(renamed('Renamed in November'), DAY_3);
    expect(await events()).toBe(recorded);
    await noticed();
    const after = (await changes(`/brandtrackers/${brandtrackerId}`, query)).body.data;
    expect(after.adsStarted.total).toBe(before.adsStarted.total + 1);
    expect(after.adsStarted.items.map((item: { adId: string }) => item.adId)).toContain(id(4));
    expect(after.newProducts.items.map((item: { productTitle: string }) => item.productTitle)).toEqual(['Renamed in November']);
    // Back as it was, for the tests below (again without events).
    await importMeta(day3, DAY_3);
    await importShop(renamed('Launched in October'), DAY_3);
    await noticed();
    expect((await changes(`/brandtrackers/${brandtrackerId}`, query)).body.data.adsStarted.total).toBe(before.adsStarted.total);
  });

  it.runIf(process.env.TEST_DB === 'postgres')("hears an event written by hand, and checks each kept answer by a statement while the notices' connection is lost", async () => {
    expect(await keptStatements()).toBe(0);
    const path = `/brandtrackers/${brandtrackerId}`;
    const query = 'sections=appsRemoved';
    const total = async () => (await changes(path, query)).body.data.appsRemoved.total as number;
    const base = await total();
    const byHand = (n: number) =>
      t.db.pool.query(`INSERT INTO "market_events" ("type", "source", "occurredAt", "dedupeKey", "shopId", "data") VALUES ('shop.app_removed', 'test', now() - interval '1 minute', $1, $2, '{}')`, [`test:by-hand:${n}`, shopId]);
    await byHand(1);
    await noticed();
    expect(await total()).toBe(base + 1);
    // The listening connection is cut: until it listens again, a kept answer costs brandRevision's statement, and a
    // change made meanwhile (no notice heard for it) is seen.
    await t.db.pool.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = '${NOTICES_APPLICATION}' AND datname = current_database()`);
    for (let i = 0; i < 100 && noticesOf(t.db.pool)!.listening; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(noticesOf(t.db.pool)!.listening).toBe(false);
    await byHand(2);
    const checked = await statementsOf(() => changes(path, query));
    expect(checked.res.body.data.appsRemoved.total).toBe(base + 2);
    expect(await noticesOf(t.db.pool)!.listen()).toBe(true);
    // Listening again: what was kept meanwhile is checked by the statement once more, then kept without one.
    expect((await statementsOf(() => changes(path, query))).statements).toHaveLength(1);
    expect((await statementsOf(() => changes(path, query))).statements).toHaveLength(0);
    await byHand(3);
    await noticed();
    expect(await total()).toBe(base + 3);
  });

  it("loads the expanded ads anew: what changed without an event (a day's reach) shows", async () => {
    const query = `from=2026-10-02&to=2026-10-02&sections=adsStarted&expand=ads`;
    const path = `/brandtrackers/${brandtrackerId}`;
    const first = (await changes(path, query)).body.data.adsStarted.items[0];
    await t.db.pool.query(`UPDATE "ads" SET "reach" = "reach" + 12345 WHERE "id" = $1`, [first.adId]);
    const { res, statements } = await statementsOf(() => changes(path, query));
    expect(statements.some((text) => DIFF.test(text))).toBe(false);
    expect(res.body.data.adsStarted.items[0].ad.metrics.reach).toBe(first.ad.metrics.reach + 12345);
  });
});

describe('analyze_brand_changes (MCP)', () => {
  async function analyze(args: Record<string, unknown>) {
    const client = await connect(t, key.apiKey);
    try {
      return (await client.callTool({ name: 'analyze_brand_changes', arguments: args })) as TextResult;
    } finally {
      await client.close();
    }
  }

  it("answers the route's totals and newest items compactly, with the call that pages a section on", async () => {
    const rest = (await changes(`/brandtrackers/${brandtrackerId}`, 'from=2026-10-02&to=2026-10-03&limit=2')).body.data;
    const result = await analyze({ brandtrackerId, from: '2026-10-02', to: '2026-10-03', limit: 2 });
    expect(result.isError).toBeFalsy();
    const answer = parse(result);
    expect(answer).toMatchObject({ brand: { brandtrackerId, advertiserIds: [PAGE], shopIds: [shopId] }, from: rest.from, to: rest.to });
    for (const section of ['adsStarted', 'copyChanges', 'priceChanges', 'appsInstalled']) expect(answer.changes[section].total).toBe(rest[section].total);
    expect(answer.changes.adsStarted.items[0]).toEqual({ at: rest.adsStarted.items[0].at, adId: id(8), adTitle: rest.adsStarted.items[0].adTitle });
    expect(rest.adsStarted.items[0].adTitle).toEqual(expect.any(String));
    expect(answer.changes.adsStarted.continueWith).toEqual({
      tool: 'brandtracker_changes', arguments: { brandtrackerId, from: rest.from, to: rest.to, sections: ['adsStarted'], limit: 50, offset: 2 }, remaining: 1,
    });
    expect(answer.changes.priceChanges.items[0]).toMatchObject({ after: 99.5, productTitle: expect.any(String) });
    expect(answer.changes.priceChanges.items[0].product).toBeUndefined();
    const expanded = parse(await analyze({ brandtrackerId, from: '2026-10-02', to: '2026-10-03', limit: 2, expand: ['ads', 'products'] }));
    expect(expanded.changes.adsStarted.items[0]).toEqual({ at: rest.adsStarted.items[0].at, adId: id(8), adTitle: rest.adsStarted.items[0].adTitle, ad: expect.objectContaining({ id: id(8), status: 'active' }) });
    expect(expanded.changes.priceChanges.items[0]).toMatchObject({ after: 99.5, product: { title: expect.any(String), currency: expect.any(String) } });
    expect(expanded.changes.adsStarted.total).toBe(answer.changes.adsStarted.total);
    // The call that pages on keeps the expansion asked for.
    expect(expanded.changes.adsStarted.continueWith.arguments).toMatchObject({ sections: ['adsStarted'], offset: 2, expand: ['ads', 'products'] });
    const shop = parse(await analyze({ shopId, from: '2026-10-02', to: '2026-10-02', sections: ['appsInstalled'] }));
    expect(shop.changes).toEqual({ appsInstalled: { total: 1, items: [expect.objectContaining({ appName: 'Reviews Pro', shopId })] } });
  });

  it('needs exactly one brand, and answers a missing one as not_found', async () => {
    const none = await analyze({ from: '2026-10-02' });
    expect(none.isError).toBe(true);
    expect(parse(none).error.code).toBe('validation_error');
    const missing = await analyze({ brandtrackerId: randomUUID() });
    expect(parse(missing).error.code).toBe('not_found');
  });
});
