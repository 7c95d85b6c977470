import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type HttpResult, type TestApp } from '../support/app.js';
import { expectViolation } from '../support/assertions.js';
import { statementsOf } from '../support/statements.js';
import { discoveryScenario, P_GLOW, P_LAB, P_PEAK, S_GLOW, S_LAB, S_PEAK, S_THREADS, trackBrand } from '../support/discovery-scenario.js';

// GET /v1/lookup on the discovery scenario. The key's workspace tracks Nordic Glow's page under the name
// "My Glow"; another workspace tracks the shop threadsandco.com, which this workspace must never see.

let t: TestApp;
let key: string;
let otherKey: string;
let tracker: string;
let otherTracker: string;
beforeAll(async () => {
  t = await createTestApp(discoveryScenario);
  const mine = await t.newKey();
  key = mine.apiKey;
  tracker = await trackBrand(t.db, mine.workspaceId, { name: 'Nordic Glow', facebookPageId: P_GLOW, displayName: 'My Glow' });
  const other = await t.newKey();
  otherKey = other.apiKey;
  otherTracker = await trackBrand(t.db, other.workspaceId, { name: 'Threads & Co', websiteId: S_THREADS });
});
afterAll(() => t?.close());

const lookup = (query: string, as = key) => t.rest('GET', `/lookup?${query}`, { key: as });
type Result = { type: string; matchType: string; matchField: string; score: number; brandtracker: { id: string } | null; advertiser: { id: string } | null; shop: { id: string } | null; signals: Record<string, unknown> };
const results = (res: HttpResult): Result[] => {
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
};
const summary = (res: HttpResult) => results(res).map((r) => `${r.type}:${r.matchType}:${r.matchField}`);

const GLOW_LINKS = {
  brandtracker: { id: '', name: 'My Glow', facebookPageId: P_GLOW },
  advertiser: { id: P_GLOW, name: 'Nordic Glow', facebookPageId: P_GLOW },
  shop: { id: S_GLOW, domain: 'nordicglow.no', name: 'Nordic Glow' },
};

describe('GET /v1/lookup: exact matches', () => {
  it('a shop domain finds the brand as brandtracker, advertiser and shop, each linked to the others', async () => {
    const res = await lookup('q=nordicglow.no');
    const found = results(res);
    expect(summary(res).slice(0, 3)).toEqual(['brandtracker:exact:domain', 'advertiser:exact:domain', 'shop:exact:domain']);
    for (const result of found.slice(0, 3)) {
      expect(result.score).toBe(1);
      expect(result.brandtracker).toEqual({ ...GLOW_LINKS.brandtracker, id: tracker });
      expect(result.advertiser).toEqual(GLOW_LINKS.advertiser);
      expect(result.shop).toEqual(GLOW_LINKS.shop);
      expect(result.signals).toEqual({
        activeAds: 3, liveAdsCount: 3, reach30d: 6000, totalReach: 50000, monthlyVisits: 42000,
        workspaceAddedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), hasBrandtracker: true, hasAdvertiser: true, hasShop: true,
      });
    }
    expect(res.body.meta).toEqual({ q: 'nordicglow.no', type: 'auto', limit: 10, returned: found.length, partial: false, warnings: [] });
  });

  it('a URL reads as its domain', async () => {
    const res = await lookup(`q=${encodeURIComponent('https://www.nordicglow.no/products/serum?x=1')}`);
    expect(summary(res).slice(0, 3)).toEqual(['brandtracker:exact:domain', 'advertiser:exact:domain', 'shop:exact:domain']);
  });

  it('a Facebook page id finds the page, its brandtracker and its shops', async () => {
    const res = await lookup(`q=${P_GLOW}`);
    expect(summary(res)).toEqual(['brandtracker:exact:facebookPageId', 'advertiser:exact:facebookPageId', 'shop:exact:facebookPageId', 'shop:exact:facebookPageId']);
    expect(results(res).filter((r) => r.type === 'shop').map((r) => r.shop!.id)).toEqual([S_GLOW, S_LAB]);
  });

  it('an Instagram handle, with or without @, or as a profile URL', async () => {
    for (const q of ['@nordicglow', 'nordicglow', 'https://www.instagram.com/nordicglow/']) {
      const found = results(await lookup(`q=${encodeURIComponent(q)}`)).filter((r) => r.matchType === 'exact');
      expect(found.map((r) => `${r.type}:${r.matchField}`)).toEqual(['brandtracker:instagramHandle', 'advertiser:instagramHandle']);
      expect(found[1].advertiser!.id).toBe(P_GLOW);
    }
    const shop = results(await lookup('q=@glowlab')).filter((r) => r.matchType === 'exact');
    expect(shop.map((r) => `${r.type}:${r.matchField}:${r.shop?.id}`)).toEqual([`shop:instagramHandle:${S_LAB}`]);
  });

  it('exact names come before fuzzy ones, and fuzzy ones by decreasing score', async () => {
    const found = results(await lookup('q=Glow%20Lab'));
    expect(found[0]).toMatchObject({ type: 'shop', matchType: 'exact', matchField: 'name', score: 1, shop: { id: S_LAB } });
    const kinds = found.map((r) => r.matchType);
    expect(kinds.lastIndexOf('exact')).toBeLessThan(kinds.indexOf('fuzzy'));
    const fuzzy = found.filter((r) => r.matchType === 'fuzzy');
    expect(fuzzy.map((r) => r.advertiser?.id)).toContain(P_LAB);
    for (let i = 1; i < fuzzy.length; i++) expect(fuzzy[i].score).toBeLessThanOrEqual(fuzzy[i - 1].score);
  });
});

