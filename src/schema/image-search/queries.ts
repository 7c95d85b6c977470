import { queryFromInfo } from '@pothos/plugin-prisma';
import type { Shop } from '../../generated/prisma/client.js';
import { builder } from '../builder.js';
import { DEFAULT_CPM, hasEuAccess, productsByIds, withView } from '../products/service.js';
import { imageSearchArgs, oneSource } from './input.js';
import { imageSearch, type ImageSearchArgs as Args, type StoredSearch } from './service.js';
import { inIdOrder } from '../shared/list.js';
import { shopsByIds } from '../shops/service.js';
import { ProductImageSearchRef, ShopImageSearchRef } from './types.js';

/** The page of a kept search: its ids from `offset`, with their scores. */
function pageOf(search: StoredSearch, args: Args) {
  const request = { limit: args.limit ?? 20, offset: args.offset ?? 0 };
  const ids = search.resultIds.slice(request.offset, request.offset + request.limit);
  const scoreOf = new Map(ids.map((id, i) => [id, search.scores[request.offset + i]]));
  return { ids, scoreOf, pagination: { ...request, total: search.resultIds.length }, meta: { searchId: search.id, expiresAt: search.expiresAt } };
}

builder.queryFields((t) => ({
  productsImageSearch: t.field({
    type: ProductImageSearchRef,
    nullable: true,
    authScopes: { workspace: true },
    description:
      'Products whose image looks like the given one, most similar first (POST /v1/products/image-search): a copy resized, re-encoded or slightly cropped finds its product first. Send an image (multipart `image` on REST, base64 on GraphQL) or an imageUrl; continue with searchId and offset. Costs one credit per returned product.',
    args: imageSearchArgs(),
    validate: oneSource,
    resolve: async (_root, args, context, info) => {
      const { search, stored } = await imageSearch(context, 'products', args, false);
      const page = pageOf(search, args);
      const select = queryFromInfo({ context, info, path: ['data', 'product'] });
      // The search is kept while its products load; the answer waits for both.
      const [rows, euAccess] = await Promise.all([
        productsByIds(context.prisma, page.ids, select),
        hasEuAccess(context),
        stored,
      ]);
      const data = inIdOrder(page.ids, withView(rows, { cpm: DEFAULT_CPM, euAccess })).map((product) => ({ score: page.scoreOf.get(product.id)!, product }));
      return { data, pagination: page.pagination, meta: page.meta };
    },
  }),
  shopsImageSearch: t.field({
    type: ShopImageSearchRef,
    nullable: true,
    authScopes: { workspace: true },
    description:
      'Shops selling a product that looks like the given image, each shop once at its closest product, most similar first (POST /v1/shops/image-search); groupBrands keeps one shop per brand (the Facebook page its ads come from). Same image inputs and continuation as productsImageSearch. Costs one credit per returned shop.',
    args: { ...imageSearchArgs(), groupBrands: t.arg.boolean({ defaultValue: false, description: "One shop per brand: shops whose ads come from the same main Facebook page count once (the search's first request decides)." }) },
    validate: oneSource,
    resolve: async (_root, args, context, info) => {
      const { search, stored } = await imageSearch(context, 'shops', args, args.groupBrands ?? false);
      const page = pageOf(search, args);
      const select = queryFromInfo({ context, info, path: ['data', 'shop'] });
      const [shops] = await Promise.all([shopsByIds<Shop>(context.prisma, page.ids, select), stored]);
      const data = shops.map((shop) => ({ score: page.scoreOf.get(shop.id)!, shop }));
      return { data, pagination: page.pagination, meta: page.meta };
    },
  }),
}));
