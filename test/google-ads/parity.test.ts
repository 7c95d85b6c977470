import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import { graphqlData, restBody, withoutRequestId } from '../support/assertions.js';
import { googleAdsScenario } from './scenario.js';

// GraphQL and REST run the same resolvers: the Google Ads routes give the same rows on both surfaces.

const GOOGLE_QUERY = `query Google($search: [String!], $status: GoogleAdStatusFilter, $networks: [GoogleAdNetwork!], $audienceCountries: GoogleAdsAudienceCountries, $sortBy: GoogleAdsSort, $order: SortOrder, $limit: Int) {
  googleAdsQuery(search: $search, status: $status, networks: $networks, audienceCountries: $audienceCountries, sortBy: $sortBy, order: $order, limit: $limit) {
    data {
      id googleAdId status network firstSeenAt lastSeenAt daysRunning
      media { type url format }
      advertiser { id name shopName domain websiteId logoUrl liveAds { all search shopping maps youtube other } }
      reach { value lowerBound upperBound }
      audience { mainCountry countries { countryCode share } remarketing interest }
    }
    pagination { page limit total totalPages } meta { totalRelation }
  }
}`;

const FACETS = `query Facets($search: String, $limit: Int, $offset: Int) {
  googleAdsNetworkFacets { data { value label adsCount } }
  googleAdsCountryFacets(search: $search, limit: $limit, offset: $offset) { data { value label adsCount } pagination { limit offset total } }
  googleAdsCategoryFacets(limit: $limit, offset: $offset) { data { id name path parentId advertiserUsageCount } pagination { limit offset total } }
}`;

let t: TestApp;
let key: string;
beforeAll(async () => {
  t = await createTestApp(googleAdsScenario);
  ({ apiKey: key } = await t.newKey());
});
afterAll(() => t?.close());

const gql = (query: string, variables: Record<string, unknown>) => graphqlData(t, key, query, variables);
const rest = (method: string, path: string, body?: unknown) => restBody(t, key, method, path, body);

describe('Google Ads on both surfaces', () => {
  it('POST query and googleAdsQuery', async () => {
    const body = { search: ['glow', 'dental'], status: 'active', networks: ['search', 'youtube', 'maps'], audienceCountries: { exclude: ['FR'] }, sortBy: 'reach', order: 'asc', limit: 10 };
    const { googleAdsQuery } = await gql(GOOGLE_QUERY, body);
    expect(googleAdsQuery).toEqual(withoutRequestId(await rest('POST', '/google-ads/query', body)));
    expect(googleAdsQuery.data.map((ad: { googleAdId: string }) => ad.googleAdId)).toEqual(['CR00000000000000000004', 'CR00000000000000000001']);
  });

  it('facets', async () => {
    const data = await gql(FACETS, { search: 'united', limit: 2, offset: 1 });
    expect(data.googleAdsNetworkFacets).toEqual(withoutRequestId(await rest('GET', '/google-ads/facets/networks')));
    expect(data.googleAdsCountryFacets).toEqual(withoutRequestId(await rest('GET', '/google-ads/facets/countries?search=united&limit=2&offset=1')));
    expect(data.googleAdsCategoryFacets).toEqual(withoutRequestId(await rest('GET', '/google-ads/facets/categories?limit=2&offset=1')));
  });
});
