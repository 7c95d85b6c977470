import { builder } from '../builder.js';
import { listRef, pageRequest } from '../shared/list.js';
import { cpmArg, frameArgs, INSIGHT_LIMITS, insightArgs, orderArg } from './args.js';
import { PartnersSort } from './enums.js';
import { frameOf, partnersPage, type Partner } from './service.js';

// GET /v1/brandtrackers/{brandtrackerId}/partners: the creators the brand runs partnership ads with (the creator
// page of its ads, `partnerPageId`), each with the figures of the brand's ads in the window that name it.

const PartnerRef = builder.objectRef<Partner>('BrandtrackerPartner').implement({
  fields: (t) => ({
    facebookPageId: t.exposeString('facebookPageId', { description: "The creator's Facebook page." }),
    name: t.exposeString('name', { description: 'The creator page name on its latest ad (its id when no ad names it).' }),
    activeAds: t.exposeInt('activeAds', { description: 'Of those ads, the ones running at the frame (active now, or on the snapshot day).' }),
    launchDate: t.expose('launchDate', { type: 'DateTime', description: 'When the first of those ads was first seen.' }),
    reach: t.expose('reach', { type: 'SafeInt', description: 'Reach of those ads, summed.' }),
    estimatedSpend: t.expose('estimatedSpend', { type: 'SafeInt', description: 'round(reach × cpm / 1000).' }),
  }),
});

const PartnersPage = listRef('BrandtrackerPartnersPage', PartnerRef, { style: 'page', description: "A brandtracker's partners." });

builder.queryFields((t) => ({
  brandtrackerPartners: t.field({
    type: PartnersPage,
    authScopes: { workspace: true },
    description:
      "A brandtracker's partners (GET /v1/brandtrackers/{brandtrackerId}/partners): the creator pages of its partnership ads in the window " +
      '(every ad, duplicates included), with their ads, reach and estimated spend.',
    args: {
      ...frameArgs({ euOnly: false, snapshot: true }),
      ...insightArgs(),
      ...orderArg(),
      ...cpmArg({ min: 0, max: 10000, integer: true }),
      sortBy: t.arg({ type: PartnersSort, defaultValue: 'activeAds' }),
    },
    resolve: async (_root, args, context) => {
      const frame = await frameOf(context, args, { euOnly: false });
      return partnersPage(context.prisma, frame, {
        window: args.timePeriod ?? 'live',
        sortBy: args.sortBy ?? 'activeAds',
        order: args.order === 'asc' ? 'asc' : 'desc',
        page: pageRequest(args, INSIGHT_LIMITS.defaultLimit),
      });
    },
  }),
}));
