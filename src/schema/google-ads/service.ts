import type { Context } from '../../context.js';
import { loadIdPage } from '../shared/id-page.js';
import type { RowPage } from '../shared/pagination.js';
import { searchGoogleAdIds, type GoogleAdsFilter, type GoogleAdsSort } from './service/search.js';

// The Google Ads domain's public face and the home of its SQL: the library list (its engine in service/search.ts)
// and the facet lists of its filters (service/facets.ts).

export type { GoogleAdsFilter, GoogleAdsSort, GoogleAdsSortValue } from './service/search.js';
export {
  googleAdsCategoryFacets, googleAdsCountryFacets, googleAdsNetworkFacets, type GoogleAdsCategoryFacet, type GoogleAdsFacetValue,
} from './service/facets.js';

/** A page of the Google Ads library: finds the page of ids, then loads the selected fields for them in the same order. */
export async function searchGoogleAds(context: Context, select: object, filter: GoogleAdsFilter, sort: GoogleAdsSort, page: { page: number; limit: number }): Promise<RowPage> {
  const { prisma } = context;
  const found = await searchGoogleAdIds(prisma, filter, sort, page);
  return loadIdPage(found, page, (ids) => prisma.googleAd.findMany({ where: { id: { in: ids } }, relationLoadStrategy: 'join', ...select }));
}
