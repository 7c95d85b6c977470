import { queryFromInfo } from '@pothos/plugin-prisma';
import { notFound } from '../../errors.js';
import type { PrismaClient } from '../../generated/prisma/client.js';
import { builder } from '../builder.js';
import { loadIdPage } from '../shared/id-page.js';
import { pageListRef, type PageRequest, type RowPage } from '../shared/pagination.js';
import { adIdArg, adsArgs, adsArgsRule, adsQueryArgs } from './args.js';
import { AdDetail, resolvedFromMember } from './detail.js';
import { findAdDetail } from './detail-load.js';
import { DEFAULT_CPM, withCpm } from './figures.js';
import { filterFromListArgs, filterFromQueryArgs } from './filter.js';
import { findAds } from './load.js';
import { searchAdIds, type AdFilter, type AdSort } from './sql/search.js';
import { PublicAd } from './types.js';

export const AdPageRef = pageListRef('AdPage', PublicAd, 'A page of ad summaries, one per duplicate group.', { searchable: true });

/**
 * Finds the page of ids, then loads the selected fields for them in the same order (the brandtracker ads lists too,
 * `withinBrand`: see searchAdIds).
 */
export async function adPage(prisma: PrismaClient, select: object, list: { filter: AdFilter; sort: AdSort; page: PageRequest; cpm: number }, withinBrand = false): Promise<RowPage> {
  const found = await searchAdIds(prisma, list.filter, list.sort, list.page, withinBrand);
  return loadIdPage(found, list.page, async (ids) => withCpm(await findAds(prisma, ids, select), list.cpm));
}

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
    args: adsArgs(),
    validate: adsArgsRule,
    resolve: (_root, args, context, info) => adPage(context.prisma, queryFromInfo({ context, info, path: ['data'] }), filterFromListArgs(args)),
  }),
  adsQuery: t.field({
    type: AdPageRef,
    nullable: true,
    authScopes: { workspace: true },
    description: 'Query Meta ads with the full filter set (POST /v1/ads/query). Every field is optional.',
    args: adsQueryArgs(),
    resolve: async (_root, args, context, info) => {
      const principal = args.hideSavedAds ? await context.principal() : null;
      const caller = principal ? { workspaceId: principal.workspace.id, userId: principal.delegatedUser?.id ?? null } : undefined;
      return adPage(context.prisma, queryFromInfo({ context, info, path: ['data'] }), filterFromQueryArgs(args, caller));
    },
  }),
  ad: t.prismaField({
    type: AdDetail,
    nullable: true,
    authScopes: { workspace: true },
    description: 'One ad with its detail. A member of a duplicate group is answered with the group lead and `resolvedFrom`.',
    args: { adId: t.arg.string({ required: true, validate: adIdArg }) },
    resolve: async (query, _root, args, context) => {
      const found = await findAdDetail(context, normaliseAdId(args.adId), query);
      if (!found) throw notFound(`Ad "${args.adId}"`);
      const ad = found.ad.id === found.requestedId ? found.ad : resolvedFromMember(found.ad, found.requestedId);
      return withCpm([ad], DEFAULT_CPM)[0];
    },
  }),
}));
