import { queryFromInfo } from '@pothos/plugin-prisma';
import { AdPageRef, countAds, searchAds } from '../ads/service.js';
import { builder } from '../builder.js';
import { pageRequest } from '../shared/list.js';
import { BRANDTRACKER_ADS_LIMITS, BRANDTRACKER_ADS_ORDER, brandtrackerAdFilterArgs, brandtrackerAdListArgs, type BrandtrackerAdsSort } from './ad-list-args.js';
import { brandAdFilter, frameOf, type BrandAdFilterArgs, type Frame } from './service.js';

// GET /v1/brandtrackers/{brandtrackerId}/ads, /partnership-ads and /partnership-ads/count: the brand's ads (its
// Facebook page's), one row per duplicate group, as the ads lists find them (service/ad-filters.ts, then the ads search)
// and in their ad summary shape; the partnership routes keep the ads with the partner badge. Frame, page of ids (and
// its count), rows: three statements, or four when the page and its count run apart.

const COUNT_DESCRIPTION = 'Ads (one per duplicate group) with the partner badge matching the filters: the total of GET /partnership-ads with the same filters.';

type ListArgs = BrandAdFilterArgs & { page?: number | null; limit?: number | null; sortBy?: string | null };

/** The list's filter, order and page; sortBy was validated (and its aliases read) by the arguments. */
function adList(frame: Frame, args: ListArgs, route: 'ads' | 'partnershipAds') {
  const sort = { sortBy: BRANDTRACKER_ADS_ORDER[(args.sortBy ?? 'newest') as BrandtrackerAdsSort] };
  return { filter: brandAdFilter(frame, args, route), sort, page: pageRequest(args, BRANDTRACKER_ADS_LIMITS.defaultLimit), cpm: frame.cpm };
}

const PartnershipAdsCount = builder.objectRef<{ count: number }>('BrandtrackerPartnershipAdsCount').implement({
  fields: (t) => ({ count: t.exposeInt('count', { description: COUNT_DESCRIPTION }) }),
});

builder.queryFields((t) => ({
  brandtrackerAds: t.field({
    type: AdPageRef,
    authScopes: { workspace: true },
    description: "A brandtracker's ads (GET /v1/brandtrackers/{brandtrackerId}/ads): its Facebook page's ads as ad summaries, one per duplicate group, with the ads query filters.",
    args: brandtrackerAdListArgs({ partnership: false }),
    resolve: async (_root, args, context, info) => {
      const frame = await frameOf(context, args, { euOnly: false });
      return searchAds(context.prisma, queryFromInfo({ context, info, path: ['data'] }), adList(frame, args, 'ads'), true);
    },
  }),
  brandtrackerPartnershipAds: t.field({
    type: AdPageRef,
    authScopes: { workspace: true },
    description: "A brandtracker's partnership ads (GET /v1/brandtrackers/{brandtrackerId}/partnership-ads): its ads with the partner badge, one per duplicate group.",
    args: brandtrackerAdListArgs({ partnership: true }),
    resolve: async (_root, args, context, info) => {
      const frame = await frameOf(context, args, { euOnly: false });
      return searchAds(context.prisma, queryFromInfo({ context, info, path: ['data'] }), adList(frame, args, 'partnershipAds'), true);
    },
  }),
  brandtrackerPartnershipAdsCount: t.field({
    type: PartnershipAdsCount,
    authScopes: { workspace: true },
    description: `How many partnership ads a brandtracker has (GET /v1/brandtrackers/{brandtrackerId}/partnership-ads/count). ${COUNT_DESCRIPTION}`,
    args: brandtrackerAdFilterArgs({ partnership: true }),
    resolve: async (_root, args, context) => {
      const frame = await frameOf(context, args, { euOnly: false });
      return { count: await countAds(context.prisma, brandAdFilter(frame, args, 'partnershipAds')) };
    },
  }),
}));
