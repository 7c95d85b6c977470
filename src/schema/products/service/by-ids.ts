import { Prisma } from '../../../generated/prisma/client.js';
import type { InlineRows } from '../../shared/list.js';
import { columns, coverage, jsonObject, jsonRowSet, reviver } from '../../shared/json-rows.js';
import { PRODUCT_INCLUDE, type ProductRow } from '../types.js';

// Products by id, for the products list and the image search's matches: one JSON statement when the request selects
// no more than the product object type includes (its fields, weeks and shop: PRODUCT_INCLUDE), Prisma otherwise
// (src/schema/shared/json-rows.ts): Prisma would map each week of a page as a row of its own in Node.

const LOADED = { include: PRODUCT_INCLUDE } as const;
const covered = coverage('Product', LOADED);
const revive = reviver('Product', LOADED);
const { weeks, shop } = PRODUCT_INCLUDE;
const weekOrder = Object.entries(weeks.orderBy).map(([field, direction]) => `w0."${field}" ${direction.toUpperCase()}`).join(', ');

// The shop is a LATERAL join with LIMIT 1, as Prisma writes its own: the planner memoizes a shop met again.
const ROWS = Prisma.raw(`
  SELECT ${columns('Product', 't')}, w."json" AS "weeks", s."json" AS "shop"
  FROM "products" t
  LEFT JOIN LATERAL (SELECT coalesce(json_agg(${jsonObject('ProductWeek', 'w0', weeks)} ORDER BY ${weekOrder}), '[]') AS "json"
    FROM "product_weeks" w0 WHERE w0."productId" = t."id") w ON TRUE
  LEFT JOIN LATERAL (SELECT ${jsonObject('Shop', 's0', shop)} AS "json" FROM "shops" s0 WHERE s0."id" = t."shopId" LIMIT 1) s ON TRUE`);

/** The products whose ids a text array expression gives, as one JSON text, and their parser. */
const { of: rowsOf, parse } = jsonRowSet<ProductRow>(ROWS, 't."id"', revive);

/** The rows as one expression of another statement, its ids from a subquery of one text column (InlineRows, shared/list.ts). */
const INLINE: InlineRows<ProductRow> = { inline: (ids) => rowsOf(Prisma.sql`ARRAY(${ids})::text[]`), parse };

/** Whether a Prisma query (Pothos's selection) asks for no more than the JSON statement loads. */
export const isProductSelection = (query: object): boolean => covered(query);

/** The products of a page, loaded in the statement that finds it, when `query` (Pothos's selection) allows. */
export const inlineProducts = (query: object): InlineRows<ProductRow> | undefined => (covered(query) ? INLINE : undefined);

/** The products of `ids` (in no particular order), loaded with `query`, Pothos's selection for them. */
export async function productsByIds(prisma: Prisma.TransactionClient, ids: readonly string[], query: object): Promise<ProductRow[]> {
  if (!ids.length) return [];
  if (covered(query)) {
    const [{ rows }] = await prisma.$queryRaw<{ rows: string }[]>`SELECT ${rowsOf(Prisma.sql`${[...ids]}::text[]`)} AS "rows"`;
    return parse(rows);
  }
  return (await prisma.product.findMany({ where: { id: { in: [...ids] } }, relationLoadStrategy: 'join', ...query })) as ProductRow[];
}
