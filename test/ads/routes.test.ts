import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type HttpResult, type TestApp } from '../support/app.js';
import { expectViolation } from '../support/assertions.js';
import { recordStatements, statementsSettled } from '../support/statements.js';
import { adsScenario } from './scenario.js';

// The ads endpoints against the scenario's known market:
//   facebook_9001  active video, lead of duplicate group col_a (2 ads), reach 5000, Nordic Glow, "Summer serum sale…"
//   facebook_9002  the other member of col_a (never a list row)
//   facebook_9003  inactive image, low reach (200), Nordic Glow, "Winter jacket clearance"
//   facebook_9004  active carousel, reach 100000, Peak Fitness Store, partner badge, "Summer training plan…"

let t: TestApp;
let key: string;
let workspaceId: string;
beforeAll(async () => {
  t = await createTestApp(adsScenario);
  ({ apiKey: key, workspaceId } = await t.newKey());
});
afterAll(() => t?.close());

const get = (path: string) => t.rest('GET', path, { key });
const query = (body: unknown) => t.rest('POST', '/ads/query', { key, body });
const ids = (res: HttpResult): string[] => {
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.map((ad: { id: string }) => ad.id);
};
const sorted = (list: string[]) => [...list].sort();

const ALL = '/ads?search=summer%20or%20winter'; // matches all three group leads

describe('GET /v1/ads: parameters', () => {
  it('search is required', async () => {
    for (const path of ['/ads', '/ads?limit=5', '/ads?search=', '/ads?searchType=brand']) {
      expectViolation(await get(path), 'query-string.search', ['search should not be empty']);
    }
    expectViolation(await get('/ads?search=%20%20'), 'query-string.search');
  });

  it('search and its deprecated alias query together are a conflict', async () => {
    const res = await get('/ads?search=summer&query=summer');
    expectViolation(res, 'query-string.query');
    expect(res.body.error.details.validationErrors[0].expected[0]).toBe('query must not be sent together with search (query is a deprecated alias of search)');
  });

  it('query alone works like search', async () => {
    const viaQuery = await get('/ads?query=summer&sortBy=reach');
    const viaSearch = await get('/ads?search=summer&sortBy=reach');
    expect(ids(viaQuery)).toEqual(['facebook_9004', 'facebook_9001']);
    expect(viaQuery.body.data).toEqual(viaSearch.body.data);
    expect(viaQuery.body.pagination).toEqual(viaSearch.body.pagination);
  });

  it('limit and page are range-checked', async () => {
    expectViolation(await get('/ads?search=summer&limit=0'), 'query-string.limit', ['limit must not be less than 1']);
    expectViolation(await get('/ads?search=summer&limit=101'), 'query-string.limit', ['limit must not be greater than 100']);
    expectViolation(await get('/ads?search=summer&limit=abc'), 'query-string.limit', ['limit must be an integer number']);
    expectViolation(await get('/ads?search=summer&limit=1.5'), 'query-string.limit', ['limit must be an integer number']);
    expectViolation(await get('/ads?search=summer&page=0'), 'query-string.page', ['page must not be less than 1']);
    expectViolation(await get('/ads?search=summer&page=-1'), 'query-string.page', ['page must not be less than 1']);
    expect((await get('/ads?search=summer&limit=100')).status).toBe(200);
  });

  it('enums are validated, naming the parameter', async () => {
    expectViolation(await get('/ads?search=summer&status=foo'), 'query-string.status', ['status must be one of the following values: active, inactive, all']);
    expectViolation(await get('/ads?search=summer&sortBy=foo'), 'query-string.sortBy', ['sortBy must be one of the following values: relevance, newest, longestRunning, reach']);
    expectViolation(await get('/ads?search=summer&mediaType=foo'), 'query-string.mediaType', ['mediaType must be one of the following values: image, video, carousel']);
    expectViolation(await get('/ads?search=summer&mediaType=dco'), 'query-string.mediaType');
    expectViolation(await get('/ads?search=summer&searchType=foo'), 'query-string.searchType', ['searchType must be one of the following values: adCopy, brand']);
    expectViolation(await get('/ads?search=summer&platform=tiktok'), 'query-string.platform', ['platform must be one of the following values: facebook, all']);
  });

  it('several violations are all reported', async () => {
    const res = await get('/ads?search=summer&limit=abc&status=foo');
    expect(res.status).toBe(400);
    expect(res.body.error.details.validationErrors.map((v: { field: string }) => v.field).sort()).toEqual(['query-string.limit', 'query-string.status']);
  });

  it('unknown query parameters are ignored', async () => {
    expect(ids(await get('/ads?search=summer&sortBy=reach&offset=10&legacyFilter=x'))).toEqual(['facebook_9004', 'facebook_9001']);
  });

  it('platform facebook and all both return the Meta ads', async () => {
    const plain = ids(await get(`${ALL}&sortBy=reach`));
    expect(plain).toEqual(['facebook_9004', 'facebook_9001', 'facebook_9003']);
    expect(ids(await get(`${ALL}&sortBy=reach&platform=all`))).toEqual(plain);
    expect(ids(await get(`${ALL}&sortBy=reach&platform=facebook`))).toEqual(plain);
  });
});

