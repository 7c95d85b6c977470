import { queryFromInfo } from '@pothos/plugin-prisma';
import { Prisma } from '../../generated/prisma/client.js';
import type { Context } from '../../context.js';
import { builder } from '../builder.js';
import { cursorListRef, decodeCursor, encodeCursor, findKeysetPage, queryDigest, type CursorPagination } from '../shared/cursor.js';
import { searchBounds } from '../shared/search-page.js';
import { crossChecks, euFieldsUsed, filterFromArgs, productsListArgs, productsQueryArgs } from './args.js';
import { requireEuAccess, withView } from './figures.js';
import { findProducts, inlineProducts } from './load.js';
import { conditions, FROM, sortKeys, type ProductFilter, type ProductSort } from './sql.js';
import { ProductRef } from './types.js';

const sql = Prisma.sql;

/**
 * The count's bounds (see findKeysetPage): the matches of an index-narrowed query (one shop, a text search) are
 * counted up to every searchable list's bound (searchBounds.totalCap, shared/search-page.ts); any other filter set
 * is counted among the first COUNT_WINDOW products of its order (a thousand index entries read, as cheap at a
 * million products as at ten thousand), and beyond them `total` is a lower bound (`gte`).
 */
export const COUNT_WINDOW = 1_000;

const ProductPageRef = cursorListRef('ProductPage', ProductRef, 'A cursor page of products.');

type Page = { limit: number; cursor?: string | null };

/** The page by keyset, its count and (for the product type's own selection) its rows in one statement, in order. */
async function productPage(context: Context, select: object, filter: ProductFilter, sort: ProductSort, page: Page, euFields: string[]) {
  // EU/UK filters or sorts are refused (403) before anything else; without them the plan only decides what rows show.
  const checked = euFields.length ? await requireEuAccess(context, euFields) : null;
  const digest = queryDigest({ filter, sort });
  const { keys, direction } = sortKeys(filter, sort);
  const after = page.cursor ? decodeCursor(page.cursor, digest, keys.length + 1) : null;
  const count = filter.shopId || filter.search ? ({ by: 'matches', cap: searchBounds.totalCap } as const) : ({ by: 'window', rows: COUNT_WINDOW } as const);
  const query = { id: sql`p."id"`, from: FROM, where: conditions(filter), keys, direction, limit: page.limit, after, count };
  const [euAccess, found] = await Promise.all([checked ?? requireEuAccess(context, euFields), findKeysetPage(context.pool, query, inlineProducts(select))]);
  const rows = found.rows ?? (await findProducts(context.prisma, found.ids, select));
  const byId = new Map(withView(rows, { cpm: filter.cpm, euAccess }).map((row) => [row.id, row]));
  const pagination: CursorPagination = {
    limit: page.limit,
    total: found.total,
    totalRelation: found.totalRelation,
    nextCursor: found.next ? encodeCursor(digest, found.next) : null,
  };
  return { data: found.ids.flatMap((id) => byId.get(id) ?? []), pagination };
}

builder.queryFields((t) => ({
  products: t.field({
    type: ProductPageRef,
    nullable: true,
    authScopes: { workspace: true },
    description: 'Products (GET /v1/products): best sellers first by default; cursor pages. Costs one credit per returned product.',
    args: productsListArgs(),
    resolve: (_root, args, context, info) => {
      const { filter, sort } = filterFromArgs(args);
      return productPage(context, queryFromInfo({ context, info, path: ['data'] }), filter, sort, { limit: args.limit ?? 25, cursor: args.cursor }, euFieldsUsed(args));
    },
  }),
  productsQuery: t.field({
    type: ProductPageRef,
    nullable: true,
    authScopes: { workspace: true },
    description: 'Products with the full filter set (POST /v1/products/query). EU/UK filters and the spend sorts need a Pro plan (403 forbidden below it). Costs one credit per returned product.',
    args: productsQueryArgs(),
    validate: crossChecks,
    resolve: (_root, args, context, info) => {
      const { filter, sort } = filterFromArgs(args);
      return productPage(context, queryFromInfo({ context, info, path: ['data'] }), filter, sort, { limit: args.limit ?? 25, cursor: args.cursor }, euFieldsUsed(args));
    },
  }),
}));
