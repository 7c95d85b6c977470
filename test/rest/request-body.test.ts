import { once } from 'node:events';
import { Agent, createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MAX_BODY_BYTES } from '../../src/plugins/use-request-body-limit.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { adsScenario } from '../ads/scenario.js';

// Over a real socket: Content-Length and chunked transfer behave here as they do for clients.
let t: TestApp;
let server: Server;
let key: string;
let workspaceId: string;
beforeAll(async () => {
  t = await createTestApp(adsScenario);
  ({ apiKey: key, workspaceId } = await t.newKey());
  server = createServer(t.app);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
});
afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await t?.close();
});

/** POSTs `body` in `chunks` pieces; `declared` sends Content-Length, otherwise the body goes chunked. */
async function post(path: string, body: string | Buffer, options: { declared: boolean; chunks?: number }) {
  const { port } = server.address() as AddressInfo;
  const bytes = Buffer.from(body);
  // What an MCP client sends to /v1/mcp; the other routes ignore it.
  const headers: Record<string, string | number> = { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  if (options.declared) headers['content-length'] = bytes.length;
  return new Promise<{ status: number; headers: Record<string, unknown>; body: any }>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: 'POST', headers }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (part: Buffer) => parts.push(part));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: JSON.parse(Buffer.concat(parts).toString('utf8')) }));
      res.on('error', reject);
    });
    // The server may answer (and close) before the whole body is sent: that answer is what is checked.
    req.on('error', (error: NodeJS.ErrnoException) => (error.code === 'EPIPE' || error.code === 'ECONNRESET' ? undefined : reject(error)));
    const chunks = options.chunks ?? 1;
    const size = Math.ceil(bytes.length / chunks);
    for (let offset = 0; offset < bytes.length; offset += size) req.write(bytes.subarray(offset, offset + size));
    req.end();
  });
}

/** A JSON object of exactly `size` bytes: `fields` padded with spaces. */
function padded(fields: Record<string, unknown>, size: number): string {
  const text = JSON.stringify(fields);
  return `${text.slice(0, -1)}${' '.repeat(size - text.length)}}`;
}

const refusal = { field: 'body', location: 'body', expected: [`the body must be at most ${MAX_BODY_BYTES} bytes`] };
/** What each surface answers 200 to. */
const validBody = (path: string) =>
  path === '/graphql' ? { query: '{ me { workspace { id } } }' } : path === '/v1/mcp' ? { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} } : { search: ['summer'], limit: 1 };
const refusedOf = (path: string, body: any) => (path === '/graphql' ? body.errors[0].extensions : body.error).details.validationErrors;

describe.each([
  ['with Content-Length', { declared: true }],
  ['chunked, without Content-Length', { declared: false, chunks: 64 }],
])('request bodies %s', (_name, options) => {
  it(`REST: a body over ${MAX_BODY_BYTES} bytes is a 400 validation_error and changes nothing`, async () => {
    const shares = await t.db.prisma.adShare.count({ where: { workspaceId } });
    const records = await t.db.prisma.usageRecord.count({ where: { workspaceId } });
    const res = await post('/v1/ads/facebook_9001/share', padded({}, MAX_BODY_BYTES + 1), options);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'validation_error', requestId: res.headers['x-request-id'], details: { validationErrors: [refusal] } });
    expect(res.headers.connection).toBe('close');
    expect(await t.db.prisma.adShare.count({ where: { workspaceId } })).toBe(shares);
    expect(await t.db.prisma.usageRecord.count({ where: { workspaceId } })).toBe(records);
  });

  it('REST: a body of exactly the limit is read and answered', async () => {
    const res = await post('/v1/ads/query', padded({ search: ['summer'], limit: 2 }, MAX_BODY_BYTES), options);
    expect(res.status).toBe(200);
    expect(res.body.data.length).toBeGreaterThan(0);
  });

  it('GraphQL: a body over the limit is a 400 validation_error naming the body, before anything runs', async () => {
    const records = await t.db.prisma.usageRecord.count({ where: { workspaceId } });
    const res = await post('/graphql', padded({ query: '{ ads(search: "summer", limit: 1) { data { id } } }' }, MAX_BODY_BYTES + 1), options);
    expect(res.status).toBe(400);
    expect(res.body.data).toBeUndefined();
    expect(res.body.errors[0].extensions).toMatchObject({ code: 'validation_error', details: { validationErrors: [refusal] } });
    expect(res.headers.connection).toBe('close');
    expect(await t.db.prisma.usageRecord.count({ where: { workspaceId } })).toBe(records);
  });

  it('GraphQL: a body of exactly the limit is read and answered', async () => {
    const res = await post('/graphql', padded({ query: '{ me { workspace { id } } }' }, MAX_BODY_BYTES), options);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { me: { workspace: { id: workspaceId } } } });
  });

  it('MCP: a body over the limit is a 400 validation_error in the REST envelope, as on the other routes', async () => {
    const res = await post('/v1/mcp', padded(validBody('/v1/mcp'), MAX_BODY_BYTES + 1), options);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'validation_error', requestId: res.headers['x-request-id'], details: { validationErrors: [refusal] } });
    expect(res.headers.connection).toBe('close');
  });

  it('MCP: a body of exactly the limit is read and answered', async () => {
    const res = await post('/v1/mcp', padded(validBody('/v1/mcp'), MAX_BODY_BYTES), options);
    expect(res.status).toBe(200);
    expect(res.body.result.tools.length).toBeGreaterThan(20);
  });

  it.each(['/v1/ads/query', '/graphql', '/v1/mcp'])('%s: a body whose bytes are not UTF-8 is a 400 validation_error naming the body', async (path) => {
    const text = path === '/graphql' ? '{"query":"{ ads(search: \\"X\\") { data { id } } }"}' : path === '/v1/mcp' ? JSON.stringify({ ...validBody('/v1/mcp'), params: { cursor: 'X' } }) : '{"search":["X"]}';
    const [before, after] = text.split('X');
    // U+D800 encoded as if it were a character (ED A0 80), which UTF-8 forbids, then a byte that starts nothing (FF).
    for (const bad of [[0xed, 0xa0, 0x80], [0xff]]) {
      const res = await post(path, Buffer.concat([Buffer.from(before), Buffer.from(bad), Buffer.from(after)]), options);
      expect(res.status).toBe(400);
      expect(refusedOf(path, res.body)).toEqual([{ field: 'body', location: 'body', expected: ['the body must be UTF-8 text'] }]);
    }
  });
});