describe('GET /v1/ads: search, filters, sorting, pagination', () => {
  it('adCopy search finds one row per duplicate group', async () => {
    const res = await get('/ads?search=summer');
    expect(sorted(ids(res))).toEqual(['facebook_9001', 'facebook_9004']); // not 9003 (winter), not 9002 (non-lead of col_a)
    expect(res.body.pagination).toEqual({ page: 1, limit: 25, total: 2, totalPages: 1 });
    expect(ids(await get('/ads?search=serum'))).toEqual(['facebook_9001']);
    expect(ids(await get('/ads?search=summer%20serum'))).toEqual(['facebook_9001']); // both words
    expect(ids(await get('/ads?search=nordic'))).toEqual([]); // a brand name is not ad copy
  });

  it('the search text reaches the resolver intact (commas, &, quotes, a minus)', async () => {
    expect(ids(await get('/ads?search=summer,serum'))).toEqual(['facebook_9001']); // not split into a list
    expect(ids(await get('/ads?search=summer%26serum'))).toEqual(['facebook_9001']);
    expect(ids(await get('/ads?search=%22summer%20serum%22'))).toEqual(['facebook_9001']);
    expect(ids(await get('/ads?search=summer%20-training'))).toEqual(['facebook_9001']);
  });

  it('brand search matches the advertiser name only', async () => {
    const res = await get('/ads?searchType=brand&search=nordic');
    expect(sorted(ids(res))).toEqual(['facebook_9001', 'facebook_9003']);
    expect(res.body.data.every((ad: { advertiser: { name: string } }) => ad.advertiser.name === 'Nordic Glow')).toBe(true);
    expect(ids(await get('/ads?searchType=brand&search=peak'))).toEqual(['facebook_9004']);
    expect(ids(await get('/ads?searchType=brand&search=summer'))).toEqual([]);
  });

  it('status and mediaType filter', async () => {
    expect(ids(await get(`${ALL}&status=inactive`))).toEqual(['facebook_9003']);
    expect(sorted(ids(await get(`${ALL}&status=active`)))).toEqual(['facebook_9001', 'facebook_9004']);
    expect(ids(await get(`${ALL}&status=all`))).toHaveLength(3);
    expect(ids(await get(`${ALL}&mediaType=video`))).toEqual(['facebook_9001']);
    expect(ids(await get(`${ALL}&mediaType=image`))).toEqual(['facebook_9003']);
    expect(ids(await get(`${ALL}&mediaType=carousel`))).toEqual(['facebook_9004']);
    expect(ids(await get(`${ALL}&mediaType=video&status=inactive`))).toEqual([]);
  });

  it('sortBy reach orders by reach, descending', async () => {
    const res = await get(`${ALL}&sortBy=reach`);
    expect(ids(res)).toEqual(['facebook_9004', 'facebook_9001', 'facebook_9003']);
    expect(res.body.data.map((ad: { metrics: { reach: number } }) => ad.metrics.reach)).toEqual([100000, 5000, 200]);
  });

  it('sortBy newest orders by firstSeenAt, descending', async () => {
    const res = await get(`${ALL}&sortBy=newest`);
    expect(ids(res)).toEqual(['facebook_9004', 'facebook_9001', 'facebook_9003']);
    expect(res.body.data.map((ad: { firstSeenAt: string }) => ad.firstSeenAt)).toEqual([
      '2026-10-31T00:00:00.000Z', '2026-09-30T00:00:00.000Z', '2025-01-09T00:00:00.000Z',
    ]);
  });

  it('sortBy longestRunning orders by daysRunning, descending', async () => {
    const res = await get(`${ALL}&sortBy=longestRunning`);
    const days = res.body.data.map((ad: { daysRunning: number }) => ad.daysRunning);
    expect(ids(res)[0]).toBe('facebook_9001'); // running since 2026-09-30
    expect(days).toEqual([...days].sort((a, b) => b - a));
    expect(res.body.data.find((ad: { id: string }) => ad.id === 'facebook_9003').daysRunning).toBe(30); // 2025-01-09 .. 2025-02-08
  });

  it('pages', async () => {
    const first = await get(`${ALL}&sortBy=reach&limit=2`);
    expect(ids(first)).toEqual(['facebook_9004', 'facebook_9001']);
    expect(first.body.pagination).toEqual({ page: 1, limit: 2, total: 3, totalPages: 2 });
    const second = await get(`${ALL}&sortBy=reach&limit=2&page=2`);
    expect(ids(second)).toEqual(['facebook_9003']);
    expect(second.body.pagination).toEqual({ page: 2, limit: 2, total: 3, totalPages: 2 });
    const beyond = await get(`${ALL}&sortBy=reach&limit=2&page=3`);
    expect(ids(beyond)).toEqual([]);
    expect(beyond.body.pagination).toEqual({ page: 3, limit: 2, total: 3, totalPages: 2 });
    const none = await get('/ads?search=nothingmatchesthis');
    expect(none.body.pagination).toEqual({ page: 1, limit: 25, total: 0, totalPages: 0 });
  });

  it('list rows carry the scenario figures', async () => {
    const res = await get('/ads?search=serum');
    const [ad] = res.body.data;
    expect(ad).toMatchObject({
      id: 'facebook_9001',
      collationId: 'col_a',
      platform: 'facebook',
      status: 'active',
      createdAt: '2026-10-01T00:00:00.000Z',
      lastSeenAt: null, // an active duplicate group has no last-seen date
      media: { type: 'video', thumbnailUrl: 'http://api.test/media/ads/facebook_9001-thumb.jpg', mediaUrl: 'http://api.test/media/ads/facebook_9001.mp4' },
      advertiser: {
        id: '1000000000000001', name: 'Nordic Glow', logoUrl: 'http://api.test/media/pages/1000000000000001.png', facebookPageId: '1000000000000001',
        liveAdsCount: 2, reach30d: 6000, totalReach: 8200, countriesCount: 3, facebookLikes: 12000, instagramFollowers: 8000,
      },
      content: {
        title: 'Glow serum', body: 'Summer serum sale with free shipping', transcript: 'Meet the glow serum. Free shipping.', callToAction: 'Shop now',
        landingPageUrl: 'https://nordicglow.com/products/serum', landingPageDomain: 'nordicglow.com', ctaDescription: null, ctaLinkDescription: null,
      },
      metrics: { reach: 5000, aggregatedReach: 8000, estimatedSpend: 45, duplicates: 2, reachDelta1d: 100, reachDelta7d: 700, reachDelta30d: 3000 },
      audience: { targetedCountries: ['FR', 'DE', 'US'], mainCountry: 'FR', gender: 'all', ageMin: 18, ageMax: 65 },
      rank: { positionInPage: 1, currentRank: 1, rankDelta: 2, improvementPct: 66.7 },
      flags: { isEuAd: true, isLowReach: false, isMediaChanged: false, hasPartnerBadge: false },
    });
    const inactive = (await get('/ads?search=winter')).body.data[0];
    expect(inactive).toMatchObject({ id: 'facebook_9003', status: 'inactive', lastSeenAt: '2025-02-08T00:00:00.000Z', daysRunning: 30 });
    expect(inactive.flags.isLowReach).toBe(true);
    expect(inactive.metrics.estimatedSpend).toBe(2); // round(200 * 9 / 1000)
  });
});

