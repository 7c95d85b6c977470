// The shops domain's public face: its operations, and all other domains and the transports may import of it besides
// types.ts (test/unit/domain-boundaries.test.ts). The SQL is in service/*.ts, which the domain's own files import.

export { findShopId, shopDetail, shopsByIds } from './service/find.js';
export { activeAdsOf, searchShops, shopFilterConditions, type ShopFilter, type ShopSort } from './service/search.js';
export { similarShops } from './service/similar.js';
export { shopAdvertisers, shopProducts, shopSalesHistory, shopSocialsHistory } from './service/resources.js';
export { shopFigures, type ShopFigures } from './service/figures-loader.js';
export { ShopDetailProfile, ShopTechnology, ShopTrustpilot, TECHNOLOGY_SELECT, trustpilotOf } from './detail.js';
