// The products domain's public face: its operations, and all other domains and the transports may import of it besides
// types.ts (test/unit/domain-boundaries.test.ts). The SQL is in service/*.ts, which the domain's own files import.

export { searchProducts, type ProductFilter, type ProductSort } from './service/search.js';
export { productsByIds } from './service/by-ids.js';
export { productFacets } from './service/facets.js';
export { hasEuAccess } from './eu-access.js';
export { DEFAULT_CPM, withView } from './figures.js';
