import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SECTIONS, type Section, type Window } from '../../src/schema/brand-changes/service.js';
import { recordEvents } from '../../src/data/events.js';
import { findChanges, type Subject } from '../../src/schema/brand-changes/service/statement.js';
import { recordBrandEvents } from '../bench/brand-changes.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { findChanges as findChangesBefore } from './oracle-statement.js';

// The brand diff's statement cuts each section's page by an index and counts it apart (one JSON row); before, it
// listed every change of the window, numbered them per section and kept the page. Its answers against that statement
// (./oracle-statement.ts, kept as it was) on the demo market with the bench's events of the biggest brand's last 60
// days (starts, stops, copy, hook and landing-page changes, rank moves, prices, sell-outs): the brandtracker, its page
// as an advertiser, its shop and another page; windows of 0, 7, 30 and 60 days, date-times and one with nothing in
// it; every section, each section alone, pairs; pages at the start, inside, at and past the end.

let t: TestApp;
let brandtrackerId: string;
let workspaceId: string;
let page: string;
let otherPage: string;
let shopId: string | null;
let now: Date;

beforeAll(async () => {
  t = await createTestApp(undefined, { market: { scale: 'tiny', seed: 42 } });
  const { slug } = await t.newKey();
  const [brand] = (await t.db.pool.query<{ id: string; page: string }>(
    `SELECT b."id", b."facebookPageId" AS page FROM "brandtrackers" b WHERE b."facebookPageId" IS NOT NULL
     ORDER BY (SELECT count(*) FROM "ads" a WHERE a."advertiserId" = b."facebookPageId") DESC, b."id" LIMIT 1`)).rows;
  brandtrackerId = brand.id;
  page = brand.page;
  await t.db.pool.query(`INSERT INTO "brandtracker_links" ("workspaceId", "brandtrackerId") SELECT w."id", $1::uuid FROM "workspaces" w WHERE w."slug" = $2`, [brandtrackerId, slug]);
  workspaceId = (await t.db.pool.query<{ id: string }>(`SELECT "id" FROM "workspaces" WHERE "slug" = $1`, [slug])).rows[0].id;
  now = new Date();
  shopId = (await t.db.pool.query<{ id: string | null }>(`SELECT coalesce((SELECT "websiteId" FROM "brandtrackers" WHERE "id" = $1), (SELECT min("shopId"::text)::uuid FROM "brandtracker_websites" WHERE "brandtrackerId" = $1)) AS id`, [brandtrackerId])).rows[0].id;
  expect(shopId).not.toBeNull();
  await newLandingPagesAndProducts();
  const recorded = await recordBrandEvents(t.db.pool, brandtrackerId);
  expect(recorded.inWindow).toBeGreaterThan(20);
  otherPage = (await t.db.pool.query<{ id: string }>(
    `SELECT "advertiserId" AS id FROM "ads" WHERE "advertiserId" <> $1 GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1`, [page])).rows[0].id;
});
afterAll(() => t?.close());

/**
 * What the demo market's brands lack: landing pages new to the page (one only a new ad points to, one an older ad
 * points to as well, one an older ad moved to in the window), products created in the last weeks, apps installed and
 * removed.
 */