describe('POST /v1/ads/query', () => {
  it('an empty body lists every group lead, newest first', async () => {
    const res = await query({});
    expect(ids(res)).toEqual(['facebook_9004', 'facebook_9001', 'facebook_9003']);
    expect(res.body.pagination).toEqual({ page: 1, limit: 25, total: 3, totalPages: 1 });
  });

  it('status and mediaType', async () => {
    expect(ids(await query({ status: 'inactive' }))).toEqual(['facebook_9003']);
    expect(ids(await query({ status: 'active' }))).toEqual(['facebook_9004', 'facebook_9001']);
    expect(ids(await query({ mediaType: 'carousel' }))).toEqual(['facebook_9004']);
    expect(ids(await query({ mediaType: 'video' }))).toEqual(['facebook_9001']);
  });

  it('minReach/maxReach use reachPeriod; reachPeriod alone filters nothing', async () => {
    expect(ids(await query({ minReach: 1000 }))).toEqual(['facebook_9004', 'facebook_9001']);
    expect(ids(await query({ minReach: 1000, reachPeriod: 'total' }))).toEqual(['facebook_9004', 'facebook_9001']);
    expect(ids(await query({ minReach: 1000, reachPeriod: 'last7d' }))).toEqual(['facebook_9004']); // 9001 gained 700 in 7 days
    expect(ids(await query({ maxReach: 1000, reachPeriod: 'last7d' }))).toEqual(['facebook_9001', 'facebook_9003']);
    expect(ids(await query({ minReach: 1, reachPeriod: 'last24h' }))).toEqual(['facebook_9004', 'facebook_9001']);
    expect(ids(await query({ reachPeriod: 'last7d' }))).toEqual(['facebook_9004', 'facebook_9001', 'facebook_9003']);
  });

  it('adCountries include/exclude (codes are case-insensitive)', async () => {
    expect(ids(await query({ adCountries: { include: ['CA'] } }))).toEqual(['facebook_9004']);
    expect(ids(await query({ adCountries: { include: ['ca'] } }))).toEqual(['facebook_9004']);
    expect(ids(await query({ adCountries: { include: ['FR'] } }))).toEqual(['facebook_9001']);
    expect(ids(await query({ adCountries: { exclude: ['CA'] } }))).toEqual(['facebook_9001', 'facebook_9003']);
    expect(ids(await query({ adCountries: { include: ['US'], exclude: ['DE'] } }))).toEqual(['facebook_9004', 'facebook_9003']);
    expectViolation(await query({ adCountries: { include: ['USA'] } }), 'body.adCountries');
    expectViolation(await query({ adCountries: 'CA' }), 'body.adCountries', ['adCountries must be an object']);
  });

  it('hideLowReach, partners, minDuplicates', async () => {
    expect(ids(await query({ hideLowReach: true }))).toEqual(['facebook_9004', 'facebook_9001']);
    expect(ids(await query({ hideLowReach: false }))).toHaveLength(3);
    expect(ids(await query({ partners: true }))).toEqual(['facebook_9004']);
    expect(ids(await query({ partners: false }))).toEqual(['facebook_9001', 'facebook_9003']);
    expect(ids(await query({ minDuplicates: 2 }))).toEqual(['facebook_9001']);
    expect(ids(await query({ maxDuplicates: 1 }))).toEqual(['facebook_9004', 'facebook_9003']);
  });

  it('search terms with keywordMode any/all', async () => {
    expect(ids(await query({ search: ['serum'] }))).toEqual(['facebook_9001']);
    expect(sorted(ids(await query({ search: ['serum', 'training'] })))).toEqual(['facebook_9001', 'facebook_9004']);
    expect(sorted(ids(await query({ search: ['serum', 'training'], keywordMode: 'any' })))).toEqual(['facebook_9001', 'facebook_9004']);
    expect(ids(await query({ search: ['serum', 'training'], keywordMode: 'all' }))).toEqual([]);
    expect(sorted(ids(await query({ search: ['summer', 'shipping'], keywordMode: 'all' })))).toEqual(['facebook_9001', 'facebook_9004']);
    expect(ids(await query({ search: ['nordic'], searchType: 'brand', sortBy: 'reach' }))).toEqual(['facebook_9001', 'facebook_9003']);
  });

  it('sortBy reachDelta7d and order', async () => {
    expect(ids(await query({ sortBy: 'reachDelta7d' }))).toEqual(['facebook_9004', 'facebook_9001', 'facebook_9003']);
    expect(ids(await query({ sortBy: 'reachDelta7d', order: 'asc' }))).toEqual(['facebook_9003', 'facebook_9001', 'facebook_9004']);
    expect(ids(await query({ order: 'asc' }))).toEqual(['facebook_9003', 'facebook_9001', 'facebook_9004']); // newest, ascending
    expect(ids(await query({ sortBy: 'reach', order: 'asc' }))).toEqual(['facebook_9003', 'facebook_9001', 'facebook_9004']);
    expect(ids(await query({ sortBy: 'mostDuplicates' }))[0]).toBe('facebook_9001');
    // the recommended 7-day scaling query
    expect(ids(await query({ sortBy: 'reachDelta7d', reachPeriod: 'last7d', minReach: 1 }))).toEqual(['facebook_9004', 'facebook_9001']);
  });

  it('cpm sets metrics.estimatedSpend to round(reach * cpm / 1000)', async () => {
    const spend = (res: HttpResult) => Object.fromEntries(res.body.data.map((ad: { id: string; metrics: { estimatedSpend: number } }) => [ad.id, ad.metrics.estimatedSpend]));
    expect(spend(await query({}))).toEqual({ facebook_9004: 900, facebook_9001: 45, facebook_9003: 2 });
    expect(spend(await query({ cpm: 10 }))).toEqual({ facebook_9004: 1000, facebook_9001: 50, facebook_9003: 2 });
    expect(spend(await query({ cpm: 2.5 }))).toEqual({ facebook_9004: 250, facebook_9001: 13, facebook_9003: 1 });
    // spend filters use the same figure
    expect(ids(await query({ cpm: 10, minSpend: 50 }))).toEqual(['facebook_9004', 'facebook_9001']);
    expect(ids(await query({ cpm: 10, minSpend: 51 }))).toEqual(['facebook_9004']);
  });

  it('pagination in the body', async () => {
    const res = await query({ limit: 2, page: 2 });
    expect(ids(res)).toEqual(['facebook_9003']);
    expect(res.body.pagination).toEqual({ page: 2, limit: 2, total: 3, totalPages: 2 });
  });

  it('body values are validated, naming the body field', async () => {
    expectViolation(await query({ limit: 101 }), 'body.limit', ['limit must not be greater than 100']);
    expectViolation(await query({ limit: 0 }), 'body.limit', ['limit must not be less than 1']);
    expectViolation(await query({ page: 0 }), 'body.page', ['page must not be less than 1']);
    expectViolation(await query({ limit: 'x' }), 'body.limit', ['limit must be an integer number']);
    expectViolation(await query({ limit: '5' }), 'body.limit', ['limit must be an integer number']); // JSON numbers only
    expectViolation(await query({ status: 5 }), 'body.status', ['status must be one of the following values: active, inactive, all']);
    expectViolation(await query({ sortBy: 'foo' }), 'body.sortBy');
    expectViolation(await query({ hideLowReach: 'true' }), 'body.hideLowReach', ['hideLowReach must be a boolean value']);
    expectViolation(await query({ minReach: 'many' }), 'body.minReach', ['minReach must be a number']);
    expectViolation(await query({ minReach: -1 }), 'body.minReach', ['minReach must not be less than 0']);
    expectViolation(await query({ createdAfter: '2026-13-45' }), 'body.createdAfter', ['createdAfter must be a valid date (YYYY-MM-DD)']);
    expectViolation(await query({ cpm: 0 }), 'body.cpm', ['cpm must not be less than 0.01']);
    expectViolation(await query({ platforms: ['tiktok'] }), 'body.platforms');
    expectViolation(await query({ search: [''] }), 'body.search');
    const both = await query({ limit: 'x', status: 5 });
    expect(both.status).toBe(400);
    expect(both.body.error.details.validationErrors.map((v: { field: string }) => v.field)).toEqual(['body.limit', 'body.status']);
  });

  it('unknown body fields are ignored', async () => {
    const res = await query({ foo: 'bar', offset: 10, legacyFilter: [1, 2], nested: { a: 1 } });
    expect(ids(res)).toEqual(['facebook_9004', 'facebook_9001', 'facebook_9003']);
  });

  it('a list field takes an array or a single value alike', async () => {
    const list = await query({ platforms: ['facebook'], search: ['serum'] });
    const single = await query({ platforms: 'facebook', search: 'serum' });
    expect(ids(list)).toEqual(['facebook_9001']);
    expect(single.body.data).toEqual(list.body.data);
    expect(ids(await query({ adCountries: { include: 'CA' } }))).toEqual(['facebook_9004']);
  });

  it('dates filter on first seen', async () => {
    expect(ids(await query({ createdAfter: '2026-10-01' }))).toEqual(['facebook_9004']);
    expect(ids(await query({ createdBefore: '2026-09-30' }))).toEqual(['facebook_9001', 'facebook_9003']); // inclusive
  });
});

