import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import { expectViolation } from '../support/assertions.js';
import { idsOf } from '../support/discovery-helpers.js';
import { statementsOf } from '../support/statements.js';
import { discoveryScenario, P_GLOW, P_LAB, P_PEAK, P_URBAN } from '../support/discovery-scenario.js';

// GET /v1/advertisers and POST /v1/advertisers/query on the discovery scenario (figures in its header).

let t: TestApp;
let key: string;
beforeAll(async () => {
  t = await createTestApp(discoveryScenario);
  ({ apiKey: key } = await t.newKey());
});
afterAll(() => t?.close());

const get = (query: string) => t.rest('GET', `/advertisers${query}`, { key });
const post = (body: unknown) => t.rest('POST', '/advertisers/query', { key, body });
const sorted = (list: string[]) => [...list].sort();
const ALL = [P_GLOW, P_LAB, P_PEAK, P_URBAN];

describe('GET /v1/advertisers: search', () => {
  it('lists every advertiser by default, the most active first, with offset pagination and meta', async () => {
    const res = await get('');
    expect(idsOf(res)).toEqual([P_GLOW, P_PEAK, P_LAB, P_URBAN]);
    expect(res.body.pagination).toEqual({ limit: 20, offset: 0, total: 4 });
    expect(res.body.meta).toEqual({ isTruncated: false, totalRelation: 'eq' });
    const page = await get('?limit=2&offset=1');
    expect(idsOf(page)).toEqual([P_PEAK, P_LAB]);
    expect(page.body.pagination).toEqual({ limit: 2, offset: 1, total: 4 });
  });

  it('brand search matches words of the name; keywordMode all needs every keyword', async () => {
    expect(sorted(idsOf(await get('?search=glow')))).toEqual([P_GLOW, P_LAB]);
    expect(sorted(idsOf(await get('?search=nordic,studio')))).toEqual([P_GLOW, P_LAB]);
    expect(idsOf(await get('?search=glow,studio&keywordMode=all'))).toEqual([P_LAB]);
    expect(idsOf(await get('?search=peak&searchType=brand'))).toEqual([P_PEAK]);
  });

  it('repeated and comma-separated keywords give the same result', async () => {
    const comma = await get('?search=glow,fitness&sortBy=followers');
    const repeated = await get('?search=glow&search=fitness&sortBy=followers');
    expect(idsOf(comma)).toEqual([P_PEAK, P_GLOW, P_LAB]);
    expect(repeated.body.data).toEqual(comma.body.data);
  });

  it('domain search finds the pages linked to a shop on the domain, from a URL too', async () => {
    expect(sorted(idsOf(await get('?searchType=domain&search=glowlabstudio.com')))).toEqual([P_GLOW, P_LAB]);
    expect(idsOf(await get(`?searchType=domain&search=${encodeURIComponent('https://www.peakfitness.com/collections/all')}`))).toEqual([P_PEAK]);
    expect(idsOf(await get('?searchType=domain&search=fitness.com'))).toEqual([]);
  });
});

describe('GET /v1/advertisers: sorts', () => {
  const order = async (query: string) => idsOf(await get(query));

  it('each sort orders by its figure, descending by default and ascending on request', async () => {
    expect(await order('?sortBy=newest')).toEqual([P_LAB, P_PEAK, P_GLOW, P_URBAN]);
    expect(await order('?sortBy=newest&order=asc')).toEqual([P_GLOW, P_PEAK, P_LAB, P_URBAN]);
    expect(await order('?sortBy=activeAds&order=asc')).toEqual([P_URBAN, P_LAB, P_PEAK, P_GLOW]);
    expect(await order('?sortBy=followers')).toEqual([P_PEAK, P_GLOW, P_URBAN, P_LAB]);
    expect(await order('?sortBy=reach')).toEqual([P_PEAK, P_GLOW, P_URBAN, P_LAB]);
    expect(await order('?sortBy=reach&reachWindow=last7d')).toEqual([P_LAB, P_GLOW, P_PEAK, P_URBAN]);
    expect(await order('?sortBy=reach14d&order=asc')).toEqual([P_URBAN, P_PEAK, P_GLOW, P_LAB]);
    expect(await order('?sortBy=newAds')).toEqual([P_GLOW, P_LAB, P_PEAK, P_URBAN]);
    expect(await order('?sortBy=euAdsShare')).toEqual([P_GLOW, P_PEAK, P_LAB, P_URBAN]);
    expect(await order('?sortBy=euAdsShare&order=asc')).toEqual([P_LAB, P_URBAN, P_PEAK, P_GLOW]);
  });

  it('relevance ignores order: it is always descending', async () => {
    expect(await order('?sortBy=relevance&order=asc')).toEqual(await order('?sortBy=relevance'));
    expect(await order('?search=glow&order=asc')).toEqual(await order('?search=glow'));
  });
});

