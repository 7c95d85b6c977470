// The shops domain's public face: what other domains and the transports use of it (besides types.ts), and all they may
// import of it (test/unit/domain-boundaries.test.ts). It re-exports for now; its SQL moves here in #34's next steps.

export { findShopId } from './find.js';
export { activeAdsOf, shopFilterConditions, type ShopFilter } from './sql.js';
export { shopFigures, type ShopFigures } from './figures.js';
export { ShopDetailProfile, ShopTechnology, ShopTrustpilot, TECHNOLOGY_SELECT, trustpilotOf } from './detail.js';
