import { describe, expect, it } from 'vitest';
import type { HttpResult } from '../support/app.js';
import { expectNotFound, expectViolation, withoutRequestId } from '../support/assertions.js';
import { BT_A, BT_B, PAGE_A, PAGE_B } from '../brandtrackers/scenario.js';
import { contentScenario, PARTNER_1, PARTNER_2 } from './content-scenario.js';
import { useTrackingApp } from './support.js';
import { searchBounds } from '../../src/schema/shared/list.js';

// GET /v1/brandtrackers/{id}/ads, /partnership-ads and /partnership-ads/count on the content scenario: page A's
// group leads are 9001, 9003, 9501, 9502 and 9503 (9002 is 9001's duplicate); 9501 and 9502 carry the partner badge.

const app = useTrackingApp(contentScenario, { pages: [PAGE_A, PAGE_B] });

const { get } = app;
const ids = (res: HttpResult) => {
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.map((ad: { id: string }) => ad.id.replace('facebook_', ''));
};
const ads = async (query = '') => ids(await get(`/brandtrackers/${BT_A}/ads${query ? `?${query}` : ''}`));
const partnership = async (query = '') => ids(await get(`/brandtrackers/${BT_A}/partnership-ads${query ? `?${query}` : ''}`));
const count = async (query = '') => (await get(`/brandtrackers/${BT_A}/partnership-ads/count${query ? `?${query}` : ''}`)).body.data.count;

