import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setCredits } from '../../src/auth/admin.js';
import { PRICES, reserveFor, type Price } from '../../src/metering/prices.js';
import { taskTools } from '../../src/mcp/tasks/index.js';
import { taskTool } from '../../src/mcp/tasks/frame.js';
import { routes } from '../../rest/routes.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { BT_B, PAGE_A, PAGE_B } from '../brandtrackers/scenario.js';
import { callTool, connect, parse } from './client.js';
import { SIMILAR_DOMAINS, taskScenario } from './scenario.js';

// The task tools through the SDK's client: each is the routes it names, called with the caller's key, so it is
// charged exactly what those REST calls are charged; its dry run charges nothing; a balance that cannot cover its
// holds refuses it before any call is charged.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp(taskScenario);
});
afterAll(() => t?.close());

/** A workspace with `credits` recurring credits, tracking pages A and B. */
async function workspace(credits: number) {
  const key = await t.newKey();
  await setCredits(t.db.prisma, { workspace: key.slug, recurringLimit: credits, recurringUsed: 0, topup: 0 });
  for (const page of [PAGE_A, PAGE_B]) expect((await t.rest('POST', '/brandtrackers', { key: key.apiKey, body: { facebookPageId: page } })).status).toBeLessThan(300);
  const remaining = async () => (await t.db.prisma.creditAccount.findFirstOrThrow({ where: { workspaceId: key.workspaceId } })).recurringUsed;
  const charges = () => t.db.prisma.usageRecord.findMany({ where: { workspaceId: key.workspaceId }, orderBy: { id: 'asc' } });
  return { ...key, used: remaining, charges };
}

const call = (apiKey: string, name: string, args: Record<string, unknown>) => callTool(t, apiKey, name, args);

describe('descriptions', () => {
  it('state the total cost computed from the price table, and follow a price change', () => {
    const tools = new Map(taskTools(routes).map((tool) => [tool.name, tool]));
    const most = reserveFor(PRICES['Query.adLandingPages'], { limit: 10 });
    expect(tools.get('brief_competitor')!.description).toContain(`Costs at most ${most} credits with the default arguments`);
    expect(tools.get('brief_competitor')!.inputSchema.properties).toHaveProperty('dryRun');
    expect(tools.get('daily_radar')!.description).toContain('1 credit per row GET /v1/workspace/scaling-ads returns (at most `movers`)');
    expect(tools.get('find_similar_shops')!.description).toContain('Free');
    expect(tools.get('find_similar_shops')!.inputSchema.properties).not.toHaveProperty('dryRun');

    const perItem: Price = { kind: 'perItem' };
    const changed = taskTools(routes, (field) => (field === 'Query.shopSimilar' ? perItem : field === 'Query.adLandingPages' ? { kind: 'free' } : PRICES[field as keyof typeof PRICES]));
    const byName = new Map(changed.map((tool) => [tool.name, tool.description]));
    expect(byName.get('brief_competitor')).toContain('Free');
    expect(byName.get('find_similar_shops')).toContain('Costs at most 1 credit with the default arguments: 1 credit per item GET /v1/shops/{identifier}/similar finds');
  });

  it('a task body may call only the routes it declares, metered ones within the rows it declares', async () => {
    const usage = () => Promise.resolve(Response.json({ credits: { totalRemaining: 100 } }));
    const context = { fetch: usage, routes, authorization: null, origin: 'http://api.test', requestId: 'r', metering: true };
    const over = taskTool({ name: 'over', summary: '', params: {}, calls: [{ field: 'Query.adLandingPages' }], run: (api) => api.call('Query.adLandingPages', { limit: 50 }) }, routes);
    await expect(over.run(context, {})).rejects.toThrow('beyond what it declares');
    const undeclared = taskTool({ name: 'undeclared', summary: '', params: {}, calls: [], run: (api) => api.call('Query.ads', {}) }, routes);
    await expect(undeclared.run(context, {})).rejects.toThrow('which it does not declare');
  });

  it('are offered only when every route they call is routed', () => {
    const names = taskTools(routes.filter((route) => route.field !== 'Query.workspaceScalingAds')).map((tool) => tool.name);
    expect(names).toEqual(['check_credits', 'brief_competitor', 'find_similar_shops', 'whats_new', 'analyze_brand_changes', 'creative_inspiration_pack', 'analyze_tracked_brand', 'analyze_shop_emails', 'run_saved_search']);
    expect(taskTools(routes.filter((route) => route.field !== 'Query.shopChanges')).map((tool) => tool.name)).not.toContain('analyze_brand_changes');
  });
});

