import { expect } from 'vitest';
import type { HttpResult, TestApp } from '../support/app.js';

// The envelope cases of the export routes for test/rest/envelopes.test.ts: one successful call per route, made twice
// there (plus twice without a key). `setupExportCases` makes the exports the calls act on (queued: no job runs there).

type Case = { path: string; body?: unknown; check: (res: HttpResult) => void };

const EXPORT = { method: 'GET', path: '/v1/shops', params: {}, format: 'csv' };
const state = { made: '' };

export async function setupExportCases(t: TestApp, key: string): Promise<void> {
  const res = await t.rest('POST', '/exports', { key, body: EXPORT });
  if (res.status !== 201) throw new Error(`setup /exports: ${JSON.stringify(res.body)}`);
  state.made = res.body.data.id as string;
}

const EXPORT_KEYS = [
  'id', 'method', 'path', 'params', 'format', 'state', 'rowsWritten', 'totalRows', 'progress', 'pricePerRow', 'priceHeld', 'priceCharged',
  'fileBytes', 'fileUrl', 'error', 'createdAt', 'startedAt', 'finishedAt', 'expiresAt',
];
const single = (dataKeys: string[]) => ({ body }: HttpResult) => {
  expect(Object.keys(body)).toEqual(['requestId', 'data']);
  expect(Object.keys(body.data)).toEqual(dataKeys);
};

export function exportCases(): Record<string, Case> {
  return {
    'GET /exports': {
      path: '/exports',
      check: ({ body }) => {
        expect(Object.keys(body)).toEqual(['requestId', 'data', 'pagination']);
        expect(body.data.length).toBeGreaterThan(0);
        for (const item of body.data) expect(Object.keys(item)).toEqual(EXPORT_KEYS);
        expect(Object.keys(body.pagination)).toEqual(['page', 'limit', 'total', 'totalPages']);
      },
    },
    'POST /exports': { path: '/exports', body: EXPORT, check: single(EXPORT_KEYS) },
    'POST /exports/estimate': { path: '/exports/estimate', body: EXPORT, check: single(['dryRun', 'rows', 'pricePerRow', 'reserve', 'remaining', 'affordable', 'field']) },
    'GET /exports/:exportId': { get path() { return `/exports/${state.made}`; }, check: single(EXPORT_KEYS) },
    // A cancelled export is answered as it is: each call finds it cancelled.
    'DELETE /exports/:exportId': { get path() { return `/exports/${state.made}`; }, check: single(EXPORT_KEYS) },
  };
}
