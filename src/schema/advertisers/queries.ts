import { queryFromInfo } from '@pothos/plugin-prisma';
import { z } from 'zod';
import { AdStatusFilter, PublicAd } from '../ads/types.js';
import { builder } from '../builder.js';
import { SortOrder } from '../shared/enums.js';
import { listRef, offsetArgs, offsetListRef, offsetRequest, TOTAL_RELATION_DESCRIPTION, TotalRelationEnum } from '../shared/list.js';
import { count } from '../shared/ranges.js';
import { advertisersArgs, advertisersQueryArgs, filterFromArgs, notBothCategoryFilters } from './args.js';
import { AdvertiserAdMediaType, AdvertiserAdsSort } from './enums.js';
import { advertiserAds } from './service/ads.js';
import { advertiserDetail } from './service/detail.js';
import { searchAdvertisers, type AdvertiserPage } from './service/search.js';
import { AdvertiserDetail, AdvertiserSummary } from './types.js';

const AdvertiserListMeta = builder.objectRef<AdvertiserPage['meta']>('AdvertiserListMeta').implement({
  fields: (t) => ({
    isTruncated: t.exposeBoolean('isTruncated', { description: 'True when a search over ads matched more advertisers than it collects (10,000), so the list is cut.' }),
    totalRelation: t.field({ type: TotalRelationEnum, description: TOTAL_RELATION_DESCRIPTION, resolve: (meta) => meta.totalRelation }),
  }),
});

const AdvertiserPageRef = listRef<unknown, AdvertiserPage>('AdvertiserPage', AdvertiserSummary, {
  style: 'offset',
  description: 'A page of advertisers.',
  fields: (t) => ({ meta: t.field({ type: AdvertiserListMeta, resolve: (page) => page.meta }) }),
});

const AdvertiserAdPage = offsetListRef('AdvertiserAdPage', PublicAd, "A page of an advertiser's ads, one per duplicate group.");

const advertiserId = z.string().min(1).max(128);

builder.queryFields((t) => ({
  advertisers: t.field({
    type: AdvertiserPageRef,
    nullable: true,
    authScopes: { workspace: true },
    description: 'Find advertisers (Facebook pages) by brand or shop domain, with filters and sorts (GET /v1/advertisers).',
    args: advertisersArgs(),
    resolve: (_root, args, context, info) => {
      const { filter, sort, page } = filterFromArgs(args);
      return searchAdvertisers(context, queryFromInfo({ context, info, path: ['data'] }), filter, sort, page);
    },
  }),
  advertisersQuery: t.field({
    type: AdvertiserPageRef,
    nullable: true,
    authScopes: { workspace: true },
    description: 'Find advertisers with the full filter set (POST /v1/advertisers/query). An empty body is valid.',
    args: advertisersQueryArgs(),
    validate: notBothCategoryFilters,
    resolve: (_root, args, context, info) => {
      const { filter, sort, page } = filterFromArgs(args);
      return searchAdvertisers(context, queryFromInfo({ context, info, path: ['data'] }), filter, sort, page);
    },
  }),
  advertiser: t.prismaField({
    type: AdvertiserDetail,
    nullable: true,
    authScopes: { workspace: true },
    description: 'One advertiser with its linked shops, where its ads reach and its newest ads. The id is the Facebook page id.',
    args: { advertiserId: t.arg.string({ required: true, validate: advertiserId }) },
    resolve: (query, _root, args, context) => advertiserDetail(context, args.advertiserId, query),
  }),
  advertiserAds: t.field({
    type: AdvertiserAdPage,
    nullable: true,
    authScopes: { workspace: true },
    description: "An advertiser's ads as ad summaries, one per duplicate group (GET /v1/advertisers/{advertiserId}/ads).",
    args: {
      advertiserId: t.arg.string({ required: true, validate: advertiserId }),
      ...offsetArgs({ defaultLimit: 25, maxLimit: 100 }),
      status: t.arg({ type: AdStatusFilter, defaultValue: 'all' }),
      mediaType: t.arg({ type: AdvertiserAdMediaType, defaultValue: 'all' }),
      sortBy: t.arg({ type: AdvertiserAdsSort, defaultValue: 'newest' }),
      order: t.arg({ type: SortOrder, defaultValue: 'desc' }),
      cpm: t.arg.int({ description: 'CPM (EUR per 1,000 reach) of estimatedSpend (default 9).', defaultValue: 9, validate: count }),
    },
    resolve: (_root, args, context, info) =>
      advertiserAds(
        context,
        queryFromInfo({ context, info, path: ['data'] }),
        { advertiserId: args.advertiserId, status: args.status ?? 'all', mediaType: args.mediaType ?? 'all' },
        { sortBy: args.sortBy ?? 'newest', order: args.order ?? 'desc' },
        offsetRequest(args, 25),
        args.cpm ?? 9,
      ),
  }),
}));
