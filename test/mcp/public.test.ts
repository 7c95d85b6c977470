import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setCredits } from '../../src/auth/admin.js';
import { ensureDemo } from '../../src/data/demo.js';
import { PUBLIC_TOOL_NAMES } from '../../src/mcp/manifest.js';
import { CHARS_PER_TOKEN } from '../../src/mcp/shape.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { callTool, connect, parse } from './client.js';

// The public service's tool names over Streamable HTTP with the SDK's client, on the demo market (the first start's
// synthetic market and demo workspace): every named tool answers, charged what its REST calls are charged, within
// its size budget, and another workspace's ids are answered as missing.

let t: TestApp;
let demoKey: string;
beforeAll(async () => {
  t = await createTestApp(async (db) => {
    demoKey = (await ensureDemo(db.prisma, db.pool, () => {}))!;
  }, { mcpMutations: true, market: { scale: 'tiny', seed: 42 } }); // the demo's market: a copy of the run's template
});
afterAll(() => t?.close());

const call = (apiKey: string, name: string, args: Record<string, unknown>) => callTool(t, apiKey, name, args);

/** The demo workspace's ids to call the tools with. */
async function demoIds() {
  const rest = (path: string) => t.rest('GET', path, { key: demoKey }).then((res) => res.body);
  const tracked = (await rest('/brandtrackers?limit=1')).data[0];
  const ad = (await t.rest('POST', '/ads/query', { key: demoKey, body: { status: 'all', sortBy: 'reach', limit: 1 } })).body.data[0];
  const email = (await t.rest('POST', '/emails/query', { key: demoKey, body: { limit: 1 } })).body.data[0];
  const shop = (await t.rest('POST', '/shops/query', { key: demoKey, body: { sortBy: 'monthlyVisits', limit: 1 } })).body.data[0];
  return { brandtrackerId: tracked.id as string, adId: ad.id as string, emailId: String(email.id), shopDomain: shop.domain as string };
}

describe('the public tool set', () => {
  it('lists every public name, search_ads with the public arguments and the shaping ones', async () => {
    const client = await connect(t, demoKey);
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    for (const name of PUBLIC_TOOL_NAMES) expect(names, name).toContain(name);
    const search = (await client.listTools()).tools.find((tool) => tool.name === 'search_ads')!;
    expect(Object.keys(search.inputSchema.properties ?? {})).toEqual(expect.arrayContaining(['query', 'search_in', 'sort_by', 'min_days_running', 'category_ids', 'max_ads_per_brand', 'maxTokens', 'fields', 'detail']));
    await client.close();
  });

  it('search_ads takes the public arguments and answers what POST /v1/ads/query answers, compact', async () => {
    const direct = await t.rest('POST', '/ads/query', { key: demoKey, body: { status: 'all', sortBy: 'reach', order: 'desc', limit: 5, minDaysRunning: 1 } });
    const result = await call(demoKey, 'search_ads', { status: 'all', sort_by: 'reach', sort_order: 'desc', limit: 5, min_days_running: 1 });
    expect(result.isError).toBeFalsy();
    const body = parse(result);
    expect(body.data.map((ad: { id: string }) => ad.id)).toEqual(direct.body.data.map((ad: { id: string }) => ad.id));
    expect(body.pagination).toEqual(direct.body.pagination);
    expect(body.fullRecord).toEqual({ tool: 'scan_ad', argument: 'ad_id', from: 'id' });
    expect(JSON.stringify(body.data[0]).length).toBeLessThan(JSON.stringify(direct.body.data[0]).length);
    const [ad] = direct.body.data;
    expect(body.data[0]).toMatchObject({ id: ad.id, format: ad.media.type, reach: ad.metrics.aggregatedReach, advertiser: { id: ad.advertiser.id, name: ad.advertiser.name } });
    const full = parse(await call(demoKey, 'search_ads', { status: 'all', sort_by: 'reach', sort_order: 'desc', limit: 5, min_days_running: 1, detail: 'full' }));
    expect(full.data).toEqual(direct.body.data);
    const projected = parse(await call(demoKey, 'search_ads', { status: 'all', sort_by: 'reach', limit: 2, fields: ['metrics.reach'] }));
    expect(projected.data[0]).toEqual({ id: direct.body.data[0].id, metrics: { reach: direct.body.data[0].metrics.reach } });
  });

  it('search_shops: match_mode exact finds the domain', async () => {
    const { shopDomain } = await demoIds();
    const body = parse(await call(demoKey, 'search_shops', { query: shopDomain, match_mode: 'exact' }));
    expect(body.data[0]).toMatchObject({ domain: shopDomain, monthlyVisits: expect.any(Number), activeAds: expect.any(Number) });
  });
});

