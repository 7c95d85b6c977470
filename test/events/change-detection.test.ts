import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importData } from '../../src/data/import/index.js';
import { parseJson } from '../../src/data/import/json.js';
import { dispatchOnce, type EventConsumer } from '../../src/events/index.js';
import type { EventRow } from '../../src/data/events.js';
import { metaAd, type MetaAdRecord } from '../sources/fakes/meta.js';
import { createTestApp, type TestApp } from '../support/app.js';
import * as marketWrites from '../support/market-writes.js';

// Change detection (issue #36): the importers record the events their writes cause in the same transaction (the
// outbox), keyed so that a re-run records nothing twice; the dispatcher hands them out once, in commit order.

let t: TestApp;
let scratch: string;
beforeAll(async () => {
  t = await createTestApp();
  scratch = await mkdtemp(path.join(tmpdir(), 'mi-events-'));
});
afterAll(async () => {
  await t?.close();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

const importMeta = (records: MetaAdRecord[], asOf: Date) => marketWrites.importMetaRecords(t.db.pool, records, asOf);

async function events(where = 'true'): Promise<{ type: string; adId: string | null; advertiserId: string | null; productId: string | null; data: any }[]> {
  const { rows } = await t.db.pool.query(`SELECT "type", "adId", "advertiserId", "productId", "data" FROM "market_events" WHERE ${where} ORDER BY "id"`);
  return rows;
}

const DAY_1 = new Date('2026-11-27T10:00:00Z');
const DAY_2 = new Date('2026-11-28T10:00:00Z');
// Twelve ads of one page that started on day 1 (a burst), and eight older ones of the next page.
const base = Array.from({ length: 20 }, (_, i) => metaAd(i, i < 12 ? { ad_delivery_start_time: '2026-11-27' } : {}));
base.slice(12).forEach((record) => Object.assign(record, { page_id: '555000111', page_name: 'Other Page' }));
for (const record of base) delete record.ad_delivery_stop_time; // all running on day 1
const id = (record: MetaAdRecord) => `facebook_${record.id}`;

describe('Meta: the events of an import', () => {
  beforeAll(async () => {
    await importMeta(base, DAY_1);
  });

  it('records ad.created for each new ad and advertiser.burst for a page that started ten or more on the day', async () => {
    const created = await events(`"type" = 'ad.created'`);
    expect(created.map((e) => e.adId).sort()).toEqual(base.map(id).sort());
    expect(created[0].data.after).toMatchObject({ platform: 'facebook', status: 'active' });
    const bursts = await events(`"type" = 'advertiser.burst'`);
    expect(bursts).toEqual([{ type: 'advertiser.burst', adId: null, advertiserId: String(base[0].page_id), productId: null, data: { before: null, after: { day: '2026-11-27', newAds: 12 } } }]);
  });

  it('records nothing more when the same records are imported again', async () => {
    const before = (await events()).length;
    await importMeta(base, DAY_1);
    expect((await events()).length).toBe(before);
  });

  it('records a stop, a new landing page, new copy and a reach jump the next day, each once', async () => {
    const changed = base.map((record, i) => {
      if (i === 0) return { ...record, ad_delivery_stop_time: '2026-11-28T01:00:00+0000' };
      if (i === 1) return { ...record, ad_creative_link_captions: ['new-landing.example'] };
      if (i === 2) return { ...record, ad_creative_bodies: ['A brand new body'] };
      if (i === 13) return { ...record, eu_total_reach: Number(record.eu_total_reach) * 3 + 20_000 };
      return record;
    });
    const from = (await events()).length;
    await importMeta(changed, DAY_2);
    await importMeta(changed, DAY_2);
    const recorded = (await events()).slice(from);
    expect(recorded.map((e) => [e.type, e.adId]).sort()).toEqual([
      ['ad.copy_changed', id(base[2])],
      ['ad.landing_page_changed', id(base[1])],
      ['ad.reach_jumped', id(base[13])],
      ['ad.stopped', id(base[0])],
    ].sort());
    const jump = recorded.find((e) => e.type === 'ad.reach_jumped')!;
    expect(jump.data.after.reach - jump.data.before.reach).toBe(Number(base[13].eu_total_reach) * 2 + 20_000);
    expect(recorded.find((e) => e.type === 'ad.landing_page_changed')!.data).toEqual({
      before: { landingPageDomain: String((base[1].ad_creative_link_captions as string[])[0]) },
      after: { landingPageDomain: 'new-landing.example' },
    });
  });

  it('records nothing for a batch that is rolled back', async () => {
    const from = (await events()).length;
    await t.db.pool.query(`CREATE FUNCTION fail_ads() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'injected failure'; END $$`);
    await t.db.pool.query(`CREATE TRIGGER fail_ads BEFORE INSERT ON ad_demography FOR EACH ROW EXECUTE FUNCTION fail_ads()`);
    try {
      const summary = await importMeta([metaAd(500), metaAd(501)], DAY_2);
      expect(summary.skipped).toBe(2);
    } finally {
      await t.db.pool.query(`DROP TRIGGER fail_ads ON ad_demography; DROP FUNCTION fail_ads()`);
    }
    expect((await events()).length).toBe(from);
  });
});

describe('Meta: the rank moves of a tracked page', () => {
  const page = '777000111';
  // Twelve running ads of a tracked page, started on day 1 with reach 1,000..12,000: ranked by their 7-day gain (all of
  // their reach), the 12th ad is first and the 3rd and below are out of the top ten.
  const ranked = Array.from({ length: 12 }, (_, i) => {
    const record = metaAd(700 + i, { page_id: page, page_name: 'Tracked Page', ad_delivery_start_time: '2026-11-27', eu_total_reach: (i + 1) * 1000 });
    delete record.ad_delivery_stop_time;
    return record;
  });
  const moves = async () =>
    (await events(`"type" = 'brandtracker.rank_changed' AND "advertiserId" = '${page}'`)).map((e) => [e.adId, e.data.before.rank, e.data.after.rank]);

  it('records an ad moving into or out of the top ten or the first place, only for tracked pages', async () => {
    await importMeta(ranked, DAY_1);
    expect(await moves()).toEqual([]); // no brandtracker follows the page yet
    const tracker = await t.db.pool.query<{ id: string }>(
      `INSERT INTO "brandtrackers" ("id", "facebookPageId", "name") VALUES (gen_random_uuid(), $1, 'Tracked Page') RETURNING "id"`,
      [page],
    );
    // Day 2: the 1st ad (reach 1,000, rank 12) gains 100,000 and takes the first place; the leader drops to 2nd (still
    // in the top: no event for it beyond leaving the first place), and the 10th (rank 10) drops out of the top.
    const day2 = ranked.map((record, i) => (i === 0 ? { ...record, eu_total_reach: 101_000 } : record));
    await importMeta(day2, DAY_2);
    await importMeta(day2, DAY_2);
    expect((await moves()).sort()).toEqual([
      [id(ranked[0]), 12, 1],
      [id(ranked[11]), 1, 2],
      [id(ranked[2]), 10, 11],
    ].sort());
    const [event] = await events(`"type" = 'brandtracker.rank_changed' AND "adId" = '${id(ranked[0])}'`);
    expect(event.data).toEqual({ brandtrackerId: tracker.rows[0].id, top: 10, before: { rank: 12 }, after: { rank: 1, day: '2026-11-28' } });
  });
});

describe('Shopify: the events of a page of products', () => {
  const fixtures = path.resolve(import.meta.dirname, '../fixtures/shopify-products/pages');
  const domain = 'events-shop.example';

  it('records product.created, then a price change and a sell-out the next day', async () => {
    await importData(t.db.pool, 'shopify-products', [fixtures], { asOf: DAY_1, domain });
    const created = await events(`"type" = 'product.created'`);
    expect(created.length).toBeGreaterThan(1);
    const page = parseJson(await readFile(path.join(fixtures, 'products-1.json'), 'utf8')) as { products: { variants: Record<string, unknown>[] }[] }; // 64-bit ids kept exact
    const [first] = page.products;
    first.variants = first.variants.map((variant) => ({ ...variant, price: '99.50', available: false }));
    const file = path.join(scratch, 'products-1.json');
    await writeFile(file, JSON.stringify(page));
    const from = (await events()).length;
    await importData(t.db.pool, 'shopify-products', [file], { asOf: DAY_2, domain });
    const recorded = (await events()).slice(from);
    expect(recorded.map((e) => e.type).sort()).toEqual(['product.out_of_stock', 'product.price_changed']);
    expect(recorded.find((e) => e.type === 'product.price_changed')!.data.after.price).toBe(99.5);
    expect(new Set(recorded.map((e) => e.productId)).size).toBe(1);
  });
});

describe('the dispatcher', () => {
  it('numbers the undispatched events in order, hands each out once, and rolls back with a failing consumer', async () => {
    const seen: EventRow[] = [];
    const consumer: EventConsumer = { name: 'test', consume: async (_client, rows) => void seen.push(...rows) };
    const waiting = Number((await t.db.pool.query(`SELECT count(*) FROM "market_events" WHERE "seq" IS NULL`)).rows[0].count);
    expect(waiting).toBeGreaterThan(0);

    const failing: EventConsumer = { name: 'failing', consume: async () => { throw new Error('consumer down'); } };
    await expect(dispatchOnce(t.db.pool, [consumer, failing], 5)).rejects.toThrow('consumer down');
    seen.length = 0;
    expect(Number((await t.db.pool.query(`SELECT count(*) FROM "market_events" WHERE "seq" IS NULL`)).rows[0].count)).toBe(waiting);

    let n: number;
    while ((n = await dispatchOnce(t.db.pool, [consumer], 7)) > 0) expect(n).toBeLessThanOrEqual(7);
    expect(seen.length).toBe(waiting);
    const seqs = seen.map((row) => Number(row.seq));
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(new Set(seqs).size).toBe(seqs.length);
    const ids = seen.map((row) => Number(row.id));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(await dispatchOnce(t.db.pool, [consumer])).toBe(0);
  });
});
