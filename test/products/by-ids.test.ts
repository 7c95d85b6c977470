import { beforeAll, describe, expect, it } from 'vitest';
import { Prisma } from '../../src/generated/prisma/client.js';
import { inlineProducts, isProductSelection, productsByIds } from '../../src/schema/products/service/by-ids.js';
import { PRODUCT_INCLUDE } from '../../src/schema/products/types.js';
import type { TestDatabase } from '../support/database.js';
import { byId, useTinyMarket } from '../support/tiny-market.js';

// The products of a page are loaded by one JSON statement when the request selects no more than the product object
// type includes (src/schema/products/service/by-ids.ts): it must give exactly what Prisma gives, value for value and type for
// type, on every product of the synthetic market (decimal prices, dates, reaches, JSON lists, weeks in order, shops).

const INCLUDE = { include: PRODUCT_INCLUDE };

const market = useTinyMarket('product');
let db: TestDatabase;
let ids: string[];
beforeAll(() => void ({ db, ids } = market));

describe('productsByIds', () => {
  it('loads every product of the market exactly as Prisma does, with its weeks and shop', async () => {
    expect(ids.length).toBeGreaterThan(500);
    // The market holds what the comparison must cover: products with and without weeks, a compare-at price, EU reach.
    expect(await db.prisma.productWeek.count()).toBeGreaterThan(0);
    expect(await db.prisma.product.count({ where: { weeks: { none: {} } } })).toBeGreaterThan(0);
    expect(await db.prisma.product.count({ where: { compareAtPrice: { not: null } } })).toBeGreaterThan(0);
    expect(await db.prisma.product.count({ where: { compareAtPrice: null } })).toBeGreaterThan(0);
    expect(await db.prisma.product.count({ where: { euReach: { gt: 0 } } })).toBeGreaterThan(0);
    for (let i = 0; i < ids.length; i += 500) {
      const chunk = ids.slice(i, i + 500);
      const expected = await db.prisma.product.findMany({ where: { id: { in: chunk } }, ...INCLUDE, orderBy: { id: 'asc' } });
      const loaded = byId(await productsByIds(db.prisma, chunk, INCLUDE));
      expect(loaded).toStrictEqual(expected);
    }
  });

  it('loads the same rows inline, for the ids of a subquery (the products list loads its page so)', async () => {
    const inline = inlineProducts(INCLUDE)!;
    const chunk = ids.slice(0, 300);
    const [{ json }] = await db.prisma.$queryRaw<{ json: string }[]>`SELECT ${inline.inline(Prisma.sql`SELECT unnest(${chunk}::text[])`)} AS json`;
    const expected = await db.prisma.product.findMany({ where: { id: { in: chunk } }, ...INCLUDE, orderBy: { id: 'asc' } });
    expect(byId(inline.parse(json))).toStrictEqual(expected);
    expect(inlineProducts({ include: { variants: true } })).toBeUndefined();
  });

  it('gives Prisma types: prices as Decimal, dates as Date, reaches as bigint, weeks oldest first', async () => {
    const [withWeeks] = await db.prisma.product.findMany({ where: { weeks: { some: {} }, compareAtPrice: { not: null } }, select: { id: true }, take: 1 });
    const [product] = await productsByIds(db.prisma, [withWeeks.id], INCLUDE);
    expect(product.price).toBeInstanceOf(Prisma.Decimal);
    expect(product.compareAtPrice!.gt(0)).toBe(true);
    expect(product.createdAt).toBeInstanceOf(Date);
    expect(typeof product.euReach).toBe('bigint');
    expect(product.shop.createdAt).toBeInstanceOf(Date);
    expect(product.weeks.length).toBeGreaterThan(1);
    expect(product.weeks[0].weekStart).toBeInstanceOf(Date);
    const starts = product.weeks.map((week) => week.weekStart.getTime());
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
  });

  it('reads NULL list and decimal columns as Prisma does', async () => {
    const [id] = ids;
    await db.pool.query(`UPDATE products SET "tags" = NULL, "categoryIds" = NULL, "compareAtPrice" = NULL, "publishedAt" = NULL WHERE id = $1`, [id]);
    const [loaded] = await productsByIds(db.prisma, [id], INCLUDE);
    expect(loaded.tags).toEqual([]);
    expect(loaded.compareAtPrice).toBeNull();
    expect(loaded).toStrictEqual(await db.prisma.product.findUniqueOrThrow({ where: { id }, ...INCLUDE }));
  });

  it('serves a narrower selection from the same statement, and a wider one from Prisma', async () => {
    const [narrow] = await productsByIds(db.prisma, [ids[1]], {});
    expect(narrow).toMatchObject(await db.prisma.product.findUniqueOrThrow({ where: { id: ids[1] } }));
    const [wide] = await productsByIds(db.prisma, [ids[1]], { include: { variants: true } });
    expect((wide as typeof wide & { variants: unknown[] }).variants).toEqual(expect.any(Array));
  });

  it('answers no ids with no rows', async () => {
    expect(await productsByIds(db.prisma, [], INCLUDE)).toEqual([]);
    expect(await productsByIds(db.prisma, ['no-such-product'], INCLUDE)).toEqual([]);
  });
});

describe('isProductSelection', () => {
  it("accepts the type's relations and narrower selections, and nothing more", () => {
    expect(isProductSelection({})).toBe(true);
    expect(isProductSelection(INCLUDE)).toBe(true);
    expect(isProductSelection({ include: { shop: PRODUCT_INCLUDE.shop } })).toBe(true);
    expect(isProductSelection({ include: { shop: PRODUCT_INCLUDE.shop, weeks: false } })).toBe(true);
    expect(isProductSelection({ include: { shop: true } })).toBe(false);
    expect(isProductSelection({ include: { weeks: true } })).toBe(false);
    expect(isProductSelection({ include: { weeks: { ...PRODUCT_INCLUDE.weeks, orderBy: { weekStart: 'desc' } } } })).toBe(false);
    expect(isProductSelection({ include: { shop: { select: { id: true } } } })).toBe(true);
    expect(isProductSelection({ include: { variants: true } })).toBe(false);
    expect(isProductSelection({ select: { id: true } })).toBe(true);
    expect(isProductSelection({ select: { id: true, variants: true } })).toBe(false);
    expect(isProductSelection({ include: { constructor: true } })).toBe(false);
  });
});
