import { describe, expect, it } from 'vitest';
import { parseJson } from '../../src/data/import/json.js';
import { parseMetaAd } from '../../src/data/import/meta-ads.js';
import { parseShopifyProduct, shopifyProducts } from '../../src/data/import/shopify-products.js';
import { parseTikTokAd, tiktokAds } from '../../src/data/import/tiktok-ads.js';
import { metaAd, startFakeMeta } from './fakes/meta.js';
import { shopifyProduct, startFakeShopify } from './fakes/shopify.js';
import { startServer } from './fakes/server.js';
import { startFakeTikTok, tiktokAd } from './fakes/tiktok.js';
import { fakeServers } from './helpers.js';

// The source fakes (test/sources/fakes) against plain fetch: paging to the end, the scripted faults, conditional
// requests, token expiry; and their records read by the importers' own parsers. No database.

const asOf = new Date();
const context = { asOf, day: new Date(Date.UTC(asOf.getUTCFullYear(), asOf.getUTCMonth(), asOf.getUTCDate())) };
const { track } = fakeServers();

type GraphPage = { data: Record<string, unknown>[]; paging?: { cursors: { before: string; after: string }; next?: string } };
type GraphError = { error: { code: number; error_subcode?: number; type: string; fbtrace_id: string } };

describe('fake Meta ads_archive', () => {
  const query = (extra: Record<string, string> = {}) =>
    new URLSearchParams({ access_token: 'good', ad_reached_countries: "['FR']", search_terms: "'our'", ...extra });

  it('pages to the end with opaque cursors, the fields asked, usage headers, records the importer reads', async () => {
    const meta = await track(startFakeMeta({ token: 'good', ads: Array.from({ length: 53 }, (_, i) => metaAd(i)) }));
    const fields = 'id,page_id,page_name,ad_creation_time,ad_delivery_start_time,ad_delivery_stop_time,ad_creative_bodies,ad_creative_link_titles,ad_creative_link_captions,eu_total_reach,age_country_gender_reach_breakdown,target_locations,target_gender,target_ages,languages,publisher_platforms,beneficiary_payers,ad_snapshot_url';
    const params = new URLSearchParams({ access_token: 'good', ad_reached_countries: '["FR"]', search_page_ids: '[100200300400500,100200300400513,100200300400526]', ad_active_status: 'ALL', limit: '20', fields });
    let next: string | undefined = `${meta.url}/v21.0/ads_archive?${params}`;
    const ads: Record<string, unknown>[] = [];
    let pages = 0;
    while (next) {
      const response: Response = await fetch(next);
      expect(response.status).toBe(200);
      const usage = JSON.parse(response.headers.get('x-business-use-case-usage')!);
      expect(Object.values(usage)).toEqual([[expect.objectContaining({ type: 'ads_archive', estimated_time_to_regain_access: 0 })]]);
      expect(JSON.parse(response.headers.get('x-app-usage')!)).toEqual({ call_count: 1, total_cputime: 1, total_time: 1 });
      const page = (await response.json()) as GraphPage;
      ads.push(...page.data);
      next = page.paging?.next;
      if (next) {
        expect(next.startsWith(`${meta.url}/v21.0/ads_archive?`)).toBe(true);
        expect(new URL(next).searchParams.get('after')).toBe(page.paging!.cursors.after);
        expect(page.paging!.cursors.after).not.toMatch(/^\d+$/);
      }
      pages++;
    }
    expect(pages).toBe(3);
    expect(ads.map((ad) => ad.id)).toEqual(Array.from({ length: 53 }, (_, i) => metaAd(i).id));
    expect(ads[0].ad_snapshot_url).toMatch(/access_token=good$/);
    for (const ad of ads) expect(() => parseMetaAd(ad, context)).not.toThrow();
    expect(parseMetaAd(ads[1], context).collationId).toBe(parseMetaAd(ads[2], context).collationId);
  });

  it('filters and projects like the API; validates parameters and the token', async () => {
    const meta = await track(startFakeMeta({ token: 'good', ads: { count: 400, make: (i) => metaAd(i) } }));
    const get = async (params: URLSearchParams) => {
      const response = await fetch(`${meta.url}/v19.0/ads_archive?${params}`);
      return { status: response.status, body: (await response.json()) as GraphPage & GraphError };
    };
    const page = await get(query({ search_page_ids: '[100200300400513]', fields: 'page_name', ad_active_status: 'ALL' }));
    expect(page.body.data).toHaveLength(20);
    expect(Object.keys(page.body.data[0])).toEqual(['page_name', 'id']);
    const active = await get(query({ search_terms: "'serum'", ad_active_status: 'ACTIVE', limit: '400', fields: 'ad_delivery_stop_time,ad_creative_bodies' }));
    expect(active.body.data.length).toBeGreaterThan(0);
    for (const ad of active.body.data) {
      expect(String(ad.ad_creative_bodies).toLowerCase()).toContain('serum');
      expect(ad.ad_delivery_stop_time === undefined || Date.parse(String(ad.ad_delivery_stop_time)) > Date.now()).toBe(true);
    }
    const dated = await get(query({ search_page_ids: '[100200300400500]', ad_active_status: 'ALL', ad_delivery_date_min: '2025-06-01', fields: 'ad_delivery_start_time' }));
    for (const ad of dated.body.data) expect(String(ad.ad_delivery_start_time) >= '2025-06-01').toBe(true);

    for (const params of [
      query({ ad_reached_countries: '' }),
      query({ ad_reached_countries: 'FR' }),
      query({ search_page_ids: `[${Array.from({ length: 11 }, (_, i) => i + 1).join(',')}]` }),
      query({ fields: 'id,nope' }),
    ]) {
      const { status, body } = await get(params);
      expect({ status, code: body.error.code, type: body.error.type }).toEqual({ status: 400, code: 100, type: 'OAuthException' });
    }
    expect((await get(query({ access_token: 'bad' }))).body.error.code).toBe(190);
    expect((await fetch(`${meta.url}/v19.0/ads_archive?${query({ access_token: 'bad' })}`)).headers.get('www-authenticate')).toMatch(/invalid_token/);
  });

  it('answers the scripted faults: 500 then success, a cut body, a throttle with usage, an expired token', async () => {
    const meta = await track(startFakeMeta({
      token: 'good',
      ads: { count: 30, make: (i) => metaAd(i) },
      faults: [
        { at: 1, fault: 'server_error' },
        { at: 3, fault: 'truncated' },
        { at: 4, fault: { kind: 'throttle', code: 80004, regainMinutes: 0.05 } },
        { at: 5, fault: 'http429' },
        { at: 6, fault: 'expired_token' },
        { at: 9, fault: 'dropped' },
      ],
    }));
    const url = `${meta.url}/v21.0/ads_archive?${query({ ad_active_status: 'ALL', fields: 'page_id' })}`;
    const first = await fetch(url);
    expect(first.status).toBe(500);
    expect(((await first.json()) as GraphError).error.code).toBe(2);
    expect((await fetch(url)).status).toBe(200);
    const cut = await fetch(url);
    expect(cut.status).toBe(200);
    await expect(cut.json()).rejects.toThrow();
    const throttled = await fetch(url);
    expect(throttled.status).toBe(400);
    expect(((await throttled.json()) as GraphError).error).toMatchObject({ code: 80004, error_subcode: 2446079 });
    const usage = Object.values(JSON.parse(throttled.headers.get('x-business-use-case-usage')!))[0] as { call_count: number; estimated_time_to_regain_access: number }[];
    expect(usage[0]).toMatchObject({ call_count: 100, estimated_time_to_regain_access: 0.05 });
    expect((await fetch(url)).status).toBe(429);
    for (let i = 0; i < 2; i++) expect(((await (await fetch(url)).json()) as GraphError).error).toMatchObject({ code: 190, error_subcode: 463 });
    meta.setToken('good');
    expect((await fetch(url)).status).toBe(200);
    await expect(fetch(url).then((response) => response.text())).rejects.toThrow();
    expect(meta.archiveRequests()).toHaveLength(9);
  });

  it('serves 100,000 generated ads page by page', async () => {
    const meta = await track(startFakeMeta({ token: 'good', ads: { count: 100_000, make: (i) => metaAd(i) } }));
    let next: string | undefined = `${meta.url}/v21.0/ads_archive?${query({ ad_active_status: 'ALL', limit: '1000', fields: 'id' })}`;
    const ids = new Set<unknown>();
    while (next) {
      const page = (await (await fetch(next)).json()) as GraphPage;
      for (const ad of page.data) ids.add(ad.id);
      next = page.paging?.next;
    }
    expect(ids.size).toBe(100_000);
    expect(meta.requests).toHaveLength(100);
  });
});

