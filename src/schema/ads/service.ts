// The ads domain's public face: what other domains and the transports use of it (besides types.ts), and all they may
// import of it (test/unit/domain-boundaries.test.ts). The SQL is in service/: search.ts (the lists: filter,
// conditions, order, the page of ids, the count, adsByIds), detail.ts (one ad: detail, media, reach history),
// landing-pages.ts and share.ts.

export { sharedAdPage, type SharedAdPage } from './service/share.js';
export { adsByIds, countAds, exportedAds, searchAds, type AdFilter, type AdSort } from './service/search.js';
export { DEFAULT_CPM, withCpm } from './types.js';
export { filterFromListArgs, filterFromQueryArgs, normaliseAdId } from './args.js';

// used by brandtracker analytics
export { AD_FROM, conditions, DAYS_RUNNING, orderBy, textRank, type AdSortValue, type ReachPeriodValue } from './service/search.js';
export { AdPageRef } from './queries.js';
export { daysRunning } from './types.js';
// GraphQL argument pieces: types.ts registers the object types before the list toolkit's, so it cannot import args.ts
export { adCopyHashes, adsQueryArgs, RankDirection, strings } from './args.js';