describe('GET /v1/advertisers: filters', () => {
  const found = async (query: string) => sorted(idsOf(await get(query)));

  it('page creation dates are inclusive bounds', async () => {
    expect(await found('?minFbPageCreationDate=2021-01-01')).toEqual([P_LAB, P_PEAK]);
    expect(await found('?maxFbPageCreationDate=2021-07-15')).toEqual([P_GLOW, P_PEAK]);
  });

  it('active ads, now or within adsTimePeriod', async () => {
    expect(await found('?minActiveAds=2')).toEqual([P_GLOW, P_PEAK]);
    expect(await found('?maxActiveAds=0')).toEqual([P_URBAN]);
    expect(await found('?minActiveAds=1&adsTimePeriod=current')).toEqual([P_GLOW, P_LAB, P_PEAK]);
    expect(await found('?minActiveAds=1&adsTimePeriod=last7d')).toEqual(ALL);
    expect(await found('?minActiveAds=1&adsTimePeriod=last24h')).toEqual([P_GLOW, P_LAB, P_PEAK]);
  });

  it('likes and Instagram followers', async () => {
    expect(await found('?minFacebookLikes=10000')).toEqual([P_GLOW, P_PEAK]);
    expect(await found('?maxInstagramFollowers=3000')).toEqual([P_PEAK, P_URBAN]);
  });

  it('ads launched within adsLaunchedPeriod (default 30 days), one per duplicate group', async () => {
    expect(await found('?minAdsLaunched=2')).toEqual([P_GLOW]);
    expect(await found('?minAdsLaunched=1&maxAdsLaunched=1&adsLaunchedPeriod=last90d')).toEqual([P_LAB, P_PEAK, P_URBAN]);
    expect(await found('?minAdsLaunched=1&adsLaunchedPeriod=last7d')).toEqual([P_GLOW, P_LAB]);
  });

  it('reach bounds over reachPeriod', async () => {
    expect(await found('?minReach=100000')).toEqual([P_PEAK]);
    expect(await found('?minReach=1000&reachPeriod=last14d')).toEqual([P_GLOW, P_LAB]);
    expect(await found('?maxReach=100&reachPeriod=last24h')).toEqual([P_GLOW, P_PEAK, P_URBAN]);
    expect(await found('?minReach=5000&reachPeriod=last30d')).toEqual([P_GLOW, P_PEAK]);
  });

  it('page type, categories of linked shops, Shopify, audience gender', async () => {
    expect(await found('?pageType=influencer')).toEqual([P_LAB]);
    expect(await found('?pageType=influencer,brand')).toEqual(ALL);
    expect(await found('?categoryIds=2915')).toEqual([P_GLOW, P_LAB]);
    expect(await found('?categoryIds=473,990')).toEqual(await found('?categoryIds=473&categoryIds=990'));
    expect(await found('?categoryIds=473,990')).toEqual([P_GLOW, P_PEAK]);
    expect(await found('?shopifyLinked=yes')).toEqual([P_GLOW, P_PEAK]);
    expect(await found('?shopifyLinked=no')).toEqual([P_LAB, P_URBAN]);
    expect(await found('?shopifyLinked=all')).toEqual(ALL);
    expect(await found('?gender=female')).toEqual([P_GLOW, P_LAB]);
    expect(await found('?gender=male')).toEqual([P_PEAK]);
  });

  it('bad values are a 400 naming the parameter', async () => {
    expectViolation(await get('?limit=0'), 'query-string.limit', ['limit must not be less than 1']);
    expectViolation(await get('?limit=101'), 'query-string.limit', ['limit must not be greater than 100']);
    expectViolation(await get('?offset=-1'), 'query-string.offset');
    expectViolation(await get('?sortBy=popular'), 'query-string.sortBy');
    expectViolation(await get('?searchType=adCopy'), 'query-string.searchType');
    expectViolation(await get('?keywordMode=some'), 'query-string.keywordMode');
    expectViolation(await get('?minReach=-1'), 'query-string.minReach');
    expectViolation(await get('?minActiveAds=1.5'), 'query-string.minActiveAds');
    expectViolation(await get('?minActiveAds=3000000000'), 'query-string.minActiveAds');
    expectViolation(await get('?minFbPageCreationDate=2021-13-01'), 'query-string.minFbPageCreationDate');
    expectViolation(await get('?pageType=creator'), 'query-string.pageType');
    expectViolation(await get('?categoryIds=abc'), 'query-string.categoryIds');
    expectViolation(await get('?gender=men'), 'query-string.gender');
    expectViolation(await get('?reachPeriod=last365d'), 'query-string.reachPeriod');
    expectViolation(await get(`?search=${'x'.repeat(501)}`), 'query-string.search');
  });

  it('unknown parameters are ignored', async () => {
    expect(idsOf(await get('?legacyFilter=1&sortBy=followers'))).toEqual([P_PEAK, P_GLOW, P_URBAN, P_LAB]);
  });
});

