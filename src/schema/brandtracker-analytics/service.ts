// The per-brandtracker analytics' public face and the index of their SQL (service/). Every route resolves its frame
// first (service/frame.ts: which brand, its page, EU-only, the CPM, the snapshot day), then runs its statements:
//   service/frame.ts          the frame, and how it narrows the brand's ads (windows, periods, the snapshot)
//   service/ad-filters.ts     the brand's ad lists' filter (ads, partnership-ads, timeline, testing) for the ads search
//   service/timeline.ts       the timeline's page and metadata
//   service/testing.ts        the creative-testing batches
//   service/top-ads.ts        the ranked ads (the workspace analytics' ranked ads on one brandtracker)
//   service/landing-pages.ts  the landing pages (the workspace analytics' grouped aggregates on one brandtracker)
//   service/series.ts         the daily series (time-series, the overview's graph)
//   service/evolution.ts      the evolution of ad copies, headlines and landing pages
//   service/media-mix.ts, creatives.ts, partners.ts, demography.ts, overview.ts: one route's statement each

export {
  adsOf, frameOf, periodStart, RANK_PERIODS, SERIES_PERIODS, seriesDays, snapshotMeta, spendSql, TIME_WINDOWS, windowNote, windowSql,
  type Frame, type RankPeriod, type SeriesPeriod, type TimeWindow,
} from './service/frame.js';
export { adCountriesOf, brandAdFilter, type BrandAdFilterArgs } from './service/ad-filters.js';
export { timelineMetadata, timelinePage, type TimelineMetadata } from './service/timeline.js';
export { MAX_ADS_PER_BATCH, testing, WINNER_DAYS, type Batch, type TestingPage } from './service/testing.js';
export { topAdsOf, type TopAdsPage, type TopAdsRequest } from './service/top-ads.js';
export { landingPagesOf, type LandingPageOverview, type LandingPagePage } from './service/landing-pages.js';
export { GRANULARITIES, timeSeriesOf, type CountPoint, type DateRange, type ImpressionsPoint, type TimeSeries } from './service/series.js';
export { evolutionPage, type EvolutionKind, type EvolutionPoint, type EvolutionSeries } from './service/evolution.js';
export { mediaMixNote, mediaMixOf, type FormatCount, type MediaMix } from './service/media-mix.js';
export { creativesPage, type Creative } from './service/creatives.js';
export { partnersPage, type Partner } from './service/partners.js';
export { demographyOf, type Demography, type Point } from './service/demography.js';
export { adsPreviewOf } from './service/overview.js';
