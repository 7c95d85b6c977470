import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import { graphqlData } from '../support/assertions.js';
import { adsScenario } from './scenario.js';

// GraphQL and REST run the same resolvers: the same request gives the same data on both surfaces.

const SUMMARY_FIELDS = `
  id
  collationId
  platform
  status
  createdAt
  firstSeenAt
  lastSeenAt
  daysRunning
  media { type thumbnailUrl mediaUrl }
  advertiser { id name logoUrl facebookPageId liveAdsCount reach30d totalReach countriesCount facebookLikes instagramFollowers }
  content { title body transcript callToAction landingPageUrl landingPageDomain ctaDescription ctaLinkDescription }
  metrics { reach aggregatedReach estimatedSpend duplicates reachDelta1d reachDelta7d reachDelta30d }
  audience { targetedCountries mainCountry gender ageMin ageMax }
  rank { positionInPage currentRank rankDelta improvementPct }
  flags { isEuAd isLowReach isMediaChanged hasPartnerBadge }
`;

const AD_DETAIL = `query Ad($adId: String!) {
  ad(adId: $adId) {
    ${SUMMARY_FIELDS}
    transcript { language languageConfidence segments { start end text } fullText }
    creativeAnalysis { hook { text source sourceDescription isFallback } }
    links { adLibraryUrl landingPageUrl }
    shops { shopId domain name isPrimary traffic categories }
    pageAnalytics {
      impressionsHistory { date totalImpressions }
      facebookLikesHistory { date value }
      instagramFollowersHistory { date value }
    }
    provenance { source firstFetchedAt lastFetchedAt }
    resolvedFrom { requestedId reason }
  }
}`;

const ADS_PAGE = `query Ads($search: String, $sortBy: AdListSort, $limit: Int, $page: Int, $status: AdStatusFilter) {
  ads(search: $search, sortBy: $sortBy, limit: $limit, page: $page, status: $status) {
    data { ${SUMMARY_FIELDS} }
    pagination { page limit total totalPages }
  }
}`;

const ADS_QUERY = `query AdsQuery($sortBy: AdQuerySort, $order: SortOrder, $cpm: Float, $limit: Int, $adCountries: CountryFilterInput, $hideLowReach: Boolean) {
  adsQuery(sortBy: $sortBy, order: $order, cpm: $cpm, limit: $limit, adCountries: $adCountries, hideLowReach: $hideLowReach) {
    data { ${SUMMARY_FIELDS} }
    pagination { page limit total totalPages }
  }
}`;

/** REST leaves out these keys when they are null (route table `omitNull`); GraphQL always has them. */
function withoutNullKeys<T>(value: T, keys: string[]): T {
  const copy = structuredClone(value) as Record<string, unknown>;
  for (const key of keys) if (copy[key] === null) delete copy[key];
  return copy as T;
}

type GraphQLErrorJson = { extensions?: { details?: { validationErrors?: { field: string; expected: string[] }[] } } };

/** The argument violations of a GraphQL validation_error: `details.validationErrors[{ field }]`, like the REST envelope. */
function violationsOf(error: GraphQLErrorJson): { name: string; expected: string[] }[] {
  return error.extensions?.details?.validationErrors?.map((v) => ({ name: v.field, expected: v.expected })) ?? [];
}

let t: TestApp;
let key: string;
beforeAll(async () => {
  t = await createTestApp(adsScenario);
  ({ apiKey: key } = await t.newKey());
});
afterAll(() => t?.close());

const gql = (query: string, variables: Record<string, unknown>) => graphqlData(t, key, query, variables);

