import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CLIENT_TYPES_FILE, printedClientTypes } from '../../rest/print-client-types.js';
import { createClient, type MarketIntelligenceClient } from '../../src/client/index.js';
import { adsScenario } from '../ads/scenario.js';
import { createTestApp, type TestApp } from '../support/app.js';

// The typed client (src/client, exported as `market-intelligence-api/client`) against the server listening on
// 127.0.0.1: its types are generated from the committed OpenAPI document and up to date; a list, a query with a
// body, a detail and the error envelope through it, as a TypeScript integrator would call them.

let t: TestApp;
let server: Server;
let api: MarketIntelligenceClient;
let origin: string;

beforeAll(async () => {
  t = await createTestApp(adsScenario);
  const { apiKey } = await t.newKey();
  server = createServer(t.app);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  api = createClient({ baseUrl: origin, apiKey });
});
afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await t?.close();
});

it('has types generated from the committed OpenAPI document (run `npm run client:types` after `npm run openapi:print`)', async () => {
  expect(readFileSync(CLIENT_TYPES_FILE, 'utf8'), 'src/client/schema.ts is stale: run `npm run client:types`').toBe(await printedClientTypes());
});

it('reads a list, a query with a body and a detail, typed', async () => {
  const listed = await api.GET('/v1/ads', { params: { query: { search: 'serum', limit: 2 } } });
  expect(listed.response.status).toBe(200);
  expect(listed.error).toBeUndefined();
  const ads = listed.data!.data!;
  expect(ads.length).toBeGreaterThan(0);
  expect(ads.length).toBeLessThanOrEqual(2);
  const id = ads[0]!.id!;

  const queried = await api.POST('/v1/ads/query', { body: { search: ['serum'], limit: 1, sortBy: 'newest' } });
  expect(queried.response.status).toBe(200);
  expect(queried.data!.data).toHaveLength(1);

  const detail = await api.GET('/v1/ads/{adId}', { params: { path: { adId: id } } });
  expect(detail.response.status).toBe(200);
  expect(detail.data!.data!.id).toBe(id);
});

it('answers failures as the error envelope in `error`, never a throw', async () => {
  const refused = await api.GET('/v1/ads', { params: { query: { search: 'serum', limit: 0 } } });
  expect(refused.response.status).toBe(400);
  expect(refused.data).toBeUndefined();
  expect(refused.error!.error.code).toBe('validation_error');
  expect(refused.error!.error.details?.validationErrors?.[0]?.field).toBe('query-string.limit');

  const missing = await api.GET('/v1/ads/{adId}', { params: { path: { adId: 'facebook_0' } } });
  expect([missing.response.status, missing.error!.error.code]).toEqual([404, 'not_found']);

  const anonymous = await createClient({ baseUrl: origin }).GET('/v1/me');
  expect([anonymous.response.status, anonymous.error!.error.code]).toEqual([401, 'missing_api_key']);
});
