import { queryFromInfo } from '@pothos/plugin-prisma';
import { z } from 'zod';
import { notFound } from '../../errors.js';
import type { PrismaClient } from '../../generated/prisma/client.js';
import { adsByIds, AdStatusFilter, withCpm } from '../ads/service.js';
import { PublicAd } from '../ads/types.js';
import { builder } from '../builder.js';
import { SortOrder } from '../shared/enums.js';
import { loadOffsetPage, offsetListRef, type OffsetRowPage } from '../shared/offset-page.js';
import { TotalRelationEnum } from '../shared/cursor.js';
import { listMeta, OffsetPaginationRef, offsetArgs, TOTAL_RELATION_DESCRIPTION, type ListMeta } from '../shared/pagination.js';
import { count } from '../shared/ranges.js';
import { findAdvertiserAdIds } from './ad-list.js';
import { advertisersArgs, advertisersQueryArgs, filterFromArgs, notBothCategoryFilters } from './args.js';
import { AdvertiserAdMediaType, AdvertiserAdsSort } from './enums.js';
import { searchAdvertiserIds } from './sql.js';
import { AdvertiserDetail, AdvertiserSummary } from './types.js';

type AdvertiserPage = OffsetRowPage & { meta: { isTruncated: boolean } & ListMeta };

const AdvertiserListMeta = builder.objectRef<AdvertiserPage['meta']>('AdvertiserListMeta').implement({
  fields: (t) => ({
    isTruncated: t.exposeBoolean('isTruncated', { description: 'True when a search over ads matched more advertisers than it collects (10,000), so the list is cut.' }),
    totalRelation: t.field({ type: TotalRelationEnum, description: TOTAL_RELATION_DESCRIPTION, resolve: (meta) => meta.totalRelation }),
  }),
});

const AdvertiserPageRef = builder.objectRef<AdvertiserPage>('AdvertiserPage').implement({
  description: 'A page of advertisers.',
  fields: (t) => ({
    data: t.field({ type: [AdvertiserSummary], resolve: (page) => page.data as never }),
    pagination: t.field({ type: OffsetPaginationRef, resolve: (page) => page.pagination }),
    meta: t.field({ type: AdvertiserListMeta, resolve: (page) => page.meta }),
  }),
});

const AdvertiserAdPage = offsetListRef('AdvertiserAdPage', PublicAd, "A page of an advertiser's ads, one per duplicate group.");

async function advertiserPage(prisma: PrismaClient, select: object, args: Parameters<typeof filterFromArgs>[0]): Promise<AdvertiserPage> {
  const { filter, sort, page } = filterFromArgs(args);
  const found = await searchAdvertiserIds(prisma, filter, sort, page);
  const rows = await loadOffsetPage(found, page, (ids) => prisma.advertiser.findMany({ where: { id: { in: ids } }, relationLoadStrategy: 'join', ...select }));
  // A cut search over ads counts no further than its cap either: the total is a lower bound.
  return { ...rows, meta: { isTruncated: found.isTruncated, totalRelation: found.isTruncated ? 'gte' : listMeta(found).totalRelation } };
}

const advertiserId = z.string().min(1).max(128);

builder.queryFields((t) => ({
  advertisers: t.field({
    type: AdvertiserPageRef,
    nullable: true,
    authScopes: { workspace: true },
    description: 'Find advertisers (Facebook pages) by brand or shop domain, with filters and sorts (GET /v1/advertisers).',
    args: advertisersArgs(),
    resolve: (_root, args, context, info) => advertiserPage(context.prisma, queryFromInfo({ context, info, path: ['data'] }), args),
  }),
  advertisersQuery: t.field({
    type: AdvertiserPageRef,
    nullable: true,
    authScopes: { workspace: true },
    description: 'Find advertisers with the full filter set (POST /v1/advertisers/query). An empty body is valid.',
    args: advertisersQueryArgs(),
    validate: notBothCategoryFilters,
    resolve: (_root, args, context, info) => advertiserPage(context.prisma, queryFromInfo({ context, info, path: ['data'] }), args),
  }),
  advertiser: t.prismaField({
    type: AdvertiserDetail,
    nullable: true,
    authScopes: { workspace: true },
    description: 'One advertiser with its linked shops, where its ads reach and its newest ads. The id is the Facebook page id.',
    args: { advertiserId: t.arg.string({ required: true, validate: advertiserId }) },
    resolve: async (query, _root, args, context) => {
      const advertiser = await context.prisma.advertiser.findUnique({ where: { id: args.advertiserId }, relationLoadStrategy: 'join', ...query });
      if (!advertiser) throw notFound(`Advertiser "${args.advertiserId}"`);
      return advertiser;
    },
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
    resolve: async (_root, args, context, info) => {
      const page = { limit: args.limit ?? 25, offset: args.offset ?? 0 };
      const filter = { advertiserId: args.advertiserId, status: args.status ?? 'all', mediaType: args.mediaType ?? 'all' };
      const [advertiser, found] = await Promise.all([
        context.prisma.advertiser.findUnique({ where: { id: args.advertiserId }, select: { id: true } }),
        findAdvertiserAdIds(context.prisma, filter, { sortBy: args.sortBy ?? 'newest', order: args.order ?? 'desc' }, page),
      ]);
      if (!advertiser) throw notFound(`Advertiser "${args.advertiserId}"`);
      const select = queryFromInfo({ context, info, path: ['data'] });
      return loadOffsetPage(found, page, async (ids) => withCpm(await adsByIds(context.prisma, ids, select), args.cpm ?? 9));
    },
  }),
}));
