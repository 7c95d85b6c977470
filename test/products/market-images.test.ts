import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import { TINY_MARKET } from '../support/tiny-market.js';

// The generated market's pictures: every product's featured image is a design the server draws and the index holds,
// and designs are shared across shops as dropshipped items are.

let t: TestApp;
let key: string;
beforeAll(async () => {
  t = await createTestApp(undefined, { market: TINY_MARKET });
  ({ apiKey: key } = await t.newKey());
});
afterAll(() => t?.close());

const one = async <T>(sql: string) => (await t.db.pool.query(sql)).rows[0] as T;

describe('generated product images', () => {
  it('every product has a drawn featured image (its first image) and its fingerprint, stored once per picture', async () => {
    const row = await one<{ products: number; drawn: number; first: number; fingerprinted: number; pictures: number; fingerprints: number }>(`
      SELECT count(*)::int AS products,
             count(*) FILTER (WHERE p."imageUrl" ~ '^/media/products/[0-9]+\\.jpg$')::int AS drawn,
             count(*) FILTER (WHERE i.src = p."imageUrl")::int AS first,
             count(p."imageFingerprintId")::int AS fingerprinted,
             count(DISTINCT p."imageUrl")::int AS pictures,
             (SELECT count(*)::int FROM image_fingerprints) AS fingerprints
      FROM products p LEFT JOIN product_images i ON i."productId" = p.id AND i.position = 1`);
    expect(row.products).toBeGreaterThan(5000);
    expect(row).toEqual({ ...row, drawn: row.products, first: row.products, fingerprinted: row.products, fingerprints: row.pictures });
    expect(row.pictures).toBeLessThan(row.products);
    // One picture, one fingerprint: products showing the same picture point at the same row.
    expect(await one(`SELECT count(*)::int AS n FROM (SELECT "imageUrl" FROM products GROUP BY 1 HAVING count(DISTINCT "imageFingerprintId") <> 1) x`)).toEqual({ n: 0 });
  });

  it('designs are shared by products of several shops, and copies of the served picture (JPEG or PNG, other sizes) find them all', async () => {
    const shared = await one<{ url: string; shops: number; products: number }>(`
      SELECT "imageUrl" AS url, count(DISTINCT "shopId")::int AS shops, count(*)::int AS products
      FROM products GROUP BY 1 HAVING count(DISTINCT "shopId") >= 2 ORDER BY 2 DESC, 1 LIMIT 1`);
    expect(shared.shops).toBeGreaterThanOrEqual(2);
    const served = await t.app.fetch(`http://api.test${shared.url}`);
    expect(served.status).toBe(200);
    const picture = Buffer.from(await served.arrayBuffer());
    const { rows } = await t.db.pool.query(`SELECT DISTINCT "shopId"::text AS id FROM products WHERE "imageUrl" = $1`, [shared.url]);
    const selling = new Set(rows.map((row: { id: string }) => row.id));

    for (const copy of [await sharp(picture).resize(240, 240).jpeg({ quality: 65 }).toBuffer(), await sharp(picture).resize(333, 300, { fit: 'fill' }).png().toBuffer()]) {
      const image = copy.toString('base64');
      const products = await t.rest('POST', '/products/image-search', { key, body: { image, limit: 50 } });
      expect(products.status, JSON.stringify(products.body)).toBe(200);
      const top = products.body.data.slice(0, Math.min(50, shared.products));
      expect(top.every((match: { product: { imageUrl: string } }) => match.product.imageUrl === `http://api.test${shared.url}`)).toBe(true);
      expect(top[0].score).toBeGreaterThanOrEqual(0.9);

      const shops = await t.rest('POST', '/shops/image-search', { key, body: { image, limit: 50 } });
      expect(shops.status).toBe(200);
      const first = shops.body.data.slice(0, Math.min(50, shared.shops)).map((match: { shop: { id: string } }) => match.shop.id);
      expect(first).toHaveLength(Math.min(50, shared.shops));
      expect(first.filter((id: string) => !selling.has(id))).toEqual([]);
    }
  });
});
