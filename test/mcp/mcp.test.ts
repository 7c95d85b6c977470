import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setCredits } from '../../src/auth/admin.js';
import { routes } from '../../rest/routes.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { adsScenario } from '../ads/scenario.js';
import { tiktokScenario } from '../tiktok/scenario.js';
import { connect as connectTo, parse, type TextResult } from './client.js';

// POST /v1/mcp through the SDK's own client, in-process: the tools are the routes, called with the caller's key.

let t: TestApp;
let key: { apiKey: string; slug: string; workspaceId: string };
beforeAll(async () => {
  t = await createTestApp(async (db) => {
    await adsScenario(db);
    await tiktokScenario(db);
  });
  key = await t.newKey();
});
afterAll(() => t?.close());

const connect = (apiKey: string | null) => connectTo(t, apiKey);

describe('tools', () => {
  it('lists one tool per read route, with its input schema, the task tools and the public tools; no writes by default', async () => {
    const client = await connect(key.apiKey);
    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name);
    const reads = routes.filter((route) => route.field.startsWith('Query.'));
    // 10 task tools and 18 public read tools (8 public write tools need MCP_MUTATIONS=on).
    expect(names).toHaveLength(reads.length + 10 + 18);
    expect(names).not.toContain('add_to_brandtracker');
    expect(names).toEqual(expect.arrayContaining(['check_credits', 'brief_competitor', 'find_similar_shops', 'daily_radar', 'whats_new', 'analyze_brand_changes']));
    expect(names).toContain('ads_query');
    expect(names).not.toContain('ad_share'); // a mutation
    const adsQuery = tools.find((tool) => tool.name === 'ads_query')!;
    expect(adsQuery.description).toContain('POST /v1/ads/query');
    expect(adsQuery.inputSchema.properties).toMatchObject({ limit: { type: 'integer' }, sortBy: { type: 'string', enum: expect.arrayContaining(['newest']) } });
    const detail = tools.find((tool) => tool.name === 'ad')!;
    expect(detail.inputSchema.required).toEqual(['adId']);
    const metered = tools.find((tool) => tool.name === 'ad_landing_pages')!;
    expect(metered.description).toContain('1 credit per returned row');
    expect(metered.inputSchema.properties).toHaveProperty('dryRun');
    await client.close();
  });

  it('a free tool answers the REST envelope', async () => {
    const client = await connect(key.apiKey);
    const result = await client.callTool({ name: 'ads_query', arguments: { status: 'all', sortBy: 'reach', limit: 2 } });
    expect(result.isError).toBeFalsy();
    const body = parse(result);
    expect(body.data.map((ad: { id: string }) => ad.id)).toEqual(['facebook_9004', 'facebook_9001']);
    expect(body.pagination).toMatchObject({ page: 1, limit: 2, total: 3 });
    const one = parse(await client.callTool({ name: 'ad', arguments: { adId: 'facebook_9001' } }));
    expect(one.data.id).toBe('facebook_9001');
    await client.close();
  });

  it('a metered tool is charged once, with the metering figures in _meta; its dry run charges nothing', async () => {
    const { apiKey, slug } = await t.newKey();
    await setCredits(t.db.prisma, { workspace: slug, recurringLimit: 100, recurringUsed: 0 });
    const client = await connect(apiKey);
    const dry = await client.callTool({ name: 'ad_landing_pages', arguments: { scopeTrackedPages: ['1000000000000001'], dryRun: true } });
    expect(parse(dry)).toMatchObject({ dryRun: true, remaining: 100 });
    const result = (await client.callTool({ name: 'ad_landing_pages', arguments: { scopeTrackedPages: ['1000000000000001'] } })) as TextResult;
    const rows = parse(result).data.length;
    expect(rows).toBeGreaterThan(0);
    expect(result._meta).toMatchObject({ 'x-usage-cost': rows, 'x-credits-remaining': 100 - rows });
    const usage = parse(await client.callTool({ name: 'check_credits', arguments: {} }));
    expect(usage.credits).toMatchObject({ recurring: { limit: 100, used: rows, remaining: 100 - rows }, totalRemaining: 100 - rows });
    const account = await t.db.prisma.creditAccount.findFirstOrThrow({ where: { workspace: { slug } } });
    expect(account.recurringUsed).toBe(rows);
    await client.close();
  });

  it('errors of the API come back as tool errors with their code', async () => {
    const { apiKey, slug } = await t.newKey();
    await setCredits(t.db.prisma, { workspace: slug, recurringLimit: 0, recurringUsed: 0, topup: 0 });
    const broke = await connect(apiKey);
    const unpaid = await broke.callTool({ name: 'ad_landing_pages', arguments: { scopeTrackedPages: ['1000000000000001'] } });
    expect(unpaid.isError).toBe(true);
    expect(parse(unpaid).error.code).toBe('insufficient_credits');
    const invalid = await broke.callTool({ name: 'ads_query', arguments: { limit: 1000 } });
    expect(parse(invalid).error).toMatchObject({ code: 'validation_error' });
    await broke.close();
  });
});

describe('writes', () => {
  it('are tools only when the server allows them (MCP_MUTATIONS=on), and then act for the key', async () => {
    const writer = await createTestApp(undefined, { database: t.db, mcpMutations: true });
    try {
      const client = await connectTo(writer, key.apiKey);
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain('ad_share');
      const shared = parse(await client.callTool({ name: 'ad_share', arguments: { adId: 'facebook_9001' } }));
      expect(shared.data).toMatchObject({ adId: 'facebook_9001' });
      expect(await t.db.prisma.adShare.count({ where: { workspaceId: key.workspaceId } })).toBe(1);
      await client.close();
    } finally {
      await writer.close();
    }
  });
});