describe('GET /v1/ads/{adId}', () => {
  it('an unknown ad is 404 not_found', async () => {
    for (const id of ['facebook_1', '1', 'tiktok_9001']) {
      const res = await get(`/ads/${id}`);
      expect(res.status, id).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    }
    expectViolation(await get(`/ads/${'x'.repeat(129)}`), 'path.adId');
    // `query` is the path of POST /v1/ads/query, not an ad id: asked with GET, it is a 405 naming the method it has.
    const query = await get('/ads/query');
    expect([query.status, query.body.error.code, query.headers.get('allow')]).toEqual([405, 'method_not_allowed', 'POST']);
  });

  it('the detail of the group lead', async () => {
    const res = await get('/ads/facebook_9001');
    expect(res.status).toBe(200);
    const ad = res.body.data;
    expect(ad.id).toBe('facebook_9001');
    expect(ad.metrics).toEqual({ reach: 5000, aggregatedReach: 8000, estimatedSpend: 45, duplicates: 2, reachDelta1d: 100, reachDelta7d: 700, reachDelta30d: 3000 });
    expect(ad.transcript).toEqual({
      language: 'en',
      languageConfidence: 0.93,
      segments: [{ start: 0, end: 2.5, text: 'Meet the glow serum.' }, { start: 2.5, end: 4, text: 'Free shipping.' }],
      fullText: 'Meet the glow serum. Free shipping.',
    });
    expect(ad.creativeAnalysis).toEqual({
      hook: { text: 'Meet the glow serum.', source: 'transcript', sourceDescription: 'First spoken line of the video', isFallback: false },
    });
    expect(ad.links).toEqual({ adLibraryUrl: 'https://www.facebook.com/ads/library/?id=9001', landingPageUrl: 'https://nordicglow.com/products/serum' });
    const shop = await t.db.prisma.shop.findUniqueOrThrow({ where: { domain: 'nordicglow.com' } });
    expect(ad.shops).toEqual([{ shopId: shop.id, domain: 'nordicglow.com', name: 'Nordic Glow', isPrimary: true, traffic: 42000, categories: ['Health & Beauty'] }]);
    expect(ad.pageAnalytics).toEqual({
      impressionsHistory: [{ date: '2026-11-20', totalImpressions: 150 }, { date: '2026-11-21', totalImpressions: 200 }],
      facebookLikesHistory: [{ date: '2026-11-20', value: 11990 }, { date: '2026-11-21', value: 12000 }],
      instagramFollowersHistory: [{ date: '2026-11-20', value: 7990 }, { date: '2026-11-21', value: 8000 }],
    });
    expect('resolvedFrom' in ad).toBe(false);
  });

  it('a non-lead member answers with its group lead and resolvedFrom', async () => {
    const lead = await get('/ads/facebook_9001');
    const member = await get('/ads/facebook_9002');
    expect(member.status).toBe(200);
    expect(member.body.data.resolvedFrom).toEqual({ requestedId: 'facebook_9002', reason: 'duplicate_group' });
    const { resolvedFrom: _, ...rest } = member.body.data;
    expect(rest).toEqual(lead.body.data);
  });

  it('a bare Meta ad number is read as the Facebook ad', async () => {
    const bare = await get('/ads/9001');
    expect(bare.status).toBe(200);
    expect(bare.body.data).toEqual((await get('/ads/facebook_9001')).body.data);
  });

  it('an ad without transcript, hook, shop or page history', async () => {
    const { body } = await get('/ads/facebook_9004');
    expect(body.data).toMatchObject({
      id: 'facebook_9004',
      transcript: null,
      creativeAnalysis: { hook: null },
      links: { adLibraryUrl: 'https://www.facebook.com/ads/library/?id=9004', landingPageUrl: null },
      shops: [],
      pageAnalytics: { impressionsHistory: [], facebookLikesHistory: [], instagramFollowersHistory: [] },
      flags: { isEuAd: false, isLowReach: false, isMediaChanged: false, hasPartnerBadge: true },
    });
    expect('collationId' in body.data).toBe(false);
  });
});

