import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { shopIdOf } from '../../src/data/import/shopify-products.js';
import { syncSource } from '../../src/sources/index.js';
import { startServer, type FakeServer } from './fakes/server.js';
import { shopifyProduct, startFakeShopify, type FakeShopify, type FakeShopifyOptions } from './fakes/shopify.js';
import { checksums, fakeServers, FAST, progressLog, runFigures, sourceEnv } from './helpers.js';
import { createTestApp, type TestApp } from '../support/app.js';

// The shopify connector against the loopback storefront fake: several stores paged 250 at a time to the empty page,
// one request in flight and SHOPIFY_DELAY_MS between two, conditional pages (304: nothing written), stores that
// refuse marked and left out until their retry time, and the stores workspaces track. Read back through
// GET /v1/shops/{shopId}/products and the stored rows.

const DELAY_MS = 40;
const TABLES = ['shops', 'products', 'product_variants', 'product_images'];

let t: TestApp;
let key: string;
beforeAll(async () => {
  t = await createTestApp();
  ({ apiKey: key } = await t.newKey());
});
afterAll(() => t?.close());

const env = sourceEnv();
const fakes = fakeServers();

const products = (from: number, count: number, overrides: (i: number) => Record<string, unknown> = () => ({})) =>
  ({ count, make: (i: number) => shopifyProduct(from + i, overrides(from + i)) });

async function fake(options: FakeShopifyOptions, delayMs = 0): Promise<FakeShopify> {
  const shopify = await fakes.track(startFakeShopify(options));
  env({ SHOPIFY_STORE_URL: shopify.storeUrlTemplate, SHOPIFY_DELAY_MS: String(delayMs) });
  return shopify;
}

const sync = (query: unknown, options: Parameters<typeof syncSource>[3] = {}) => syncSource(t.db.pool, 'shopify', query, { http: FAST, ...options });
const pagesAsked = (shopify: FakeShopify, domain: string) => shopify.requestsFor(domain).map((request) => Number(request.query.get('page')));
const state = async (domain: string) =>
  (await t.db.pool.query(`SELECT "state", "lastStatus", "failures", "retryAt", "validators" FROM "shop_fetch_states" WHERE "domain" = $1`, [domain])).rows[0];