describe('brief_competitor', () => {
  it('briefs an advertiser and its shop, charged what the landing-pages route charges', async () => {
    const ws = await workspace(100);
    const result = await call(ws.apiKey, 'brief_competitor', { q: 'Nordic Glow', ads: 1 });
    expect(result.isError).toBeFalsy();
    const brief = parse(result);
    expect(brief.advertiser).toMatchObject({ id: PAGE_A, name: 'Nordic Glow', linkedShops: ['nordicglow.com'] });
    expect(brief.shop).toMatchObject({ domain: 'nordicglow.com', monthlyVisits: 42000, mainCategory: expect.any(String) });
    expect(brief.shop.similarShops.map((row: { domain: string }) => row.domain).sort()).toEqual([...SIMILAR_DOMAINS].sort());
    const all = await t.rest('GET', `/advertisers/${PAGE_A}/ads?sortBy=reach`, { key: ws.apiKey });
    expect(brief.topAds.data.map((ad: { id: string }) => ad.id)).toEqual([all.body.data[0].id]);
    expect(brief.topAds.data[0]).toMatchObject({ reach: all.body.data[0].metrics.aggregatedReach, text: expect.any(String) });
    expect(brief.topAds.continueWith).toEqual({ tool: 'advertiser_ads', arguments: { advertiserId: PAGE_A, sortBy: 'reach', order: 'desc', offset: 1, limit: 25 }, remaining: all.body.pagination.total - 1 });
    expect(brief.landingPages.data.map((row: { url: string }) => row.url)).toEqual(['https://nordicglow.com/products/serum']);

    const rows = brief.landingPages.data.length;
    const direct = await t.rest('GET', `/ads/facets/landing-pages?scopeTrackedPages=${PAGE_A}&limit=10`, { key: (await workspace(100)).apiKey });
    expect(Number(direct.headers.get('x-usage-cost'))).toBe(rows);
    expect(result._meta).toMatchObject({ 'x-usage-cost': rows, 'x-credits-remaining': 100 - rows });
    expect(await ws.used()).toBe(rows);
    expect((await ws.charges()).map((c) => [c.field, c.rows])).toEqual([['Query.adLandingPages', rows]]);
  });

  it('briefs a shop without a Facebook page by its domain: its landing pages by scopeDomain', async () => {
    const ws = await workspace(100);
    const brief = parse(await call(ws.apiKey, 'brief_competitor', { q: SIMILAR_DOMAINS[0] }));
    expect(brief).toMatchObject({ match: { type: 'shop' }, advertiser: null, shop: { domain: SIMILAR_DOMAINS[0] }, topAds: { data: [] } });
    const direct = await t.rest('GET', `/ads/facets/landing-pages?scopeDomain=${SIMILAR_DOMAINS[0]}&limit=10`, { key: ws.apiKey });
    expect(brief.landingPages.data).toEqual(direct.body.data);
  });

  it('answers not_found for a query nothing matches, charging nothing', async () => {
    const ws = await workspace(100);
    const result = await call(ws.apiKey, 'brief_competitor', { q: 'zzqx unknown brand' });
    expect(result.isError).toBe(true);
    expect(parse(result).error).toMatchObject({ code: 'not_found', requestId: expect.any(String) });
    expect(await ws.used()).toBe(0);
  });

  it('dry run: the most it can cost and the balance, charging nothing', async () => {
    const ws = await workspace(100);
    const dry = await call(ws.apiKey, 'brief_competitor', { q: 'Nordic Glow', landingPages: 7, dryRun: true });
    expect(parse(dry)).toEqual({ dryRun: true, reserve: 7, remaining: 100, affordable: true, fields: [{ field: 'Query.adLandingPages', reserve: 7 }] });
    expect(await ws.used()).toBe(0);
    expect(await ws.charges()).toEqual([]);
  });

  it('refuses up front when the balance cannot cover its holds: insufficient_credits, nothing charged', async () => {
    const ws = await workspace(3);
    const refused = await call(ws.apiKey, 'brief_competitor', { q: 'Nordic Glow' });
    expect(refused.isError).toBe(true);
    expect(parse(refused).error).toMatchObject({ code: 'insufficient_credits', details: { required: 10, remaining: 3 } });
    expect(await ws.charges()).toEqual([]);
    const smaller = await call(ws.apiKey, 'brief_competitor', { q: 'Nordic Glow', landingPages: 3 });
    expect(smaller.isError).toBeFalsy();
    expect(await ws.used()).toBe(parse(smaller).landingPages.data.length);
  });

  it('validates its own arguments by name (text as the routes do); a bad key cannot reach them', async () => {
    const ws = await workspace(100);
    const invalid = parse(await call(ws.apiKey, 'brief_competitor', { q: 'x', landingPages: 500, ignored: 1 }));
    expect(invalid.error).toMatchObject({ code: 'validation_error', details: { validationErrors: [{ field: 'landingPages', location: 'argument' }] } });
    const missing = parse(await call(ws.apiKey, 'brief_competitor', {}));
    expect(missing.error.details.validationErrors.map((v: { field: string }) => v.field)).toEqual(['q']);
    for (const q of ['Nordic\u0000Glow', 'Nordic \ud800']) {
      const text = parse(await call(ws.apiKey, 'brief_competitor', { q }));
      expect(text.error).toMatchObject({ code: 'validation_error', details: { validationErrors: [{ field: 'q', location: 'argument', expected: [expect.stringMatching(/NUL|surrogate/)] }] } });
    }
    await expect(call('mi_not_a_key', 'brief_competitor', { q: 'Nordic Glow' })).rejects.toThrow(/401|invalid_api_key/);
    expect(await ws.used()).toBe(0);
  });
});