describe('GET /v1/ads/{adId}/reach-history', () => {
  it('returns the last N days, oldest first', async () => {
    expect((await get('/ads/facebook_9001/reach-history')).body.data).toEqual([
      { date: '2026-11-19', reach: 4800 }, { date: '2026-11-20', reach: 4900 }, { date: '2026-11-21', reach: 5000 },
    ]);
    expect((await get('/ads/facebook_9001/reach-history?limit=1')).body.data).toEqual([{ date: '2026-11-21', reach: 5000 }]);
    expect((await get('/ads/facebook_9001/reach-history?limit=2')).body.data).toEqual([{ date: '2026-11-20', reach: 4900 }, { date: '2026-11-21', reach: 5000 }]);
    expect((await get('/ads/facebook_9001/reach-history?limit=365')).body.data).toHaveLength(3);
    expect((await get('/ads/facebook_9003/reach-history')).body.data).toEqual([]);
  });

  it('writes dates outside years 1-9999 as the Date scalar writes them everywhere', async () => {
    await t.db.prisma.$executeRaw`INSERT INTO "ad_reach_days" ("adId", "date", "reach") VALUES ('facebook_9003', DATE '0044-03-15 BC', 1), ('facebook_9003', DATE '10000-01-01', 2)`;
    try {
      const rest = await get('/ads/facebook_9003/reach-history');
      expect(rest.body.data).toEqual([{ date: '-000043-03-15', reach: 1 }, { date: '+010000-01-01', reach: 2 }]);
      const graphql = await t.graphql('{ adReachHistory(adId: "facebook_9003") { date reach } }', {}, key);
      expect(graphql.body.data.adReachHistory).toEqual(rest.body.data);
    } finally {
      await t.db.prisma.$executeRaw`DELETE FROM "ad_reach_days" WHERE "adId" = 'facebook_9003'`;
    }
  });

  it('limit is 1..365', async () => {
    expectViolation(await get('/ads/facebook_9001/reach-history?limit=366'), 'query-string.limit', ['limit must not be greater than 365']);
    expectViolation(await get('/ads/facebook_9001/reach-history?limit=0'), 'query-string.limit', ['limit must not be less than 1']);
    expectViolation(await get('/ads/facebook_9001/reach-history?limit=x'), 'query-string.limit', ['limit must be an integer number']);
  });

  it('an unknown ad is 404', async () => {
    const res = await get('/ads/facebook_1/reach-history');
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('not_found');
  });
});