describe('POST /v1/advertisers/query', () => {
  const found = async (body: unknown) => sorted(idsOf(await post(body)));

  it('an empty body lists every advertiser; paging and sorting come from the body', async () => {
    const res = await post({});
    expect(sorted(idsOf(res))).toEqual(ALL);
    expect(res.body.meta).toEqual({ isTruncated: false, totalRelation: 'eq' });
    const page = await post({ sortBy: 'followers', order: 'asc', limit: 2, offset: 1 });
    expect(idsOf(page)).toEqual([P_URBAN, P_GLOW]);
    expect(page.body.pagination).toEqual({ limit: 2, offset: 1, total: 4 });
  });

  it('has the list parameters of GET, with the same answers', async () => {
    const viaGet = await get('?search=glow&minActiveAds=1&adsTimePeriod=current&pageType=brand&sortBy=reach');
    const viaPost = await post({ search: ['glow'], minActiveAds: 1, adsTimePeriod: 'current', pageType: ['brand'], sortBy: 'reach' });
    expect(idsOf(viaPost)).toEqual([P_GLOW]);
    expect(viaPost.body.data).toEqual(viaGet.body.data);
  });

  it('searches over ads: their copy or their landing pages', async () => {
    expect(await found({ searchType: 'adCopy', search: ['serum'] })).toEqual([P_GLOW]);
    expect(await found({ searchType: 'adCopy', search: ['serum', 'tutorial'] })).toEqual([P_GLOW, P_LAB]);
    expect(await found({ searchType: 'adCopy', search: ['serum', 'tutorial'], keywordMode: 'all' })).toEqual([]);
    expect(await found({ searchType: 'urlContains', search: ['glowlabstudio.com/routine'] })).toEqual([P_LAB]);
    expect(await found({ searchType: 'websiteCopy', search: ['/products/serum'] })).toEqual([P_GLOW]);
  });

  it('page niches: of the primary shop, of any linked shop, of none', async () => {
    expect(await found({ pageNiches: { main: [473] } })).toEqual([P_GLOW]);
    expect(await found({ pageNiches: { main: [2915] } })).toEqual([P_LAB]);
    expect(await found({ pageNiches: { among: [2915] } })).toEqual([P_GLOW, P_LAB]);
    expect(await found({ pageNiches: { exclude: [2915] } })).toEqual([P_PEAK, P_URBAN]);
  });

  it('categoryIds and pageNiches together are a validation error', async () => {
    expectViolation(await post({ categoryIds: [469], pageNiches: { main: [473] } }), 'body.pageNiches', ['pageNiches must not be sent together with categoryIds']);
  });

  it('technologies of a linked shop, ad countries, main countries, languages', async () => {
    expect(await found({ technologies: ['google-analytics'] })).toEqual([P_GLOW]);
    expect(await found({ technologies: ['woocommerce'] })).toEqual([P_GLOW, P_LAB]);
    expect(await found({ adCountries: { include: ['DE'] } })).toEqual([P_GLOW, P_PEAK]);
    expect(await found({ adCountries: { exclude: ['FR'] } })).toEqual([P_LAB, P_PEAK, P_URBAN]);
    expect(await found({ mainCountries: ['DE'] })).toEqual([P_PEAK]);
    expect(await found({ adLanguage: ['fr'] })).toEqual([P_GLOW]);
    expect(await found({ adLanguage: ['French'] })).toEqual([P_GLOW]);
  });

  it('partnership share, reach and spend per page', async () => {
    expect(await found({ minPartnershipPercentage: 50 })).toEqual([P_LAB]);
    expect(await found({ minPartnershipPercentage: 25 })).toEqual([P_GLOW, P_LAB]);
    expect(await found({ minReachPerPage: 10000, reachPerPagePeriod: 'total' })).toEqual([P_GLOW, P_PEAK]);
    expect(await found({ minSpendPerPage: 400 })).toEqual([P_GLOW, P_PEAK]);
    expect(await found({ minSpendPerPage: 400, cpm: 1 })).toEqual([P_PEAK]);
  });

  it('bad body fields are a 400 naming the field', async () => {
    expectViolation(await post({ limit: 101 }), 'body.limit');
    expectViolation(await post({ searchType: 'everything' }), 'body.searchType');
    expectViolation(await post({ pageType: ['creator'] }), 'body.pageType');
    expectViolation(await post({ adCountries: { include: ['XX'] } }), 'body.adCountries');
    expectViolation(await post({ adLanguage: ['klingon'] }), 'body.adLanguage');
    expectViolation(await post({ ageRanges: ['young'] }), 'body.ageRanges');
    expectViolation(await post({ minPartnershipPercentage: 101 }), 'body.minPartnershipPercentage');
    expectViolation(await post({ minReach: 1.5 }), 'body.minReach');
    expectViolation(await post({ pageNiches: { main: [-1] } }), 'body.pageNiches');
  });
});

