import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createKey, createUser } from '../../src/auth/admin.js';
import { importData } from '../../src/data/import/index.js';
import { savedSearchBounds } from '../../src/schema/saved-searches/service.js';
import { metaAd, metaPageOf } from '../sources/fakes/meta.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { expectNotFound, expectViolation, graphqlData } from '../support/assertions.js';

// Saved searches as a workspace manages them, on REST and GraphQL: made with the rows they match now (their
// baseline), listed, read, renamed, re-based on new params, deleted; refused as the route they name would refuse their
// params, or when they name no market list, or match too many rows; writer role for writes; another workspace's
// search answered as a missing one, with nothing changed.

let t: TestApp;
let scratch: string;
let a: { apiKey: string; workspaceId: string; slug: string };
let b: { apiKey: string; workspaceId: string };
let reader: string;

const PAGE_A = metaPageOf(0).pageId;
const PAGE_B = metaPageOf(20).pageId;
const leadsOf = async (key: string, page: string) =>
  ((await t.rest('POST', '/ads/query', { key, body: { trackedPages: [page], limit: 100 } })).body.data as { id: string }[]).map((ad) => ad.id).sort();

beforeAll(async () => {
  t = await createTestApp();
  scratch = await mkdtemp(path.join(tmpdir(), 'mi-saved-searches-'));
  const file = path.join(scratch, 'meta.json');
  await writeFile(file, JSON.stringify({ data: Array.from({ length: 40 }, (_, i) => metaAd(i)) }));
  await importData(t.db.pool, 'meta-ads', [file], { asOf: new Date('2026-11-27T10:00:00Z') });
  a = await t.newKey();
  b = await t.newKey();
  const { userId } = await createUser(t.db.prisma, { workspace: a.slug, name: 'Rita Reader', role: 'readonly' });
  reader = (await createKey(t.db.prisma, { workspace: a.slug, access: 'delegated_user', user: userId })).apiKey;
});
afterEach(() => {
  savedSearchBounds.maxMatches = 10_000;
});
afterAll(async () => {
  await t?.close();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

const create = (key: string, body: Record<string, unknown>) => t.rest('POST', '/saved-searches', { key, body });
const byPage = (page: string) => ({ name: `Page ${page}`, method: 'POST', path: '/v1/ads/query', params: { trackedPages: [page] } });

describe('making, reading and changing a saved search', () => {
  it('makes one with the rows its route matches now (201), and shows it on GET and in the list', async () => {
    const res = await create(a.apiKey, { ...byPage(PAGE_A), notifyLeft: true });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const leads = await leadsOf(a.apiKey, PAGE_A);
    expect(leads.length).toBeGreaterThan(1);
    expect(res.body.data).toEqual({
      id: expect.any(String), name: `Page ${PAGE_A}`, method: 'POST', path: '/v1/ads/query', params: { trackedPages: [PAGE_A] }, notifyLeft: true,
      matches: leads.length, createdAt: expect.any(String), updatedAt: expect.any(String),
    });
    const { rows } = await t.db.pool.query<{ rowId: string }>(`SELECT m."rowId" FROM "saved_search_matches" m WHERE m."savedSearchId" = $1::uuid ORDER BY 1`, [res.body.data.id]);
    expect(rows.map((row) => row.rowId)).toEqual(leads);
    const detail = await t.rest('GET', `/saved-searches/${res.body.data.id}`, { key: a.apiKey });
    expect(detail.status).toBe(200);
    expect(detail.body.data).toEqual(res.body.data);
    const list = await t.rest('GET', '/saved-searches', { key: a.apiKey });
    expect(list.status).toBe(200);
    expect(list.body.pagination).toMatchObject({ page: 1, limit: 25, total: expect.any(Number) });
    expect(list.body.data.find((s: { id: string }) => s.id === res.body.data.id)).toEqual(res.body.data);
  });

  it('makes one of a GET list from its query-string parameters, as the route reads them', async () => {
    const res = await create(a.apiKey, { name: 'Serums', method: 'GET', path: '/v1/ads', params: { search: 'serum', status: 'all' } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const direct = await t.rest('GET', '/ads?search=serum&status=all&limit=100', { key: a.apiKey });
    expect(direct.body.data.length).toBeGreaterThan(0);
    expect(res.body.data.matches).toBe(direct.body.data.length);
  });

  it('renames it and changes notifyLeft without touching its rows; new params re-take its baseline', async () => {
    const made = (await create(a.apiKey, byPage(PAGE_A))).body.data;
    const renamed = await t.rest('PATCH', `/saved-searches/${made.id}`, { key: a.apiKey, body: { name: 'Renamed', notifyLeft: true } });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect(renamed.body.data).toMatchObject({ name: 'Renamed', notifyLeft: true, matches: made.matches, params: made.params });
    const moved = await t.rest('PATCH', `/saved-searches/${made.id}`, { key: a.apiKey, body: { params: { trackedPages: [PAGE_A, PAGE_B] } } });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const both = [...(await leadsOf(a.apiKey, PAGE_A)), ...(await leadsOf(a.apiKey, PAGE_B))].sort();
    expect(moved.body.data).toMatchObject({ params: { trackedPages: [PAGE_A, PAGE_B] }, matches: both.length, name: 'Renamed' });
    const { rows } = await t.db.pool.query<{ rowId: string }>(`SELECT m."rowId" FROM "saved_search_matches" m WHERE m."savedSearchId" = $1::uuid ORDER BY 1`, [made.id]);
    expect(rows.map((row) => row.rowId)).toEqual(both);
  });

  it('deletes it: gone from GET, its rows with it, and a second delete is a 404', async () => {
    const made = (await create(a.apiKey, byPage(PAGE_B))).body.data;
    const deleted = await t.rest('DELETE', `/saved-searches/${made.id}`, { key: a.apiKey });
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toEqual({ id: made.id, deleted: true });
    expectNotFound(await t.rest('GET', `/saved-searches/${made.id}`, { key: a.apiKey }));
    expectNotFound(await t.rest('DELETE', `/saved-searches/${made.id}`, { key: a.apiKey }));
    const { rows } = await t.db.pool.query(`SELECT 1 FROM "saved_search_matches" m WHERE m."savedSearchId" = $1::uuid`, [made.id]);
    expect(rows).toHaveLength(0);
  });

  it('answers the same on GraphQL', async () => {
    const data = await graphqlData(
      t, a.apiKey,
      `mutation($params: JSON!) { savedSearchCreate(name: "GraphQL", method: POST, path: "/v1/ads/query", params: $params) { id name method path params notifyLeft matches } }`,
      { params: { trackedPages: [PAGE_B] } },
    );
    const leads = await leadsOf(a.apiKey, PAGE_B);
    expect(data.savedSearchCreate).toMatchObject({ name: 'GraphQL', method: 'POST', path: '/v1/ads/query', params: { trackedPages: [PAGE_B] }, notifyLeft: false, matches: leads.length });
    const read = await graphqlData(t, a.apiKey, `query($id: String!) { savedSearch(savedSearchId: $id) { id matches } savedSearches(limit: 100) { data { id } pagination { total } } }`, { id: data.savedSearchCreate.id });
    expect(read.savedSearch).toEqual({ id: data.savedSearchCreate.id, matches: leads.length });
    expect(read.savedSearches.data.map((s: { id: string }) => s.id)).toContain(data.savedSearchCreate.id);
    const rest = await t.rest('GET', `/saved-searches/${data.savedSearchCreate.id}`, { key: a.apiKey });
    expect(rest.body.data).toMatchObject(data.savedSearchCreate);
  });

  it('costs nothing to manage', async () => {
    const res = await create(a.apiKey, byPage(PAGE_A));
    expect(res.headers.get('x-usage-cost')).toBe('0');
    const list = await t.rest('GET', '/saved-searches', { key: a.apiKey });
    expect(list.headers.get('x-usage-cost')).toBe('0');
  });
});

describe('validation, as the route named would refuse the params', () => {
  it("refuses a bad parameter with the route's own validation error, named params.<parameter>", async () => {
    // What the routes themselves answer…
    const routeEnum = await t.rest('GET', '/ads?search=serum&status=nope', { key: a.apiKey });
    const routeRule = await t.rest('POST', '/ads/query', { key: a.apiKey, body: { minDaysRunning: -1 } });
    const routeMissing = await t.rest('GET', '/ads?status=all', { key: a.apiKey });
    const expectedOf = (res: { body: { error: { details: { validationErrors: { expected: string[] }[] } } } }) => res.body.error.details.validationErrors[0].expected;
    // …is what a saved search of theirs answers, at params.<parameter>.
    expectViolation(await create(a.apiKey, { name: 'x', method: 'GET', path: '/v1/ads', params: { search: 'serum', status: 'nope' } }), 'body.params.status', expectedOf(routeEnum));
    expectViolation(await create(a.apiKey, { name: 'x', method: 'POST', path: '/v1/ads/query', params: { minDaysRunning: -1 } }), 'body.params.minDaysRunning', expectedOf(routeRule));
    expectViolation(await create(a.apiKey, { name: 'x', method: 'GET', path: '/v1/ads', params: { status: 'all' } }), 'body.params.search', expectedOf(routeMissing));
  });

  it('refuses a path that names no market list: unknown, not a list, or with the wrong method', async () => {
    for (const [method, where] of [['GET', '/v1/nowhere'], ['GET', '/v1/ads/facets/landing-pages'], ['POST', '/v1/webhooks'], ['GET', '/v1/ads/query'], ['GET', '/v1/advertisers/123/ads']]) {
      expectViolation(await create(a.apiKey, { name: 'x', method, path: where, params: {} }), 'body.path', /market list: GET \/v1\/ads, POST \/v1\/ads\/query, .*POST \/v1\/google-ads\/query/);
    }
    expectViolation(await create(a.apiKey, { name: 'x', method: 'DELETE', path: '/v1/ads', params: {} }), 'body.method');
  });

  it('refuses parameters the route does not have, paging parameters, and params that are not an object', async () => {
    expectViolation(await create(a.apiKey, { name: 'x', method: 'GET', path: '/v1/ads', params: { search: 'serum', colour: 'red' } }), 'body.params.colour', ['colour is not a parameter of GET /v1/ads']);
    expectViolation(await create(a.apiKey, { name: 'x', method: 'GET', path: '/v1/ads', params: { search: 'serum', limit: 5 } }), 'body.params.limit', /pages the list: a saved search reads all of it/);
    expectViolation(await create(a.apiKey, { name: 'x', method: 'GET', path: '/v1/ads', params: ['serum'] }), 'body.params', /JSON object/);
    expectViolation(await create(a.apiKey, { name: '', method: 'GET', path: '/v1/ads', params: { search: 'serum' } }), 'body.name');
    expectViolation(await create(a.apiKey, { name: 'x', method: 'GET', path: '/v1/ads' }), 'body.params');
  });

  it('refuses a search matching more rows than SAVED_SEARCH_MAX_MATCHES, telling to narrow it', async () => {
    savedSearchBounds.maxMatches = 3;
    expectViolation(await create(a.apiKey, { name: 'x', method: 'POST', path: '/v1/ads/query', params: {} }), 'body.params', /match more than 3 rows of POST \/v1\/ads\/query .*narrow the search/);
    const made = (await create(a.apiKey, { name: 'one page', method: 'POST', path: '/v1/ads/query', params: { trackedPages: [PAGE_A], maxAdsPerBrand: 1 } })).body.data;
    expect(made.matches).toBe(1);
    expectViolation(await t.rest('PATCH', `/saved-searches/${made.id}`, { key: a.apiKey, body: { params: {} } }), 'body.params', /narrow the search/);
    expect((await t.rest('GET', `/saved-searches/${made.id}`, { key: a.apiKey })).body.data).toMatchObject({ params: { trackedPages: [PAGE_A], maxAdsPerBrand: 1 }, matches: 1 });
  });

  it('names the parameter on GraphQL too', async () => {
    const res = await t.graphql(`mutation { savedSearchCreate(name: "x", method: GET, path: "/v1/ads", params: { search: "serum", status: "nope" }) { id } }`, {}, a.apiKey);
    expect(res.body.errors[0].extensions).toMatchObject({ code: 'validation_error', details: { validationErrors: [{ field: 'params.status', location: 'argument', expected: [expect.stringMatching(/status must be one of/)] }] } });
  });
});

describe('access', () => {
  it("answers another workspace's saved search as a missing one, and changes nothing", async () => {
    const made = (await create(a.apiKey, byPage(PAGE_A))).body.data;
    expectNotFound(await t.rest('GET', `/saved-searches/${made.id}`, { key: b.apiKey }));
    expectNotFound(await t.rest('PATCH', `/saved-searches/${made.id}`, { key: b.apiKey, body: { name: 'Taken', params: { trackedPages: [PAGE_B] } } }));
    expectNotFound(await t.rest('DELETE', `/saved-searches/${made.id}`, { key: b.apiKey }));
    const missing = await t.rest('GET', '/saved-searches/5a0e0000-0000-4000-8000-000000000001', { key: b.apiKey });
    expect(missing.body.error.message).toBe((await t.rest('GET', `/saved-searches/${made.id}`, { key: b.apiKey })).body.error.message);
    expect((await t.rest('GET', `/saved-searches/${made.id}`, { key: a.apiKey })).body.data).toEqual(made);
    expect((await t.rest('GET', '/saved-searches?limit=100', { key: b.apiKey })).body.data.map((s: { id: string }) => s.id)).not.toContain(made.id);
    expectViolation(await t.rest('GET', '/saved-searches/not-a-uuid', { key: b.apiKey }), 'path.savedSearchId', ['savedSearchId must be a UUID']);
  });

  it('lets a read-only key read, and refuses its writes (403)', async () => {
    const made = (await create(a.apiKey, byPage(PAGE_A))).body.data;
    expect((await t.rest('GET', `/saved-searches/${made.id}`, { key: reader })).status).toBe(200);
    for (const res of [
      await create(reader, byPage(PAGE_B)),
      await t.rest('PATCH', `/saved-searches/${made.id}`, { key: reader, body: { name: 'mine' } }),
      await t.rest('DELETE', `/saved-searches/${made.id}`, { key: reader }),
    ]) {
      expect(res.status, JSON.stringify(res.body)).toBe(403);
      expect(res.body.error.code).toBe('forbidden');
    }
    expect((await t.rest('GET', `/saved-searches/${made.id}`, { key: a.apiKey })).body.data).toEqual(made);
  });
});