describe('GET /v1/ads/{adId}/media-url', () => {
  it('a stable asset host is public_asset', async () => {
    expect((await get('/ads/facebook_9001/media-url')).body.data).toEqual({
      adId: 'facebook_9001',
      mediaType: 'video',
      url: 'http://api.test/media/ads/facebook_9001.mp4',
      urlType: 'public_asset',
      selectedSource: 'media_url',
      mediaUrl: 'http://api.test/media/ads/facebook_9001.mp4',
      thumbnailUrl: 'http://api.test/media/ads/facebook_9001-thumb.jpg',
      filename: 'facebook_9001.mp4',
    });
  });

  it("Meta's CDN is external_direct", async () => {
    expect((await get('/ads/facebook_9003/media-url')).body.data).toEqual({
      adId: 'facebook_9003',
      mediaType: 'image',
      url: 'https://scontent.fbcdn.net/v/facebook_9003.jpg',
      urlType: 'external_direct',
      selectedSource: 'media_url',
      mediaUrl: 'https://scontent.fbcdn.net/v/facebook_9003.jpg',
      thumbnailUrl: 'http://api.test/media/ads/facebook_9003-thumb.jpg',
      filename: 'facebook_9003.jpg',
    });
  });

  it('without a media URL the thumbnail is selected', async () => {
    expect((await get('/ads/facebook_9002/media-url')).body.data).toMatchObject({
      adId: 'facebook_9002',
      url: 'http://api.test/media/ads/facebook_9002-thumb.jpg',
      urlType: 'public_asset',
      selectedSource: 'thumbnail_url',
      mediaUrl: null,
      filename: 'facebook_9002.jpg',
    });
  });

  it('an unknown ad is 404', async () => {
    const res = await get('/ads/facebook_1/media-url');
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('not_found');
  });
});

