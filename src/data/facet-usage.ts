import type { Queryable } from './bulk.js';

/**
 * Recounts the facets' `usageCount` (shops using each Shopify app, technology, pixel, theme and category) from
 * the shop tables. Run after a market load and after an import that adds shops. OWNED BY: shop-profiles work (scaffold).
 */
export async function refreshFacetUsage(_client: Queryable): Promise<void> {}
