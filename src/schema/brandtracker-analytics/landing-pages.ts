import { builder } from '../builder.js';
import { listRef, pageArgs, pageRequest } from '../shared/list.js';
import { frameArgs, INSIGHT_LIMITS, orderArg } from './args.js';
import { LandingPageSort, TimeWindow } from './enums.js';
import { frameOf, landingPagesOf, type LandingPageOverview, type LandingPagePage } from './service.js';
import { LandingPageScreenshots, LandingPageTechnology } from './types.js';

// GET /v1/brandtrackers/{brandtrackerId}/landing-pages, and overview's topLandingPages: the landing pages the brand's
// ads in a window link to, with usage figures (the workspace landing pages' aggregate, narrowed to one brandtracker).

export const BrandtrackerLandingPage = builder.objectRef<LandingPageOverview>('BrandtrackerLandingPage').implement({
  description: "A landing page the brand's ads link to, with the figures of those ads.",
  fields: (t) => ({
    landingPage: t.exposeString('landingPage', { description: 'The URL.' }),
    usageCount: t.exposeInt('usageCount', { description: 'Ads in the window linking to it.' }),
    longestRunning: t.exposeInt('longestRunning', { description: 'The most days running among those ads.' }),
    totalImpressions: t.expose('totalImpressions', { type: 'SafeInt', description: 'Reach of those ads, summed.' }),
    technologies: t.field({ type: [LandingPageTechnology], resolve: (row) => row.technologies }),
    screenshots: t.field({ type: LandingPageScreenshots, resolve: (row) => row.screenshots }),
  }),
});

export const LandingPagePageRef = listRef<LandingPageOverview, LandingPagePage>('BrandtrackerLandingPagePage', BrandtrackerLandingPage, { style: 'page' });

builder.queryFields((t) => ({
  brandtrackerLandingPages: t.field({
    type: LandingPagePageRef,
    authScopes: { workspace: true },
    description:
      "Landing pages of a brandtracker's ads (GET /v1/brandtrackers/{brandtrackerId}/landing-pages): the ads of the window (live by default) grouped by " +
      'the landing page they link to, with their count, longest run and summed reach, the page\'s technologies and screenshots.',
    args: {
      ...frameArgs({ euOnly: false, snapshot: true }),
      timePeriod: t.arg({ type: TimeWindow, defaultValue: 'live' }),
      ...pageArgs(INSIGHT_LIMITS),
      ...orderArg(),
      sortBy: t.arg({ type: LandingPageSort, defaultValue: 'usageCount' }),
    },
    resolve: async (_root, args, context) => {
      const frame = await frameOf(context, args, { euOnly: false });
      const page = pageRequest(args, INSIGHT_LIMITS.defaultLimit);
      return landingPagesOf(context.prisma, frame, { window: args.timePeriod ?? 'live', sort: args.sortBy ?? 'usageCount', order: args.order ?? 'desc', page });
    },
  }),
}));
