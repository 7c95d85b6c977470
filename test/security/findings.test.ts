import { createConnection } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpServer } from '../../src/http.js';
import { createLogger } from '../../src/observability/logger.js';
import { createTestApp, type HttpResult, type TestApp } from '../support/app.js';
import { expectViolation } from '../support/assertions.js';
import { adsScenario } from '../ads/scenario.js';
import { tiktokScenario } from '../tiktok/scenario.js';
import { googleAdsScenario } from '../google-ads/scenario.js';

// The findings of issue 15's attacker run (2026-11-24), each as it was reported: every one of these was a 500, a
// leak or a silent failure before its fix.

let t: TestApp;
let a: string;
let b: string;
beforeAll(async () => {
  t = await createTestApp(async (db) => {
    await adsScenario(db);
    await tiktokScenario(db);
    await googleAdsScenario(db);
  }, { logLevel: 'info' });
  a = (await t.newKey()).apiKey;
  b = (await t.newKey()).apiKey;
});
afterAll(() => t?.close());

describe('1. a NUL byte in any string input is a 400 naming the field, on both surfaces', () => {
  it.each([
    ['GET', '/ads/a%00b', undefined, 'path.adId'],
    ['GET', '/ads/a%00b/reach-history', undefined, 'path.adId'],
    ['GET', '/ads/a%00b/media-url', undefined, 'path.adId'],
    ['POST', '/ads/a%00b/share', {}, 'path.adId'],
    ['GET', '/ads?search=a%00b', undefined, 'query-string.search'],
    ['GET', '/tiktok/library?hashtags=a%00b', undefined, 'query-string.hashtags'],
    ['POST', '/ads/query', { trackedPages: ['a\u0000b'] }, 'body.trackedPages'],
    ['POST', '/google-ads/query', { search: ['a\u0000b'] }, 'body.search'],
    ['POST', '/ads/query', { adCountries: { include: ['F\u0000'] } }, 'body.adCountries'],
  ])('%s %s', async (method, path, body, field) => {
    expectViolation(await t.rest(method, path, { key: a, body }), field, /NUL|percent-encoded/);
  });

  it('GraphQL: in a variable, in a literal, and inside an input object', async () => {
    const variable = await t.graphql('query($s: String!) { ads(search: $s) { pagination { total } } }', { s: 'a\u0000b' }, a);
    const literal = await t.graphql('{ ads(search: "a\\u0000b") { pagination { total } } }', {}, a);
    const nested = await t.graphql('query($c: CountryFilterInput) { adsQuery(adCountries: $c) { pagination { total } } }', { c: { include: ['F\u0000'] } }, a);
    for (const [res, argument] of [[variable, 'search'], [literal, 'search'], [nested, 'adCountries']] as const) {
      expect(res.status).toBe(400);
      expect(res.body.data ?? null).toBeNull();
      expect(res.body.errors[0].extensions).toMatchObject({ code: 'validation_error', details: { validationErrors: [{ field: argument }] } });
    }
  });
});

describe('2. one request cannot fail the lookups of another workspace', () => {
  it("100 concurrent media-url calls of one workspace all answer while another sends bad ids among them", async () => {
    const bad = ['a%00b', '%FF', 'x'.repeat(300)].map((id) => t.rest('GET', `/ads/${id}/media-url`, { key: b }));
    const good = Array.from({ length: 100 }, () => t.rest('GET', '/ads/facebook_9001/media-url', { key: a }));
    const answers = await Promise.all([...good, ...bad]);
    expect(answers.slice(0, 100).map((r) => r.status)).toEqual(Array(100).fill(200));
    expect(answers.slice(100).map((r) => r.status)).toEqual([400, 400, 400]);
  });

  it('a batched lookup that fails is run again alone: the failing one fails, the others are answered', async () => {
    // Prisma sends these three in one statement; "not-a-uuid" fails it (22P02).
    const [bad, good, missing] = await Promise.allSettled([
      t.db.prisma.workspace.findUnique({ where: { id: 'not-a-uuid' } }),
      t.db.prisma.workspace.findFirstOrThrow().then((w) => t.db.prisma.workspace.findUnique({ where: { id: w.id } })),
      t.db.prisma.workspace.findUnique({ where: { id: '00000000-0000-4000-8000-000000000000' } }),
    ]);
    expect(bad.status).toBe('rejected');
    expect(good).toMatchObject({ status: 'fulfilled', value: { slug: expect.any(String) } });
    expect(missing).toEqual({ status: 'fulfilled', value: null });
    const together = await Promise.allSettled([
      t.db.prisma.ad.findUnique({ where: { id: 'facebook_9001' }, select: { id: true } }),
      t.db.prisma.ad.findUnique({ where: { id: 'a\u0000b' }, select: { id: true } }),
      t.db.prisma.ad.findUnique({ where: { id: 'facebook_9004' }, select: { id: true } }),
    ]);
    expect(together.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(together.map((r) => (r.status === 'fulfilled' ? r.value?.id : null))).toEqual(['facebook_9001', null, 'facebook_9004']);
  });
});

describe('3. fractional or huge numbers in count filters are a 400', () => {
  it.each([
    ['GET', '/tiktok/library?minViews=1.5', undefined, 'query-string.minViews'],
    ['POST', '/google-ads/query', { minReach: 0.5 }, 'body.minReach'],
    ['POST', '/ads/query', { maxReach: 1000.7 }, 'body.maxReach'],
    ['POST', '/ads/query', { maxAdRankValue: 2147483648 }, 'body.maxAdRankValue'],
    ['POST', '/ads/query', { minReach: 1e308 }, 'body.minReach'],
    ['POST', '/ads/query', { minReach: 9.3e18 }, 'body.minReach'],
    ['POST', '/ads/query', { minReach: 1e-320 }, 'body.minReach'],
    ['POST', '/tiktok/library/query', { minLikes: 9.3e18 }, 'body.minLikes'],
    ['POST', '/tiktok/library/query', { minFollowers: 1e-320 }, 'body.minFollowers'],
  ])('%s %s %j', async (method, path, body, field) => {
    const res = await t.rest(method, path, { key: a, body });
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.error.details.validationErrors.map((v: { field: string }) => v.field)).toContain(field);
  });
});

