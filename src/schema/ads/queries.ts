import { queryFromInfo } from '@pothos/plugin-prisma';
import { notFound } from '../../errors.js';
import { builder } from '../builder.js';
import { pageListRef } from '../shared/list.js';
import { adIdArg, adsArgs, adsArgsRule, adsQueryArgs, filterFromListArgs, filterFromQueryArgs, normaliseAdId } from './args.js';
import { AdDetail, resolvedFromMember } from './detail.js';
import { findAdDetail } from './service/detail.js';
import { searchAds } from './service/search.js';
import { DEFAULT_CPM, PublicAd, withCpm } from './types.js';

export const AdPageRef = pageListRef('AdPage', PublicAd, 'A page of ad summaries, one per duplicate group.', { searchable: true });

builder.queryFields((t) => ({
  ads: t.field({
    type: AdPageRef,
    nullable: true,
    authScopes: { workspace: true },
    description: 'Search Meta ads by ad copy or brand (GET /v1/ads). `search` is required; `query` is its deprecated alias.',
    args: adsArgs(),
    validate: adsArgsRule,
    resolve: (_root, args, context, info) => searchAds(context.prisma, queryFromInfo({ context, info, path: ['data'] }), filterFromListArgs(args)),
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
      return searchAds(context.prisma, queryFromInfo({ context, info, path: ['data'] }), filterFromQueryArgs(args, caller));
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
