import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import { P_GLOW, SHOP_GLOW, T1, T3, T4, tiktokGoogleScenario } from '../support/tiktok-google-scenarios.js';

// GraphQL and REST run the same resolvers: the TikTok and Google Ads routes give the same rows on both surfaces.

const TIKTOK_FIELDS = `
  id tiktokId type status isPinned publishedAt createdAt updatedAt indexedAt daysRunning
  media { type thumbnailUrl mediaUrl videoUrl imageUrls medias { type url order } durationSec mediaCount imageCount }
  content { description language category hashtags music { id title author } }
  metrics { views likes comments saves shares reposts engagementRate rank rankPercent relevanceScore deltaRank3d deltaRank7d deltaRank14d deltaRank30d }
  profile { id handle name avatarUrl bio bioUrl accountType secUid followers following totalTikToks newTikToks percentAds views likes pageCreation }
  shop { id domain name logoUrl faviconUrl countryCode monthlyVisits trafficGrowth30d productsCount googleCategoryIds }
  pin { isCurrent firstPinnedAt lastPinnedAt lastUnpinnedAt }
  pageSnapshot { recordedAt adsCount organicCount totalTikToks dailyViews dailyLikes dailyFollowers }
`;

const LIBRARY = `query Library($search: String, $sortBy: TikTokLibrarySort, $order: SortOrder, $limit: Int, $page: Int, $hashtags: [String!], $languages: [String!]) {
  tiktokLibrary(search: $search, sortBy: $sortBy, order: $order, limit: $limit, page: $page, hashtags: $hashtags, languages: $languages) {
    data { ${TIKTOK_FIELDS} }
    pagination { page limit total totalPages }
  }
}`;

const LIBRARY_QUERY = `query LibraryQuery($search: [String!], $keywordMode: KeywordMode, $hasShopLinked: YesNo, $minFollowers: Float, $sortBy: TikTokLibrarySort) {
  tiktokLibraryQuery(search: $search, keywordMode: $keywordMode, hasShopLinked: $hasShopLinked, minFollowers: $minFollowers, sortBy: $sortBy) {
    data { ${TIKTOK_FIELDS} }
    pagination { page limit total totalPages }
  }
}`;

const ITEM = `query Item($itemId: String!) {
  tiktokLibraryItem(itemId: $itemId) {
    ${TIKTOK_FIELDS}
    links { tiktokUrl profileUrl }
    source { network sourceType tiktokPageId websiteId domain }
  }
}`;

const SHOP_LIBRARY = `query ShopLibrary($shopId: String!, $type: TikTokItemTypeFilter, $limit: Int) {
  shopTiktokLibrary(shopId: $shopId, type: $type, limit: $limit) {
    data { ${TIKTOK_FIELDS} }
    pagination { page limit total totalPages }
  }
}`;

const GOOGLE_QUERY = `query Google($search: [String!], $status: GoogleAdStatusFilter, $networks: [GoogleAdNetwork!], $audienceCountries: GoogleAdsAudienceCountries, $sortBy: GoogleAdsSort, $order: SortOrder, $limit: Int) {
  googleAdsQuery(search: $search, status: $status, networks: $networks, audienceCountries: $audienceCountries, sortBy: $sortBy, order: $order, limit: $limit) {
    data {
      id googleAdId status network firstSeenAt lastSeenAt daysRunning
      media { type url format }
      advertiser { id name shopName domain websiteId logoUrl liveAds { all search shopping maps youtube other } }
      reach { value lowerBound upperBound }
      audience { mainCountry countries { countryCode share } remarketing interest }
    }
    pagination { page limit total totalPages }
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
  t = await createTestApp(tiktokGoogleScenario);
  ({ apiKey: key } = await t.newKey());
});
afterAll(() => t?.close());

async function gql(query: string, variables: Record<string, unknown>) {
  const res = await t.graphql(query, variables, key);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.errors).toBeUndefined();
  return res.body.data;
}

async function rest(method: string, path: string, body?: unknown) {
  const res = await t.rest(method, path, { key, body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

const withoutRequestId = ({ requestId: _requestId, ...rest }: Record<string, unknown>) => rest;

describe('TikTok library on both surfaces', () => {
  it('GET list and tiktokLibrary', async () => {
    const variables = { search: 'skincare or gym', sortBy: 'views', order: 'asc', limit: 2, page: 1 };
    const { tiktokLibrary } = await gql(LIBRARY, variables);
    expect(tiktokLibrary).toEqual(withoutRequestId(await rest('GET', '/tiktok/library?search=skincare%20or%20gym&sortBy=views&order=asc&limit=2&page=1')));
    expect(tiktokLibrary.pagination).toEqual({ page: 1, limit: 2, total: 4, totalPages: 2 }); // T3 by its creator, ava.skincare
    const filtered = await gql(LIBRARY, { hashtags: ['#SkinCare'], languages: ['French'] });
    expect(filtered.tiktokLibrary).toEqual(withoutRequestId(await rest('GET', '/tiktok/library?hashtags=%23SkinCare&languages=French')));
    expect(filtered.tiktokLibrary.data).toHaveLength(1);
  });

  it('POST query and tiktokLibraryQuery', async () => {
    const body = { search: ['summer', 'serum'], keywordMode: 'any', hasShopLinked: 'no', minFollowers: 1000, sortBy: 'engagementRate' };
    const { tiktokLibraryQuery } = await gql(LIBRARY_QUERY, body);
    expect(tiktokLibraryQuery).toEqual(withoutRequestId(await rest('POST', '/tiktok/library/query', body)));
    expect(tiktokLibraryQuery.data.map((item: { tiktokId: string }) => item.tiktokId)).toEqual([T3, '7512345678901234563']);
  });

  it.each([`tiktok_${T1}`, T1, T4])('item detail %s, with 64-bit ids intact', async (itemId) => {
    const { tiktokLibraryItem } = await gql(ITEM, { itemId });
    expect(tiktokLibraryItem).toEqual((await rest('GET', `/tiktok/library/${itemId}`)).data);
    expect(tiktokLibraryItem.tiktokId).toBe(itemId.replace('tiktok_', ''));
    expect(tiktokLibraryItem.profile.id).toMatch(/^\d{19}$/);
  });

  it('shop-scoped list', async () => {
    const { shopTiktokLibrary } = await gql(SHOP_LIBRARY, { shopId: SHOP_GLOW, type: 'organic', limit: 5 });
    expect(shopTiktokLibrary).toEqual(withoutRequestId(await rest('GET', `/shops/${SHOP_GLOW}/tiktok/library?type=organic&limit=5`)));
    expect(shopTiktokLibrary.data[0].profile.id).toBe(P_GLOW);
  });

  it('the same validation error on GraphQL', async () => {
    const res = await t.graphql(LIBRARY, { limit: 51 }, key);
    expect(res.body.errors[0].extensions.code).toBe('validation_error');
    expect(res.body.errors[0].extensions.details.validationErrors).toEqual([{ field: 'limit', location: 'argument', expected: ['limit must not be greater than 50'] }]);
    const missing = await t.graphql(ITEM, { itemId: 'tiktok_1' }, key);
    expect(missing.body.errors[0].extensions.code).toBe('not_found');
  });
});

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
