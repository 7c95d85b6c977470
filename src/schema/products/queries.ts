import { queryFromInfo } from '@pothos/plugin-prisma';
import { builder } from '../builder.js';
import { listRef } from '../shared/list.js';
import { crossChecks, euFieldsUsed, filterFromArgs, productsListArgs, productsQueryArgs } from './args.js';
import { searchProducts } from './service/search.js';
import { ProductRef } from './types.js';

const ProductPageRef = listRef('ProductPage', ProductRef, { style: 'cursor', description: 'A cursor page of products.' });

builder.queryFields((t) => ({
  products: t.field({
    type: ProductPageRef,
    nullable: true,
    authScopes: { workspace: true },
    description: 'Products (GET /v1/products): best sellers first by default; cursor pages. Costs one credit per returned product.',
    args: productsListArgs(),
    resolve: (_root, args, context, info) => {
      const { filter, sort } = filterFromArgs(args);
      return searchProducts(context, queryFromInfo({ context, info, path: ['data'] }), filter, sort, { limit: args.limit ?? 25, cursor: args.cursor }, euFieldsUsed(args));
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
      return searchProducts(context, queryFromInfo({ context, info, path: ['data'] }), filter, sort, { limit: args.limit ?? 25, cursor: args.cursor }, euFieldsUsed(args));
    },
  }),
}));