describe('find_similar_shops', () => {
  it('resolves a name to its shop and lists its similar shops, free', async () => {
    const ws = await workspace(0);
    const result = await call(ws.apiKey, 'find_similar_shops', { q: 'nordicglow.com', limit: 1 });
    expect(result.isError).toBeFalsy();
    const body = parse(result);
    expect(body.shop).toMatchObject({ domain: 'nordicglow.com', name: 'Nordic Glow' });
    expect(body.similar).toHaveLength(1);
    expect(SIMILAR_DOMAINS).toContain(body.similar[0].domain);
    expect(body.similar[0].similarityScore).toBeGreaterThan(0);
    expect(body.continueWith).toMatchObject({ tool: 'shop_similar', arguments: { identifier: body.shop.id, offset: 1 }, remaining: 1 });
    expect(result._meta).toMatchObject({ 'x-usage-cost': 0 });
    expect(await ws.charges()).toEqual([]);
  });
});

describe('daily_radar', () => {
  it("shows the brands with new ads and the rank movers, charged what scaling-ads charges", async () => {
    const ws = await workspace(100);
    const result = await call(ws.apiKey, 'daily_radar', {});
    expect(result.isError).toBeFalsy();
    const radar = parse(result);
    expect(radar.brandsWithNewAds.data).toEqual([
      expect.objectContaining({ id: BT_B, facebookPageId: PAGE_B, newAdsLastDay: 1, newAds: [expect.objectContaining({ id: 'facebook_9101', text: 'Fresh drop today' })] }),
    ]);
    expect(radar.movers.data.map((row: { ad: { id: string } }) => row.ad.id)).toEqual(['facebook_9001']);
    expect(radar.movers.data[0]).toMatchObject({ rankDelta: 2, brandtracker: { name: 'Nordic Glow' } });

    const direct = await t.rest('GET', '/workspace/scaling-ads?limit=10', { key: ws.apiKey });
    const rows = radar.movers.data.length;
    expect(Number(direct.headers.get('x-usage-cost'))).toBe(rows);
    expect(result._meta).toMatchObject({ 'x-usage-cost': rows });
    expect((await ws.charges()).map((c) => [c.field, c.rows])).toEqual([['Query.workspaceScalingAds', rows], ['Query.workspaceScalingAds', rows]]);
  });

  it('a server that does not sell credits never refuses it for the balance', async () => {
    const free = await createTestApp(undefined, { database: t.db, metering: false });
    try {
      const ws = await workspace(0);
      const client = await connect(free, ws.apiKey);
      const result = await client.callTool({ name: 'daily_radar', arguments: { movers: 5 } });
      await client.close();
      expect(result.isError).toBeFalsy();
      expect(parse(result).movers.data).toHaveLength(1);
      expect(await ws.charges()).toEqual([]);
    } finally {
      await free.close();
    }
  });
});