describe('every named tool on the demo market', () => {
  it('answers each public name (reads with the demo key; writes in a fresh workspace), never an error', async () => {
    const ids = await demoIds();
    const reads: [string, Record<string, unknown>][] = [
      ['search_ads', { query: 'a', status: 'all', limit: 3 }],
      ['search_advertisers', { sort_by: 'reach', limit: 3 }],
      ['search_shops', { sort_by: 'monthlyVisits', limit: 3 }],
      ['find_similar_shops', { q: ids.shopDomain, limit: 3 }],
      ['find_winning_products', { limit: 3 }],
      ['search_google_ads_library', { limit: 3 }],
      ['search_tiktok_library', { limit: 3 }],
      ['search_emails', { limit: 3 }],
      ['get_email_html', { email_id: ids.emailId }],
      ['lookup', { q: ids.shopDomain }],
      ['lookup_filter_ids', { type: 'categories', query: 'a', limit: 3 }],
      ['scan_ad', { ad_id: ids.adId }],
      ['brief_competitor', { q: ids.shopDomain, ads: 2, landingPages: 2 }],
      ['creative_inspiration_pack', { query: 'a', ads: 5 }],
      ['analyze_tracked_brand', { brandtracker_id: ids.brandtrackerId }],
      ['analyze_brand_changes', { brandtrackerId: ids.brandtrackerId }],
      ['analyze_shop_emails', { shop: ids.shopDomain }],
      ['get_brandtracker_scaling_ads', { brandtracker_id: ids.brandtrackerId }],
      ['get_brandtracker_transcripts', { brandtracker_id: ids.brandtrackerId }],
      ['daily_radar', { movers: 3 }],
      ['list_tracked_brands', { limit: 3 }],
      ['list_favorites', { type: 'ads' }],
      ['check_credits', {}],
      ['usage_get', {}],
    ];
    for (const [name, args] of reads) {
      const result = await call(demoKey, name, args);
      expect(result.isError, `${name}: ${result.content[0].text.slice(0, 300)}`).toBeFalsy();
      expect(parse(result), name).toBeTruthy();
    }
    const { apiKey } = await t.newKey();
    const added = parse(await call(apiKey, 'add_to_brandtracker', { domain: ids.shopDomain }));
    expect(added.data).toMatchObject({ id: expect.any(String), workspaceLinkId: expect.any(Number) });
    const folder = parse(await call(apiKey, 'create_brandtracker_folder', { name: 'Rivals' })).data;
    const moved = await call(apiKey, 'move_tracked_brands', { brandtracker_ids: [added.data.id], folder_id: folder.id });
    expect(moved.isError, moved.content[0].text.slice(0, 300)).toBeFalsy();
    const deleted = await call(apiKey, 'delete_brandtracker_folder', { folder_id: String(folder.id), action: 'move-to-default', confirm: true });
    expect(deleted.isError, deleted.content[0].text.slice(0, 300)).toBeFalsy();
    const favoriteFolder = await call(apiKey, 'create_favorite_folder', { type: 'ads', name: 'Hooks' });
    expect(favoriteFolder.isError, favoriteFolder.content[0].text.slice(0, 300)).toBeFalsy();
    const saved = await call(apiKey, 'add_favorite_item', { type: 'ads', ad_id: ids.adId });
    expect(saved.isError, saved.content[0].text.slice(0, 300)).toBeFalsy();
    const favorites = parse(await call(apiKey, 'list_favorites', { type: 'ads' }));
    expect(favorites.data.map((row: { adId?: string; ad?: { id: string } }) => row.adId ?? row.ad?.id)).toContain(ids.adId);
  });
});

