import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../rest/routes.js';
import { createTestApp, type TestApp } from '../support/app.js';

// What a new user meets over HTTP (issue #39): the home page, a 404 in the error envelope for every unknown path
// (inside /v1 and outside it), and 405 with Allow for a known path asked with a method it does not answer.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const VERSION = (JSON.parse(readFileSync(path.join(import.meta.dirname, '../../package.json'), 'utf8')) as { version: string }).version;
const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

async function call(method: string, path: string, headers: Record<string, string> = {}) {
  const res = await t.app.fetch(`http://api.test${path}`, { method, headers });
  const text = await res.text();
  const json = res.headers.get('content-type')?.startsWith('application/json') && text ? JSON.parse(text) : undefined;
  return { status: res.status, headers: res.headers, text, json };
}

/** The specification's error envelope, its requestId the response's X-Request-Id. */
function expectEnvelope(res: Awaited<ReturnType<typeof call>>, status: number, code: string) {
  expect(res.status, res.text).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  expect(res.json.error).toMatchObject({ code, message: expect.any(String), requestId: res.headers.get('x-request-id') });
  expect(res.json.error.requestId).toMatch(/\S{8,}/);
}

describe('GET /', () => {
  it('answers JSON with the name, the version and the links, each of which answers', async () => {
    const res = await call('GET', '/');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBeTruthy();
    expect(res.json).toEqual({
      name: 'Market Intelligence API',
      version: VERSION,
      apiVersion: 'v1',
      links: { graphql: '/graphql', docs: '/v1/docs', openapi: '/v1/openapi.json', api: '/v1', health: '/v1/health', ready: '/v1/ready' },
      apiKey: { demo: expect.stringContaining('demo'), cli: [expect.stringContaining('workspace create'), expect.stringContaining('key create')] },
    });
    for (const path of Object.values(res.json.links as Record<string, string>)) {
      expect((await call('GET', path, path === '/graphql' ? { accept: 'text/html' } : {})).status, path).toBe(200);
    }
  });

  it('answers a browser with an offline page linking GraphiQL, the docs, the OpenAPI document and the health route', async () => {
    const res = await call('GET', '/', { accept: BROWSER });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    for (const href of ['/graphql', '/v1/docs', '/v1/openapi.json', '/v1/health']) expect(res.text).toContain(`href="${href}"`);
    expect(res.text).toContain(VERSION);
    expect(res.text).toContain('key create --workspace');
    // The curl line names PUBLIC_BASE_URL, whatever Host the request came with.
    const elsewhere = await t.app.fetch('http://elsewhere.example/', { headers: { accept: BROWSER } });
    expect(await elsewhere.text()).toContain('&quot;http://api.test/v1/me&quot;');
    // Nothing loaded from elsewhere: no script, no stylesheet link, no picture.
    expect(res.text).not.toMatch(/<script|<link|<img|src=/i);
  });

  it('answers HEAD without a body, and any other method 405 with Allow', async () => {
    const head = await call('HEAD', '/');
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    for (const method of ['POST', 'PUT', 'DELETE']) {
      const res = await call(method, '/');
      expectEnvelope(res, 405, 'method_not_allowed');
      expect(res.headers.get('allow')).toBe('GET, HEAD');
    }
  });
});

describe('unknown paths', () => {
  it.each(['/nope', '/favicon.ico', '/v2/ads', '/share/nothing', '/share/boards/', '/graphqlx', '/media/', '/v1/nope', '/v1/ads/facebook_1/nope'])('%s: 404 not_found in the envelope', async (path) => {
    expectEnvelope(await call('GET', path), 404, 'not_found');
    expectEnvelope(await call('POST', path), 404, 'not_found');
  });

  it('outside /v1, a browser gets the 404 as a page, with its request id', async () => {
    const res = await call('GET', '/nope', { accept: BROWSER });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.text).toContain('not_found');
    expect(res.text).toContain(res.headers.get('x-request-id'));
    expect(res.text).toContain('href="/"');
  });

  it('GraphQL, its health check and CORS preflights still answer', async () => {
    expect((await call('GET', '/graphql', { accept: 'text/html' })).status).toBe(200);
    expect((await call('GET', '/graphql/health')).status).toBe(200);
    const preflight = await call('OPTIONS', '/v1/ads', { origin: 'https://app.example', 'access-control-request-method': 'GET' });
    expect(preflight.status).toBeLessThan(300);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('https://app.example');
  });
});

describe('405 method_not_allowed', () => {
  it('GET /v1/ads/query: the POST route, not the ad "query"', async () => {
    const res = await call('GET', '/v1/ads/query');
    expectEnvelope(res, 405, 'method_not_allowed');
    expect(res.headers.get('allow')).toBe('POST');
    expect(res.json.error.message).not.toMatch(/was not found/);
  });

  it('every path of the route table, asked with a method it does not answer, lists the methods it does', async () => {
    const byShape = new Map<string, Set<string>>();
    for (const route of routes) {
      const shape = route.path.replace(/:[A-Za-z]+/g, ':');
      byShape.set(shape, (byShape.get(shape) ?? new Set()).add(route.method));
      // HEAD is answered wherever GET is.
      if (route.method === 'GET') byShape.get(shape)!.add('HEAD');
    }
    for (const [shape, methods] of byShape) {
      const path = `/v1${shape === '/' ? '' : shape.replaceAll(':', 'x1')}`;
      const wrong = ['GET', 'POST', 'PATCH', 'DELETE', 'PUT'].find((method) => !methods.has(method))!;
      const res = await call(wrong, path);
      expectEnvelope(res, 405, 'method_not_allowed');
      expect(new Set(res.headers.get('allow')!.split(', ')), `${wrong} ${path}`).toEqual(methods);
    }
  });

  it('paths served beside the table, and the server’s own media, say their methods too', async () => {
    for (const [method, path, allow] of [
      ['POST', '/v1/openapi.json', 'GET, HEAD'],
      ['DELETE', '/v1/docs', 'GET, HEAD'],
      ['POST', '/v1/events/stream', 'GET'],
      ['POST', '/v1/exports/x1/file', 'GET, HEAD'],
      ['HEAD', '/v1/events/stream', 'GET'],
      ['POST', '/media/products/11.jpg', 'GET, HEAD'],
      ['PUT', '/graphql', 'GET, POST'],
    ]) {
      const res = await call(method, path);
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(res.headers.get('allow'), `${method} ${path}`).toBe(allow);
      if (method !== 'HEAD' && !path.startsWith('/graphql')) expectEnvelope(res, 405, 'method_not_allowed');
    }
  });

  it('HEAD is answered wherever GET is: the GET\'s status and headers, no body', async () => {
    const { apiKey: key } = await t.newKey();
    for (const path of ['/v1/me', '/v1/ads?limit=2', '/v1/openapi.json', '/v1/docs', '/v1/ads/nothing-here']) {
      const headers = { authorization: `Bearer ${key}` };
      const [get, head] = [await call('GET', path, headers), await call('HEAD', path, headers)];
      expect(head.status, path).toBe(get.status);
      expect(head.text, path).toBe('');
      expect(head.headers.get('content-type'), path).toBe(get.headers.get('content-type'));
      expect(head.headers.get('x-request-id'), path).toBeTruthy();
    }
    expect((await call('HEAD', '/v1/ads/query')).headers.get('allow')).toBe('POST');
  });

  it('a method a path answers is never refused: a docs asset that does not exist is a 404', async () => {
    expectEnvelope(await call('GET', '/v1/docs/assets/nothing.js'), 404, 'not_found');
  });
});
