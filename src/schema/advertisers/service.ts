// The advertisers domain's public face: its operations, and all other domains and the transports may import of it
// besides types.ts (test/unit/domain-boundaries.test.ts). The SQL is in service/*.ts, which the domain's own files import.

export { searchAdvertisers, type AdvertiserFilter, type AdvertiserSort } from './service/search.js';
export { advertiserDetail } from './service/detail.js';
export { advertiserAds } from './service/ads.js';
export { mainLandingPages } from './service/landing-pages.js';
export { AdvertiserAdMediaType } from './enums.js';