describe('shopify: several stores, paged, one request at a time', () => {
  const stores = ['alpha.example.com', 'beta.example.com', 'gamma.example.com'];
  let shopify: FakeShopify;

  beforeAll(async () => {
    shopify = await fakes.track(startFakeShopify({
      latencyMs: 15,
      stores: {
        'alpha.example.com': { products: products(0, 600), etag: true, lastModified: true },
        'beta.example.com': { products: products(1000, 250), etag: true },
        'gamma.example.com': { products: [], lastModified: true },
      },
    }));
  });
  beforeEach(() => env({ SHOPIFY_STORE_URL: shopify.storeUrlTemplate, SHOPIFY_DELAY_MS: String(DELAY_MS) }));

  it('pages each store 250 at a time to its empty page, one request in flight, SHOPIFY_DELAY_MS apart', async () => {
    const log = progressLog();
    const run = await sync({ domains: ['https://www.Alpha.example.com/', 'beta.example.com', 'gamma.example.com', 'beta.example.com'] }, log.options);
    expect(runFigures(run)).toEqual({ status: 'succeeded', pages: 7, fetched: 850, inserted: 850, updated: 0, unchanged: 0, skipped: 0 });
    // A store is done once its last page (the empty one) is stored: alpha's 4 pages, beta's 2, gamma's 1.
    expect(log.events).toEqual(['page 1', 'page 2', 'page 3', 'page 4', '1/3', 'page 5', 'page 6', '2/3', 'page 7', '3/3']);
    expect(pagesAsked(shopify, 'alpha.example.com')).toEqual([1, 2, 3, 4]);
    expect(pagesAsked(shopify, 'beta.example.com')).toEqual([1, 2]);
    expect(pagesAsked(shopify, 'gamma.example.com')).toEqual([1]);
    expect(shopify.requests.every((request) => request.query.get('limit') === '250')).toBe(true);

    for (const domain of stores) expect(shopify.maxInFlight(domain)).toBe(1);
    expect(shopify.maxInFlight()).toBe(1);
    for (const domain of stores) {
      const times = shopify.requestsFor(domain).map((request) => request.at);
      for (let i = 1; i < times.length; i++) expect(times[i] - times[i - 1]).toBeGreaterThanOrEqual(DELAY_MS - 10);
    }

    const alpha = await t.rest('GET', `/shops/${shopIdOf('alpha.example.com')}/products?limit=5&sortBy=createdAt`, { key });
    expect(alpha.status, JSON.stringify(alpha.body)).toBe(200);
    expect(alpha.body.pagination.total).toBe(600);
    expect(alpha.body.data[0].productUrl).toMatch(/^https:\/\/alpha\.example\.com\/products\//);
    const beta = await t.rest('GET', `/shops/${shopIdOf('beta.example.com')}/products?limit=1`, { key });
    expect(beta.body.pagination.total).toBe(250);
    const { rows } = await t.db.pool.query(`SELECT "domain", "state", "lastStatus", "retryAt", "validators" FROM "shop_fetch_states" ORDER BY 1`);
    expect(rows.map((row) => [row.domain, row.state, row.lastStatus, row.retryAt, Object.keys(row.validators)])).toEqual([
      ['alpha.example.com', 'ok', 200, null, ['1', '2', '3', '4']],
      ['beta.example.com', 'ok', 200, null, ['1', '2']],
      ['gamma.example.com', 'ok', 200, null, ['1']],
    ]);
  });

  it('asks again conditionally: every page answers 304, nothing is written, the products count as unchanged', async () => {
    const before = await checksums(t.db.pool, TABLES);
    const asked = shopify.requests.length;
    const run = await sync({ domains: stores });
    expect(runFigures(run)).toEqual({ status: 'succeeded', pages: 7, fetched: 0, inserted: 0, updated: 0, unchanged: 850, skipped: 0 });
    expect(await checksums(t.db.pool, TABLES)).toEqual(before);
    const again = shopify.requests.slice(asked);
    expect(again).toHaveLength(7);
    for (const request of again.filter((r) => !r.path.startsWith('/gamma'))) expect(request.headers['if-none-match']).toMatch(/^"[0-9a-f]+"$/);
    expect(shopify.requestsFor('gamma.example.com')[1].headers['if-modified-since']).toEqual(expect.any(String));
  });

  it('fetches only the store whose products changed', async () => {
    shopify.setProducts('beta.example.com', products(1000, 250, (i) => (i < 1010 ? { title: `Renamed ${i}` } : {})));
    const run = await sync({ domains: stores });
    expect(runFigures(run)).toEqual({ status: 'succeeded', pages: 7, fetched: 250, inserted: 0, updated: 10, unchanged: 850 - 10, skipped: 0 });
    const renamed = await t.db.pool.query(`SELECT count(*)::int AS n FROM "products" WHERE "title" LIKE 'Renamed %'`);
    expect(renamed.rows[0].n).toBe(10);
  });
});

describe('shopify: stores that refuse or fail', () => {
  it('marks a store answering 430, 404 or 401 with a retry time, leaves it out on the next run, asks it again with force', async () => {
    const shopify = await fake({
      stores: {
        'blocked.example.com': { products: [], status: 430 },
        'gone.example.com': { products: [], status: 404 },
        'locked.example.com': { products: [], status: 401 },
        'open.example.com': { products: products(2000, 3) },
      },
    });
    const domains = ['blocked.example.com', 'gone.example.com', 'locked.example.com', 'open.example.com'];
    const refused = domains.slice(0, 3);
    const first = await sync({ domains });
    expect(runFigures(first)).toMatchObject({ status: 'succeeded', inserted: 3 });
    expect(first.skips).toEqual({
      'store refused (HTTP 430), marked to retry later': 1, 'store refused (HTTP 404), marked to retry later': 1, 'store refused (HTTP 401), marked to retry later': 1,
    });
    const hour = 3_600_000;
    for (const [domain, kind, status] of [['blocked.example.com', 'blocked', 430], ['gone.example.com', 'gone', 404], ['locked.example.com', 'closed', 401]] as const) {
      const row = await state(domain);
      expect(row).toMatchObject({ state: kind, lastStatus: status, failures: 1 });
      expect(Math.abs(row.retryAt.getTime() - Date.now() - hour)).toBeLessThan(60_000);
      expect(shopify.requestsFor(domain)).toHaveLength(1);
    }

    const log = progressLog();
    const second = await sync({ domains }, log.options);
    expect(second.status).toBe('succeeded');
    // The stores left out count as done: the open store's two pages (its products, then the empty one) come after them.
    expect(log.events).toEqual(['1/4', '2/4', '3/4', 'page 1', 'page 2', '4/4']);
    expect(second.skips).toEqual({
      'store left out until its retry time (blocked)': 1, 'store left out until its retry time (gone)': 1, 'store left out until its retry time (closed)': 1,
    });
    for (const domain of refused) expect(shopify.requestsFor(domain)).toHaveLength(1);
    expect(shopify.requestsFor('open.example.com')).toHaveLength(4);

    const forced = await sync({ domains, force: true });
    expect(forced.status).toBe('succeeded');
    for (const domain of refused) {
      expect(shopify.requestsFor(domain)).toHaveLength(2);
      const row = await state(domain);
      expect(row.failures).toBe(2);
      expect(Math.abs(row.retryAt.getTime() - Date.now() - 2 * hour)).toBeLessThan(60_000);
    }
  });

  it('keeps SHOPIFY_DELAY_MS before a retry too', async () => {
    // A longer gap than the others, and a margin for the time the requests take to arrive on a busy machine: a retry
    // after the backoff alone comes within 10 ms.
    const gap = 150;
    const shopify = await fake({ stores: { 'shaky.example.com': { products: products(2100, 2), faults: [{ at: 1, fault: { kind: 'status', status: 503 } }] } } }, gap);
    const run = await sync({ domains: ['shaky.example.com'] });
    expect(runFigures(run)).toMatchObject({ status: 'succeeded', inserted: 2 });
    expect(run.waits).toBe(1);
    const [failed, retried] = shopify.requestsFor('shaky.example.com');
    expect(Number(retried.query.get('page'))).toBe(1);
    expect(retried.at - failed.at).toBeGreaterThanOrEqual(gap - 40);
  });

  it('ends a store that answers JSON without a product list, reporting it, and goes on', async () => {
    const other: FakeServer = await fakes.track(startServer((request) =>
      request.path.startsWith('/odd.example.com/')
        ? { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ message: 'this site answers every path' }) }
        : { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ products: request.query.get('page') === '1' ? [shopifyProduct(2200)] : [] }) },
    ));
    env({ SHOPIFY_STORE_URL: `${other.url}/{domain}`, SHOPIFY_DELAY_MS: '0' });
    const run = await sync({ domains: ['odd.example.com', 'plain.example.com'] });
    expect(runFigures(run)).toMatchObject({ status: 'succeeded', inserted: 1 });
    expect(run.errors).toEqual([{ page: 'odd.example.com page 1', position: null, reason: 'not a products.json page: expected { "products": [ … ] }' }]);
    expect(other.requests.map((request) => request.path)).toEqual(['/odd.example.com/products.json', '/plain.example.com/products.json', '/plain.example.com/products.json']);
    expect(await state('odd.example.com')).toBeUndefined();
  });
});

