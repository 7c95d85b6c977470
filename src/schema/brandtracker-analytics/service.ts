// The tracked-brand analytics' public face and the index of their SQL (service/): one brand (the per-brandtracker
// routes), or all the brands the workspace tracks (the workspace routes, workspace.ts). A per-brandtracker route
// resolves its frame first (service/frame.ts: which brand, its page, EU-only, the CPM, the snapshot day), then runs
// its statements; the ranked ads and grouped aggregates run the workspace routes' statements on a scope of that one
// brandtracker.
//   service/frame.ts               the frame, and how it narrows the brand's ads (windows, periods, the snapshot)
//   service/ad-filters.ts          the brand's ad lists' filter (ads, partnership-ads, timeline, testing) for the ads search
//   service/timeline.ts            the timeline's page and metadata
//   service/testing.ts             the creative-testing batches
//   service/top-ads.ts             the brand's ranked ads (ranked-ads.ts on its one brandtracker)
//   service/landing-pages.ts       the brand's landing pages (aggregates.ts on its one brandtracker)
//   service/series.ts              the daily series (time-series, the overview's graph)
//   service/evolution.ts           the evolution of ad copies, headlines and landing pages
//   service/media-mix.ts, creatives.ts, partners.ts, demography.ts, overview.ts: one per-brandtracker route's statement each
//   service/scope.ts               which tracked brands a call covers (the CTE every ranking and aggregate starts from)
//   service/aggregates.ts          hooks, ad copies, headlines, transcripts and landing pages grouped, over a window of ads
//   service/stored-groups.ts       the same groups read from the per-page precomputed groups (the workspace routes)
//   service/ranked-ads.ts          ranked ads (top-ads, scaling-ads) and their rank trajectories
//   service/ranked-rows.ts         a ranked page with its Ad summaries; the rank movers
//   service/workspace-media-mix.ts each of the workspace's brands' active ads by format

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
export { scopeSelect, adsOfScope, type AnalyticsScope, type BrandtrackerOfRow } from './service/scope.js';
export { groupPage, type GroupKind, type GroupRow, type GroupSort } from './service/aggregates.js';
export { storedGroupPage, type StoredGroupKind } from './service/stored-groups.js';
export { rankedAdsPage, rankedOrder, type RankDeltaWindow, type RankedAdsSort, type TrajectoryPoint } from './service/ranked-ads.js';
export { scalingAdsPage, withAds, type RankedRow, type TopAdsMetaValue } from './service/ranked-rows.js';
export { mediaMixPage, type MixRow } from './service/workspace-media-mix.js';
