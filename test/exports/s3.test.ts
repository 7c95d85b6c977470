import { randomBytes, randomUUID } from 'node:crypto';
import { readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startJobs, type Jobs } from '../../src/jobs/index.js';
import { keepFile, readFileRange } from '../../src/schema/exports/service/files.js';
import { sweepExports } from '../../src/schema/exports/service.js';
import { metaAd } from '../sources/fakes/meta.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { importMetaRecords } from '../support/market-writes.js';
import { exportDir, QUIET, settled } from './helpers.js';
import { startS3Fake, type S3Fake } from './s3-fake.js';

// Export files kept in an S3-compatible store (EXPORT_S3_*), against a store on 127.0.0.1 that speaks S3's protocol
// and checks every request's Signature V4 (./s3-fake.ts): a finished file is uploaded and its local copy deleted; the
// file route serves it, a Range request as a ranged GET of the object; DELETE and expiry delete the object; a file
// larger than a part goes up as a multipart upload; a store that refuses the credentials fails the export with the
// store's answer, charging nothing and leaving no file; an object gone from the store is a 404.

let t: TestApp;
let s3: S3Fake;
let dir: string;
let jobs: Jobs;
let key: string;
let workspaceId: string;

const env = (fake: S3Fake, secret = fake.secretAccessKey) => ({
  EXPORT_S3_ENDPOINT: fake.endpoint,
  EXPORT_S3_BUCKET: fake.bucket,
  EXPORT_S3_REGION: 'eu-west-3',
  EXPORT_S3_ACCESS_KEY_ID: fake.accessKeyId,
  EXPORT_S3_SECRET_ACCESS_KEY: secret,
  EXPORT_S3_PREFIX: 'mi/exports/',
});

beforeAll(async () => {
  dir = await exportDir();
  s3 = await startS3Fake();
  Object.assign(process.env, env(s3));
  t = await createTestApp();
  await importMetaRecords(t.db.pool, Array.from({ length: 40 }, (_, i) => metaAd(i)), new Date('2026-11-20T10:00:00Z'));
  ({ apiKey: key, workspaceId } = await t.newKey());
  await t.db.pool.query(`UPDATE "credit_accounts" SET "topupBalance" = 100000`);
  jobs = await startJobs(t.db.pool, { work: true, logger: QUIET, exports: { sweepMs: 600_000 } });
}, 180_000);
afterEach(() => {
  Object.assign(process.env, env(s3));
  delete process.env.EXPORT_S3_PART_MB;
});
afterAll(async () => {
  await jobs?.stop();
  await t?.close();
  await s3?.close();
  for (const name of Object.keys(env(s3))) delete process.env[name];
  if (dir) await rm(dir, { recursive: true, force: true });
});

const ADS = { method: 'POST', path: '/v1/ads/query', params: { sortBy: 'reach', order: 'desc' }, format: 'ndjson' };