describe('GET /v1/lookup: fuzzy names', () => {
  it('a misspelt name still finds the brand, with a score below 1', async () => {
    const found = results(await lookup('q=nordik%20glow'));
    const best = (type: string) => found.find((r) => r.type === type);
    expect(new Set(found.map((r) => r.type))).toEqual(new Set(['advertiser', 'brandtracker', 'shop']));
    expect(best('advertiser')).toMatchObject({ matchType: 'fuzzy', matchField: 'name', advertiser: { id: P_GLOW } });
    expect(best('brandtracker')).toMatchObject({ matchType: 'fuzzy', brandtracker: { id: tracker, name: 'My Glow' } });
    expect(best('shop')).toMatchObject({ matchType: 'fuzzy', shop: { id: S_GLOW } });
    for (const r of found) {
      expect(r.score).toBeGreaterThan(0);
      expect(r.score).toBeLessThan(1);
    }
  });

  it('a word of the name matches, and the workspace display name matches its brandtracker', async () => {
    const peak = results(await lookup('q=peak&type=advertiser'));
    expect(peak.map((r) => r.advertiser!.id)).toEqual([P_PEAK]);
    // Every trigram of "peak" is in the name, yet it is not the name: fuzzy, below an exact match's 1.
    expect(peak[0]).toMatchObject({ matchType: 'fuzzy', score: 0.99 });
    const mine = results(await lookup('q=my%20glow&type=brandtracker'));
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ matchType: 'exact', matchField: 'name', brandtracker: { id: tracker } });
  });

  it('nothing that looks like the query: no results', async () => {
    const res = await lookup('q=zzqqxxjj');
    expect(results(res)).toEqual([]);
    expect(res.body.meta.returned).toBe(0);
  });
});

describe('GET /v1/lookup: type, limit, workspaces', () => {
  it('type keeps one kind of record', async () => {
    expect(new Set(results(await lookup('q=nordicglow.no&type=shop')).map((r) => r.type))).toEqual(new Set(['shop']));
    expect(new Set(results(await lookup('q=nordicglow.no&type=advertiser')).map((r) => r.type))).toEqual(new Set(['advertiser']));
    const trackers = await lookup('q=nordicglow.no&type=brandtracker');
    expect(results(trackers).map((r) => r.brandtracker!.id)).toEqual([tracker]);
    expect(trackers.body.meta.type).toBe('brandtracker');
  });

  it('limit caps the results', async () => {
    const res = await lookup(`q=${P_GLOW}&limit=2`);
    expect(summary(res)).toEqual(['brandtracker:exact:facebookPageId', 'advertiser:exact:facebookPageId']);
    expect(res.body.meta).toMatchObject({ limit: 2, returned: 2 });
  });

  it("another workspace's brandtrackers are never found nor linked", async () => {
    const found = results(await lookup('q=threadsandco.com'));
    expect(found.map((r) => r.type)).toEqual(['shop']);
    expect(found[0]).toMatchObject({ shop: { id: S_THREADS }, brandtracker: null, advertiser: null });
    expect(found[0].signals).toMatchObject({ hasBrandtracker: false, hasAdvertiser: false, hasShop: true, workspaceAddedAt: null, activeAds: null });
    const theirs = results(await lookup('q=threadsandco.com', otherKey));
    expect(theirs.map((r) => r.type)).toEqual(['brandtracker', 'shop']);
    expect(theirs[0].brandtracker!.id).toBe(otherTracker);
    expect(results(await lookup('q=Threads%20%26%20Co&type=brandtracker'))).toEqual([]);
    const glowForThem = results(await lookup('q=nordicglow.no', otherKey));
    expect(glowForThem.every((r) => r.brandtracker === null && r.type !== 'brandtracker')).toBe(true);
  });

  it('bad parameters are a 400 naming the parameter', async () => {
    expectViolation(await t.rest('GET', '/lookup', { key }), 'query-string.q');
    expectViolation(await lookup('q=a'), 'query-string.q');
    expectViolation(await lookup(`q=${'a'.repeat(201)}`), 'query-string.q');
    expectViolation(await lookup('q=glow&type=page'), 'query-string.type');
    expectViolation(await lookup('q=glow&limit=0'), 'query-string.limit');
    expectViolation(await lookup('q=glow&limit=11'), 'query-string.limit', ['limit must not be greater than 10']);
  });
});