describe('shopify: the stores tracked', () => {
  it('asks the shops of active brandtracker links and SHOPIFY_DOMAINS when no domains are given', async () => {
    const shops = ['tracked-one.example.com', 'tracked-two.example.com', 'untracked.example.com'];
    for (const domain of shops) {
      await t.db.pool.query(`INSERT INTO "shops" ("id", "domain", "name", "categories") VALUES ($1, $2, $3, '{}')`, [shopIdOf(domain), domain, domain.split('.')[0]]);
    }
    const one = await t.rest('POST', '/brandtrackers', { key, body: { domain: 'tracked-one.example.com' } });
    expect(one.status, JSON.stringify(one.body)).toBe(200);
    const two = await t.rest('POST', '/brandtrackers', { key, body: { domain: 'https://www.tracked-two.example.com/' } });
    expect(two.status, JSON.stringify(two.body)).toBe(200);
    expect((await t.rest('DELETE', `/brandtrackers/${two.body.data.id}`, { key })).status).toBe(200);

    const stores = Object.fromEntries([...shops, 'listed.example.com'].map((domain, i) => [domain, { products: products(2300 + i * 10, 2) }]));
    const shopify = await fake({ stores });
    env({ SHOPIFY_STORE_URL: shopify.storeUrlTemplate, SHOPIFY_DELAY_MS: '0', SHOPIFY_DOMAINS: 'listed.example.com, Tracked-One.example.com' });
    const run = await sync({});
    expect(runFigures(run)).toMatchObject({ status: 'succeeded', inserted: 4 });
    const asked = [...new Set(shopify.requests.map((request) => request.path.split('/')[1]))];
    expect(asked).toEqual(['listed.example.com', 'tracked-one.example.com']);
  });
});