async function newLandingPagesAndProducts() {
  const pool = t.db.pool;
  const ads = (order: string, where: string) => pool.query<{ id: string }>(`SELECT "id" FROM "ads" WHERE "advertiserId" = $1 AND ${where} ORDER BY ${order} LIMIT 3`, [page]).then((r) => r.rows.map((row) => row.id));
  const recent = await ads('"firstSeenAt" DESC, "id"', `"firstSeenAt" > now() - interval '20 days'`);
  const older = await ads('"firstSeenAt" DESC, "id"', `"firstSeenAt" < now() - interval '40 days'`);
  expect([recent.length, older.length]).toEqual([3, 3]);
  const domain = (id: string, value: string | null) => pool.query(`UPDATE "ads" SET "landingPageDomain" = $2 WHERE "id" = $1`, [id, value]);
  await domain(recent[0], 'fresh-one.example');
  await domain(recent[1], 'fresh-two.example');
  await domain(older[0], 'fresh-two.example');
  await domain(recent[2], 'moved-to.example');
  await domain(older[1], 'moved-to.example');
  await recordEvents(pool, 'demo', [
    { type: 'ad.landing_page_changed', dedupeKey: 'test:moved', advertiserId: page, adId: older[1], data: { before: { landingPageDomain: 'moved-from.example' }, after: { landingPageDomain: 'moved-to.example' } } },
  ], new Date(now.getTime() - 10 * DAY));
  await pool.query(`UPDATE "products" SET "createdAt" = now() - (interval '6 days' * n) FROM (SELECT "id", row_number() OVER (ORDER BY "id") AS n FROM "products" WHERE "shopId" = $1 LIMIT 6) x WHERE "products"."id" = x."id"`, [shopId]);
  const app = (type: 'shop.app_installed' | 'shop.app_removed', n: number) =>
    ({ type, dedupeKey: `test:${type}:${n}`, shopId: shopId!, data: { before: null, after: { app: { id: n, name: `App ${n}` } } } });
  await recordEvents(pool, 'demo', [app('shop.app_installed', 1), app('shop.app_installed', 2)], new Date(now.getTime() - 3 * DAY));
  await recordEvents(pool, 'demo', [app('shop.app_removed', 1)], new Date(now.getTime() - 20 * DAY));
  // What no section counts: a workspace's events, a move without its page, a move to no domain, an ad without one.
  const [someone] = (await pool.query<{ id: string }>(`SELECT "id" FROM "workspaces" ORDER BY "id" LIMIT 1`)).rows;
  const days = (n: number) => new Date(now.getTime() - n * DAY);
  await pool.query(
    `INSERT INTO "market_events" ("type", "source", "occurredAt", "dedupeKey", "workspaceId", "advertiserId", "adId", "shopId", "productId", "data")
     VALUES ('ad.copy_changed', 'demo', $1, 'test:ws-copy', $2::uuid, $3, $4, NULL, NULL, '{"before": {"body": "Old."}, "after": {"body": "New."}}'),
            ('product.price_changed', 'demo', $1, 'test:ws-price', $2::uuid, NULL, NULL, $5::uuid, NULL, '{"before": {"price": 1}, "after": {"price": 2}}'),
            ('ad.landing_page_changed', 'demo', $1, 'test:ws-move', $2::uuid, $3, $6, NULL, NULL, '{"before": null, "after": {"landingPageDomain": "fresh-two.example"}}')`,
    [days(4), someone.id, page, recent[0], shopId, older[0]],
  );
  await recordEvents(pool, 'demo', [
    { type: 'ad.landing_page_changed', dedupeKey: 'test:no-page', adId: older[2], data: { before: null, after: { landingPageDomain: 'fresh-two.example' } } },
    { type: 'ad.landing_page_changed', dedupeKey: 'test:no-domain', advertiserId: page, adId: recent[1], data: { before: { landingPageDomain: 'fresh-two.example' }, after: { landingPageDomain: null } } },
    { type: 'product.back_in_stock', dedupeKey: 'test:back', shopId: shopId!, data: { before: { available: false }, after: { available: true } } },
  ], days(6));
  // A price change of the shop's first product: the recorded events' price changes fall on one product in five, and
  // the demo market (dated today) does not always give the brand's shop such a product.
  const [product] = (await pool.query<{ id: string }>(`SELECT "id" FROM "products" WHERE "shopId" = $1 ORDER BY "id" LIMIT 1`, [shopId])).rows;
  expect(product).toBeDefined();
  await recordEvents(pool, 'demo', [
    { type: 'product.price_changed', dedupeKey: 'test:price', shopId: shopId!, productId: product.id, data: { before: { price: 20, currency: 'USD' }, after: { price: 24, currency: 'USD' } } },
  ], days(5));
  // The newest six ads started at the same instant (a page's start is often a day): the order's tie-breaker, the id,
  // decides, also where a page ends inside them.
  const newest = await pool.query<{ id: string }>(`SELECT "id" FROM "ads" WHERE "advertiserId" = $1 ORDER BY "firstSeenAt" DESC, "id" LIMIT 6`, [page]);
  await pool.query(`UPDATE "ads" SET "firstSeenAt" = (SELECT max("firstSeenAt") FROM "ads" WHERE "advertiserId" = $1) WHERE "id" = ANY($2::text[])`, [page, newest.rows.map((row) => row.id)]);
  // And six inactive ads stopped at the same instant, in the window (their index gives the tie-breaker's order too).
  const stopped = await pool.query<{ id: string }>(`SELECT "id" FROM "ads" WHERE "advertiserId" = $1 AND "status" = 'inactive' ORDER BY "lastSeenAt" DESC, "id" LIMIT 6`, [page]);
  await pool.query(`UPDATE "ads" SET "lastSeenAt" = now() - interval '2 days' WHERE "id" = ANY($1::text[])`, [stopped.rows.map((row) => row.id)]);
  const [started] = await ads('"firstSeenAt" DESC, "id"', `"firstSeenAt" > now() - interval '20 days' AND "id" <> ALL(ARRAY[${recent.map((id) => `'${id}'`).join(', ')}])`);
  await domain(started, null);
}

const DAY = 86_400_000;
const windowOf = (days: number, end = now): Window => ({ from: new Date(end.getTime() - days * DAY), to: end });