describe('same data on both surfaces', () => {
  it.each(['facebook_9001', 'facebook_9002', 'facebook_9003', 'facebook_9004'])('ad detail %s', async (adId) => {
    const rest = await t.rest('GET', `/ads/${adId}`, { key });
    expect(rest.status).toBe(200);
    const { ad } = await gql(AD_DETAIL, { adId });
    expect(withoutNullKeys(ad, ['collationId', 'resolvedFrom'])).toEqual(rest.body.data);
    // The selection above is every field of the REST detail: nothing REST returns is left out.
    expect(Object.keys(ad).sort()).toEqual(Object.keys({ ...rest.body.data, collationId: null, resolvedFrom: null }).sort());
  });

  it('a page of ads', async () => {
    const rest = await t.rest('GET', '/ads?search=summer%20or%20winter&sortBy=reach&limit=2&page=1', { key });
    expect(rest.status).toBe(200);
    const { ads } = await gql(ADS_PAGE, { search: 'summer or winter', sortBy: 'reach', limit: 2, page: 1 });
    expect(ads.data.map((ad: { id: string }) => ad.id)).toEqual(['facebook_9004', 'facebook_9001']);
    expect(ads.data.map((ad: object) => withoutNullKeys(ad, ['collationId']))).toEqual(rest.body.data);
    expect(ads.pagination).toEqual(rest.body.pagination);
    expect(ads.pagination).toEqual({ page: 1, limit: 2, total: 3, totalPages: 2 });

    const inactive = await gql(ADS_PAGE, { search: 'summer or winter', status: 'inactive' });
    const restInactive = await t.rest('GET', '/ads?search=summer%20or%20winter&status=inactive', { key });
    expect(inactive.ads.data.map((ad: object) => withoutNullKeys(ad, ['collationId']))).toEqual(restInactive.body.data);
    expect(inactive.ads.data.map((ad: { id: string }) => ad.id)).toEqual(['facebook_9003']);
  });

  it('a query page with body filters and cpm', async () => {
    const body = { sortBy: 'reach', order: 'asc', cpm: 10, limit: 2, adCountries: { include: ['US'] }, hideLowReach: true };
    const rest = await t.rest('POST', '/ads/query', { key, body });
    expect(rest.status).toBe(200);
    const { adsQuery } = await gql(ADS_QUERY, body);
    expect(adsQuery.data.map((ad: { id: string }) => ad.id)).toEqual(['facebook_9001', 'facebook_9004']);
    expect(adsQuery.data.map((ad: { metrics: { estimatedSpend: number } }) => ad.metrics.estimatedSpend)).toEqual([50, 1000]);
    expect(adsQuery.data.map((ad: object) => withoutNullKeys(ad, ['collationId']))).toEqual(rest.body.data);
    expect(adsQuery.pagination).toEqual(rest.body.pagination);
  });

  it('identity and system fields', async () => {
    const data = await gql(
      `query {
        me { credential { id name description accessLevel expiresAt createdAt lastUsedAt } workspace { id slug name createdAt } delegatedUser { id } }
        workspace { workspace { id slug name createdAt } authenticatedAs { accessLevel delegatedUserId delegatedUserRole } credential { id name description expiresAt createdAt } }
        usage { workspace { id slug name } billing { configured planCode } includedQuota { limit used remaining } credits { balance recurring { limit used remaining } topup { balance } totalRemaining } }
        apiInfo { name version status }
        reach: adReachHistory(adId: "facebook_9001", limit: 2) { date reach }
        media: adMediaUrl(adId: "facebook_9003") { adId mediaType url urlType selectedSource mediaUrl thumbnailUrl filename }
      }`,
      {},
    );
    const me = (await t.rest('GET', '/me', { key })).body;
    expect(data.me).toEqual({ credential: { ...me.credential, lastUsedAt: data.me.credential.lastUsedAt }, workspace: me.workspace, delegatedUser: null });
    const workspace = (await t.rest('GET', '/workspace', { key })).body;
    const { lastUsedAt: _, ...credential } = workspace.credential;
    expect(data.workspace).toEqual({ workspace: workspace.workspace, authenticatedAs: workspace.authenticatedAs, credential });
    const usage = (await t.rest('GET', '/usage', { key })).body;
    expect(data.usage).toEqual({
      workspace: usage.workspace,
      billing: { configured: usage.billing.configured, planCode: usage.billing.planCode },
      includedQuota: usage.includedQuota,
      credits: usage.credits,
    });
    const { requestId: __, ...info } = (await t.rest('GET', '')).body;
    expect(data.apiInfo).toEqual(info);
    expect(data.reach).toEqual((await t.rest('GET', '/ads/facebook_9001/reach-history?limit=2', { key })).body.data);
    expect(data.media).toEqual((await t.rest('GET', '/ads/facebook_9003/media-url', { key })).body.data);
  });

  it('the share mutation returns the share REST returns', async () => {
    const rest = await t.rest('POST', '/ads/facebook_9001/share', { key });
    const { adShare } = await gql('mutation { adShare(adId: "facebook_9001") { adId id slug shareUrl sharePath createdAt } }', {});
    expect(adShare).toEqual(rest.body.data);
  });
});