describe('GET /v1/brandtrackers/{id}/ads', () => {
  it("lists the brand's ads as ad summaries, one per duplicate group, newest first, page style", async () => {
    const res = await get(`/brandtrackers/${BT_A}/ads?limit=2`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['data', 'meta', 'pagination', 'requestId']);
    expect(res.body.meta).toEqual({ totalRelation: 'eq' });
    expect(res.body.pagination).toEqual({ page: 1, limit: 2, total: 5, totalPages: 3 });
    expect(res.body.data[0]).toMatchObject({ id: 'facebook_9501', advertiser: { id: PAGE_A }, flags: { hasPartnerBadge: true }, metrics: { reach: 900, estimatedSpend: 8 } });
    expect(await ads()).toEqual(['9501', '9503', '9001', '9502', '9003']);
    expect(await ads('page=3&limit=2')).toEqual(['9003']);
    const [{ total }] = await app.t.db.prisma.$queryRaw<{ total: number }[]>`SELECT count(*)::int AS total FROM "ads" WHERE "advertiserId" = ${PAGE_A} AND "isGroupLead"`;
    expect(res.body.pagination.total).toBe(total);
    expect(await ids(await get(`/brandtrackers/${BT_B}/ads`))).toEqual(['9101', '9004']);
  });

  it('sorts by each key, ad_order and ad-order reading as adOrder', async () => {
    expect(await ads('sortBy=reach')).toEqual(['9001', '9503', '9501', '9003', '9502']);
    expect((await ads('sortBy=duplicates'))[0]).toBe('9001');
    expect((await ads('sortBy=longestRunning')).slice(0, 3)).toEqual(['9001', '9003', '9502']);
    for (const alias of ['adOrder', 'ad_order', 'ad-order']) expect((await ads(`sortBy=${alias}`)).slice(0, 2)).toEqual(['9001', '9003']);
    expect((await ads('sortBy=relevance&keywords=glow')).sort()).toEqual(['9001', '9501', '9503']);
    expect(await ads('sortBy=relevance')).toEqual(['9001', '9503', '9501', '9003', '9502']);
  });

  it('filters by status, media type, EU, partnership, partners, keywords and dates', async () => {
    expect(await ads('status=active')).toEqual(['9501', '9503', '9001']);
    expect(await ads('status=inactive')).toEqual(['9502', '9003']);
    expect(await ads('mediaType=image')).toEqual(['9502', '9003']);
    expect(await ads('euOnly=true')).toEqual(['9001', '9502']);
    expect(await ads('partners=true')).toEqual(['9501', '9502']);
    expect(await ads('partners=false')).toEqual(['9503', '9001', '9003']);
    expect(await ads(`partnerIds=${PARTNER_2}`)).toEqual(['9502']);
    expect(await ads('keywords=winter,routine')).toEqual(['9501', '9502', '9003']);
    expect(await ads('keywords=winter,clearance&keywordMode=all')).toEqual(['9502', '9003']);
    expect(await ads('createdAfter=2026-06-01&createdBefore=2026-09-30')).toEqual(['9001', '9502']);
    expect(await ads('minDaysRunning=20&maxDaysRunning=40')).toEqual(['9502', '9003']);
    expect(await ads('minDuplicates=2')).toEqual(['9001']);
  });

  it('filters by reach, spend, video length, copy, countries, domain, rank trend and audience', async () => {
    expect(await ads('minReach=900&maxReach=2000')).toEqual(['9501', '9503']);
    expect(await ads('minSpend=10&cpm=10')).toEqual(['9503', '9001']);
    expect(await ads('minSpend=10')).toEqual(['9503', '9001']);
    expect(await ads('minSpend=20')).toEqual(['9001']);
    expect(await ads('minVideoDuration=60')).toEqual(['9503']);
    expect(await ads('maxVideoDuration=60')).toEqual(['9501']);
    expect(await ads('minDescriptionLength=20')).toEqual(['9501', '9001', '9502', '9003']);
    expect(await ads('adCountries=SE,DE')).toEqual(['9503', '9001', '9502']);
    expect(await ads('adCountries=-US,!DE')).toEqual(['9501', '9503']);
    expect(await ads('mainCountries=FR')).toEqual(['9001']);
    expect(await ads('linkedDomain=https://www.NordicGlow.com/products')).toEqual(['9501', '9001']);
    expect(await ads('landingPages=https://shop.nordicglow.com/creator')).toEqual(['9501']);
    expect(await ads('growthRank=rising')).toEqual(['9503', '9001']);
    expect(await ads('growthRank=falling,stable')).toEqual(['9501', '9502']);
    expect(await ads('hideLowReach=true')).toEqual(['9501', '9503', '9001', '9502']);
    expect(await ads('adLanguage=de')).toEqual(['9503']);
    expect(await ads('cta=shop%20NOW')).toEqual(['9501', '9503', '9001', '9502', '9003']);
    expect(await ads('minFacebookLikes=20000')).toEqual([]);
    expect(await ads('minSpendPerPage=1000')).toEqual([]);
  });

  it('reads status at the snapshot day with snapshotDate, and only status', async () => {
    expect(await ads('snapshotDate=2026-11-20&status=active')).toEqual(['9503', '9001']);
    expect(await ads('snapshotDate=2026-11-20&status=inactive')).toEqual(['9501', '9502', '9003']);
    expect(await ads('snapshotDate=latest&status=active')).toEqual(['9001']);
    expect(await ads('snapshotDate=2026-11-18&status=active')).toEqual([]);
    expect(await ads('snapshotDate=2026-11-18')).toHaveLength(5);
  });

  it('rejects bad values naming the field', async () => {
    const bad = async (query: string, field: string) => expectViolation(await get(`/brandtrackers/${BT_A}/ads?${query}`), `query-string.${field}`);
    await bad('sortBy=adorder', 'sortBy');
    await bad('status=paused', 'status');
    await bad('mediaType=carousel', 'mediaType');
    await bad('limit=101', 'limit');
    await bad('page=0', 'page');
    await bad('adCountries=US,XX', 'adCountries');
    await bad('linkedDomain=not%20a%20domain', 'linkedDomain');
    await bad('minAge=5', 'minAge');
    await bad('cpm=0', 'cpm');
    await bad('minReach=-1', 'minReach');
    await bad('adCopyHashes=abc', 'adCopyHashes');
    await bad('growthRank=up', 'growthRank');
    await bad('snapshotDate=2026-13-01', 'snapshotDate');
    await bad('createdAfter=yesterday', 'createdAfter');
    expect((await get(`/brandtrackers/${BT_A}/ads?unknown=1`)).status).toBe(200);
  });

  it('sends a bounded number of statements, whatever the page size', async () => {
    await get(`/brandtrackers/${BT_A}/ads`);
    const count = async (path: string) => {
      const { res, statements } = await app.statementsOf(() => get(`/brandtrackers/${BT_A}/${path}`));
      expect(res.status).toBe(200);
      return statements.length;
    };
    const one = await count('ads?limit=1');
    expect(one).toBeLessThanOrEqual(4);
    expect(await count('ads?limit=5')).toBe(one);
    expect(await count('ads?limit=5&keywords=glow')).toBeLessThanOrEqual(one);
    expect(await count('partnership-ads/count')).toBeLessThanOrEqual(2);
  });
});

