import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setCredits } from '../../src/auth/admin.js';
import { routes } from '../../rest/routes.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { adsScenario } from '../ads/scenario.js';
import { connect as connectTo, parse, type TextResult } from './client.js';

// POST /v1/mcp through the SDK's own client, in-process: the tools are the routes, called with the caller's key.

let t: TestApp;
let key: { apiKey: string; slug: string; workspaceId: string };
beforeAll(async () => {
  t = await createTestApp(adsScenario);
  key = await t.newKey();
});
afterAll(() => t?.close());

const connect = (apiKey: string | null) => connectTo(t, apiKey);

describe('tools', () => {
  it('lists one tool per read route, with its input schema, and the task tools; no writes by default', async () => {
    const client = await connect(key.apiKey);
    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name);
    const reads = routes.filter((route) => route.field.startsWith('Query.'));
    expect(names).toHaveLength(reads.length + 4);
    expect(names).toEqual(expect.arrayContaining(['check_credits', 'brief_competitor', 'find_similar_shops', 'daily_radar']));
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
    const bad = await connect('mi_not_a_key');
    const refused = await bad.callTool({ name: 'ads_query', arguments: {} });
    expect(refused.isError).toBe(true);
    expect(parse(refused).error.code).toBe('invalid_api_key');
    await bad.close();

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
