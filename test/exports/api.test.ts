import { readFile, rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDemo } from '../../src/data/demo.js';
import { startJobs, type Jobs } from '../../src/jobs/index.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { exportDir, QUIET, settled, walk } from './helpers.js';

let t: TestApp;
let key: string;
let jobs: Jobs;
let dir: string;

beforeAll(async () => {
  dir = await exportDir();
  t = await createTestApp(async (db) => {
    await ensureDemo(db.prisma, db.pool, () => {});
  });
  key = (await t.newKey()).apiKey;
  jobs = await startJobs(t.db.pool, { work: true, logger: QUIET, exports: { sweepMs: 60_000 } });
}, 120_000);
afterAll(async () => {
  await jobs?.stop();
  await t?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const lines = (text: string) => text.split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);

describe('an export as NDJSON', () => {
  it('holds the rows of the route walked page by page to the end (POST /v1/ads/query)', async () => {
    const params = { sortBy: 'reach', order: 'desc' };
    const res = await t.rest('POST', '/exports', { key, body: { method: 'POST', path: '/v1/ads/query', params, format: 'ndjson' } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const done = await settled(t, key, res.body.data.id);
    expect(done.state, JSON.stringify(done)).toBe('done');
    const file = await t.app.fetch(`http://api.test/v1/exports/${done.id}/file`, { headers: { authorization: `Bearer ${key}` } });
    expect(file.status).toBe(200);
    const exported = lines(await file.text());
    const pages = await walk(t, key, 'POST', '/ads/query', params);
    expect(exported.length).toBe(pages.length);
    const firstDiff = exported.findIndex((row, i) => JSON.stringify(row) !== JSON.stringify(pages[i]));
    if (firstDiff >= 0) console.log('DIFF', firstDiff, JSON.stringify(exported[firstDiff]), '\n', JSON.stringify(pages[firstDiff]));
    expect(exported).toEqual(pages);
  });
});