describe('answers that fit a context', () => {
  it('the largest answers of the demo market stay within maxTokens, cut at a whole item with a continueWith that resumes exactly', async () => {
    const ids = await demoIds();
    const largest: [string, Record<string, unknown>][] = [
      ['search_ads', { status: 'all', sort_by: 'reach', limit: 100, detail: 'full' }],
      ['search_shops', { sort_by: 'monthlyVisits', limit: 100, detail: 'full' }],
      ['search_emails', { limit: 100, detail: 'full' }],
      ['list_tracked_brands', { limit: 100, detail: 'full' }],
      ['ads_query', { status: 'all', limit: 100 }],
      ['get_email_html', { email_id: ids.emailId }],
      ['analyze_tracked_brand', { brandtracker_id: ids.brandtrackerId, ads: 20, hooks: 20 }],
      ['scan_ad', { ad_id: ids.adId }],
    ];
    for (const maxTokens of [undefined, 500]) {
      for (const [name, args] of largest) {
        const result = await call(demoKey, name, maxTokens ? { ...args, maxTokens } : args);
        expect(result.isError, name).toBeFalsy();
        expect(result.content[0].text.length, `${name} maxTokens ${maxTokens}`).toBeLessThanOrEqual((maxTokens ?? 8000) * CHARS_PER_TOKEN);
        expect(() => parse(result), name).not.toThrow();
      }
    }
    const direct = await t.rest('POST', '/ads/query', { key: demoKey, body: { status: 'all', sortBy: 'reach', order: 'desc', limit: 40 } });
    const first = parse(await call(demoKey, 'search_ads', { status: 'all', sort_by: 'reach', sort_order: 'desc', limit: 20, detail: 'full', maxTokens: 2000 }));
    expect(first.cut).toMatchObject({ of: 20 });
    expect(first.data.length).toBeLessThan(20);
    expect(first.continueWith.tool).toBe('search_ads');
    const next = parse(await call(demoKey, 'search_ads', first.continueWith.arguments));
    const seen = [...first.data, ...next.data].map((ad: { id: string }) => ad.id);
    expect(seen).toEqual(direct.body.data.slice(0, seen.length).map((ad: { id: string }) => ad.id));
  });
});

describe('prices and workspaces are the API\'s own', () => {
  it('a metered public tool charges what its REST call charges', async () => {
    const viaMcp = await t.newKey();
    const viaRest = await t.newKey();
    for (const key of [viaMcp, viaRest]) await setCredits(t.db.prisma, { workspace: key.slug, recurringLimit: 100, recurringUsed: 0, topup: 0 });
    const result = await call(viaMcp.apiKey, 'search_tiktok_library', { limit: 3 });
    const direct = await t.rest('POST', '/tiktok/library/query', { key: viaRest.apiKey, body: { limit: 3 } });
    expect(direct.body.data.length).toBeGreaterThan(0);
    expect(result._meta).toMatchObject({ 'x-usage-cost': Number(direct.headers.get('x-usage-cost')) });
    const used = async (workspaceId: string) => (await t.db.prisma.creditAccount.findFirstOrThrow({ where: { workspaceId } })).recurringUsed;
    expect(await used(viaMcp.workspaceId)).toBe(await used(viaRest.workspaceId));
    expect(await used(viaMcp.workspaceId)).toBe(direct.body.data.length);
    const dry = parse(await call(viaMcp.apiKey, 'find_winning_products', { limit: 2, dryRun: true }));
    expect(dry).toMatchObject({ dryRun: true });
    expect(await used(viaMcp.workspaceId)).toBe(direct.body.data.length);
  });

  it('each metered public tool is charged exactly what its REST call is charged', async () => {
    // The demo brand's own domain (README's demo ids): its ads point at landing pages there, so the call charges.
    const shopDomain = 'zoescore.com';
    const cases: [string, Record<string, unknown>, string, string, unknown][] = [
      ['search_google_ads_library', { limit: 3 }, 'POST', '/google-ads/query', { limit: 3 }],
      ['find_winning_products', { limit: 3 }, 'POST', '/products/query', { limit: 3 }],
      ['lookup_filter_ids', { type: 'landing_pages', scope_domain: shopDomain, limit: 3 }, 'GET', `/ads/facets/landing-pages?scopeDomain=${shopDomain}&limit=3`, undefined],
    ];
    for (const [name, args, method, path, body] of cases) {
      const viaMcp = await t.newKey();
      const viaRest = await t.newKey();
      for (const key of [viaMcp, viaRest]) await setCredits(t.db.prisma, { workspace: key.slug, recurringLimit: 100, recurringUsed: 0, topup: 0 });
      const result = await call(viaMcp.apiKey, name, args);
      const direct = await t.rest(method, path, { key: viaRest.apiKey, body });
      expect(result.isError, name).toBeFalsy();
      expect(Number(direct.headers.get('x-usage-cost')), name).toBeGreaterThan(0);
      expect(result._meta?.['x-usage-cost'], name).toBe(Number(direct.headers.get('x-usage-cost')));
      const usedBy = async (workspaceId: string) => (await t.db.prisma.creditAccount.findFirstOrThrow({ where: { workspaceId } })).recurringUsed;
      expect(await usedBy(viaMcp.workspaceId), name).toBe(await usedBy(viaRest.workspaceId));
    }
  });

  it('answers a variant that names none (an Object prototype key included) with a validation_error', async () => {
    for (const type of ['constructor', 'toString', '__proto__', 'nope']) {
      const result = await call(demoKey, 'lookup_filter_ids', { type, query: 'a' });
      expect(result.isError, type).toBe(true);
      expect(JSON.parse(result.content[0].text).error.code, type).toBe('validation_error');
    }
  });

  it("another workspace's ids are answered as missing, as an unknown id is", async () => {
    const ids = await demoIds();
    const { apiKey } = await t.newKey();
    const unknown = '00000000-0000-4000-8000-000000000000';
    for (const [name, args] of [
      ['analyze_tracked_brand', { brandtracker_id: ids.brandtrackerId }],
      ['get_brandtracker_scaling_ads', { brandtracker_id: ids.brandtrackerId }],
      ['get_brandtracker_transcripts', { brandtracker_id: ids.brandtrackerId }],
    ] as const) {
      const theirs = await call(apiKey, name, args);
      const none = await call(apiKey, name, { brandtracker_id: unknown });
      expect(theirs.isError, name).toBe(true);
      expect(parse(theirs).error.code).toBe('not_found');
      expect(parse(theirs).error.message.replace(ids.brandtrackerId, 'X')).toBe(parse(none).error.message.replace(unknown, 'X'));
    }
  });
});

