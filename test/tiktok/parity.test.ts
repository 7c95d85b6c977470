import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import { graphqlData, restBody, withoutRequestId } from '../support/assertions.js';
import { P_GLOW, SHOP_GLOW, T1, T3, T4, tiktokScenario } from './scenario.js';

// GraphQL and REST run the same resolvers: the TikTok routes give the same rows on both surfaces.

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
    pagination { page limit total totalPages } meta { totalRelation }
  }
}`;

const LIBRARY_QUERY = `query LibraryQuery($search: [String!], $keywordMode: KeywordMode, $hasShopLinked: YesNo, $minFollowers: Float, $sortBy: TikTokLibrarySort) {
  tiktokLibraryQuery(search: $search, keywordMode: $keywordMode, hasShopLinked: $hasShopLinked, minFollowers: $minFollowers, sortBy: $sortBy) {
    data { ${TIKTOK_FIELDS} }
    pagination { page limit total totalPages } meta { totalRelation }
  }
}`;

const ITEM = `query Item($itemId: String!) {
  tiktokLibraryItem(itemId: $itemId) {
    ${TIKTOK_FIELDS}
    links { tiktokUrl profileUrl }
    source { network sourceType tiktokPageId websiteId domain }
    provenance { source firstFetchedAt lastFetchedAt }
  }
}`;

const SHOP_LIBRARY = `query ShopLibrary($shopId: String!, $type: TikTokItemTypeFilter, $limit: Int) {
  shopTiktokLibrary(shopId: $shopId, type: $type, limit: $limit) {
    data { ${TIKTOK_FIELDS} }
    pagination { page limit total totalPages } meta { totalRelation }
  }
}`;

let t: TestApp;
let key: string;
beforeAll(async () => {
  t = await createTestApp(tiktokScenario);
  ({ apiKey: key } = await t.newKey());
});
afterAll(() => t?.close());

const gql = (query: string, variables: Record<string, unknown>) => graphqlData(t, key, query, variables);
const rest = (method: string, path: string, body?: unknown) => restBody(t, key, method, path, body);

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