async function exportOf(body: Record<string, unknown> = ADS): Promise<Record<string, any>> {
  const res = await t.rest('POST', '/exports', { key, body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return settled(t, key, res.body.data.id);
}

const download = (id: string, headers: Record<string, string> = {}) =>
  t.app.fetch(`http://api.test/v1/exports/${id}/file`, { headers: { authorization: `Bearer ${key}`, ...headers } });

describe('an export kept in an S3-compatible store', () => {
  it('is uploaded when done (signed), served by the file route with Range as ranged GETs, and deleted with the export', async () => {
    const done = await exportOf();
    expect(done.state, JSON.stringify(done)).toBe('done');
    expect(done.rowsWritten).toBeGreaterThan(1);
    const object = s3.objects.get(`mi/exports/${done.id}.ndjson`);
    expect(object?.length).toBe(done.fileBytes);
    expect(object!.toString('utf8').trim().split('\n')).toHaveLength(done.rowsWritten);
    // The local copy went once uploaded.
    expect((await readdir(dir)).filter((name) => name.startsWith(done.id))).toEqual([]);
    expect(s3.refused).toBe(0);

    const whole = await download(done.id);
    expect(whole.status).toBe(200);
    expect(Buffer.from(await whole.arrayBuffer()).equals(object!)).toBe(true);
    const part = await download(done.id, { range: 'bytes=10-99' });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 10-99/${object!.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(object!.subarray(10, 100))).toBe(true);
    expect(s3.requests.filter((r) => r.method === 'GET' && r.key === `mi/exports/${done.id}.ndjson`).map((r) => r.range)).toEqual(['bytes=0-' + (object!.length - 1), 'bytes=10-99']);

    const deleted = await t.rest('DELETE', `/exports/${done.id}`, { key });
    expect(deleted.body.data.state).toBe('cancelled');
    expect(s3.objects.has(`mi/exports/${done.id}.ndjson`)).toBe(false);
    expect((await download(done.id)).status).toBe(404);
  });

  it('deletes the object when the file expires', async () => {
    const done = await exportOf({ ...ADS, format: 'csv' });
    const objectKey = `mi/exports/${done.id}.csv`;
    expect(s3.objects.has(objectKey)).toBe(true);
    await t.db.pool.query(`UPDATE "exports" e SET "expiresAt" = now() - interval '1 minute' WHERE e."id" = $1 AND e."workspaceId" = $2::uuid`, [done.id, workspaceId]);
    const swept = await sweepExports(t.db.pool, t.db.ledger);
    expect(swept.expired).toBeGreaterThanOrEqual(1);
    expect(s3.objects.has(objectKey)).toBe(false);
    expect((await t.rest('GET', `/exports/${done.id}`, { key })).body.data.state).toBe('expired');
  });

  it('answers 404 when the object is gone from the store', async () => {
    const done = await exportOf();
    s3.objects.delete(`mi/exports/${done.id}.ndjson`);
    const res = await download(done.id);
    expect(res.status).toBe(404);
    expect((await res.json()).error.code).toBe('not_found');
  });

  it('fails the export with the store\'s answer when the store refuses the credentials: nothing charged, no file left', async () => {
    process.env.EXPORT_S3_SECRET_ACCESS_KEY = 'not-the-secret';
    const refusedBefore = s3.refused;
    const { rows: [before] } = await t.db.pool.query<{ used: number }>(`SELECT sum(a."recurringUsed" - a."topupBalance")::int AS "used" FROM "credit_accounts" a`);
    const failed = await exportOf();
    expect(failed).toMatchObject({ state: 'failed', priceCharged: 0, fileUrl: null });
    expect(failed.error).toMatch(/S3 store answered 403 SignatureDoesNotMatch to PutObject/);
    expect(s3.refused).toBeGreaterThan(refusedBefore);
    expect((await readdir(dir)).filter((name) => name.startsWith(failed.id))).toEqual([]);
    const { rows: [after] } = await t.db.pool.query<{ used: number }>(`SELECT sum(a."recurringUsed" - a."topupBalance")::int AS "used" FROM "credit_accounts" a`);
    expect(after!.used).toBe(before!.used);
  });
});

describe('a store configured wrong', () => {
  it('fails the export at its start with the setting at fault, writing no file', async () => {
    process.env.EXPORT_S3_PART_MB = '3';
    const before = s3.requests.length;
    const failed = await exportOf();
    expect(failed).toMatchObject({ state: 'failed', rowsWritten: 0, error: 'the export store is misconfigured: EXPORT_S3_PART_MB must be at least 5 (S3\'s smallest part), got 3' });
    expect(s3.requests.length).toBe(before);
    expect((await readdir(dir)).filter((name) => name.startsWith(failed.id))).toEqual([]);
  });
});

describe('a file larger than a part', () => {
  it('goes up as a multipart upload of EXPORT_S3_PART_MB parts, and reads back by range across the parts', async () => {
    process.env.EXPORT_S3_PART_MB = '5';
    const row = { id: randomUUID(), format: 'parquet' as const };
    const data = randomBytes(11 * 1024 * 1024 + 123);
    await writeFile(path.join(dir, `${row.id}.parquet`), data);
    const before = s3.requests.length;
    const location = await keepFile(row, data.length, 'application/vnd.apache.parquet');
    expect(location).toBe(`s3://${s3.bucket}/mi/exports/${row.id}.parquet`);
    const calls = s3.requests.slice(before).map((r) => [r.method, Object.keys(r.query).sort().join(',')]);
    expect(calls).toEqual([['POST', 'uploads'], ['PUT', 'partNumber,uploadId'], ['PUT', 'partNumber,uploadId'], ['PUT', 'partNumber,uploadId'], ['POST', 'uploadId']]);
    expect(s3.objects.get(`mi/exports/${row.id}.parquet`)!.equals(data)).toBe(true);
    expect(await readdir(dir)).not.toContain(`${row.id}.parquet`);
    const boundary = 5 * 1024 * 1024;
    const stream = await readFileRange(location, boundary - 10, boundary + 9);
    expect(Buffer.from(await new Response(stream).arrayBuffer()).equals(data.subarray(boundary - 10, boundary + 10))).toBe(true);
  });
});
