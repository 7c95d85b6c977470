import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEPRECATIONS, manifestOf, manifestProblems, MCP_TOOLS_VERSION, resolveDeprecated, type Manifest } from '../../src/mcp/manifest.js';
import { MANIFEST_FILE, printedManifest, toolManifest } from '../../src/mcp/print.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createMcpHandler } from '../../src/mcp/handler.js';
import { schema } from '../../src/schema/index.js';
import { routes } from '../../rest/routes.js';
import { adsScenario } from '../ads/scenario.js';
import { connect, parse } from './client.js';

// The versioned manifest: the committed src/mcp/manifest.json is the live tool list's (npm run mcp:tools), it never
// forgets a name, and a tool or argument that vanished without a deprecation entry fails here.

const committed = JSON.parse(readFileSync(MANIFEST_FILE, 'utf8')) as Manifest;
const live = () => toolManifest();
const listed = (manifest: Manifest) => Object.entries(manifest.tools).map(([name, entry]) => ({ name, inputSchema: { properties: Object.fromEntries(entry.arguments.map((arg) => [arg, {}])) }, writes: entry.writes }));

describe('src/mcp/manifest.json', () => {
  it('is the generated one (npm run mcp:tools), at the current version', () => {
    expect(readFileSync(MANIFEST_FILE, 'utf8')).toBe(printedManifest(toolManifest(committed)));
    expect(committed.version).toBe(MCP_TOOLS_VERSION);
  });

  it('every tool and argument it lists is live, or deprecated for a live one', () => {
    const tools = listed(live());
    expect(manifestProblems(committed, tools)).toEqual([]);
  });

  it('a tool renamed or an argument removed without a deprecation entry is a problem; with one it is not', () => {
    const tools = listed(committed);
    const renamed = tools.map((tool) => (tool.name === 'search_ads' ? { ...tool, name: 'find_ads' } : tool));
    expect(manifestProblems(committed, renamed, { tools: {}, arguments: {} })).toEqual(['tool search_ads was removed or renamed without a deprecation entry']);
    expect(manifestProblems(committed, renamed, { tools: { search_ads: { use: 'find_ads', since: '3.0.0' } }, arguments: {} })).toEqual([]);
    const narrowed = tools.map((tool) => (tool.name === 'scan_ad' ? { ...tool, inputSchema: { properties: { ad: {}, ...Object.fromEntries(Object.entries(tool.inputSchema.properties).filter(([arg]) => arg !== 'ad_id')) } } } : tool));
    expect(manifestProblems(committed, narrowed, { tools: {}, arguments: {} })).toEqual(['argument scan_ad.ad_id was removed or renamed without a deprecation entry']);
    expect(manifestProblems(committed, narrowed, { tools: {}, arguments: { scan_ad: { ad_id: { use: 'ad', since: '3.0.0' } } } })).toEqual([]);
    // Regenerating does not hide it: the manifest keeps the old names.
    expect(Object.keys(manifestOf(renamed, committed).tools)).toContain('search_ads');
    expect(manifestOf(narrowed, committed).tools.scan_ad.arguments).toContain('ad_id');
  });

  it('an old name is resolved to the current tool and argument', () => {
    const deprecations = { tools: { find_ads: { use: 'search_ads', since: '2.1.0' } }, arguments: { search_ads: { text: { use: 'query', since: '2.1.0' } } } };
    expect(resolveDeprecated('find_ads', { text: 'serum', limit: 2 }, deprecations)).toEqual({ name: 'search_ads', args: { query: 'serum', limit: 2 } });
    expect(resolveDeprecated('search_ads', { query: 'new', text: 'old' }, deprecations)).toEqual({ name: 'search_ads', args: { query: 'new' } });
    expect(resolveDeprecated('scan_ad', { ad_id: 'x' })).toEqual({ name: 'scan_ad', args: { ad_id: 'x' } });
  });
});

describe('the endpoint carries the version', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(adsScenario);
  });
  afterAll(() => t?.close());

  it("initialize's serverInfo and tools/list's _meta", async () => {
    const { apiKey } = await t.newKey();
    const client = await connect(t, apiKey);
    expect(client.getServerVersion()).toMatchObject({ name: 'market-intelligence-api', version: MCP_TOOLS_VERSION });
    const list = await client.listTools();
    expect(list._meta).toEqual({ manifestVersion: MCP_TOOLS_VERSION, deprecated: DEPRECATIONS });
    expect(parse(await client.callTool({ name: 'usage_get', arguments: {} })).credits).toBeDefined();
    await client.close();
  });

  it('an old tool or argument name answers what the current one answers', async () => {
    const { apiKey } = await t.newKey();
    const deprecations = { tools: { find_ads: { use: 'search_ads', since: '2.1.0' } }, arguments: { search_ads: { text: { use: 'query', since: '2.1.0' } } } };
    const handle = createMcpHandler({ schema, routes, fetch: async (request) => t.app.fetch(request), mutations: false, deprecations });
    const client = new Client({ name: 'test-agent', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL('http://api.test/v1/mcp'), {
      fetch: (url, init) => handle(new Request(String(url), init as RequestInit)),
      requestInit: { headers: { authorization: `Bearer ${apiKey}` } },
    }));
    expect((await client.listTools())._meta).toMatchObject({ deprecated: deprecations });
    const current = parse(await client.callTool({ name: 'search_ads', arguments: { query: 'winter', status: 'all', limit: 2 } }));
    const old = parse(await client.callTool({ name: 'find_ads', arguments: { text: 'winter', status: 'all', limit: 2 } }));
    expect(old.data).toEqual(current.data);
    expect(old.pagination).toEqual(current.pagination);
    expect(current.data.length).toBe(1);
    const all = parse(await client.callTool({ name: 'find_ads', arguments: { status: 'all', limit: 2 } }));
    expect(all.pagination.total).toBeGreaterThan(current.pagination.total);
    await client.close();
  });
});
