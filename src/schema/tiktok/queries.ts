import { queryFromInfo } from '@pothos/plugin-prisma';
import { z } from 'zod';
import { notFound } from '../../errors.js';
import { builder } from '../builder.js';
import { pageListRef } from '../shared/list.js';
import { tiktokIdOf } from './figures.js';
import { libraryArgs, libraryQueryArgs } from './args.js';
import { TikTokLibraryItemDetail } from './detail.js';
import { filterFromLibraryArgs, filterFromQueryArgs } from './filter.js';
import { searchTikTokItems, tiktokItem, tiktokShopId } from './service.js';
import { TikTokLibraryItem } from './types.js';

const TikTokLibraryPage = pageListRef('TikTokLibraryPage', TikTokLibraryItem, 'A page of TikTok library items.', { searchable: true });

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

builder.queryFields((t) => ({
  tiktokLibrary: t.field({
    type: TikTokLibraryPage,
    nullable: true,
    authScopes: { workspace: true },
    description: 'TikTok ads and organic videos (GET /v1/tiktok/library). One credit per returned item.',
    args: libraryArgs(),
    resolve: (_root, args, context, info) => {
      const { filter, sort, page } = filterFromLibraryArgs(args);
      return searchTikTokItems(context, queryFromInfo({ context, info, path: ['data'] }), filter, sort, page);
    },
  }),
  tiktokLibraryQuery: t.field({
    type: TikTokLibraryPage,
    nullable: true,
    authScopes: { workspace: true },
    description: 'TikTok library with the full filter set (POST /v1/tiktok/library/query). One credit per returned item.',
    args: libraryQueryArgs(),
    resolve: (_root, args, context, info) => {
      const { filter, sort, page } = filterFromQueryArgs(args);
      return searchTikTokItems(context, queryFromInfo({ context, info, path: ['data'] }), filter, sort, page);
    },
  }),
  tiktokLibraryItem: t.prismaField({
    type: TikTokLibraryItemDetail,
    nullable: true,
    authScopes: { workspace: true },
    description: 'One TikTok library item by its composite id `tiktok_<number>` or its raw TikTok id. One credit when found.',
    args: { itemId: t.arg.string({ required: true, validate: z.string().min(1).max(128) }) },
    resolve: async (query, _root, args, context) => {
      const id = tiktokIdOf(args.itemId);
      const item = id ? await tiktokItem(context, id, query) : null;
      if (!item) throw notFound(`TikTok item "${args.itemId}"`);
      return item;
    },
  }),
  shopTiktokLibrary: t.field({
    type: TikTokLibraryPage,
    nullable: true,
    authScopes: { workspace: true },
    description: "A shop's TikTok library items (GET /v1/shops/{shopId}/tiktok/library), with the library filters. One credit per returned item.",
    args: { shopId: t.arg.string({ required: true, validate: z.string().min(1).max(128) }), ...libraryArgs() },
    resolve: async (_root, args, context, info) => {
      const shopId = UUID.test(args.shopId) ? await tiktokShopId(context, args.shopId.toLowerCase()) : null;
      if (!shopId) throw notFound(`Shop "${args.shopId}"`);
      const { filter, sort, page } = filterFromLibraryArgs(args);
      return searchTikTokItems(context, queryFromInfo({ context, info, path: ['data'] }), { ...filter, shopId }, sort, page);
    },
  }),
}));