describe('POST /v1/ads/{adId}/share', () => {
  it('creates the share once and returns the same one after', async () => {
    const first = await t.rest('POST', '/ads/facebook_9004/share', { key });
    expect(first.status).toBe(200);
    const { slug } = first.body.data;
    expect(slug).toMatch(/^[A-Za-z0-9_-]{8,}$/);
    expect(first.body.data).toEqual({
      adId: 'facebook_9004',
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      slug,
      shareUrl: `http://api.test/share/ads/${slug}`,
      sharePath: `/share/ads/${slug}`,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    const again = await t.rest('POST', '/ads/facebook_9004/share', { key });
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(first.body.data);
    const bare = await t.rest('POST', '/ads/9004/share', { key });
    expect(bare.body.data).toEqual(first.body.data);
    expect(await t.db.prisma.adShare.count({ where: { workspaceId, adId: 'facebook_9004' } })).toBe(1);

    const other = await t.newKey();
    const theirs = await t.rest('POST', '/ads/facebook_9004/share', { key: other.apiKey });
    expect(theirs.status).toBe(200);
    expect(theirs.body.data.id).not.toBe(first.body.data.id);
    expect(theirs.body.data.slug).not.toBe(slug);
  });

  it('concurrent first shares agree on one share', async () => {
    const { apiKey, workspaceId: fresh } = await t.newKey();
    const results = await Promise.all([0, 1, 2, 3, 4, 5].map(() => t.rest('POST', '/ads/facebook_9003/share', { key: apiKey })));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(new Set(results.map((r) => r.body.data.id)).size).toBe(1);
    expect(await t.db.prisma.adShare.count({ where: { workspaceId: fresh } })).toBe(1);
  });

  it('an unknown ad is 404 and writes nothing', async () => {
    const before = await t.db.prisma.adShare.count();
    const res = await t.rest('POST', '/ads/facebook_1/share', { key });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('not_found');
    expect(await t.db.prisma.adShare.count()).toBe(before);
    expect(await t.db.prisma.adShare.count({ where: { adId: 'facebook_1' } })).toBe(0);
  });
});

describe('SQL statements per ad detail', () => {
  it('one of its own on both surfaces, for a group lead, a member answered by its lead and an unknown ad', async () => {
    await get('/ads/facebook_9001'); // warm up: the key's last-use write happens on its first call
    await statementsSettled(t.db);
    const sql = recordStatements();
    const detail = 'id shops { domain } pageAnalytics { impressionsHistory { date } } transcript { fullText } creativeAnalysis { hook { text } } resolvedFrom { requestedId }';
    try {
      for (const [id, status] of [['facebook_9001', 200], ['facebook_9002', 200], ['facebook_1', 404]] as const) {
        sql.clear();
        expect((await get(`/ads/${id}`)).status, id).toBe(status);
        expect(sql.own(), id).toHaveLength(1);
        sql.clear();
        const res = await t.graphql(`{ ad(adId: "${id}") { ${detail} } }`, {}, key);
        expect(res.body.data?.ad?.id ?? null, id).toBe(status === 200 ? 'facebook_9001' : null);
        expect(sql.own(), id).toHaveLength(1);
      }
    } finally {
      sql.restore();
    }
  });
});

describe('SQL statements per list request', () => {
  it('do not grow with the number of rows (no N+1)', async () => {
    await get('/ads?search=summer'); // warm up: the key's last-use write happens on its first call
    await statementsSettled(t.db);
    const sql = recordStatements();
    const count = async (path: string, rows: number) => {
      sql.clear();
      expect(ids(await get(path))).toHaveLength(rows);
      // The key's lookup is left out: it is cached per key in production (AUTH_CACHE_MS).
      return sql.own().length;
    };
    try {
      const one = await count('/ads?search=summer&limit=1', 1);
      const two = await count('/ads?search=summer&limit=4', 2);
      const three = await count(`${ALL}&limit=4`, 3);
      expect(one).toBeGreaterThan(0);
      // A text search: the page of ids with its total in one statement, then the rows with their advertisers.
      expect(one).toBeLessThanOrEqual(2);
      expect(two).toBe(one);
      expect(three).toBe(one);
      sql.clear();
      // No text search: the page can stop early on an index, so its total is a separate count (3 in all).
      expect(ids(await query({ limit: 3 }))).toHaveLength(3);
      expect(sql.own().length).toBeLessThanOrEqual(3);
    } finally {
      sql.restore();
    }
  });
});
