// The workspace analytics' public face and the index of its SQL (service/): what the workspace routes (queries.ts)
// and the per-brandtracker analytics call. The per-brandtracker analytics run the same statements on a scope of one
// brandtracker.
//   service/scope.ts          which tracked brands a call covers (the CTE every statement starts from)
//   service/aggregates.ts     hooks, ad copies, headlines, transcripts and landing pages grouped, over a window of ads
//   service/stored-groups.ts  the same groups read from the per-page precomputed groups (the workspace routes)
//   service/ranked-ads.ts     ranked ads (top-ads, scaling-ads) and their rank trajectories
//   service/ranked-rows.ts    a ranked page with its Ad summaries; the rank movers
//   service/media-mix.ts      each brand's active ads by format

export { scopeSelect, adsOfScope, countsTotal, type AnalyticsScope, type BrandtrackerOfRow } from './service/scope.js';
export { groupPage, type GroupKind, type GroupRow, type GroupSort } from './service/aggregates.js';
export { storedGroupPage, type StoredGroupKind } from './service/stored-groups.js';
export { rankedAdsPage, rankedOrder, trajectories, type RankDeltaWindow, type RankedAd, type RankedAdsSort, type TrajectoryPoint } from './service/ranked-ads.js';
export { scalingAdsPage, withAds, type RankedRow, type ScalingSortValue, type TopAdsMetaValue } from './service/ranked-rows.js';
export { mediaMixPage, type FormatCount, type MixRow, type MediaMixSortValue } from './service/media-mix.js';