describe('access', () => {
  it('every read of discovery is open to a read-only member, and closed without a key', async () => {
    const readonly = await t.newKey({ role: 'readonly' });
    await trackBrand(t.db, readonly.workspaceId, { name: 'Nordic Glow', facebookPageId: P_GLOW });
    for (const path of ['/lookup?q=nordicglow.no', `/lookup/facebook-shop?facebookPageId=${P_GLOW}`, '/advertisers?limit=1', `/advertisers/${P_GLOW}`, '/facets/themes']) {
      const res = await t.rest('GET', path, { key: readonly.apiKey });
      expect(res.status, path).toBe(200);
      expect((await t.rest('GET', path, { key: null })).status, path).toBe(401);
    }
    const found = results(await lookup('q=nordicglow.no&type=brandtracker', readonly.apiKey));
    expect(found.map((r) => r.brandtracker!.id)).toEqual([tracker]);
    expect(found[0].brandtracker).toMatchObject({ name: 'Nordic Glow' });
  });
});

describe('GET /v1/lookup: surfaces and cost', () => {
  it('REST and GraphQL return the same results', async () => {
    const rest = await lookup('q=nordicglow.no');
    const gql = await t.graphql(
      `{ lookup(q: "nordicglow.no") { data { type matchType matchField score brandtracker { id name facebookPageId } advertiser { id name facebookPageId } shop { id domain name }
          signals { activeAds liveAdsCount reach30d totalReach monthlyVisits workspaceAddedAt hasBrandtracker hasAdvertiser hasShop } }
          meta { q type limit returned partial warnings { code type message } } } }`,
      undefined,
      key,
    );
    expect(gql.body.errors).toBeUndefined();
    const { requestId: _requestId, ...body } = rest.body;
    expect(gql.body.data.lookup).toEqual(body);
  });

  it('is free and runs one statement per source whatever the limit', async () => {
    await lookup('q=glow');
    const one = await statementsOf(() => lookup('q=glow&limit=1'));
    const ten = await statementsOf(() => lookup('q=glow&limit=10'));
    expect(results(one.res)).toHaveLength(1);
    expect(results(ten.res).length).toBeGreaterThan(1);
    expect(one.statements.length).toBe(3);
    expect(ten.statements.length).toBe(3);
    expect(one.res.headers.get('x-credits-used')).toBeNull();
  });
});

describe('GET /v1/lookup: a source that does not answer in time', () => {
  it.runIf(process.env.TEST_DB === 'postgres')('is left out, marked partial with an upstream_timeout warning; the others answer', async () => {
    // Only the brandtracker source reads brandtracker_websites (for a domain); a lock held elsewhere stalls it alone.
    const blocker = new pg.Client({ connectionString: t.db.url });
    await blocker.connect();
    try {
      await blocker.query('BEGIN');
      await blocker.query('LOCK TABLE "brandtracker_websites" IN ACCESS EXCLUSIVE MODE');
      const res = await lookup('q=nordicglow.no');
      expect(res.body.meta).toMatchObject({ partial: true, warnings: [{ code: 'upstream_timeout', type: 'brandtracker', message: expect.any(String) }] });
      expect(summary(res).slice(0, 2)).toEqual(['advertiser:exact:domain', 'shop:exact:domain']);
      expect(results(res).some((r) => r.type === 'brandtracker')).toBe(false);
    } finally {
      await blocker.query('ROLLBACK');
      await blocker.end();
    }
    const after = await lookup('q=nordicglow.no');
    expect(after.body.meta.partial).toBe(false);
    expect(summary(after)[0]).toBe('brandtracker:exact:domain');
  });
});

