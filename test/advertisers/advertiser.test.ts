import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import { expectViolation } from '../support/assertions.js';
import { idsOf } from '../support/discovery-helpers.js';
import { statementsOf } from '../support/statements.js';
import { discoveryScenario, P_GLOW, P_URBAN, S_GLOW, S_LAB } from '../support/discovery-scenario.js';
import { AD_SUMMARY, AD_SUMMARY_GROUPED, keyPaths } from '../support/shapes.js';

// GET /v1/advertisers/{advertiserId} and GET /v1/advertisers/{advertiserId}/ads on the discovery scenario:
// Nordic Glow's group leads 101 (video, 2 days, reach 3000, FR+DE, a group of 2), 102 (20 days, 2000, US),
// 103 (video, 60 days, 1000, FR) and 104 (inactive, 400 to 300 days ago, 500, US); 105 is 101's duplicate.

let t: TestApp;
let key: string;
beforeAll(async () => {
  t = await createTestApp(discoveryScenario);
  ({ apiKey: key } = await t.newKey());
});
afterAll(() => t?.close());

const get = (path: string) => t.rest('GET', path, { key });

describe('GET /v1/advertisers/{advertiserId}', () => {
  it('answers the detail: profile, linked shops, where the ads reach, the newest ads as summaries', async () => {
    const res = await get(`/advertisers/${P_GLOW}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const { lastAds, ...detail } = res.body.data;
    expect(detail).toEqual({
      id: P_GLOW,
      platform: 'facebook',
      facebookPageId: P_GLOW,
      name: 'Nordic Glow',
      logoUrl: 'http://api.test/media/pages/glow.png',
      profile: { likes: 12000, instagramFollowers: 8000, createdAt: '2019-05-01T00:00:00.000Z' },
      linkedShops: [
        { shopId: S_GLOW, domain: 'nordicglow.no', name: 'Nordic Glow', isPrimary: true },
        { shopId: S_LAB, domain: 'glowlabstudio.com', name: 'Glow Lab', isPrimary: false },
      ],
      // Active reach 6000: 101 splits 3000 over FR and DE, 102 is 2000 in the US, 103 1000 in FR.
      advertising: { activeAds: 3, reach30d: 6000, countryDistribution: [{ countryCode: 'FR', share: 0.4167 }, { countryCode: 'US', share: 0.3333 }, { countryCode: 'DE', share: 0.25 }] },
    });
    expect(Object.keys(res.body.data)).toEqual(['id', 'platform', 'facebookPageId', 'name', 'logoUrl', 'profile', 'linkedShops', 'advertising', 'lastAds']);
    expect(lastAds.map((ad: { id: string }) => ad.id)).toEqual(['facebook_101', 'facebook_102', 'facebook_103', 'facebook_104']);
    expect(keyPaths(lastAds.slice(0, 1))).toEqual(keyPaths([AD_SUMMARY_GROUPED]));
    expect(keyPaths(lastAds.slice(1))).toEqual(keyPaths([AD_SUMMARY]));
  });

  it('a page without ads or shops has empty lists', async () => {
    const res = await get(`/advertisers/${P_URBAN}`);
    expect(res.body.data.linkedShops).toEqual([]);
    expect(res.body.data.advertising).toEqual({ activeAds: 0, reach30d: 0, countryDistribution: [] });
    expect(res.body.data.lastAds.map((ad: { id: string }) => ad.id)).toEqual(['facebook_401']);
  });

  it('an unknown advertiser is a 404', async () => {
    for (const path of ['/advertisers/9999999999', `/advertisers/${P_GLOW}0`, '/advertisers/9999999999/ads']) {
      const res = await get(path);
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    }
  });
});

describe('GET /v1/advertisers/{advertiserId}/ads', () => {
  const ads = async (query: string) => idsOf(await get(`/advertisers/${P_GLOW}/ads${query}`));

  it('lists the page’s ads, one per duplicate group, newest first, with offset pagination', async () => {
    const res = await get(`/advertisers/${P_GLOW}/ads`);
    expect(idsOf(res)).toEqual(['facebook_101', 'facebook_102', 'facebook_103', 'facebook_104']);
    expect(res.body.pagination).toEqual({ limit: 25, offset: 0, total: 4 });
    expect(Object.keys(res.body)).toEqual(['requestId', 'data', 'pagination']);
    const page = await get(`/advertisers/${P_GLOW}/ads?limit=2&offset=1`);
    expect(idsOf(page)).toEqual(['facebook_102', 'facebook_103']);
    expect(page.body.pagination).toEqual({ limit: 2, offset: 1, total: 4 });
  });

  it('filters by status and media type', async () => {
    expect(await ads('?status=active')).toEqual(['facebook_101', 'facebook_102', 'facebook_103']);
    expect(await ads('?status=inactive')).toEqual(['facebook_104']);
    expect(await ads('?status=all&mediaType=video')).toEqual(['facebook_101', 'facebook_103']);
    expect(await ads('?mediaType=image&status=active')).toEqual(['facebook_102']);
  });

  it('sorts by each key, in either order', async () => {
    expect(await ads('?sortBy=reach&order=asc')).toEqual(['facebook_104', 'facebook_103', 'facebook_102', 'facebook_101']);
    expect(await ads('?sortBy=reach')).toEqual(['facebook_101', 'facebook_102', 'facebook_103', 'facebook_104']);
    expect(await ads('?sortBy=longestRunning')).toEqual(['facebook_104', 'facebook_103', 'facebook_102', 'facebook_101']);
    expect(await ads('?sortBy=createdAt&order=asc')).toEqual(['facebook_104', 'facebook_103', 'facebook_102', 'facebook_101']);
    expect(await ads('?sortBy=duplicates')).toEqual(['facebook_101', 'facebook_102', 'facebook_103', 'facebook_104']);
    expect(await ads('?sortBy=newest&order=asc')).toEqual(['facebook_104', 'facebook_103', 'facebook_102', 'facebook_101']);
  });

  it('cpm sets estimatedSpend (default 9)', async () => {
    const spend = async (query: string) => (await get(`/advertisers/${P_GLOW}/ads?limit=1${query}`)).body.data[0].metrics.estimatedSpend;
    expect(await spend('')).toBe(27);
    expect(await spend('&cpm=20')).toBe(60);
    expect(await spend('&cpm=0')).toBe(0);
  });

  it('rows are identical to the rows of /v1/ads', async () => {
    const mine = await get(`/advertisers/${P_GLOW}/ads?sortBy=newest`);
    const fromAds = await t.rest('POST', '/ads/query', { key, body: { trackedPages: [P_GLOW], sortBy: 'newest', status: 'all' } });
    expect(idsOf(mine)).toHaveLength(4);
    expect(mine.body.data).toEqual(fromAds.body.data);
  });

  it('bad values are a 400 naming the parameter', async () => {
    const path = `/advertisers/${P_GLOW}/ads`;
    expectViolation(await get(`${path}?limit=101`), 'query-string.limit', ['limit must not be greater than 100']);
    expectViolation(await get(`${path}?offset=-1`), 'query-string.offset');
    expectViolation(await get(`${path}?cpm=-1`), 'query-string.cpm');
    expectViolation(await get(`${path}?cpm=1.5`), 'query-string.cpm');
    expectViolation(await get(`${path}?mediaType=carousel`), 'query-string.mediaType');
    expectViolation(await get(`${path}?status=paused`), 'query-string.status');
    expectViolation(await get(`${path}?sortBy=mostDuplicates`), 'query-string.sortBy');
    expectViolation(await get(`${path}?order=up`), 'query-string.order');
  });

  it('REST and GraphQL return the same rows', async () => {
    const rest = await get(`/advertisers/${P_GLOW}/ads?sortBy=reach&order=asc&cpm=12`);
    const gql = await t.graphql(
      `query($id: String!) { advertiserAds(advertiserId: $id, sortBy: reach, order: asc, cpm: 12) {
          data { id status daysRunning metrics { reach estimatedSpend duplicates } advertiser { id name } }
          pagination { limit offset total } } }`,
      { id: P_GLOW },
      key,
    );
    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data.advertiserAds.pagination).toEqual(rest.body.pagination);
    expect(gql.body.data.advertiserAds.data).toEqual(
      rest.body.data.map((ad: Record<string, any>) => ({
        id: ad.id, status: ad.status, daysRunning: ad.daysRunning, advertiser: { id: ad.advertiser.id, name: ad.advertiser.name },
        metrics: { reach: ad.metrics.reach, estimatedSpend: ad.metrics.estimatedSpend, duplicates: ad.metrics.duplicates },
      })),
    );
  });

  it('runs the same number of SQL statements whatever the page size', async () => {
    await get(`/advertisers/${P_GLOW}/ads?limit=1`);
    const one = await statementsOf(() => get(`/advertisers/${P_GLOW}/ads?limit=1`));
    const four = await statementsOf(() => get(`/advertisers/${P_GLOW}/ads?limit=4`));
    expect(idsOf(one.res)).toHaveLength(1);
    expect(idsOf(four.res)).toHaveLength(4);
    // The advertiser's existence and the page of ids with its total, then the rows with their advertiser.
    expect(one.statements.length).toBeLessThanOrEqual(3);
    expect(four.statements.length).toBe(one.statements.length);
  });
});