/** Starts a POST, sends `sent` of its body and never the rest; resolves with the answer that came anyway. */
async function answerBeforeTheEnd(path: string, headers: Record<string, string | number>, sent: Buffer) {
  const { port } = server.address() as AddressInfo;
  const req = request({ host: '127.0.0.1', port, path, method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers } });
  req.on('error', () => undefined);
  req.write(sent);
  const [res] = (await once(req, 'response')) as [import('node:http').IncomingMessage];
  const parts: Buffer[] = [];
  for await (const part of res) parts.push(part as Buffer);
  req.destroy();
  return { status: res.statusCode, body: JSON.parse(Buffer.concat(parts).toString('utf8')) };
}

describe.each(['/v1/ads/query', '/graphql', '/v1/mcp'])('%s answers an oversized body without waiting for it', (path) => {
  it('refuses a Content-Length over the limit from the header, before the body is sent', async () => {
    const res = await answerBeforeTheEnd(path, { 'content-length': 50 * MAX_BODY_BYTES }, Buffer.from('{"search":["summer"]'));
    expect(res.status).toBe(400);
    expect(refusedOf(path, res.body)).toEqual([refusal]);
  });

  it('stops reading a chunked body once it passes the limit, long before its end', async () => {
    // Twice the limit sent, the end never: only a reader that stops counting at the limit can answer.
    const res = await answerBeforeTheEnd(path, {}, Buffer.alloc(2 * MAX_BODY_BYTES, ' '));
    expect(res.status).toBe(400);
    expect(refusedOf(path, res.body)).toEqual([refusal]);
  });

  it('closes the connection after a refusal, so a keep-alive client\'s next request is answered', async () => {
    const { port } = server.address() as AddressInfo;
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const send = (body: Buffer) =>
        new Promise<number>((resolve, reject) => {
          const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
          const req = request({ host: '127.0.0.1', port, path, method: 'POST', agent, headers }, (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode!));
          });
          req.on('error', (error: NodeJS.ErrnoException) => (error.code === 'EPIPE' || error.code === 'ECONNRESET' ? undefined : reject(error)));
          req.write(body); // written before end(): sent chunked, without a Content-Length
          req.end();
        });
      expect(await send(Buffer.alloc(2 * MAX_BODY_BYTES, ' '))).toBe(400);
      expect(await send(Buffer.from(JSON.stringify(validBody(path))))).toBe(200);
    } finally {
      agent.destroy();
    }
  });
});

describe.each(['/v1/ads/query', '/graphql', '/v1/mcp'])('%s, a client that goes away mid-body', (path) => {
  it('is not an internal error of the server (nothing logged), and the server goes on answering', async () => {
    const { port } = server.address() as AddressInfo;
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const req = request({ host: '127.0.0.1', port, path, method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' } });
      req.on('error', () => undefined);
      req.write('{"query": "{ me { workspace { id } } }", "padding": "'); // chunked, and never finished
      await new Promise((resolve) => setTimeout(resolve, 200));
      req.destroy();
      await new Promise((resolve) => setTimeout(resolve, 300));
      const after = await post(path, JSON.stringify(validBody(path)), { declared: true });
      expect(after.status).toBe(200);
      expect(logged.mock.calls.map((call) => String(call[0]))).toEqual([]);
    } finally {
      logged.mockRestore();
    }
  });
});
