import { expect } from 'vitest';
import type { HttpResult, TestApp } from '../support/app.js';

// The envelope cases of the saved-search routes for test/rest/envelopes.test.ts: one successful call per route, made
// twice there (plus twice without a key). `setupSavedSearchCases` makes the searches the calls act on; each call of the
// delete takes a fresh one.

type Case = { path: string; body?: unknown; check: (res: HttpResult) => void };

const SEARCH = { name: 'Active ads', method: 'POST', path: '/v1/ads/query', params: { status: 'active' } };
const state = { search: '', deletable: [] as string[] };

export async function setupSavedSearchCases(t: TestApp, key: string): Promise<void> {
  const create = async () => {
    const res = await t.rest('POST', '/saved-searches', { key, body: SEARCH });
    if (res.status !== 201) throw new Error(`setup /saved-searches: ${JSON.stringify(res.body)}`);
    return res.body.data.id as string;
  };
  state.search = await create();
  // Each call of the delete takes one, the two without a key too.
  for (let i = 0; i < 4; i++) state.deletable.push(await create());
}

const take = <T>(pool: T[]): T => {
  const next = pool.shift();
  if (next === undefined) throw new Error('envelope case pool exhausted');
  return next;
};

const SAVED_SEARCH = ['id', 'name', 'method', 'path', 'params', 'notifyLeft', 'matches', 'createdAt', 'updatedAt'];
const single = (dataKeys: string[]) => ({ body }: HttpResult) => {
  expect(Object.keys(body)).toEqual(['requestId', 'data']);
  expect(Object.keys(body.data)).toEqual(dataKeys);
};

export function savedSearchCases(): Record<string, Case> {
  return {
    'GET /saved-searches': {
      path: '/saved-searches',
      check: ({ body }) => {
        expect(Object.keys(body)).toEqual(['requestId', 'data', 'pagination']);
        expect(body.data.length).toBeGreaterThan(0);
        for (const item of body.data) expect(Object.keys(item)).toEqual(SAVED_SEARCH);
        expect(Object.keys(body.pagination)).toEqual(['page', 'limit', 'total', 'totalPages']);
      },
    },
    'POST /saved-searches': { path: '/saved-searches', body: SEARCH, check: single(SAVED_SEARCH) },
    'GET /saved-searches/:savedSearchId': { get path() { return `/saved-searches/${state.search}`; }, check: single(SAVED_SEARCH) },
    'PATCH /saved-searches/:savedSearchId': { get path() { return `/saved-searches/${state.search}`; }, body: { name: 'Renamed' }, check: single(SAVED_SEARCH) },
    'DELETE /saved-searches/:savedSearchId': { get path() { return `/saved-searches/${take(state.deletable)}`; }, check: single(['id', 'deleted']) },
  };
}
