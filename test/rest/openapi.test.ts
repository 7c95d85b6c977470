import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { OPENAPI_FILE, printedOpenApi } from '../../rest/print-openapi.js';
import { EVENT_STREAM_ROUTE, EXPORT_FILE_ROUTE, routes } from '../../rest/routes.js';
import { CONTENT_TYPES } from '../../src/schema/exports/service.js';
import { isPublicField } from '../../src/schema/access.js';
import { schema } from '../../src/schema/index.js';
import { createTestApp, type TestApp } from '../support/app.js';

let t: TestApp;
let doc: any;
beforeAll(async () => {
  t = await createTestApp();
  doc = (await t.rest('GET', '/openapi.json')).body;
});
afterAll(() => t?.close());

const operationOf = (route: (typeof routes)[number]) => doc.paths[`/v1${route.path === '/' ? '' : route.path.replace(/:([A-Za-z]+)/g, '{$1}')}`]?.[route.method.toLowerCase()];
const fieldOf = (name: string) => {
  const [kind, field] = name.split('.');
  return (kind === 'Query' ? schema.getQueryType() : schema.getMutationType())!.getFields()[field!]!;
};

it('the served document is the committed rest/openapi.json (run `npm run openapi:print` after changing a route or the schema)', () => {
  expect(`${JSON.stringify(doc, null, 2)}\n`).toBe(printedOpenApi());
  expect(readFileSync(OPENAPI_FILE, 'utf8'), 'rest/openapi.json is stale: run `npm run openapi:print`').toBe(printedOpenApi());
});

it('is OpenAPI 3.1 with every route under its full path, and the bearer scheme', () => {
  expect(doc.openapi).toBe('3.1.0');
  expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
  for (const route of routes) expect(operationOf(route), `${route.method} ${route.path}`).toBeDefined();
  expect(Object.keys(doc.paths).every((path) => path.startsWith('/v1'))).toBe(true);
  expect(doc.paths['/v1/ready'].get.responses['503']).toBeDefined();
});

it('declares each parameter with its bounds and enum values, and each body field in the body', () => {
  const ads = operationOf(routes.find((r) => r.field === 'Query.ads')!);
  const parameter = (name: string) => ads.parameters.find((p: { name: string }) => p.name === name);
  expect(parameter('limit').schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 100, default: 25 });
  expect(parameter('page').schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 2 ** 31 - 1 });
  expect(parameter('sortBy').schema.enum).toEqual(expect.arrayContaining(['relevance', 'newest', 'longestRunning', 'reach']));
  const item = operationOf(routes.find((r) => r.field === 'Query.ad')!);
  expect(item.parameters).toEqual([expect.objectContaining({ name: 'adId', in: 'path', required: true })]);
  for (const route of routes) {
    const operation = operationOf(route);
    const field = fieldOf(route.field);
    const pathNames = [...route.path.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1]);
    const declared = [...(operation.parameters ?? []).map((p: { name: string }) => p.name), ...Object.keys(operation.requestBody?.content['application/json'].schema.properties ?? {})];
    expect(declared.sort(), `${route.method} ${route.path}`).toEqual(field.args.map((a) => a.name).sort());
    if (route.method === 'POST' || route.method === 'PATCH') {
      // Only what the route declares in its query string (argsIn, e.g. the favorites' `scope`) is a query parameter.
      const inQuery = Object.entries(route.argsIn ?? {}).filter(([, at]) => at === 'query-string').map(([name]) => name).sort();
      expect((operation.parameters ?? []).filter((p: { in: string }) => p.in === 'query').map((p: { name: string }) => p.name).sort(), `${route.method} ${route.path}`).toEqual(inQuery);
      expect((operation.parameters ?? []).filter((p: { in: string }) => p.in === 'path').map((p: { name: string }) => p.name).sort()).toEqual(pathNames.sort());
    }
  }
});

it('declares the error envelope for each status, and the request-id, rate-limit and metering headers', () => {
  expect(doc.components.schemas.ErrorEnvelope.properties.error.properties.code.enum).toEqual(expect.arrayContaining(['validation_error', 'not_found', 'service_unavailable', 'internal_error']));
  for (const route of routes) {
    const operation = operationOf(route);
    const open = isPublicField(fieldOf(route.field));
    const statuses = Object.keys(operation.responses);
    expect(statuses).toEqual(expect.arrayContaining([String(route.status ?? 200), '500']));
    // A 400 wherever the client sends something a rule can refuse: a parameter besides the path's, or a JSON body.
    const pathNames = [...route.path.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1]);
    if (fieldOf(route.field).args.some((arg) => !pathNames.includes(arg.name)) || route.method === 'POST' || route.method === 'PATCH') expect(statuses, `${route.method} ${route.path}`).toContain('400');
    if (route.path.includes(':')) expect(statuses).toContain('404');
    if (!open) expect(statuses).toEqual(expect.arrayContaining(['401', '403', '429', '503']));
    // 400 and 404 are the route's own, with its example; the others are shared.
    for (const status of statuses.filter((s) => Number(s) >= 400)) {
      if (status === '400' || status === '404') expect(operation.responses[status].content['application/json'].example.error.code).toBe(status === '400' ? 'validation_error' : 'not_found');
      else expect(operation.responses[status].$ref).toBe(`#/components/responses/Error${status}`);
    }
    const headers = Object.keys(operation.responses[String(route.status ?? 200)].headers);
    expect(headers).toContain('X-Request-Id');
    if (!open) expect(headers).toEqual(expect.arrayContaining(['X-RateLimit-Remaining', 'X-Usage-Cost', 'X-Credits-Remaining']));
  }
});

