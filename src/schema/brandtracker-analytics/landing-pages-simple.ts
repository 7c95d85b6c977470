import { builder } from '../builder.js';
import { listRef, pageRequest } from '../shared/list.js';
import { frameArgs, INSIGHT_LIMITS, insightArgs, orderArg } from './args.js';
import { SimpleSort } from './enums.js';
import { frameOf, groupPage, windowSql, type GroupRow } from './service.js';
import { LandingPageScreenshots, LandingPageTechnology } from './types.js';

// GET /v1/brandtrackers/{brandtrackerId}/landing-pages/simple: the landing pages the brand's ads in the window link,
// grouped by normalized URL (query strings, fragments, trailing slashes and a leading www. ignored).

const SimpleLandingPage = builder.objectRef<GroupRow>('BrandtrackerLandingPageSimple').implement({
  fields: (t) => ({
    landingPage: t.string({
      description: "Representative URL (the page of the group's most-reached ad) without query string, fragment or trailing slash.",
      resolve: (row) => row.landingPage?.url ?? row.key,
    }),
    normalizedLandingPage: t.exposeString('key', { description: 'The grouping key: the URL with its host lowercased, without www., query string or fragment.' }),
    usageCount: t.exposeInt('usageCount', { description: 'Ads of the window linking it.' }),
    activeAdsCount: t.exposeInt('activeAdsCount', {
      description: 'Of those, the ads running at the frame (active now, or on the snapshot day): usageCount for the live window.',
    }),
    technologies: t.field({ type: [LandingPageTechnology], resolve: (row) => row.landingPage?.technologies ?? [] }),
    screenshots: t.field({ type: LandingPageScreenshots, resolve: (row) => row.landingPage?.screenshots ?? { desktop: null, mobile: null, head: null } }),
  }),
});

const SimplePage = listRef('BrandtrackerLandingPagesSimplePage', SimpleLandingPage, { style: 'page', description: "A brandtracker's landing pages, grouped by normalized URL." });

builder.queryFields((t) => ({
  brandtrackerLandingPagesSimple: t.field({
    type: SimplePage,
    authScopes: { workspace: true },
    description:
      "A brandtracker's landing pages grouped by normalized URL (GET /v1/brandtrackers/{brandtrackerId}/landing-pages/simple), " +
      'over every ad of the window (duplicates included); with snapshotDate the window is evaluated at that snapshot day.',
    args: {
      ...frameArgs({ euOnly: false, snapshot: true }),
      ...insightArgs(),
      ...orderArg(),
      sortBy: t.arg({ type: SimpleSort, defaultValue: 'usageCount' }),
    },
    resolve: async (_root, args, context) => {
      const frame = await frameOf(context, args, { euOnly: false });
      return groupPage(context.prisma, {
        scope: { workspaceId: frame.workspaceId, brandtrackerIds: [frame.brandtrackerId] },
        kind: 'normalizedLandingPage',
        euOnly: frame.euOnly,
        window: windowSql(frame, args.timePeriod ?? 'live'),
        active: windowSql(frame, 'live'),
        sort: args.sortBy ?? 'usageCount',
        order: args.order ?? 'desc',
        page: pageRequest(args, INSIGHT_LIMITS.defaultLimit),
      });
    },
  }),
}));
