import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importData, type ImportSummary } from '../../src/data/import/index.js';
import { parseJson } from '../../src/data/import/json.js';
import { plainText, shopDomain, shopIdOf } from '../../src/data/import/shopify-products.js';
import { createCliHarness, type CliHarness } from '../support/cli.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';

// The shopify-products importer against hand-made storefront products.json pages (test/fixtures/shopify-products),
// read back with SQL: no route serves shops or products yet.
//   pages/products-1.json  4 records: Tidal Mug (3 variants, options Color and Size, images out of order), Ember Vase
//                          (on sale, tags as text, the default Title option, a protocol-relative image), at position 2
//                          a record without an id, Glaze Bowl Set (ids above 2^53, vendor Oak & Ash).
//   pages/products-2.json  3 records: Linen Napkins (2 variants, 2 images), at position 1 a price that is not a number,
//                          Stoneware Plate (no images, no body, tags as text with a repeat, compare_at_price 0.00).
//   later/products-2.json  the same page later: Linen Napkins on sale, its Rust variant and image gone, a Sage variant.

const fixtures = path.resolve(import.meta.dirname, '../fixtures/shopify-products');
const PAGES = path.join(fixtures, 'pages');
const PAGE_1 = path.join(PAGES, 'products-1.json');
const PAGE_2 = path.join(PAGES, 'products-2.json');
const LATER = path.join(fixtures, 'later/products-2.json');
const DOMAIN = 'lumenceramics.com';
const SHOP = 'ff930908-32e3-50cf-8c77-9eb2909c1947'; // uuid5(NAMESPACE_URL, 'https://lumenceramics.com')
const AS_OF = new Date('2026-11-22T10:00:00Z');
const TABLES = ['shops', 'products', 'product_variants', 'product_images'];

let db: TestDatabase;
let scratch: string;
beforeAll(async () => {
  db = await createTestDatabase();
  scratch = await mkdtemp(path.join(tmpdir(), 'mi-import-shopify-'));
});
afterAll(async () => {
  await db?.dispose();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

const run = (paths: string[], domain = DOMAIN) => importData(db.pool, 'shopify-products', paths, { asOf: AS_OF, domain });
const sql = async <T = any>(text: string, params: unknown[] = []) => (await db.pool.query(text, params)).rows as T[];
const positions = (summary: ImportSummary) => summary.errors.map((e) => [path.basename(e.file), e.position]);

/** One digest per table of every row's text, so any changed value shows. */
async function checksums(where: Record<string, string> = {}): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const table of TABLES) {
    const [row] = await sql<{ sum: string | null; n: number }>(
      `SELECT md5(string_agg(r::text, '|' ORDER BY r::text)) AS sum, count(*)::int AS n FROM "${table}" r WHERE ${where[table] ?? 'true'}`,
    );
    out[table] = `${row.n}:${row.sum}`;
  }
  return out;
}

const product = async (shopifyId: string) => (await sql(`SELECT * FROM products WHERE id = $1`, [`${SHOP}:${shopifyId}`]))[0];
const variants = (shopifyId: string) =>
  sql(
    `SELECT "shopifyId", title, sku, available, price, "compareAtPrice", position, option1, option2, option3
     FROM product_variants WHERE "productId" = $1 ORDER BY position`,
    [`${SHOP}:${shopifyId}`],
  );
const images = (shopifyId: string) =>
  sql(`SELECT "shopifyId", src, width, height, position FROM product_images WHERE "productId" = $1 ORDER BY position`, [`${SHOP}:${shopifyId}`]);

