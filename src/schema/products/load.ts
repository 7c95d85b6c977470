import type { Prisma } from '../../generated/prisma/client.js';
import type { InlineRows } from '../shared/cursor.js';
import { jsonRowsLoader } from '../shared/json-rows.js';
import { PRODUCT_INCLUDE, type ProductRow } from './types.js';

// Products by id, for the products list and the image search's matches: one JSON statement when the request selects
// no more than the product object type includes (its fields, weeks and shop: PRODUCT_INCLUDE), Prisma otherwise
// (src/schema/shared/json-rows.ts). A page of 25 products holds some 300 weeks, each a row Prisma mapped in Node.

const products = jsonRowsLoader<ProductRow, typeof PRODUCT_INCLUDE>('Product', { table: 'products' }, PRODUCT_INCLUDE, {
  weeks: { table: 'product_weeks', on: (week, product) => `${week}."productId" = ${product}."id"` },
  shop: { table: 'shops', on: (shop, product) => `${shop}."id" = ${product}."shopId"` },
});

/** Whether a Prisma query (Pothos's selection) asks for no more than the JSON statement loads. */
export const isProductSelection = (query: object): boolean => products.serves(query);

/** The products of a page, loaded in the statement that finds it, when `query` (Pothos's selection) allows. */
export const inlineProducts = (query: object): InlineRows<ProductRow> | undefined => (products.serves(query) ? products : undefined);

/** The products of `ids` (in no particular order), loaded with `query`, Pothos's selection for them. */
export async function findProducts(prisma: Prisma.TransactionClient, ids: readonly string[], query: object): Promise<ProductRow[]> {
  if (!ids.length) return [];
  if (products.serves(query)) return products.load(prisma, ids);
  return (await prisma.product.findMany({ where: { id: { in: [...ids] } }, relationLoadStrategy: 'join', ...query })) as ProductRow[];
}
