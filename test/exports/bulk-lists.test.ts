import { rm } from 'node:fs/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ensureDemo } from '../../src/data/demo.js';
import { exportJobServices } from '../../src/jobs/exports.js';
import { runExport } from '../../src/schema/exports/service.js';
import { RowChunk } from '../../src/schema/exports/service/writers.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { expectPages, exportDir, settled, walk } from './helpers.js';

// Every exportable list of the list engine read in bulk (ExportRows: each item's JSON written by PostgreSQL, no
// resolver per field): an NDJSON export's rows are the route's pages walked to the end, and none of them came through
// the route's resolvers (RowChunk.ofRows with rows) while its runs were read in bulk (RowChunk.ofLines). Small chunks,
// so that an export read chunk by chunk reads several. On the demo market (a copy of the run's template).

let t: TestApp;
let demo: string;
let dir: string;
const ids: Record<'advertiser' | 'tiktokShop' | 'emailShop' | 'tracker', string> = { advertiser: '', tiktokShop: '', emailShop: '', tracker: '' };
let cutEmail = 0;

beforeAll(async () => {
  dir = await exportDir();
  process.env.EXPORT_CHUNK_ROWS = '37';
  let key: string | null = null;
  t = await createTestApp(async (db) => {
    key = await ensureDemo(db.prisma, db.pool, () => {});
  }, { market: { scale: 'tiny', seed: 42 } });
  demo = key!;
  await t.db.pool.query(`UPDATE "credit_accounts" SET "topupBalance" = 10000000`);
  const one = async (text: string) => (await t.db.pool.query<{ id: string }>(text)).rows[0]!.id;
  ids.advertiser = await one(`SELECT a."advertiserId" AS id FROM "ads" a WHERE a."isGroupLead" GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1`);
  ids.tiktokShop = await one(`SELECT i."shopId" AS id FROM "tiktok_items" i WHERE i."shopId" IS NOT NULL GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1`);
  ids.emailShop = await one(`SELECT e."shopId" AS id FROM "emails" e GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1`);
  ids.tracker = (await t.rest('GET', '/brandtrackers', { key: demo })).body.data[0].id as string;
  // Two of the shop's emails whose preview (the body's first 200 UTF-16 code units) holds characters beyond the Basic
  // Multilingual Plane: one cut in half at the 200th unit (JavaScript keeps its high surrogate), one counted as two.
  const { rows: [cut, counted] } = await t.db.pool.query<{ id: number }>(`SELECT e."id" FROM "emails" e WHERE e."shopId" = $1::uuid ORDER BY e."id" LIMIT 2`, [ids.emailShop]);
  cutEmail = cut!.id;
  await t.db.pool.query(`UPDATE "emails" SET "body" = $2 WHERE "id" = $1`, [cut!.id, `${'a'.repeat(199)}\u{1F600} after the cut`]);
  await t.db.pool.query(`UPDATE "emails" SET "body" = $2 WHERE "id" = $1`, [counted!.id, `\u{1F389} Sale: ${'b'.repeat(300)}`]);
});
afterAll(async () => {
  delete process.env.EXPORT_CHUNK_ROWS;
  await t?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** The rows of an NDJSON export of the route, run here, and how its chunks were read. */
async function exportRows(method: 'GET' | 'POST', path: string, params: Record<string, unknown>) {
  const lines = vi.spyOn(RowChunk, 'ofLines');
  const objects = vi.spyOn(RowChunk, 'ofRows');
  const created = await t.rest('POST', '/exports', { key: demo, body: { method, path: `/v1${path}`, params, format: 'ndjson' } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const services = exportJobServices(t.db.pool);
  try {
    await runExport(services, created.body.data.id, { onError: (error) => { throw error; } });
  } finally {
    await services.close();
  }
  const done = await settled(t, demo, created.body.data.id);
  expect(done.state, JSON.stringify(done)).toBe('done');
  const file = await t.app.fetch(`http://api.test/v1/exports/${done.id}/file`, { headers: { authorization: `Bearer ${demo}` } });
  const rows = (await file.text()).split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);
  // Through the resolvers a chunk comes as objects (RowChunk.ofRows with its rows); a bulk read leaves its items' text
  // (RowChunk.ofLines: chunk by chunk, or once, empty, when the statement is streamed elsewhere) and no object.
  const resolved = objects.mock.calls.reduce((sum, [chunk]) => sum + chunk.length, 0);
  const bulkRuns = lines.mock.calls.length;
  lines.mockRestore();
  objects.mockRestore();
  return { rows, resolved, bulkRuns };
}

type Case = [method: 'GET' | 'POST', path: () => string, params: Record<string, unknown>, limit: number];

const CASES: Record<string, Case> = {
  // The market's ads: on PostgreSQL their records are selected and sorted in the matches' own statement (inMatches).
  'ads by reach, ascending': ['POST', () => '/ads/query', { sortBy: 'reach', order: 'asc' }, 50],
  'ads searched (GET), by reach': ['GET', () => '/ads', { search: 'serum', sortBy: 'reach' }, 50],
  'ads searched, newest first, at most two a brand': ['POST', () => '/ads/query', { search: ['serum'], sortBy: 'newest', maxAdsPerBrand: 2 }, 50],
  advertisers: ['GET', () => '/advertisers', {}, 50],
  'advertisers by reach over 14 days (a computed order)': ['POST', () => '/advertisers/query', { sortBy: 'reach14d' }, 50],
  "an advertiser's ads": ['GET', () => `/advertisers/${ids.advertiser}/ads`, { sortBy: 'reach' }, 50],
  shops: ['GET', () => '/shops', { sortBy: 'monthlyVisits' }, 100],
  'shops queried': ['POST', () => '/shops/query', {}, 100],
  products: ['GET', () => '/products', {}, 100],
  'products queried, by estimated sales': ['POST', () => '/products/query', { sortBy: 'est-sales', order: 'asc' }, 100],
  emails: ['POST', () => '/emails/query', {}, 50],
  "a shop's emails": ['GET', () => `/shops/${ids.emailShop}/emails`, {}, 50],
  'TikTok items': ['GET', () => '/tiktok/library', {}, 50],
  'TikTok items queried': ['POST', () => '/tiktok/library/query', {}, 50],
  "a shop's TikTok items": ['GET', () => `/shops/${ids.tiktokShop}/tiktok/library`, {}, 50],
  'Google ads': ['POST', () => '/google-ads/query', {}, 50],
  "a brandtracker's ads": ['GET', () => `/brandtrackers/${ids.tracker}/ads`, {}, 100],
  "a brandtracker's partnership ads": ['GET', () => `/brandtrackers/${ids.tracker}/partnership-ads`, {}, 100],
  "a brandtracker's timeline": ['GET', () => `/brandtrackers/${ids.tracker}/timeline`, {}, 100],
};

describe('bulk exports of the lists', () => {
  for (const [name, [method, path, params, limit]] of Object.entries(CASES)) {
    it(`${name}: the NDJSON rows are the pages walked to the end, read in bulk, none through the resolvers`, async () => {
      const { rows, resolved, bulkRuns } = await exportRows(method, path(), params);
      const pages = await walk(t, demo, method, path(), params, limit);
      expect(pages.length, 'the list has rows').toBeGreaterThan(0);
      expectPages(rows, pages);
      if (path().endsWith('/emails')) {
        const cut = rows.find((row) => row.id === cutEmail)?.content as { bodyPreview: string } | undefined;
        expect(cut?.bodyPreview).toBe(`${'a'.repeat(199)}\ud83d`);
      }
      expect(resolved, 'rows read through the resolvers').toBe(0);
      expect(bulkRuns, 'runs read in bulk').toBeGreaterThan(0);
    });
  }
});