describe("the round's capabilities as tools", () => {
  it('saved searches: create, list, run its matches through its own route', async () => {
    const { apiKey } = await t.newKey();
    const created = parse(await call(apiKey, 'create_saved_search', { name: 'All ads', method: 'POST', path: '/v1/ads/query', params: { status: 'all', sortBy: 'reach' } }));
    const listed = parse(await call(apiKey, 'list_saved_searches', {}));
    expect(listed.data.map((row: { id: string }) => row.id)).toEqual([created.data.id]);
    expect(listed.fullRecord).toMatchObject({ tool: 'run_saved_search', argument: 'saved_search_id' });
    const run = parse(await call(apiKey, 'run_saved_search', { saved_search_id: created.data.id, limit: 3 }));
    const direct = await t.rest('POST', '/ads/query', { key: apiKey, body: { status: 'all', sortBy: 'reach', limit: 3 } });
    expect(run.data.map((row: { id: string }) => row.id)).toEqual(direct.body.data.map((row: { id: string }) => row.id));
    expect(run.continueWith).toMatchObject({ tool: 'ads_query', arguments: { status: 'all', sortBy: 'reach', limit: 3, page: 2 } });
    const theirs = await call(demoKey, 'run_saved_search', { saved_search_id: created.data.id });
    expect(parse(theirs).error.code).toBe('not_found');
  });

  it('exports: the dry run prices it without starting it; export_status reads one; sync_status the sources; whats_new the feed', async () => {
    const { apiKey, workspaceId } = await t.newKey();
    const dry = parse(await call(apiKey, 'start_export', { method: 'POST', path: '/v1/ads/query', params: { status: 'all' }, format: 'csv', dryRun: true }));
    expect(dry.data).toMatchObject({ dryRun: true, rows: expect.any(Number) });
    expect(await t.db.prisma.export.count({ where: { workspaceId } })).toBe(0);
    const started = parse(await call(apiKey, 'start_export', { method: 'POST', path: '/v1/ads/query', params: { status: 'all' }, format: 'csv' }));
    const status = parse(await call(apiKey, 'export_status', { export_id: started.data.id }));
    expect(status.data).toMatchObject({ id: started.data.id, state: expect.any(String) });
    expect(status.data).toHaveProperty('fileUrl');
    expect(parse(await call(demoKey, 'export_status', { export_id: started.data.id })).error.code).toBe('not_found');
    const sync = parse(await call(apiKey, 'sync_status', {}));
    expect(sync.data).toMatchObject({ sources: expect.any(Array), dataFreshnessLagDays: expect.anything() });
    const feed = await call(demoKey, 'whats_new', { since: '2000-01-01T00:00:00Z', limit: 5 });
    expect(feed.isError, feed.content[0].text.slice(0, 200)).toBeFalsy();
  });
});