describe('fake TikTok Commercial Content API', () => {
  const ads = Array.from({ length: 120 }, (_, i) => tiktokAd(i));
  const fields = 'ad.id,ad.first_shown_date,ad.last_shown_date,ad.status,ad.videos,ad.image_urls,ad.reach,advertiser.business_id,advertiser.business_name,advertiser.paid_for_by';
  const token = async (url: string, secret: string) =>
    fetch(`${url}/v2/oauth/token/`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_key: 'fake-client-key', client_secret: secret, grant_type: 'client_credentials' }),
    });
  const queryAds = (url: string, access: string, body: Record<string, unknown>) =>
    fetch(`${url}/v2/research/adlib/ad/query/?fields=${fields}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${access}`, 'content-type': 'application/json' },
      body: JSON.stringify({ filters: { ad_published_date_range: { min: '20221001', max: '20301231' }, country_code: 'FR' }, ...body }),
    });

  it('issues client tokens and pages with search_id; ids are number literals the importer reads exactly', async () => {
    const tiktok = await track(startFakeTikTok({ ads, faults: [{ at: 2, fault: 'rate_limit_exceeded' }] }));
    const refused = await token(tiktok.url, 'wrong');
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ error: 'invalid_client', error_description: expect.any(String), log_id: expect.any(String) });
    const granted = (await (await token(tiktok.url, 'fake-client-secret')).json()) as { access_token: string; expires_in: number; token_type: string };
    expect(granted).toMatchObject({ access_token: expect.stringMatching(/^clt\./), expires_in: 7200, token_type: 'Bearer' });

    const records: unknown[] = [];
    let searchId: string | undefined;
    let pages = 0;
    for (;;) {
      const response = await queryAds(tiktok.url, granted.access_token, { max_count: 50, ...(searchId ? { search_id: searchId } : {}) });
      if (response.status === 429) {
        expect(await response.json()).toMatchObject({ error: { code: 'rate_limit_exceeded' } });
        continue;
      }
      expect(response.status).toBe(200);
      const text = await response.text();
      expect(text).toMatch(/"ad":\{"id":7301234567\d{9},/);
      const document = parseJson(text) as { data: { has_more: boolean; search_id: string }; error: { code: string } };
      expect(document.error.code).toBe('ok');
      const page = tiktokAds.records(document);
      if (typeof page === 'string') throw new Error(page);
      records.push(...page);
      pages++;
      if (!document.data.has_more) break;
      searchId = document.data.search_id;
    }
    expect(pages).toBe(3);
    expect(records.map((record) => parseTikTokAd(record, context).id)).toEqual(ads.map((ad) => ad.ad.id));
    expect(tiktok.queryRequests()).toHaveLength(4);

    const tooMany = await queryAds(tiktok.url, granted.access_token, { max_count: 51 });
    expect(tooMany.status).toBe(400);
    expect(await tooMany.json()).toMatchObject({ error: { code: 'invalid_params', log_id: expect.any(String) } });
    const narrow = (await (await queryAds(tiktok.url, granted.access_token, { filters: { ad_published_date_range: { min: '20240101', max: '20240131' } } })).json()) as { data: { ads: { ad: { first_shown_date: number } }[] } };
    for (const { ad } of narrow.data.ads) expect(ad.first_shown_date).toBeLessThanOrEqual(20240131);
  });

  it('rejects a token after its expiry with access_token_invalid', async () => {
    const tiktok = await track(startFakeTikTok({ ads, tokenTtlSeconds: 0.3 }));
    const granted = (await (await token(tiktok.url, 'fake-client-secret')).json()) as { access_token: string; expires_in: number };
    expect(granted.expires_in).toBe(0.3);
    expect((await queryAds(tiktok.url, granted.access_token, {})).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 350));
    const expired = await queryAds(tiktok.url, granted.access_token, {});
    expect(expired.status).toBe(401);
    expect(await expired.json()).toMatchObject({ error: { code: 'access_token_invalid', message: expect.any(String), log_id: expect.any(String) } });
  });
});