describe("one brand's lists count exactly", () => {
  it('whatever the bound of the market-wide lists, equal to the count route', async () => {
    const bounds = { ...searchBounds };
    try {
      Object.assign(searchBounds, { totalCap: 1, candidates: 1 });
      const all = await get(`/brandtrackers/${BT_A}/ads?limit=2`);
      expect(all.body.pagination).toEqual({ page: 1, limit: 2, total: 5, totalPages: 3 });
      expect(all.body.meta).toEqual({ totalRelation: 'eq' });
      const partners = await get(`/brandtrackers/${BT_A}/partnership-ads?limit=1`);
      expect(partners.body.pagination.total).toBe(await count());
      expect(partners.body.meta).toEqual({ totalRelation: 'eq' });
    } finally {
      Object.assign(searchBounds, bounds);
    }
  });
});

describe('GET /v1/brandtrackers/{id}/partnership-ads and /count', () => {
  it('lists only the ads with the partner badge, with the partner filters', async () => {
    expect(await partnership()).toEqual(['9501', '9502']);
    expect(await partnership(`partnerId=${PARTNER_2}`)).toEqual(['9502']);
    expect(await partnership(`partnerIds=${PARTNER_1}&partnerId=${PARTNER_2}`)).toEqual(['9501', '9502']);
    expect(await partnership('status=active')).toEqual(['9501']);
    expect(await partnership('sortBy=reach&partners=false')).toEqual(['9501', '9502']);
    expect(await ids(await get(`/brandtrackers/${BT_B}/partnership-ads`))).toEqual(['9004']);
  });

  it('counts what the list pages over, equal to the SQL count', async () => {
    const [{ total }] = await app.t.db.prisma.$queryRaw<{ total: number }[]>`
      SELECT count(*)::int AS total FROM "ads" WHERE "advertiserId" = ${PAGE_A} AND "isGroupLead" AND "hasPartnerBadge"`;
    const res = await get(`/brandtrackers/${BT_A}/partnership-ads/count`);
    expect(res.body).toEqual({ requestId: expect.any(String), data: { count: total } });
    expect(total).toBe(2);
    for (const query of ['status=active', 'euOnly=true', `partnerId=${PARTNER_1}`, 'mediaType=video', 'keywords=nothing', 'snapshotDate=latest&status=active']) {
      const list = await get(`/brandtrackers/${BT_A}/partnership-ads?${query}`);
      expect(await count(query), query).toBe(list.body.pagination.total);
    }
    expect(await count('euOnly=true')).toBe(1);
    expectViolation(await get(`/brandtrackers/${BT_A}/partnership-ads/count?status=live`), 'query-string.status');
  });
});

describe('the ads routes of a brandtracker the workspace does not track', () => {
  it('answer 404 for another workspace and for an inactive link, 400 for a malformed id', async () => {
    for (const path of ['ads', 'partnership-ads', 'partnership-ads/count']) {
      expectNotFound(await get(`/brandtrackers/${BT_A}/${path}`, app.otherKey));
      expectViolation(await get(`/brandtrackers/nope/${path}`), 'path.brandtrackerId');
    }
    await app.untracked(BT_B, async () => {
      for (const path of ['ads', 'partnership-ads', 'partnership-ads/count']) expect((await get(`/brandtrackers/${BT_B}/${path}`)).status).toBe(404);
    });
  });
});

describe('GraphQL', () => {
  it('answers the same as REST', async () => {
    const rest = await get(`/brandtrackers/${BT_A}/ads?status=active&sortBy=reach&limit=2`);
    const data = await app.graphql(`query($id: String!) {
      brandtrackerAds(brandtrackerId: $id, status: active, sortBy: "reach", limit: 2) { data { id metrics { reach } } pagination { page limit total totalPages } }
      brandtrackerPartnershipAdsCount(brandtrackerId: $id) { count }
    }`, { id: BT_A });
    const restPage = withoutRequestId(rest.body) as { data: { id: string; metrics: { reach: number } }[]; pagination: unknown };
    expect(data.brandtrackerAds).toEqual({ data: restPage.data.map((ad) => ({ id: ad.id, metrics: { reach: ad.metrics.reach } })), pagination: restPage.pagination });
    expect(data.brandtrackerPartnershipAdsCount).toEqual({ count: 2 });
  });
});
