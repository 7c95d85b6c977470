import { z } from 'zod';
import { PublicAd } from '../ads/types.js';
import { builder } from '../builder.js';
import { listRef, pageListRef, type PagePagination, type RowPage } from '../shared/list.js';
import { cpmArg, frameArgs, seriesPeriod } from './args.js';
import { SnapshotMetaRef, TopAdsSort } from './types.js';
import { RankPeriod, SeriesGranularity, TimeWindow } from './enums.js';
import { LandingPagePageRef } from './landing-pages.js';
import { MediaMixRef } from './media-mix.js';
import { MAX_SERIES_DAYS, seriesRange, seriesRangeRule, TimeSeriesRef } from './series.js';
import { adsPreviewOf, frameOf, landingPagesOf, mediaMixOf, snapshotMeta, timeSeriesOf, topAdsOf, type SeriesPeriod } from './service.js';
import { BrandtrackerTopAdRow } from './top-ads.js';

// GET /v1/brandtrackers/{brandtrackerId}/overview: the dashboard of one brand, five sections read at once after the
// frame: the graph, the media mix, the top landing pages, the top ads and a preview of the latest ads. At most nine
// statements: the frame, then concurrently the graph (1), the mix (1), the landing pages (1), the top ads (2) and
// the preview (3: its page, its count, its ads).

type Sections = [
  Awaited<ReturnType<typeof timeSeriesOf>>, Awaited<ReturnType<typeof mediaMixOf>>, Awaited<ReturnType<typeof landingPagesOf>>,
  Awaited<ReturnType<typeof topAdsOf>>, RowPage,
];
type Overview = { sections: Sections; meta: ReturnType<typeof snapshotMeta> };

const TopAdsSection = listRef<Sections[3]['data'][number], { data: Sections[3]['data']; pagination: PagePagination }>('BrandtrackerOverviewTopAds', BrandtrackerTopAdRow, {
  style: 'page',
});

const AdsPreview = pageListRef('BrandtrackerOverviewAdsPreview', PublicAd, "The brand's latest ads, one per duplicate group, newest first.");

const OverviewRef = builder.objectRef<Sections>('BrandtrackerOverview').implement({
  fields: (t) => ({
    graph: t.field({ type: TimeSeriesRef, resolve: (s) => s[0] }),
    mediaMix: t.field({ type: MediaMixRef, resolve: (s) => s[1] }),
    topLandingPages: t.field({ type: LandingPagePageRef, description: 'By usage, in landingPagesTimePeriod.', resolve: (s) => s[2] }),
    topAds: t.field({ type: TopAdsSection, description: 'Current rankings, as GET /top-ads (the snapshot day does not apply).', resolve: (s) => s[3] }),
    adsPreview: t.field({ type: AdsPreview, resolve: (s) => s[4] }),
  }),
});

const OverviewResponse = builder.objectRef<Overview>('BrandtrackerOverviewResponse').implement({
  fields: (t) => ({
    data: t.field({ type: OverviewRef, resolve: (response) => response.sections }),
    meta: t.field({ type: SnapshotMetaRef, description: 'The snapshot day the graph, media mix, landing pages and preview read.', resolve: (response) => response.meta }),
  }),
});

const sectionLimit = (max: number, fallback: number, what: string) =>
  builder.args((t) => ({ limit: t.int({ defaultValue: fallback, description: `${what}, 1..${max} (default ${fallback}).`, validate: z.number().int().min(1).max(max) }) })).limit;

const RANGE = { period: 'timeSeriesPeriod', startDate: 'timeSeriesStartDate', endDate: 'timeSeriesEndDate' };

builder.queryFields((t) => ({
  brandtrackerOverview: t.field({
    type: OverviewResponse,
    authScopes: { workspace: true },
    description:
      "A brandtracker's dashboard (GET /v1/brandtrackers/{brandtrackerId}/overview): graph, media mix, top landing pages, top ads and the latest ads. " +
      'The graph covers timeSeriesPeriod, or timeSeriesStartDate..timeSeriesEndDate (inclusive; the end defaults to today or the snapshot day, the start to ' +
      `${MAX_SERIES_DAYS - 1} days before the end; at most ${MAX_SERIES_DAYS} days), never both kinds; timeSeriesEndDate not with snapshotDate (which is then the end).`,
    args: {
      ...frameArgs({ euOnly: false, snapshot: true }),
      ...cpmArg({ min: 0.01, max: 10000 }),
      timeSeriesGranularity: t.arg({ type: SeriesGranularity, defaultValue: 'daily' }),
      timeSeriesStartDate: t.arg({ type: 'Date', description: 'First day of the graph (inclusive); not with timeSeriesPeriod.' }),
      timeSeriesEndDate: t.arg({ type: 'Date', description: 'Last day of the graph (inclusive); not with timeSeriesPeriod.' }),
      timeSeriesPeriod: t.arg.string({ description: 'today, yesterday, 1d, 7d, 14d, 30d, 90d or 365d, ending on the snapshot day (today without one).', validate: seriesPeriod }),
      landingPagesTimePeriod: t.arg({ type: TimeWindow, defaultValue: 'live' }),
      landingPagesLimit: sectionLimit(20, 5, 'Top landing pages'),
      topAdsLimit: sectionLimit(20, 5, 'Top ads'),
      adsPreviewLimit: sectionLimit(50, 10, 'Ads in the preview'),
      topAdsSortBy: t.arg({ type: TopAdsSort, description: 'Default reach when euOnly is true, daysRunning otherwise.' }),
      topAdsPeriod: t.arg({ type: RankPeriod, defaultValue: 'total', description: 'Top ads seen in the period (last seen on or after its start).' }),
    },
    validate: seriesRangeRule(RANGE),
    resolve: async (_root, args, context, info) => {
      const frame = await frameOf(context, args, { euOnly: false });
      const range = seriesRange(frame, { startDate: args.timeSeriesStartDate, endDate: args.timeSeriesEndDate, period: args.timeSeriesPeriod as SeriesPeriod | null }, RANGE);
      const sortBy = args.topAdsSortBy ?? (frame.euOnly ? 'reach' : 'daysRunning');
      const sections = await Promise.all([
        timeSeriesOf(context.prisma, frame, range, args.timeSeriesGranularity ?? 'daily'),
        mediaMixOf(context.prisma, frame),
        landingPagesOf(context.prisma, frame, { window: args.landingPagesTimePeriod ?? 'live', sort: 'usageCount', order: 'desc', page: { page: 1, limit: args.landingPagesLimit ?? 5 } }),
        topAdsOf(context, info, frame, { sortBy, page: { page: 1, limit: args.topAdsLimit ?? 5 }, period: args.topAdsPeriod ?? 'total' }, ['data', 'topAds', 'data', 'ad']),
        adsPreviewOf(context, info, frame, args.adsPreviewLimit ?? 10),
      ]);
      const day = frame.snapshot.resolved?.toISOString().slice(0, 10);
      return { sections, meta: snapshotMeta(frame, day ? `Read at the snapshot day ${day}; topAds are current.` : 'Live data.') };
    },
  }),
}));