/** Both statements' answers, made comparable: instants as ISO strings, rows in section order. */
async function both(subject: Subject, window: Window, sections: readonly Section[], limit: number, offset: number) {
  const request = { subject, window, sections, limit, offset };
  const [after, before] = await Promise.all([findChanges(t.db.pool, request), findChangesBefore(t.db.pool, request)]);
  const rows = (found: typeof after | typeof before) => found.rows.map(({ n: _n, ...row }: typeof found.rows[number] & { n?: unknown }) => ({ ...row, at: new Date(row.at).toISOString() }));
  const order = (list: ReturnType<typeof rows>) => [...list].sort((a, b) => a.section.localeCompare(b.section));
  // A section without changes: counted 0, or not counted (the service reads both as 0).
  const counted = (totals: Partial<Record<Section, number>>) => Object.fromEntries(Object.entries(totals).filter(([, n]) => n));
  return {
    after: { known: after.known, pages: after.pages, shops: after.shops, totals: counted(after.totals), rows: order(rows(after)) },
    before: { known: before.known, pages: before.pages, shops: before.shops, totals: counted(before.totals), rows: order(rows(before)) },
  };
}

describe('the brand diff statement', () => {
  it('answers what the statement over every change of the window answered, for every subject, window, section and page', async () => {
    const subjects: Subject[] = [
      { kind: 'brandtracker', workspaceId, brandtrackerId },
      { kind: 'advertiser', advertiserId: page },
      { kind: 'advertiser', advertiserId: otherPage },
      ...(shopId ? [{ kind: 'shop' as const, shopId }] : []),
    ];
    const windows = [windowOf(30), windowOf(7), windowOf(60), windowOf(0), windowOf(12, new Date(now.getTime() - 9 * DAY - 3_600_000)), windowOf(30, new Date('2001-01-01T00:00:00Z'))];
    const selections: Section[][] = [[...SECTIONS], ...SECTIONS.map((section) => [section]), ['adsStarted', 'newLandingPages'], ['hookChanges', 'priceChanges']];
    const pages = [[10, 0], [3, 2], [50, 0], [5, 40], [1, 0], [2, 1], [1, 4]] as const;
    let items = 0;
    const totals = new Map<Section, number>();
    for (const subject of subjects) {
      for (const window of windows) {
        for (const sections of selections) {
          for (const [limit, offset] of pages) {
            const { after, before } = await both(subject, window, sections, limit, offset);
            expect(after, JSON.stringify({ subject, window, sections, limit, offset })).toEqual(before);
            items += after.rows.length;
            for (const [section, n] of Object.entries(after.totals)) totals.set(section as Section, Math.max(totals.get(section as Section) ?? 0, n ?? 0));
          }
        }
      }
    }
    // The comparison saw items of every section, and pages ending inside the tied ads.
    expect(items).toBeGreaterThan(1000);
    for (const section of SECTIONS) expect(totals.get(section) ?? 0, section).toBeGreaterThan(0);
  });

  it("counts the hook changes from their partial index in the statement's generic plan (the types written as literals)", async () => {
    let statement: { text: string; values: unknown[] } | undefined;
    const capture = { query: async (config: { text: string; values: unknown[] }) => ((statement = config), { rows: [{ found: { known: true, pages: [], shops: [], totals: {}, rows: [] } }] }) };
    await findChanges(capture as never, { subject: { kind: 'brandtracker', workspaceId, brandtrackerId }, window: windowOf(30), sections: [...SECTIONS], limit: 10, offset: 0 });
    const literal = (value: unknown) => (value instanceof Date ? `'${value.toISOString()}'` : typeof value === 'number' ? String(value) : `'${String(value).replace(/'/g, "''")}'`);
    const client = await t.db.pool.connect();
    try {
      await client.query('SET plan_cache_mode = force_generic_plan');
      await client.query('SET enable_seqscan = off');
      await client.query(`PREPARE diff_generic AS ${statement!.text}`);
      const plan = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN EXECUTE diff_generic(${statement!.values.map(literal).join(', ')})`);
      expect(plan.rows.map((row) => row['QUERY PLAN']).join('\n')).toContain('market_events_hook_changes_idx');
    } finally {
      await client.query('DEALLOCATE diff_generic').catch(() => undefined);
      await client.query('RESET plan_cache_mode');
      await client.query('RESET enable_seqscan');
      client.release();
    }
  });

  it('answers a missing brand as unknown, with nothing in it', async () => {
    const missing = await both({ kind: 'brandtracker', workspaceId, brandtrackerId: '00000000-0000-4000-8000-000000000000' }, windowOf(30), [...SECTIONS], 10, 0);
    expect(missing.after).toEqual(missing.before);
    expect(missing.after).toMatchObject({ known: false, pages: [], shops: [], rows: [] });
  });
});