describe('GET /v1/lookup/facebook-shop', () => {
  const resolve = (query: string) => t.rest('GET', `/lookup/facebook-shop?${query}`, { key });
  const glowShops = [
    { id: S_GLOW, domain: 'nordicglow.no', name: 'Nordic Glow', rank: '1', isMainRelation: true, isPrimary: true, trafficNumber: 42000, profilePhotoUrl: 'http://api.test/media/shops/nordicglow.png' },
    { id: S_LAB, domain: 'glowlabstudio.com', name: 'Glow Lab', rank: '2', isMainRelation: false, isPrimary: false, trafficNumber: 8000, profilePhotoUrl: null },
  ];

  it("a page's shops, the primary first, under each page alias", async () => {
    const res = await resolve(`facebookPageId=${P_GLOW}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toEqual({ input: { type: 'facebookPage', id: P_GLOW }, primaryShop: glowShops[0], shops: glowShops, primaryFacebookPage: null, facebookPages: [] });
    expect(res.body.meta).toEqual({ limit: 50, returnedShops: 2, returnedFacebookPages: 0 });
    for (const alias of ['facebook_id', 'fb_page_id']) expect((await resolve(`${alias}=${P_GLOW}`)).body.data).toEqual(res.body.data);
  });

  it("a shop's pages, the main one first, under each shop alias", async () => {
    const res = await resolve(`shopId=${S_LAB}`);
    expect(res.status).toBe(200);
    const pages = [
      { id: P_LAB, facebookPageId: P_LAB, name: 'Glow Lab Studio', rank: '1', isMainRelation: true, isPrimary: true, runningAds: 1 },
      { id: P_GLOW, facebookPageId: P_GLOW, name: 'Nordic Glow', rank: '2', isMainRelation: false, isPrimary: false, runningAds: 3 },
    ];
    expect(res.body.data).toEqual({ input: { type: 'shop', id: S_LAB }, primaryShop: null, shops: [], primaryFacebookPage: pages[0], facebookPages: pages });
    expect(res.body.meta).toEqual({ limit: 50, returnedShops: 0, returnedFacebookPages: 2 });
    expect((await resolve(`website_id=${S_LAB}`)).body.data).toEqual(res.body.data);
  });

  it('limit caps each list; a page or shop without relations has empty lists', async () => {
    const res = await resolve(`facebookPageId=${P_GLOW}&limit=1`);
    expect(res.body.data.shops).toEqual([glowShops[0]]);
    expect(res.body.meta).toEqual({ limit: 1, returnedShops: 1, returnedFacebookPages: 0 });
    const lonely = await resolve(`shopId=${S_THREADS}`);
    expect(lonely.body.data).toMatchObject({ primaryFacebookPage: null, facebookPages: [] });
    expect((await resolve(`facebookPageId=${P_PEAK}`)).body.data.shops.map((s: { id: string }) => s.id)).toEqual([S_PEAK]);
  });

  it('an unknown page or shop is a 404', async () => {
    for (const query of ['facebookPageId=1234', 'shopId=5d000000-0000-4000-8000-0000000000ff']) {
      const res = await resolve(query);
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    }
  });

  it('exactly one identifier, each well-formed, and limit 1..50', async () => {
    expectViolation(await resolve('limit=5'), 'query-string.facebookPageId');
    expectViolation(await resolve(`facebookPageId=${P_GLOW}&shopId=${S_GLOW}`), 'query-string.shopId');
    expectViolation(await resolve(`facebook_id=${P_GLOW}&fb_page_id=${P_GLOW}`), 'query-string.fb_page_id');
    expectViolation(await resolve('shopId=not-a-uuid'), 'query-string.shopId');
    expectViolation(await resolve(`facebookPageId=${'1'.repeat(129)}`), 'query-string.facebookPageId');
    expectViolation(await resolve(`facebookPageId=${P_GLOW}&limit=51`), 'query-string.limit');
  });

  it('REST and GraphQL agree', async () => {
    const rest = await resolve(`shopId=${S_GLOW}`);
    const gql = await t.graphql(
      `query($id: String) { lookupFacebookShop(shopId: $id) { data { input { type id }
          primaryShop { id } shops { id }
          primaryFacebookPage { id facebookPageId name rank isMainRelation isPrimary runningAds }
          facebookPages { id facebookPageId name rank isMainRelation isPrimary runningAds } }
          meta { limit returnedShops returnedFacebookPages } } }`,
      { id: S_GLOW },
      key,
    );
    expect(gql.body.errors).toBeUndefined();
    const { requestId: _requestId, ...body } = rest.body;
    expect(gql.body.data.lookupFacebookShop).toEqual(body);
  });
});