describe('import shopify-products', () => {
  let first: ImportSummary;
  beforeAll(async () => {
    first = await run([PAGES]);
  });

  it('imports a folder of products.json pages and reports each bad record with file, position and reason', () => {
    expect(first).toEqual({
      read: 7,
      inserted: 5,
      updated: 0,
      skipped: 2,
      errors: [
        { file: PAGE_1, position: 2, reason: 'id is missing' },
        { file: PAGE_2, position: 1, reason: 'variants[0].price must be a decimal amount like "19.99", got "from 25"' },
      ],
    });
  });

  it('creates the shop: a UUID v5 of its URL, named after its main vendor, dated by its oldest product, counting its products', async () => {
    const shops = await sql(`SELECT id, domain, name, currency, "productsCount", "createdAt", categories FROM shops`);
    expect(shops).toEqual([
      { id: SHOP, domain: DOMAIN, name: 'Lumen Ceramics', currency: null, productsCount: 5, createdAt: new Date('2025-11-18T12:00:00Z'), categories: [] },
    ]);
    expect(shopIdOf(DOMAIN)).toBe(SHOP);
  });

  it('maps a product with options and three variants: url, plain-text description, first image, first variant price', async () => {
    expect(await product('7412345678901')).toMatchObject({
      id: `${SHOP}:7412345678901`,
      shopId: SHOP,
      shopifyId: '7412345678901',
      title: 'Tidal Mug',
      handle: 'tidal-mug',
      url: 'https://lumenceramics.com/products/tidal-mug',
      description: 'Hand-thrown stoneware mug with a reactive glaze.\nDishwasher & microwave safe\nMade in Porto',
      imageUrl: 'https://cdn.shopify.com/s/files/1/0612/3456/7890/products/tidal-mug-sand.jpg?v=1709329260',
      vendor: 'Lumen Ceramics',
      productType: 'Mugs',
      tags: ['coffee', 'glaze', 'stoneware'],
      optionNames: ['Color', 'Size'],
      publishedAt: new Date('2026-03-02T14:15:00Z'),
      createdAt: new Date('2026-03-01T21:40:12Z'),
      updatedAt: new Date('2026-10-20T15:02:33Z'),
      currency: 'USD',
      price: '28.00',
      compareAtPrice: null,
      priceUsd: '28.00',
      isSubscription: false,
      promoTypes: [],
      bestSellerPosition: null,
      monthlyRevenueUsd: 0,
      activeAds: 0,
    });
    expect(await variants('7412345678901')).toEqual([
      { shopifyId: '42123456789001', title: 'Sand / 12 oz', sku: 'TM-SAND-12', available: true, price: '28.00', compareAtPrice: null, position: 1, option1: 'Sand', option2: '12 oz', option3: null },
      { shopifyId: '42123456789002', title: 'Sand / 16 oz', sku: 'TM-SAND-16', available: false, price: '32.00', compareAtPrice: null, position: 2, option1: 'Sand', option2: '16 oz', option3: null },
      { shopifyId: '42123456789003', title: 'Slate / 12 oz', sku: null, available: true, price: '28.00', compareAtPrice: null, position: 3, option1: 'Slate', option2: '12 oz', option3: null },
    ]);
    expect(await images('7412345678901')).toEqual([
      { shopifyId: '33123456789011', src: 'https://cdn.shopify.com/s/files/1/0612/3456/7890/products/tidal-mug-sand.jpg?v=1709329260', width: 2048, height: 2048, position: 1 },
      { shopifyId: '33123456789012', src: 'https://cdn.shopify.com/s/files/1/0612/3456/7890/products/tidal-mug-slate.jpg?v=1709329260', width: 1600, height: 1600, position: 2 },
    ]);
  });

  it('maps a product on sale, tags given as text and a product without options', async () => {
    expect(await product('7412345678902')).toMatchObject({
      description: 'Tall vase in a smoky “ember” glaze – 30 cm.',
      imageUrl: 'https://lumenceramics.com/cdn/shop/products/ember-vase.jpg?v=1715278860',
      tags: ['vase', 'sale', 'Home Decor'],
      optionNames: [],
      price: '45.00',
      compareAtPrice: '60.00',
      priceUsd: '45.00',
      promoTypes: ['percent-off'],
    });
    expect(await product('7412345678907')).toMatchObject({
      description: '',
      imageUrl: null,
      tags: ['plates', 'dinnerware'],
      price: '22.00',
      compareAtPrice: null, // compare_at_price "0.00" is no sale
      promoTypes: [],
      publishedAt: new Date('2025-11-20T12:00:00Z'),
    });
    expect((await variants('7412345678907'))[0]).toMatchObject({ title: 'Default Title', price: '22.00', compareAtPrice: '0.00' });
  });

  it('keeps ids above 2^53 exact, and takes the price of the first variant only', async () => {
    expect(await product('9007199254740993')).toMatchObject({
      shopifyId: '9007199254740993',
      vendor: 'Oak & Ash',
      description: 'Set of four\nNesting bowls.\nOven safe to 220°C.',
      price: '39.00',
      compareAtPrice: null, // equal to the price; the second variant's sale is not the product's
      promoTypes: [],
    });
    expect((await variants('9007199254740993')).map((v) => [v.shopifyId, v.price, v.compareAtPrice])).toEqual([
      ['9007199254741001', '39.00', '39.00'],
      ['9007199254741003', '54.50', '65.00'],
    ]);
    expect((await images('9007199254740993')).map((i) => i.shopifyId)).toEqual(['9007199254742001']);
    expect(await sql(`SELECT count(*)::int AS n FROM products WHERE "shopifyId" IN ('7412345678906', '9007199254740992')`)).toEqual([{ n: 0 }]);
  });

  it('changes nothing when the same files are imported again', async () => {
    const before = await checksums();
    expect(await run([PAGES])).toEqual({ ...first, inserted: 0, updated: 0 });
    expect(await checksums()).toEqual(before);
  });

  it('updates a changed product and replaces its variants and images, leaving the other rows alone', async () => {
    const napkins = `${SHOP}:7412345678905`;
    const others = { products: `r.id <> '${napkins}'`, product_variants: `r."productId" <> '${napkins}'`, product_images: `r."productId" <> '${napkins}'` };
    const before = await checksums(others);
    expect(await run([LATER])).toEqual({ read: 3, inserted: 0, updated: 1, skipped: 1, errors: [expect.objectContaining({ file: LATER, position: 1 })] });
    expect(await checksums(others)).toEqual(before);
    expect(await product('7412345678905')).toMatchObject({
      price: '15.00',
      compareAtPrice: '18.00',
      promoTypes: ['percent-off'],
      tags: ['linen', 'table', 'sale'],
      updatedAt: new Date('2026-11-10T14:30:00Z'),
      imageUrl: 'https://cdn.shopify.com/s/files/1/0612/3456/7890/products/napkins-natural.jpg?v=1722634260',
    });
    expect((await variants('7412345678905')).map((v) => [v.shopifyId, v.title, v.price, v.compareAtPrice, v.available])).toEqual([
      ['42123456789050', 'Natural', '15.00', '18.00', true],
      ['42123456789052', 'Sage', '18.00', null, false],
    ]);
    expect((await images('7412345678905')).map((i) => i.shopifyId)).toEqual(['33123456789050']);

    expect(await run([LATER])).toMatchObject({ inserted: 0, updated: 0 });
    // The earlier version puts the Rust variant and its image back.
    expect(await run([PAGE_2])).toMatchObject({ read: 3, inserted: 0, updated: 1, skipped: 1 });
    expect((await variants('7412345678905')).map((v) => v.shopifyId)).toEqual(['42123456789050', '42123456789051']);
    expect((await images('7412345678905')).map((i) => i.shopifyId)).toEqual(['33123456789050', '33123456789051']);
  });

  it('never half-applies a file: a database error rolls the whole file back and the next file still imports', async () => {
    await db.pool.query(`CREATE FUNCTION fail_on_broken() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.src LIKE '%broken%' THEN RAISE EXCEPTION 'injected failure'; END IF; RETURN NEW; END $$`);
    await db.pool.query(`CREATE TRIGGER fail_on_broken BEFORE INSERT OR UPDATE ON product_images FOR EACH ROW EXECUTE FUNCTION fail_on_broken()`);
    try {
      const page = parseJson(await readFile(PAGE_1, 'utf8')) as { products: Record<string, any>[] }; // keeps the ids above 2^53 exact
      page.products[0].title = 'Tidal Mug II'; // an update
      page.products[0].variants.pop(); // a variant deleted
      page.products[1].images[0].src = 'https://cdn.shopify.com/broken.jpg'; // the image write fails
      page.products.push({ ...page.products[1], id: 7412345678908, handle: 'ember-vase-mini', images: [] }); // a new product
      const failing = path.join(scratch, 'a-failing.json');
      await writeFile(failing, JSON.stringify(page));
      const good = path.join(scratch, 'b-good.json');
      await writeFile(good, JSON.stringify({ products: [{ ...page.products[4], id: 7412345678909, handle: 'ember-vase-maxi' }] }));

      const before = await checksums();
      const summary = await run([failing]);
      expect(summary).toMatchObject({ read: 5, inserted: 0, updated: 0, skipped: 5 });
      expect(summary.errors.at(-1)).toEqual({ file: failing, position: null, reason: expect.stringMatching(/rolled back: .*injected failure/) });
      expect(await checksums()).toEqual(before);

      expect(await run([failing, good])).toMatchObject({ read: 6, inserted: 1, updated: 0, skipped: 5 });
      expect((await product('7412345678909'))?.url).toBe('https://lumenceramics.com/products/ember-vase-maxi');
      expect(await product('7412345678908')).toBeUndefined();
      expect((await product('7412345678901')).title).toBe('Tidal Mug');
      expect(await variants('7412345678901')).toHaveLength(3);
      expect(await sql(`SELECT "productsCount" FROM shops WHERE id = $1`, [SHOP])).toEqual([{ productsCount: 6 }]);
    } finally {
      await db.pool.query('DROP TRIGGER fail_on_broken ON product_images');
      await db.pool.query('DROP FUNCTION fail_on_broken()');
    }
  });

  it('uses a stored shop found by its domain: its id, name and currency (prices converted to USD)', async () => {
    await db.pool.query(
      `INSERT INTO shops (id, domain, name, categories, currency, "createdAt", "productsCount")
       VALUES ('2f0a6a4e-1c1e-4c57-9d61-8c0f6f1b2a10', 'atelier-sud.fr', 'Atelier Sud', '{}', 'EUR', '2026-01-01T00:00:00Z', 0)`,
    );
    expect(await run([PAGES], 'https://www.Atelier-Sud.fr/collections/all')).toMatchObject({ read: 7, inserted: 5, updated: 0, skipped: 2 });
    const rows = await sql(
      `SELECT "shopifyId", currency, price, "priceUsd", url FROM products WHERE "shopId" = '2f0a6a4e-1c1e-4c57-9d61-8c0f6f1b2a10' ORDER BY "shopifyId"`,
    );
    expect(rows.map((r) => [r.shopifyId, r.currency, r.price, r.priceUsd])).toEqual([
      ['7412345678901', 'EUR', '28.00', '31.64'],
      ['7412345678902', 'EUR', '45.00', '50.85'],
      ['7412345678905', 'EUR', '18.00', '20.34'],
      ['7412345678907', 'EUR', '22.00', '24.86'],
      ['9007199254740993', 'EUR', '39.00', '44.07'],
    ]);
    expect(rows[0].url).toBe('https://atelier-sud.fr/products/tidal-mug');
    expect(await sql(`SELECT name, "productsCount", "createdAt" FROM shops WHERE domain = 'atelier-sud.fr'`)).toEqual([
      { name: 'Atelier Sud', productsCount: 5, createdAt: new Date('2025-11-18T12:00:00Z') },
    ]);
  });
});