describe('fake Shopify storefronts', () => {
  it('pages products.json to an empty page, answers 304 while unchanged, and 200 with a new ETag after a change', async () => {
    const shopify = await track(startFakeShopify({ stores: { 'lumen.example.com': { products: { count: 600, make: (i) => shopifyProduct(i) }, etag: true, lastModified: true } } }));
    const base = shopify.storeUrlTemplate.replace('{domain}', 'lumen.example.com');
    const sizes: number[] = [];
    for (let page = 1; page <= 4; page++) {
      const document = (await (await fetch(`${base}/products.json?limit=250&page=${page}`)).json()) as { products: unknown[] };
      const records = shopifyProducts('lumen.example.com').records(document);
      if (typeof records === 'string') throw new Error(records);
      for (const record of records) expect(() => parseShopifyProduct(record, context)).not.toThrow();
      sizes.push(records.length);
    }
    expect(sizes).toEqual([250, 250, 100, 0]);

    const first = await fetch(`${base}/products.json?limit=250&page=1`);
    const etag = first.headers.get('etag')!;
    const modified = first.headers.get('last-modified')!;
    expect(etag).toMatch(/^"[0-9a-f]+"$/);
    expect((await fetch(`${base}/products.json?limit=250&page=1`, { headers: { 'if-none-match': etag } })).status).toBe(304);
    expect((await fetch(`${base}/products.json?limit=250&page=1`, { headers: { 'if-modified-since': modified } })).status).toBe(304);
    shopify.setProducts('lumen.example.com', Array.from({ length: 10 }, (_, i) => shopifyProduct(i, { title: `Renamed ${i}` })));
    const changed = await fetch(`${base}/products.json?limit=250&page=1`, { headers: { 'if-none-match': etag } });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
    expect((await fetch(`${base}/products.json?limit=250&page=1`, { headers: { 'if-modified-since': modified } })).status).toBe(200);
  });

  it('answers a store status, scripted faults, and tracks requests in flight per store', async () => {
    const shopify = await track(startFakeShopify({
      latencyMs: 60,
      stores: {
        'blocked.example.com': { products: [], status: 430 },
        'busy.example.com': { products: [shopifyProduct(1)], faults: [{ at: 1, fault: { kind: 'status', status: 503 } }] },
        'calm.example.com': { products: [shopifyProduct(2)] },
      },
    }));
    const blocked = await fetch(`${shopify.storeUrl('blocked.example.com')}/products.json`);
    expect(blocked.status).toBe(430);
    expect(blocked.headers.get('content-type')).toMatch(/text\/html/);
    expect(blocked.headers.get('retry-after')).toBe('2');
    expect(await blocked.text()).toMatch(/Too Many Requests/);

    const busy = `${shopify.storeUrl('busy.example.com')}/products.json?limit=250&page=1`;
    expect((await fetch(busy)).status).toBe(503);
    await Promise.all([fetch(busy), fetch(busy)]);
    const calm = `${shopify.storeUrl('calm.example.com')}/products.json`;
    await fetch(calm);
    await fetch(calm);
    expect(shopify.maxInFlight('busy.example.com')).toBe(2);
    expect(shopify.maxInFlight('calm.example.com')).toBe(1);
    const [a, b] = shopify.requestsFor('calm.example.com');
    expect(b.at - a.at).toBeGreaterThanOrEqual(50);
    expect((await fetch(`${shopify.url}/unknown.example.com/products.json`)).status).toBe(404);
  });
});

describe('the fakes of a test', () => {
  let left = '';
  it.fails('a test that fails after starting a fake (failing on purpose)', async () => {
    const server = await track(startServer(() => ({ status: 200, body: 'up' })));
    left = server.url;
    expect(await (await fetch(left)).text()).toBe('up');
    throw new Error('this test fails on purpose');
  });

  it('leaves no fake listening: the server of the failed test refuses connections', async () => {
    expect(left).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    await expect(fetch(left)).rejects.toMatchObject({ cause: { code: 'ECONNREFUSED' } });
  });
});
