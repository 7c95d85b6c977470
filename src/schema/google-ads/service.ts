// The Google Ads domain's public face and the home of its SQL: the library list (its engine in service/search.ts)
// and the facet lists of its filters (service/facets.ts).

export { searchGoogleAds, type GoogleAdsFilter, type GoogleAdsSort, type GoogleAdsSortValue } from './service/search.js';
export {
  googleAdsCategoryFacets, googleAdsCountryFacets, googleAdsNetworkFacets, type GoogleAdsCategoryFacet, type GoogleAdsFacetValue,
} from './service/facets.js';
