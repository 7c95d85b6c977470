import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { TestApp } from '../support/app.js';

// The SDK's own MCP client, connected in-process to a test app's POST /v1/mcp with a bearer key (or none).

export async function connect(t: TestApp, apiKey: string | null) {
  const client = new Client({ name: 'test-agent', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL('http://api.test/v1/mcp'), {
    fetch: (url, init) => Promise.resolve(t.app.fetch(String(url), init as RequestInit)),
    requestInit: { headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {} },
  });
  await client.connect(transport);
  return client;
}

export type TextResult = { content: { type: string; text: string }[]; isError?: boolean; _meta?: Record<string, unknown> };

/** One tool call on a connection of its own, closed after it. */
export async function callTool(t: TestApp, apiKey: string, name: string, args: Record<string, unknown>): Promise<TextResult> {
  const client = await connect(t, apiKey);
  try {
    return (await client.callTool({ name, arguments: args })) as TextResult;
  } finally {
    await client.close();
  }
}

/** A tool's JSON text, parsed (asserted field by field by the tests). */
export const parse = (result: unknown): any => JSON.parse((result as TextResult).content[0].text);
