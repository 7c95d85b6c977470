import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { OPENAPI_FILE, printedOpenApi } from '../../rest/print-openapi.js';
import { routes } from '../../rest/routes.js';
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
    expect(statuses).toEqual(expect.arrayContaining([String(route.status ?? 200), '400', '500']));
    if (!open) expect(statuses).toEqual(expect.arrayContaining(['401', '403', '429', '503']));
    for (const status of statuses.filter((s) => Number(s) >= 400)) expect(operation.responses[status].$ref).toBe(`#/components/responses/Error${status}`);
    const headers = Object.keys(operation.responses[String(route.status ?? 200)].headers);
    expect(headers).toContain('X-Request-Id');
    if (!open) expect(headers).toEqual(expect.arrayContaining(['X-RateLimit-Remaining', 'X-Usage-Cost', 'X-Credits-Remaining']));
  }
});
