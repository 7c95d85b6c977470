import { readdir, rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDemo } from '../../src/data/demo.js';
import { exportJobServices } from '../../src/jobs/exports.js';
import { runExport } from '../../src/schema/exports/service.js';
import { cancelSignalled } from '../../src/schema/exports/service.js';
import { createTestApp, type HttpResult, type TestApp } from '../support/app.js';
import { exportDir } from './helpers.js';

// A running export cancelled by DELETE, on both databases: the job stops after the chunk it was writing, pays for the
// rows it wrote (a priced list: products), its partial file deleted, its hold released, the cancel audited. On the
// embedded database the job's snapshot holds the database, so the DELETE reaches the job in process (without the
// database: the key's lookup is cached, as the server caches it) and its own statements run once the job stopped.

let t: TestApp;
let key: string;
let dir: string;

beforeAll(async () => {
  dir = await exportDir();
  let demo: string | null = null;
  t = await createTestApp(async (db) => {
    demo = await ensureDemo(db.prisma, db.pool, () => {});
  }, { authCacheMs: 600_000, market: { scale: 'tiny', seed: 42 } }); // the demo's market: a copy of the run's template
  key = demo!;
  await t.db.pool.query(`UPDATE "credit_accounts" SET "topupBalance" = 1000000`);
});
afterAll(async () => {
  delete process.env.EXPORT_CHUNK_ROWS;
  await t?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const demoWorkspace = `(SELECT w."id" FROM "workspaces" w WHERE w."slug" = 'demo')`;
const used = async () =>
  (await t.db.pool.query<{ n: number }>(`SELECT a."recurringUsed" - a."topupBalance" AS n FROM "credit_accounts" a WHERE a."workspaceId" = ${demoWorkspace}`)).rows[0]!.n;

/** Waits (a bounded number of turns of the event loop, then fails) for the DELETE's signal to reach the job. */
async function signalReached(id: string): Promise<void> {
  for (let i = 0; i < 2_000 && !cancelSignalled(id); i++) await new Promise((resolve) => setTimeout(resolve, 5));
  if (!cancelSignalled(id)) throw new Error('the DELETE did not reach the running export');
}

describe('a running export cancelled', () => {
  it('stops after its chunk, pays for the rows it wrote, its file deleted, its hold released, the cancel audited', async () => {
    process.env.EXPORT_CHUNK_ROWS = '7';
    const services = exportJobServices(t.db.pool);
    try {
      const before = await used();
      const made = await t.rest('POST', '/exports', { key, body: { method: 'GET', path: '/v1/products', params: { sortBy: 'newest' }, format: 'ndjson' } });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      const id = made.body.data.id as string;
      expect(made.body.data.priceHeld).toBeGreaterThan(7);
      let deleted: Promise<HttpResult> | null = null;
      await runExport(services, id, {
        // The snapshot is taken, no row read yet: the DELETE is sent (on the embedded database it then waits for the job).
        inSnapshot: async () => {
          deleted = t.rest('DELETE', `/exports/${id}`, { key });
          await signalReached(id);
        },
      });
      const res = await deleted!;
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data).toMatchObject({ id, state: 'cancelled', fileUrl: null });
      const after = (await t.rest('GET', `/exports/${id}`, { key })).body.data;
      expect(after).toMatchObject({ state: 'cancelled', rowsWritten: 7, priceCharged: 7, fileUrl: null });
      expect((await used()) - before).toBe(7);
      expect((await readdir(dir)).filter((name) => name.startsWith(id))).toEqual([]);
      const { rows: held } = await t.db.pool.query(`SELECT 1 FROM "credit_reservations" r WHERE r."workspaceId" = ${demoWorkspace}`);
      expect(held).toEqual([]);
      const { rows: [{ workspaceId }] } = await t.db.pool.query<{ workspaceId: string }>(`SELECT w."id"::text AS "workspaceId" FROM "workspaces" w WHERE w."slug" = 'demo'`);
      const { rows: audited } = await t.db.pool.query<{ action: string }>(
        `SELECT a."action" FROM "audit_events" a WHERE a."workspaceId" = $2::uuid AND a."entityId" = $1 ORDER BY a."createdAt"`, [id, workspaceId]);
      expect(audited.map((a) => a.action)).toEqual(['export.create', 'export.cancel']);
      expect((await t.rest('GET', `/exports/${id}/file`, { key })).status).toBe(404);
    } finally {
      delete process.env.EXPORT_CHUNK_ROWS;
      await services.close();
    }
  });

  // A bulk read (the ads lists) is streamed by a worker thread on PostgreSQL: the job answers it after each chunk.
  it('stops the worker of a bulk read after its chunk, its file deleted', async () => {
    process.env.EXPORT_CHUNK_ROWS = '7';
    const services = exportJobServices(t.db.pool);
    try {
      const made = await t.rest('POST', '/exports', { key, body: { method: 'POST', path: '/v1/ads/query', params: { sortBy: 'newest' }, format: 'parquet' } });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      const id = made.body.data.id as string;
      let deleted: Promise<HttpResult> | null = null;
      await runExport(services, id, {
        inSnapshot: async () => {
          deleted = t.rest('DELETE', `/exports/${id}`, { key });
          await signalReached(id);
        },
      });
      expect((await deleted!).status).toBe(200);
      const after = (await t.rest('GET', `/exports/${id}`, { key })).body.data;
      expect(after).toMatchObject({ state: 'cancelled', rowsWritten: 7, fileUrl: null });
      expect((await readdir(dir)).filter((name) => name.startsWith(id))).toEqual([]);
    } finally {
      delete process.env.EXPORT_CHUNK_ROWS;
      await services.close();
    }
  });
});