describe('GraphQL errors carry the specification code', () => {
  it('validation_error with the violation for limit 101', async () => {
    const res = await t.graphql(ADS_PAGE, { search: 'summer', limit: 101 }, key);
    expect(res.status).toBe(400);
    expect(res.body.data).toEqual({ ads: null });
    expect(res.body.errors).toHaveLength(1);
    expect(res.body.errors[0].path).toEqual(['ads']);
    expect(res.body.errors[0].extensions.code).toBe('validation_error');
    expect(violationsOf(res.body.errors[0])).toEqual([{ name: 'limit', expected: ['limit must not be greater than 100'] }]);
  });

  it('validation_error when neither search nor query is given', async () => {
    const res = await t.graphql(ADS_PAGE, {}, key);
    expect(res.body.errors[0].extensions.code).toBe('validation_error');
    expect(violationsOf(res.body.errors[0])).toEqual([{ name: 'search', expected: ['search should not be empty'] }]);
  });

  it('not_found for an unknown ad', async () => {
    const res = await t.graphql(AD_DETAIL, { adId: 'facebook_1' }, key);
    expect(res.status).toBe(404);
    expect(res.body.data).toEqual({ ad: null });
    expect(res.body.errors[0].extensions).toEqual({ code: 'not_found' });
    expect(res.body.errors[0].message).toContain('facebook_1');
  });

  it('GraphQL syntax and schema errors are reported, not masked as internal errors', async () => {
    // (yoga answers these with 200 to an application/json client, as GraphQL over HTTP allows)
    const syntax = await t.graphql('query { ads(', {}, key);
    expect(syntax.body.errors[0].message).toMatch(/Syntax Error/);
    expect(syntax.body.errors[0].extensions?.code).not.toBe('internal_error');
    const unknown = await t.graphql('query { noSuchField }', {}, key);
    expect(unknown.body.errors[0].message).toMatch(/noSuchField/);
    expect(unknown.body.errors[0].extensions?.code).not.toBe('internal_error');
  });

  it('errors point at the field that failed (locations)', async () => {
    const res = await t.graphql('query {\n  ad(adId: "facebook_1") { id }\n}', {}, key);
    expect(res.body.errors[0].extensions).toEqual({ code: 'not_found' });
    expect(res.body.errors[0].locations).toEqual([{ line: 2, column: 3 }]);
  });

  it('a value the schema cannot serialise is a logged internal_error on both surfaces, with its location', async () => {
    // A reach past 2^53 cannot be a SafeInt: the executor, not a resolver, raises this error.
    await t.db.prisma.adReachDay.create({ data: { adId: 'facebook_9003', date: new Date('2020-01-01T00:00:00Z'), reach: 2n ** 60n } });
    try {
      const res = await t.graphql('query {\n  adReachHistory(adId: "facebook_9003") { date reach }\n}', {}, key);
      expect(res.body.errors[0].extensions).toEqual({ code: 'internal_error' });
      expect(res.body.errors[0].message).not.toMatch(/SafeInt|2\^53|1152921504606846976/);
      expect(res.body.errors[0].locations).toEqual([{ line: 2, column: 48 }]);
      const ours = () => t.logs.filter((line) => line.msg === 'internal error' && line.level === 'error' && line.requestId && line.err?.stack).length;
      expect(ours()).toBe(1);
      const rest = await t.rest('GET', '/ads/facebook_9003/reach-history', { key });
      expect(rest.status).toBe(500);
      expect(rest.body.error.code).toBe('internal_error');
      expect(ours()).toBe(2);
      expect(t.logs.some((line) => line.msg === 'internal error' && line.requestId === rest.body.error.requestId)).toBe(true);
    } finally {
      await t.db.prisma.adReachDay.deleteMany({ where: { adId: 'facebook_9003', date: new Date('2020-01-01T00:00:00Z') } });
    }
  });

  it('the response carries X-Request-Id', async () => {
    const res = await t.graphql('query { apiInfo { status } }');
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('GraphiQL', () => {
  it('GET /graphql with Accept: text/html returns the GraphiQL page', async () => {
    const res = await t.app.fetch('http://api.test/graphql', { headers: { accept: 'text/html' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    const page = await res.text();
    expect(page.toLowerCase()).toContain('graphiql');
    expect(page).toContain('Market Intelligence API');
    // Served from the package (loaded on this first page view), not from a CDN.
    expect(page).not.toMatch(/unpkg\.com|jsdelivr\.net/);
    expect(page.length).toBeGreaterThan(1_000_000);
  });
});