describe('shopify-products readers', () => {
  it('reads body_html as plain text', () => {
    expect(plainText('<div><p>One&nbsp;&amp; two</p><p>Three<br/>four &#x2013; &#233;t&eacute; &bogus;</p><script>x()</script><!-- c --></div>')).toBe(
      'One & two\nThree\nfour – été &bogus;',
    );
  });

  it('normalises the shop domain', () => {
    expect(['https://www.Shop.com/', 'shop.com', 'SHOP.com.', 'http://shop.com/products.json?page=2', 'bücher.de'].map(shopDomain)).toEqual([
      'shop.com', 'shop.com', 'shop.com', 'shop.com', 'xn--bcher-kva.de',
    ]);
    expect(['', 'localhost', 'not a domain', 'me@shop.com', '127.0.0.1'].map(shopDomain)).toEqual([null, null, null, null, null]);
  });

  it('refuses an import without a domain', async () => {
    await expect(importData(db.pool, 'shopify-products', [PAGES])).rejects.toThrow(/needs the shop's domain/);
  });
});

describe('cli import shopify-products', () => {
  let harness: CliHarness;
  beforeAll(async () => {
    harness = await createCliHarness();
  });
  afterAll(async () => {
    await harness?.close();
  });

  it('imports with --domain and prints exactly one JSON summary', async () => {
    const res = await harness.cli('import', 'shopify-products', PAGES, '--domain', DOMAIN);
    expect(res.code, res.stdout).toBe(0);
    expect(res.stdout.trim().split('\n')).toHaveLength(1);
    expect(res.json).toMatchObject({ read: 7, inserted: 5, updated: 0, skipped: 2 });
    expect((await harness.db.pool.query(`SELECT "productsCount" FROM shops WHERE domain = $1`, [DOMAIN])).rows).toEqual([{ productsCount: 5 }]);
  });

  it('answers a missing or malformed --domain, or --domain with another format, with a validation error', async () => {
    const cases: [string[], RegExp][] = [
      [['import', 'shopify-products', PAGES], /--domain is required/],
      [['import', 'shopify-products', PAGES, '--domain', 'not a domain'], /--domain must be the shop's domain/],
      [['import', 'meta-ads', PAGES, '--domain', DOMAIN], /--domain applies to shopify-products only/],
    ];
    for (const [args, message] of cases) {
      const res = await harness.cli(...args);
      expect(res.code, res.stdout).toBe(2);
      expect(res.json.error).toEqual({ code: 'validation_error', message: expect.stringMatching(message) });
    }
  });
});
