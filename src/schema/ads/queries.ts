import { queryFromInfo } from '@pothos/plugin-prisma';
import { z } from 'zod';
import { notFound } from '../../errors.js';
import type { PrismaClient } from '../../generated/prisma/client.js';
import { builder } from '../builder.js';
import { loadIdPage } from '../shared/id-page.js';
import { pageArgs, pageListRef, type RowPage } from '../shared/pagination.js';
import { AdDetail, resolvedFromMember } from './detail.js';
import { AdListSort, AdMediaTypeFilter, AdPlatform, AdSearchType, AdStatusFilter } from './enums.js';
import { withCpm, DEFAULT_CPM } from './figures.js';
import { adsQueryArgs, filterFromQueryArgs } from './query-args.js';
import { searchAdIds, type AdFilter, type AdSort } from './search.js';
import { PublicAd } from './types.js';

const AdPageRef = pageListRef('AdPage', PublicAd, 'A page of ad summaries, one per duplicate group.');

/** Finds the page of ids, then loads the selected fields for them in the same order. */
async function adPage(
  prisma: PrismaClient,
  select: object,
  filter: AdFilter,
  sort: AdSort,
  page: { page: number; limit: number },
  cpm: number,
): Promise<RowPage> {
  const found = await searchAdIds(prisma, filter, sort, page);
  return loadIdPage(found, page, async (ids) => withCpm(await prisma.ad.findMany({ where: { id: { in: ids } }, relationLoadStrategy: 'join', ...select }), cpm));
}

const searchText = z.string().trim().min(1).max(500);

/** An ad id as the API shows it, or a bare Meta ad number (read as a Facebook ad). */
export function normaliseAdId(adId: string): string {
  return /^\d+$/.test(adId) ? `facebook_${adId}` : adId;
}

builder.queryFields((t) => ({
  ads: t.field({
    type: AdPageRef,
    nullable: true,
    authScopes: { workspace: true },
    description: 'Search Meta ads by ad copy or brand (GET /v1/ads). `search` is required; `query` is its deprecated alias.',
    args: {
      search: t.arg.string({ description: 'Text query (required unless the deprecated `query` is sent).' }),
      query: t.arg.string({ deprecationReason: 'Use search.' }),
      searchType: t.arg({ type: AdSearchType, defaultValue: 'adCopy' }),
      platform: t.arg({ type: AdPlatform, description: 'Meta/Facebook only; all returns Meta ads too.' }),
      status: t.arg({ type: AdStatusFilter }),
      mediaType: t.arg({ type: AdMediaTypeFilter }),
      sortBy: t.arg({ type: AdListSort, defaultValue: 'relevance' }),
      ...pageArgs({ defaultLimit: 25, maxLimit: 100 }),
    },
    // looseObject: the validated value replaces the arguments, so the other arguments (page, limit, sortBy, …) must pass through.
    validate: z
      .looseObject({ search: searchText.nullish(), query: searchText.nullish() })
      .superRefine((args, ctx) => {
        if (args.search != null && args.query != null) {
          ctx.addIssue({ code: 'custom', path: ['query'], message: '{name} must not be sent together with search (query is a deprecated alias of search)' });
        } else if (args.search == null && args.query == null) {
          ctx.addIssue({ code: 'custom', path: ['search'], message: '{name} should not be empty' });
        }
      }),
    resolve: (_root, args, context, info) =>
      adPage(
        context.prisma,
        queryFromInfo({ context, info, path: ['data'] }),
        { search: { websearch: (args.search ?? args.query)!, type: args.searchType ?? 'adCopy' }, status: args.status, mediaType: args.mediaType },
        { sortBy: args.sortBy ?? 'relevance' },
        { page: args.page ?? 1, limit: args.limit ?? 25 },
        DEFAULT_CPM,
      ),
  }),
  adsQuery: t.field({
    type: AdPageRef,
    nullable: true,
    authScopes: { workspace: true },
    description: 'Query Meta ads with the full filter set (POST /v1/ads/query). Every field is optional.',
    args: adsQueryArgs(),
    resolve: (_root, args, context, info) => {
      const { filter, sort, page, cpm } = filterFromQueryArgs(args);
      return adPage(context.prisma, queryFromInfo({ context, info, path: ['data'] }), filter, sort, page, cpm);
    },
  }),
  ad: t.prismaField({
    type: AdDetail,
    nullable: true,
    authScopes: { workspace: true },
    description: 'One ad with its detail. A member of a duplicate group is answered with the group lead and `resolvedFrom`.',
    args: { adId: t.arg.string({ required: true, validate: z.string().min(1).max(128) }) },
    resolve: async (query, _root, args, context) => {
      const id = normaliseAdId(args.adId);
      const ad = await context.prisma.ad.findUnique({ where: { id }, relationLoadStrategy: 'join', ...query });
      if (!ad) throw notFound(`Ad "${args.adId}"`);
      if (ad.isGroupLead) return withCpm([ad], DEFAULT_CPM)[0];
      const lead = await context.prisma.ad.findFirst({ where: { collationId: ad.collationId, isGroupLead: true }, relationLoadStrategy: 'join', ...query });
      return withCpm([lead ? resolvedFromMember(lead, ad.id) : ad], DEFAULT_CPM)[0];
    },
  }),
}));
