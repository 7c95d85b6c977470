import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importData } from '../../src/data/import/index.js';
import { exportJobServices } from '../../src/jobs/exports.js';
import { runExport } from '../../src/schema/exports/service.js';
import { metaAd } from '../sources/fakes/meta.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { exportDir, settled, walk } from './helpers.js';

// An export reads one snapshot: ads imported while it runs (after its snapshot was taken, before its first row was
// read) are not in it, though the route shows them once the import is done. On PostgreSQL the import commits during the
// export; on the embedded database the export's transaction holds the database, so the import waits for it to end.

let t: TestApp;
let key: string;
let dir: string;
let scratch: string;

const importAds = async (from: number, count: number) => {
  const file = path.join(scratch, `meta-${from}.json`);
  await writeFile(file, JSON.stringify({ data: Array.from({ length: count }, (_, i) => metaAd(from + i)) }));
  await importData(t.db.pool, 'meta-ads', [file], { asOf: new Date('2026-11-27T10:00:00Z') });
};

beforeAll(async () => {
  dir = await exportDir();
  scratch = await mkdtemp(path.join(tmpdir(), 'mi-exports-import-'));
  t = await createTestApp();
  await importAds(0, 40);
  key = (await t.newKey()).apiKey;
});
afterAll(async () => {
  await t?.close();
  for (const folder of [dir, scratch]) if (folder) await rm(folder, { recursive: true, force: true });
});

describe('an export during an import', () => {
  it('holds the rows of its snapshot, none of the ads imported meanwhile', async () => {
    const params = { sortBy: 'newest' };
    const before = await walk(t, key, 'POST', '/ads/query', params, 7);
    const created = await t.rest('POST', '/exports', { key, body: { method: 'POST', path: '/v1/ads/query', params, format: 'ndjson' } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const services = exportJobServices(t.db.pool);
    let importing: Promise<void> | null = null;
    try {
      await runExport(services, created.body.data.id, {
        inSnapshot: async () => {
          importing = importAds(100, 30);
          // PostgreSQL: the import commits while the export runs. The embedded database: it waits for the export.
          if (t.db.kind === 'postgres') await importing;
        },
      });
    } finally {
      await services.close();
    }
    await importing;
    const done = await settled(t, key, created.body.data.id);
    expect(done.state, JSON.stringify(done)).toBe('done');
    const file = await t.app.fetch(`http://api.test/v1/exports/${done.id}/file`, { headers: { authorization: `Bearer ${key}` } });
    const rows = (await file.text()).split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);
    const after = await walk(t, key, 'POST', '/ads/query', params);
    expect(after.length).toBeGreaterThan(before.length);
    expect(rows).toEqual(before);
  });
});

describe('an export whose process stops', () => {
  it('fails clearly ("interrupted"), its partial file deleted, no file named as done', async () => {
    const created = await t.rest('POST', '/exports', { key, body: { method: 'POST', path: '/v1/ads/query', params: { sortBy: 'newest' }, format: 'csv' } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.data.id as string;
    const services = exportJobServices(t.db.pool);
    const stopping = new AbortController();
    process.env.EXPORT_CHUNK_ROWS = '5';
    try {
      // The process is told to stop once the export has begun: it stops after the chunk it is writing.
      await runExport(services, id, { signal: stopping.signal, inSnapshot: async () => stopping.abort() });
    } finally {
      delete process.env.EXPORT_CHUNK_ROWS;
      await services.close();
    }
    const failed = (await t.rest('GET', `/exports/${id}`, { key })).body.data;
    expect(failed).toMatchObject({ state: 'failed', rowsWritten: 5, priceCharged: 0, fileUrl: null, error: expect.stringContaining('interrupted') });
    expect((await readdir(dir)).filter((name) => name.startsWith(id))).toEqual([]);
    const file = await t.app.fetch(`http://api.test/v1/exports/${id}/file`, { headers: { authorization: `Bearer ${key}` } });
    expect(file.status).toBe(404);
  });
});