describe('4. a malformed percent-escape in a path is a 400, and logged with its request id', () => {
  it.each([
    ['GET', '/ads/%'],
    ['GET', '/ads/%FF'],
    ['GET', '/ads/%E2%82'],
    ['GET', '/tiktok/library/%'],
    ['POST', '/ads/%/share'],
  ])('%s %s', async (method, path) => {
    const res = await t.rest(method, path, { key: a, body: method === 'POST' ? {} : undefined });
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.error.code).toBe('validation_error');
    expect(res.body.error.details.validationErrors[0]).toMatchObject({ location: 'path', expected: [expect.stringMatching(/percent-encoded/)] });
    const line = t.logs.find((entry) => entry.msg === 'request' && entry.requestId === res.body.error.requestId);
    expect(line).toMatchObject({ status: 400, method, route: expect.stringMatching(/^\/v1\/(ads|tiktok)\//) });
  });
});

describe('6. GraphQL gives no suggestions, for enum values either', () => {
  it('a misspelt enum value, as a literal and as a variable', async () => {
    const literal = await t.graphql('{ ads(search: "x", sortBy: relevanc) { pagination { total } } }', {}, a);
    const variable = await t.graphql('query($s: AdSort) { ads(search: "x", sortBy: $s) { pagination { total } } }', { s: 'relevanc' }, a);
    const argument = await t.graphql('{ ads(serch: "x") { pagination { total } } }', {}, a);
    for (const res of [literal, variable, argument]) {
      expect(res.body.errors?.length).toBeGreaterThan(0);
      expect(JSON.stringify(res.body)).not.toMatch(/did you mean|relevance"/i);
    }
  });
});

describe('7. smaller findings', () => {
  it("Node's parser refusals are answered in the error envelope with a request id, and logged", async () => {
    const server = createHttpServer(t.app, { logger: createLogger({ level: 'silent' }) });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    const raw = (text: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = createConnection(port, '127.0.0.1');
        let answer = '';
        socket.on('data', (chunk) => (answer += chunk.toString('utf8')));
        socket.on('end', () => resolve(answer));
        socket.on('error', reject);
        socket.write(text);
      });
    try {
      for (const request of [
        'POST /v1/ads/query HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n{}',
        'POST /v1/ads/query HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\njunk\r\n0\r\n\r\n',
        `GET /v1/ads?search=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
        `GET /v1/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`,
      ]) {
        const answer = await raw(request);
        const [head, body] = answer.split('\r\n\r\n');
        expect(head).toMatch(/^HTTP\/1\.1 400 /);
        const parsed = JSON.parse(body!);
        expect(parsed.error).toMatchObject({ code: 'validation_error', requestId: expect.any(String) });
        expect(head).toContain(`X-Request-Id: ${parsed.error.requestId}`);
      }
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('CORS answers any origin without credentials; the metering headers are readable by browser scripts', async () => {
    const res = await t.app.fetch('http://api.test/v1/me', { headers: { origin: 'https://evil.example', authorization: `Bearer ${a}` } });
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    expect(res.headers.get('access-control-expose-headers')).toMatch(/X-Credits-Remaining/);
    const preflight = await t.app.fetch('http://api.test/v1/ads/query', { method: 'OPTIONS', headers: { origin: 'https://app.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-headers')).toMatch(/Authorization/);
    expect(preflight.headers.get('access-control-allow-credentials')).toBeNull();
  });

  it('aliases of __typename count toward the alias limit', async () => {
    const aliases = Array.from({ length: 40 }, (_, i) => `t${i}: __typename`).join(' ');
    const res = await t.graphql(`{ ${aliases} }`, {}, a);
    expect(res.body.errors[0].extensions).toMatchObject({ code: 'validation_error', details: { rule: 'maxAliases' } });
  });

  it('the OpenAPI document lists body fields in the body only, never as query parameters', async () => {
    const doc = (await t.rest('GET', '/openapi.json')).body;
    const post = doc.paths['/v1/ads/query'].post;
    expect(post.parameters ?? []).toEqual([]);
    expect(Object.keys(post.requestBody.content['application/json'].schema.properties)).toContain('trackedPages');
  });
});

// Issue 32's findings (2026-11-27), items 9a-9c; 9d and item 8 are in test/mcp/mcp.test.ts.

/** A POST whose body is these exact bytes (not necessarily UTF-8). */
async function postBytes(path: string, bytes: Uint8Array, key: string, contentType = 'application/json') {
  const res = await t.app.fetch(`http://api.test${path}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': contentType }, body: bytes });
  return { status: res.status, headers: res.headers, body: await res.json() };
}

const utf8 = (text: string) => new Uint8Array(Buffer.from(text, 'utf8'));
/** `"<before>\xED\xA0\x80<after>"`: U+D800 encoded as if it were a character, which UTF-8 forbids. */
const withEncodedSurrogate = (before: string, after: string) => new Uint8Array(Buffer.concat([Buffer.from(before), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from(after)]));

describe('9a. an unpaired surrogate (or bytes that are not UTF-8) is refused naming the field, never stored as U+FFFD', () => {
  it.each([
    ['POST', '/ads/query', '{"search":["\\ud800"]}', 'body.search'],
    ['POST', '/ads/query', '{"search":["summer \\udfff"]}', 'body.search'],
    ['POST', '/ads/query', '{"adCountries":{"include":["F\\ud800"]}}', 'body.adCountries'],
    ['POST', '/google-ads/query', '{"search":["\\udc00\\ud800"]}', 'body.search'],
  ])('REST JSON body: %s %s %s', async (method, path, rawBody, field) => {
    expectViolation(await t.rest(method, path, { key: a, rawBody }), field, /surrogate/);
  });

  it.each([
    ['/ads?search=%ED%A0%80', 'query-string.search'],
    ['/ads?search=summer%ED%BF%BF', 'query-string.search'],
    ['/ads?search=%FF', 'query-string.search'],
    ['/tiktok/library?hashtags=ok&hashtags=%ED%A0%80', 'query-string.hashtags'],
    ['/ads/%ED%A0%80', 'path.adId'],
  ])('REST URL: GET %s', async (path, field) => {
    expectViolation(await t.rest('GET', path, { key: a }), field, /percent-encoded UTF-8/);
  });

  it('REST: a body whose bytes are not UTF-8 is refused naming the body', async () => {
    for (const bytes of [withEncodedSurrogate('{"search":["', '"]}'), new Uint8Array([...utf8('{"search":["a'), 0xff, ...utf8('"]}')])]) {
      expectViolation(await postBytes('/v1/ads/query', bytes, a), 'body', /UTF-8/);
    }
  });

  it('what is well-formed still passes: a pair, a sent U+FFFD, a lone %, an unknown parameter', async () => {
    for (const path of ['/ads?search=%F0%9F%99%82', '/ads?search=%EF%BF%BD', '/ads?search=100%', '/ads?search=summer&notAParameter=%ED%A0%80']) {
      expect((await t.rest('GET', path, { key: a })).status, path).toBe(200);
    }
    expect((await t.rest('POST', '/ads/query', { key: a, body: { search: ['summer 🙂'], notAParameter: '\ud800' } })).status).toBe(200);
    expect((await postBytes('/v1/ads/query', utf8('{"search":["été 🙂"]}'), a)).status).toBe(200);
  });

  it('GraphQL: in a variable, inside an input object, in the document (escaped or raw), in a GET query string, in the body bytes', async () => {
    const variable = await t.graphql('query($s: String!) { ads(search: $s) { pagination { total } } }', { s: 'summer \ud800' }, a);
    const nested = await t.graphql('query($c: CountryFilterInput) { adsQuery(adCountries: $c) { pagination { total } } }', { c: { include: ['F\udc00'] } }, a);
    for (const [res, argument] of [[variable, 'search'], [nested, 'adCountries']] as const) {
      expect(res.status).toBe(400);
      expect(res.body.data ?? null).toBeNull();
      expect(res.body.errors[0].extensions).toMatchObject({ code: 'validation_error', details: { validationErrors: [{ field: argument, expected: [expect.stringMatching(/surrogate/)] }] } });
    }
    const escaped = await t.graphql('{ ads(search: "\\ud800") { pagination { total } } }', {}, a);
    const raw = await t.graphql('{ ads(search: "\ud800") { pagination { total } } }', {}, a);
    // GraphQL's own lexer refuses both (a syntax error; its status is yoga's, as for any syntax error).
    for (const res of [escaped, raw]) {
      expect(res.body.data, JSON.stringify(res.body)).toBeUndefined();
      expect(res.body.errors[0].extensions.code).toBe('validation_error');
    }
    const variables = encodeURIComponent('{"s":"').concat('%ED%A0%80', encodeURIComponent('"}'));
    const get = await t.app.fetch(`http://api.test/graphql?query=${encodeURIComponent('query($s: String!) { ads(search: $s) { pagination { total } } }')}&variables=${variables}`, { headers: { authorization: `Bearer ${a}` } });
    const getBody = await get.json();
    expect(get.status).toBe(400);
    expect(getBody.errors[0].extensions).toMatchObject({ code: 'validation_error', details: { validationErrors: [{ field: 'query-string.variables', location: 'query-string' }] } });
    const bytes = await postBytes('/graphql', withEncodedSurrogate('{"query":"{ ads(search: \\"', '\\") { pagination { total } } }"}'), a);
    expect(bytes.status).toBe(400);
    expect(bytes.body.errors[0].extensions).toMatchObject({ code: 'validation_error', details: { validationErrors: [{ field: 'body', location: 'body', expected: [expect.stringMatching(/UTF-8/)] }] } });
    const fine = await postBytes('/graphql', utf8('{"query":"{ ads(search: \\"été 🙂\\") { pagination { total } } }"}'), a);
    expect(fine.status).toBe(200);
  });
});

describe('9b. /media answers its 404s in the error envelope', () => {
  it.each([
    ['GET', '/media/nothing'],
    ['GET', '/media/products/abc.jpg'],
    ['GET', '/media/products/99999999999.jpg'],
    ['POST', '/media/nothing'],
  ])('%s %s', async (method, path) => {
    const res = await t.app.fetch(`http://api.test${path}`, { method });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await res.json()).toEqual({ error: { code: 'not_found', message: expect.any(String), requestId: res.headers.get('x-request-id') } });
  });

  it('POST on a picture: 405 method_not_allowed, with Allow', async () => {
    const res = await t.app.fetch('http://api.test/media/products/1.jpg', { method: 'POST' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD');
    expect((await res.json()).error).toMatchObject({ code: 'method_not_allowed', requestId: res.headers.get('x-request-id') });
  });

  it('a picture is still served', async () => {
    const res = await t.app.fetch('http://api.test/media/products/1.jpg');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
  });
});

describe('9c. a /graphql POST of a media type it does not read is answered in the GraphQL error shape', () => {
  it.each([['text/plain'], ['application/xml'], [null]])('Content-Type %s: 415 validation_error naming the header', async (contentType) => {
    const headers: Record<string, string> = { authorization: `Bearer ${a}` };
    if (contentType) headers['content-type'] = contentType;
    const res = await t.app.fetch('http://api.test/graphql', { method: 'POST', headers, body: contentType ? '{"query":"{ __typename }"}' : undefined });
    expect(res.status).toBe(415);
    const body = await res.json();
    expect(body.errors).toEqual([
      expect.objectContaining({
        message: expect.stringContaining('Content-Type'),
        extensions: expect.objectContaining({ code: 'validation_error', details: { validationErrors: [{ field: 'header.Content-Type', location: 'header', expected: [expect.stringContaining('application/json')] }] } }),
      }),
    ]);
  });

  it.each(['PUT', 'DELETE'])('%s: 405 method_not_allowed, with Allow', async (method) => {
    const res = await t.app.fetch('http://api.test/graphql', { method, headers: { authorization: `Bearer ${a}`, 'content-type': 'application/json' }, body: method === 'PUT' ? '{"query":"{ __typename }"}' : undefined });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, POST');
    expect((await res.json()).errors).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'method_not_allowed' }) })]);
  });
});