describe('REST and GraphQL', () => {
  it('return the same rows', async () => {
    const rest = await get('?search=glow&sortBy=reach14d&limit=5');
    const gql = await t.graphql(
      `{ advertisers(search: ["glow"], sortBy: reach14d, limit: 5) {
          data { id platform facebookPageId name logoUrl profile { likes instagramFollowers createdAt } advertising { activeAds reach30d }
                 lastAds { id mediaUrl thumbnailUrl } mainLandingPages { landingPage screenshotUrl } }
          pagination { limit offset total } meta { isTruncated totalRelation } } }`,
      undefined,
      key,
    );
    expect(gql.body.errors).toBeUndefined();
    expect(idsOf(rest)).toEqual([P_LAB, P_GLOW]);
    const { requestId: _requestId, ...restBody } = rest.body;
    expect(gql.body.data.advertisers).toEqual(restBody);
  });

  it('validation errors carry the same code on GraphQL', async () => {
    const gql = await t.graphql('{ advertisersQuery(categoryIds: [469], pageNiches: { main: [473] }) { pagination { total } } }', undefined, key);
    expect(gql.body.errors[0].extensions.code).toBe('validation_error');
  });
});

describe('SQL statements per list request', () => {
  it('do not grow with the page size', async () => {
    await get('?limit=1'); // the key's first use writes its last-use time
    const one = await statementsOf(() => get('?limit=1&sortBy=reach14d'));
    const four = await statementsOf(() => get('?limit=4&sortBy=reach14d'));
    expect(idsOf(one.res)).toHaveLength(1);
    expect(idsOf(four.res)).toHaveLength(4);
    expect(one.statements.length).toBeGreaterThan(0);
    expect(four.statements.length).toBe(one.statements.length);
    // The page of ids with its total (one statement for a computed sort), the rows with their last ads, and the main
    // landing pages of every row of the page (one batched statement).
    expect(one.statements.length).toBeLessThanOrEqual(3);
    const plain = await statementsOf(() => get('?limit=4&sortBy=activeAds'));
    expect(plain.statements.length).toBeLessThanOrEqual(4);
    const overAds = await statementsOf(() => post({ searchType: 'adCopy', search: ['serum', 'tutorial'], limit: 4 }));
    expect(idsOf(overAds.res)).toHaveLength(2);
    expect(overAds.statements.length).toBeLessThanOrEqual(5);
  });
});
