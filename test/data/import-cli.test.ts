import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/client.js';
import { parseJson } from '../../src/data/import/json.js';
import { optionalAudience, optionalDateTime, optionalYmd } from '../../src/data/import/values.js';
import { createCliHarness, type CliHarness } from '../support/cli.js';

// `npm run --silent cli -- import …` as a child process: one JSON summary on stdout. On PGlite this test process
// plays the running server and the CLI shares its embedded database through the loopback port.

const root = path.resolve(import.meta.dirname, '../..');
const fixtures = path.join(root, 'test/fixtures');

let harness: CliHarness;
let db: Db;
let scratch: string;

beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'mi-import-cli-'));
  harness = await createCliHarness();
  db = harness.db;
});
afterAll(async () => {
  await harness?.close();
  await rm(scratch, { recursive: true, force: true });
});

const cli = (...args: string[]) => harness.cli(...args);

describe('cli import', () => {
  it('imports both formats and prints exactly one JSON summary', async () => {
    const meta = await cli('import', 'meta-ads', path.join(fixtures, 'meta-ads'), '--as-of', '2026-11-22T10:00:00Z');
    expect(meta.code).toBe(0);
    expect(meta.stdout.trim().split('\n')).toHaveLength(1);
    expect(Object.keys(meta.json)).toEqual(['read', 'inserted', 'updated', 'skipped', 'errors']);
    expect(meta.json).toMatchObject({ read: 8, inserted: 5, updated: 0, skipped: 3 });
    expect(meta.json.errors.map((e: { position: number }) => e.position)).toEqual([3, 4, 5]);

    const tiktok = await cli('import', 'tiktok-ads', path.join(fixtures, 'tiktok-ads/query-1.json'), '--as-of', '2026-11-22T10:00:00Z');
    expect(tiktok.json).toMatchObject({ read: 5, inserted: 3, updated: 0, skipped: 2 });
    const { rows } = await db.pool.query(`SELECT id FROM tiktok_items ORDER BY id`);
    expect(rows.map((r) => r.id)).toEqual(['7301234567890123456', '7301234567890123457', '7309999999999999999']);

    const again = await cli('import', 'meta-ads', path.join(fixtures, 'meta-ads'), '--as-of', '2026-11-22T10:00:00Z');
    expect(again.json).toMatchObject({ read: 8, inserted: 0, updated: 0, skipped: 3 });
  });

  it('fails (exit 1) with the summary when a file was not imported, and refuses (exit 2) bad arguments and missing paths', async () => {
    const broken = path.join(scratch, 'broken.json');
    await writeFile(broken, 'not json');
    const summary = await cli('import', 'meta-ads', broken);
    expect(summary.code).toBe(1);
    expect(summary.stdout.trim().split('\n')).toHaveLength(1);
    expect(summary.json).toEqual({
      error: { code: 'validation_error', message: expect.stringMatching(/^1 file or batch not imported; the first: .*broken\.json: not JSON/) },
      read: 0, inserted: 0, updated: 0, skipped: 0, errors: [{ file: broken, position: null, reason: expect.stringMatching(/^not JSON/) }],
    });

    // An import for a new day writes each ad's reach of that day.
    const reachDays = async () => (await db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM ad_reach_days')).rows[0].n;
    const before = await reachDays();
    const missing = path.join(scratch, 'no-such-folder');
    for (const args of [
      ['import', 'shopify-products', broken], ['import', 'meta-ads'], ['import'], ['import', 'meta-ads', broken, '--as-of', 'yesterday'],
      ['import', 'meta-ads', path.join(fixtures, 'meta-ads'), missing, '--as-of', '2026-11-23T10:00:00Z'],
    ]) {
      const res = await cli(...args);
      expect(res.code, res.stdout).toBe(2);
      expect(res.json, res.stdout).toEqual({ error: { code: 'validation_error', message: expect.any(String) } });
    }
    // A path that is not there imports nothing, not even the paths beside it.
    expect((await cli('import', 'meta-ads', path.join(fixtures, 'meta-ads'), missing)).json.error.message).toBe(`no such file or directory: ${missing}`);
    expect(await reachDays()).toBe(before);
  });
});

describe('import readers', () => {
  it('keeps integers of 16 or more digits exact, outside strings only', () => {
    expect(parseJson('{"id": 7301234567890123456, "n": 12, "s": "12345678901234567890", "f": 1.5, "e": 1e21, "neg": -7301234567890123456}')).toEqual({
      id: '7301234567890123456', n: 12, s: '12345678901234567890', f: 1.5, e: 1e21, neg: '-7301234567890123456',
    });
    expect(parseJson('["a \\" 1234567890123456789", 1234567890123456789]')).toEqual(['a " 1234567890123456789', '1234567890123456789']);
  });

  it('reads Ad Library times, TikTok dates and rounded audience figures', () => {
    expect(optionalDateTime('2019-05-03T11:00:00+0000', 'x')?.toISOString()).toBe('2019-05-03T11:00:00.000Z');
    expect(optionalDateTime('2019-05-03T11:00:00-0230', 'x')?.toISOString()).toBe('2019-05-03T13:30:00.000Z');
    expect(optionalDateTime('2024-02-29', 'x')?.toISOString()).toBe('2024-02-29T00:00:00.000Z');
    expect(() => optionalDateTime('2023-02-29', 'x')).toThrow(/not a valid date/);
    expect(() => optionalDateTime(20230101, 'x')).toThrow(/must be a date string/);
    expect(optionalYmd(20210101, 'x')?.toISOString()).toBe('2021-01-01T00:00:00.000Z');
    expect(() => optionalYmd('2021-01-01', 'x')).toThrow(/YYYYMMDD/);
    expect([optionalAudience('30K', 'x'), optionalAudience('1.2M', 'x'), optionalAudience('100K-1M', 'x'), optionalAudience('<1K', 'x'), optionalAudience('10M+', 'x')])
      .toEqual([30000n, 1200000n, 100000n, 0n, 10000000n]);
    expect(() => optionalAudience('lots', 'x')).toThrow(/not an audience figure/);
  });
});