/** A JSON-RPC message POSTed to /v1/mcp as an MCP client sends it, without the SDK (to read the HTTP answer). */
async function post(message: unknown, apiKey: string | null, method = 'POST') {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  if (apiKey) headers.authorization = `Bearer ${apiKey}`;
  const res = await t.app.fetch('http://api.test/v1/mcp', { method, headers, body: method === 'POST' ? JSON.stringify(message) : undefined });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: text ? JSON.parse(text) : null };
}

const INITIALIZE = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'curl', version: '1' } } };
const TOOLS_LIST = { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} };

describe('the endpoint, like every /v1 route but the three system ones, requires a valid bearer key', () => {
  it.each([
    ['initialize', INITIALIZE],
    ['tools/list', TOOLS_LIST],
    ['tools/call', { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'health', arguments: {} } }],
  ])('%s: 401 in the REST error envelope without a key or with an unknown one', async (_name, message) => {
    for (const [apiKey, code] of [[null, 'missing_api_key'], ['mi_not_a_key', 'invalid_api_key']] as const) {
      const res = await post(message, apiKey);
      expect(res.status, res.text.slice(0, 300)).toBe(401);
      expect(res.body).toEqual({ error: { code, message: expect.any(String), requestId: res.headers.get('x-request-id') } });
    }
  });

  it('a GET or DELETE of the endpoint is refused the same way', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await post(null, null, method);
      expect(res.status, `${method} ${res.text.slice(0, 300)}`).toBe(401);
      expect(res.body.error.code).toBe('missing_api_key');
    }
  });

  it("the SDK's client cannot connect without a valid key; with one it initializes and lists the tools", async () => {
    await expect(connect(null)).rejects.toThrow(/401|missing_api_key/);
    await expect(connect('mi_not_a_key')).rejects.toThrow(/401|invalid_api_key/);
    const ok = await post(INITIALIZE, key.apiKey);
    expect(ok.status).toBe(200);
    expect(ok.body.result.serverInfo.name).toBe('market-intelligence-api');
    const listed = await post(TOOLS_LIST, key.apiKey);
    expect(listed.body.result.tools.length).toBeGreaterThan(20);
  });

  it('a key whose workspace lost API access is refused with its code', async () => {
    const { apiKey } = await t.newKey({ apiAccess: 'disabled' });
    const res = await post(TOOLS_LIST, apiKey);
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('workspace_public_api_disabled');
  });
});

describe('path arguments stay in their segment', () => {
  const usage = async (workspaceId: string) => t.db.prisma.usageRecord.count({ where: { workspaceId } });

  it.each(['..', '.', ''])('%j is refused with validation_error naming it; no other route runs, nothing is charged', async (shopId) => {
    const { apiKey, slug, workspaceId } = await t.newKey();
    await setCredits(t.db.prisma, { workspace: slug, recurringLimit: 100, recurringUsed: 0 });
    const client = await connect(apiKey);
    const result = (await client.callTool({ name: 'shop_tiktok_library', arguments: { shopId } })) as TextResult;
    await client.close();
    expect(result.isError).toBe(true);
    const { error } = parse(result);
    expect(error).toMatchObject({ code: 'validation_error', requestId: expect.any(String), details: { validationErrors: [{ field: 'path.shopId', location: 'path', expected: [expect.stringContaining('shopId')] }] } });
    expect(await usage(workspaceId)).toBe(0);
  });

  it.each(['a/b', '../tiktok', '%2e%2e', '.%2e', '?limit=1', '#x', 'a\\b', ' .. '])('%j is sent as the segment itself: the route looks it up', async (shopId) => {
    const client = await connect(key.apiKey);
    const result = (await client.callTool({ name: 'shop_tiktok_library', arguments: { shopId } })) as TextResult;
    await client.close();
    expect(result.isError).toBe(true);
    expect(parse(result).error).toMatchObject({ code: 'not_found', message: `Shop "${shopId}" was not found.` });
  });
});

describe('a lone surrogate in any tool argument is a validation_error tool result, never a protocol error', () => {
  it.each([
    ['shop_tiktok_library', { shopId: '\ud800' }, 'path.shopId'],
    ['ad', { adId: 'x\udc00' }, 'path.adId'],
    ['ads', { search: 'summer \ud83d' }, 'query-string.search'],
    ['tiktok_library', { hashtags: ['ok', '\ud800'] }, 'query-string.hashtags'],
    ['ads_query', { search: ['\ud800'] }, 'body.search'],
    ['find_similar_shops', { q: '\ud800' }, 'q'],
  ])('%s %j', async (name, args, field) => {
    const client = await connect(key.apiKey);
    const result = (await client.callTool({ name, arguments: args })) as TextResult;
    await client.close();
    expect(result.isError).toBe(true);
    const { error } = parse(result);
    expect(error.code).toBe('validation_error');
    expect(error.details.validationErrors).toEqual([expect.objectContaining({ field, expected: [expect.stringMatching(/surrogate/)] })]);
  });

  it('a well-formed pair (an emoji) is sent as it is', async () => {
    const client = await connect(key.apiKey);
    const result = await client.callTool({ name: 'ads', arguments: { search: 'summer 🙂' } });
    await client.close();
    expect(result.isError).toBeFalsy();
  });

  it('an unknown argument is ignored, whatever it holds', async () => {
    const client = await connect(key.apiKey);
    const result = await client.callTool({ name: 'ads', arguments: { search: 'summer', notAnArgument: '\ud800' } });
    await client.close();
    expect(result.isError).toBeFalsy();
  });
});
