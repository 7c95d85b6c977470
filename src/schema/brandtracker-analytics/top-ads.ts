import { z } from 'zod';
import { validationError } from '../../errors.js';
import { PublicAd } from '../ads/types.js';
import { facebookPageId } from '../shared/ids.js';
import { builder } from '../builder.js';
import { deprecatedSnapshotDate } from '../shared/time.js';
import { listRef, pageArgs, pageRequest } from '../shared/list.js';
import { frameArgs, INSIGHT_LIMITS } from './args.js';
import { RankPeriod, TopAdStatus } from './enums.js';
import { frameOf, topAdsOf, type Frame, type RankedRow, type TopAdsPage } from './service.js';
import { TopAdMetrics, TopAdsMeta, TopAdsSort } from './types.js';

// GET /v1/brandtrackers/{brandtrackerId}/top-ads: the brand's current rankings, one ad per duplicate group, as
// { ad, metrics } (service/top-ads.ts); the overview's topAds section reads the same.

export type BrandtrackerTopAdRowValue = RankedRow;

export const BrandtrackerTopAdRow = builder.objectRef<RankedRow>('BrandtrackerTopAd').implement({
  description: 'A ranked ad of the brand: its Ad summary and ranking figures.',
  fields: (t) => ({
    ad: t.field({ type: PublicAd, resolve: (row) => row.ad }),
    metrics: t.field({ type: TopAdMetrics, resolve: (row) => row }),
  }),
});

// Its meta is its own (TopAdsMeta), not a ListMeta: declared as an extra field.
const TopAdsPageRef = listRef<RankedRow, TopAdsPage>('BrandtrackerTopAdsPage', BrandtrackerTopAdRow, {
  style: 'page',
  fields: (t) => ({ meta: t.field({ type: TopAdsMeta, nullable: true, description: 'Present when nothing matched.', resolve: (page) => page.meta }) }),
});

/** The reference's rule: allFacebookPages cannot be combined with facebookPageId. */
const pagesRule = z.looseObject({ facebookPageId: z.string().nullish(), allFacebookPages: z.boolean().nullish() }).superRefine((args, ctx) => {
  if (args.allFacebookPages && args.facebookPageId != null) {
    ctx.addIssue({ code: 'custom', path: ['allFacebookPages'], message: '{name} cannot be combined with facebookPageId' });
  }
});

/**
 * A brandtracker here tracks one Facebook page, its primary one: facebookPageId must be that page (the reference
 * takes only a page "belonging to this brandtracker"), and allFacebookPages reads that same page.
 */
function checkPage(frame: Frame, pageId: string | null | undefined): void {
  if (pageId == null || pageId === frame.pageId) return;
  throw validationError([{ argument: 'facebookPageId', expected: ["facebookPageId must be the brandtracker's Facebook page"] }]);
}

builder.queryFields((t) => ({
  brandtrackerTopAds: t.field({
    type: TopAdsPageRef,
    authScopes: { workspace: true },
    description:
      "Current rankings of a brandtracker's ads (GET /v1/brandtrackers/{brandtrackerId}/top-ads), one per duplicate group: sortBy currentRank for the page rank, " +
      'rankDelta7d/14d/30d for movers, reach* for reach rankings. period and snapshotDate are accepted and ignored. ' +
      "A brandtracker tracks one Facebook page: facebookPageId must be that page, and allFacebookPages reads it too.",
    args: {
      ...frameArgs({ euOnly: false, snapshot: false }),
      ...pageArgs(INSIGHT_LIMITS),
      facebookPageId: t.arg.string({ description: "The brandtracker's Facebook page (the only one it has); omitted: that page.", validate: facebookPageId }),
      allFacebookPages: t.arg.boolean({ description: "All the brandtracker's Facebook pages: its one page. Cannot be combined with facebookPageId." }),
      sortBy: t.arg({ type: TopAdsSort, defaultValue: 'currentRank' }),
      status: t.arg({ type: TopAdStatus, description: 'Which ads by activity (default active); takes precedence over includeInactive.' }),
      includeInactive: t.arg.boolean({ deprecationReason: 'Use status: without status, true means status all.' }),
      period: t.arg({ type: RankPeriod, deprecationReason: 'Accepted and ignored: the rankings are current.' }),
      snapshotDate: t.arg.string({ deprecationReason: 'Accepted and ignored: the rankings are current.', validate: deprecatedSnapshotDate }),
    },
    validate: pagesRule,
    resolve: async (_root, args, context, info) => {
      // snapshotDate is ignored: the frame is read without it.
      const frame = await frameOf(context, { brandtrackerId: args.brandtrackerId, euOnly: args.euOnly }, { euOnly: false });
      checkPage(frame, args.facebookPageId);
      const status = args.status ?? (args.includeInactive ? 'all' : 'active');
      return topAdsOf(context, info, frame, { sortBy: args.sortBy ?? 'currentRank', page: pageRequest(args, INSIGHT_LIMITS.defaultLimit), status });
    },
  }),
}));