// The docs page shows each route's own errors: its 400 example is what the route answers to the value the example
// describes (a bound broken, a type broken, a required parameter left out, a body that is not JSON), and its summary
// is words (no backticks, not the method and path again).
it('documents for each route a 400 the route really answers', async () => {
  const { apiKey } = await t.newKey();
  let checked = 0;
  for (const route of [...routes, EXPORT_FILE_ROUTE, EVENT_STREAM_ROUTE]) {
    const example = operationOf(route).responses['400']?.content?.['application/json']?.example;
    if (!example) continue;
    const [violation] = example.error.details.validationErrors as { field: string; location: string; expected: string[] }[];
    const name = violation!.field.slice(violation!.location.length + 1);
    const rule = violation!.expected[0]!;
    const number = Number(/(\d+)(?: characters)?$/.exec(rule)?.[1]);
    const value = /must not be greater than/.test(rule) ? number + 1
      : /must not be less than/.test(rule) ? number - 1
      : /shorter than or equal to/.test(rule) ? 'x'.repeat(number + 1)
      : /should not be empty/.test(rule) ? undefined
      : 'not-a-value';
    const filler = (param: string) => (String(fieldOf(route.field).args.find((arg) => arg.name === param)?.type).startsWith('Int') ? '1' : '00000000-0000-4000-8000-000000000000');
    let path = route.path.replace(/:([A-Za-z]+)/g, (_, param: string) => (param === name && violation!.location === 'path' ? encodeURIComponent(String(value)) : filler(param)));
    const body: Record<string, unknown> = {};
    if (violation!.location === 'query-string' && value !== undefined) path += `?${new URLSearchParams({ [name]: String(value) })}`;
    if (violation!.location === 'body' && value !== undefined && name) body[name] = value;
    const hasBody = route.method === 'POST' || route.method === 'PATCH' || (route.method === 'DELETE' && violation!.location === 'body');
    const res = await t.rest(route.method, path === '/' ? '' : path, { key: apiKey, ...(violation!.field === 'body' ? { rawBody: '{not json' } : hasBody ? { body } : {}) });
    expect(res.status, `${route.method} ${path}: ${JSON.stringify(res.body)}`).toBe(400);
    expect(res.body.error.details.validationErrors, `${route.method} ${route.path}`).toContainEqual(violation);
    checked++;
  }
  expect(checked).toBeGreaterThan(100);
});

it('summarises each route in words: no backticks, not its method and path again', () => {
  for (const route of routes) {
    const { summary } = operationOf(route);
    expect(summary, `${route.method} ${route.path}`).not.toMatch(/`|^(GET|POST|PATCH|DELETE) \/v1/);
    expect(summary.length).toBeLessThanOrEqual(121);
  }
});

// The file of an export and the live feed are served beside the route table (no JSON envelope), and documented too.
it('documents the export file and the event stream as they answer', async () => {
  const file = doc.paths['/v1/exports/{exportId}/file'].get;
  expect(file.parameters.map((p: { name: string }) => p.name)).toEqual(['exportId', 'Range', 'If-Range', 'If-None-Match']);
  expect(Object.keys(file.responses['200'].content).sort()).toEqual(Object.values(CONTENT_TYPES).sort());
  expect(Object.keys(file.responses)).toEqual(expect.arrayContaining(['206', '304', '404', '409', '416']));
  const stream = doc.paths['/v1/events/stream'].get;
  const args = schema.getSubscriptionType()!.getFields().events!.args.map((arg) => arg.name);
  expect(stream.parameters.map((p: { name: string }) => p.name)).toEqual([...args, 'Last-Event-ID']);
  expect(Object.keys(stream.responses['200'].content)).toEqual(['text/event-stream']);
  expect(Object.keys(stream.responses)).toEqual(expect.arrayContaining(['400', '402', '404']));

  const { apiKey } = await t.newKey();
  const missing = await t.rest('GET', '/exports/00000000-0000-4000-8000-000000000000/file', { key: apiKey });
  expect(missing.status).toBe(404);
  expect(file.responses['404']).toBeDefined();
  const open = await t.app.fetch('http://api.test/v1/events/stream', { headers: { authorization: `Bearer ${apiKey}` } });
  expect(open.status).toBe(200);
  expect(open.headers.get('content-type')).toMatch(/^text\/event-stream/);
  expect(open.headers.get('x-request-id')).toBeTruthy();
  await open.body?.cancel();
  const unknown = await t.app.fetch('http://api.test/v1/events/stream?brandtrackerId=00000000-0000-4000-8000-000000000000', { headers: { authorization: `Bearer ${apiKey}` } });
  expect(unknown.status).toBe(404);
  expect((await unknown.json()).error.code).toBe('not_found');
});
