import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { googleAds } from '../../src/data/import/google-ads.js';
import { importData, type ImportSummary } from '../../src/data/import/index.js';
import type { Batch } from '../../src/data/import/run.js';
import { checksums } from '../support/checksums.js';
import { createTestApp, type HttpResult, type TestApp } from '../support/app.js';
import { createCliHarness } from '../support/cli.js';

// The google-ads importer against hand-made exports of BigQuery's google_ads_transparency_center.creative_stats
// (test/fixtures/google-ads), read back through POST /v1/google-ads/query. The import day is 2026-11-22.
//   creative_stats.jsonl  7 lines: Aurora Glow (AR…01) CR…01 (IMAGE, FR > DE and an EEA aggregate, mostly Shopping,
//                         customer lists) and CR…02 (VIDEO on YouTube, last shown 11-10, topics included and
//                         excluded); at 2 a broken line; Fjord Outdoor (AR…02, legal name only) CR…03 (TEXT, US and
//                         NO without figures or surfaces), at 4 ad format AUDIO, at 5 surface DISCOVER, CR…06 (TEXT,
//                         TR with Search and Maps tied, GR listing Maps without figures).
//   creative_stats.csv    4 rows of Velo Nord (AR…03), region_stats as JSON text and the audience flattened: CR…11
//                         (IMAGE on YouTube, last shown 11-19), at 1 a column too many, CR…13 (VIDEO, ES > PT, last
//                         shown 11-20), at 3 customer_lists CRITERIA_SOMETIMES.

const fixtures = path.resolve(import.meta.dirname, '../fixtures/google-ads');
const JSONL = path.join(fixtures, 'creative_stats.jsonl');
const CSV = path.join(fixtures, 'creative_stats.csv');
const AS_OF = new Date('2026-11-22T10:00:00Z');
const AR = (n: number) => `AR1000000000000000000${n}`;
const CR = (n: number) => `CR2000000000000000${String(n).padStart(4, '0')}`;
const AD = (n: number) => `google_${CR(n)}`;

let t: TestApp;
let key: string;
let scratch: string;
beforeAll(async () => {
  t = await createTestApp();
  ({ apiKey: key } = await t.newKey());
  scratch = await mkdtemp(path.join(tmpdir(), 'mi-import-google-'));
});
afterAll(async () => {
  await t?.close();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

const run = (...paths: string[]) => importData(t.db.pool, 'google-ads', paths, { asOf: AS_OF });
const query = (body: unknown) => t.rest('POST', '/google-ads/query', { key, body });
const rows = (res: HttpResult) => {
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as Record<string, any>[];
};
const adById = async (id: string) => rows(await query({ limit: 100 })).find((ad) => ad.id === id);
const positions = (summary: ImportSummary) => summary.errors.map((e) => [path.basename(e.file), e.position]);

const GOOGLE_TABLES = ['google_advertisers', 'google_ads'];

describe('import google-ads', () => {
  let jsonl: ImportSummary;
  let csv: ImportSummary;
  beforeAll(async () => {
    jsonl = await run(JSONL);
    csv = await run(CSV);
  });

  it('imports newline-delimited JSON and reports a broken line and unknown values at their positions', () => {
    expect(jsonl).toMatchObject({ read: 7, inserted: 4, updated: 0, skipped: 3 });
    expect(positions(jsonl)).toEqual([['creative_stats.jsonl', 2], ['creative_stats.jsonl', 4], ['creative_stats.jsonl', 5]]);
    expect(jsonl.errors.map((e) => e.reason)).toEqual([
      expect.stringMatching(/^not JSON: /),
      'ad_format_type must be one of TEXT, IMAGE, VIDEO, got "AUDIO"',
      'region_stats[0].surface_serving_stats[0].surface must be one of SEARCH, YOUTUBE, SHOPPING, MAPS, PLAY, got "DISCOVER"',
    ]);
  });

  it('imports CSV with region_stats as JSON text; a malformed row and an unknown audience value are reported', () => {
    expect(csv).toMatchObject({ read: 4, inserted: 2, updated: 0, skipped: 2 });
    expect(positions(csv)).toEqual([['creative_stats.csv', 1], ['creative_stats.csv', 3]]);
    expect(csv.errors.map((e) => e.reason)).toEqual([
      expect.stringMatching(/^not a CSV row: Invalid Record Length: columns length is 13, got 14/),
      'customer_lists must be one of CRITERIA_INCLUDED, CRITERIA_INCLUDED_AND_EXCLUDED, CRITERIA_EXCLUDED, CRITERIA_UNUSED, got "CRITERIA_SOMETIMES"',
    ]);
  });

  it('serves a Shopping image ad with its summed reach, country shares, audience and advertiser', async () => {
    const [ad] = rows(await query({ networks: ['shopping'] }));
    expect(ad).toEqual({
      id: AD(1),
      googleAdId: CR(1),
      status: 'active', // last shown the day before the import
      network: 'shopping', // Shopping 31,000 against Search 3,000 over FR and DE; the EEA aggregate not counted twice
      firstSeenAt: '2026-10-01T00:00:00.000Z',
      lastSeenAt: '2026-11-21T00:00:00.000Z',
      daysRunning: expect.any(Number),
      media: { type: 'image', url: null, format: 'shopping' },
      advertiser: {
        id: AR(1), name: 'Aurora Glow', shopName: null, domain: null, websiteId: null, logoUrl: null,
        liveAds: { all: 1, search: 0, shopping: 1, maps: 0, youtube: 0, other: 0 },
      },
      reach: { value: 17000, lowerBound: 14000, upperBound: 20000 },
      audience: {
        mainCountry: 'FR',
        countries: [{ countryCode: 'FR', share: 0.7353 }, { countryCode: 'DE', share: 0.2647 }],
        remarketing: true,
        interest: false,
      },
    });
  });

  it('maps a stopped video, a text ad without figures or surfaces, and a tie between surfaces', async () => {
    expect(await adById(AD(2))).toMatchObject({
      status: 'inactive',
      network: 'youtube',
      firstSeenAt: '2026-06-01T00:00:00.000Z',
      lastSeenAt: '2026-11-10T00:00:00.000Z',
      media: { type: 'video', format: 'video' },
      reach: { value: 1500, lowerBound: 1000, upperBound: 2000 },
      audience: { mainCountry: 'DE', countries: [{ countryCode: 'DE', share: 1 }], remarketing: false, interest: true },
    });
    expect(await adById(AD(3))).toMatchObject({
      status: 'active',
      network: 'other',
      media: { type: 'image', format: 'text' },
      advertiser: { id: AR(2), name: 'Fjord Outdoor AS', liveAds: { all: 2, search: 0, shopping: 0, maps: 1, youtube: 0, other: 1 } },
      reach: { value: 0, lowerBound: 0, upperBound: 0 },
      audience: { mainCountry: 'NO', countries: [{ countryCode: 'NO', share: 0.5 }, { countryCode: 'US', share: 0.5 }], remarketing: false, interest: false },
    });
    expect(await adById(AD(6))).toMatchObject({
      status: 'active',
      network: 'maps', // as many impressions as Search in TR, and listed in GR too
      firstSeenAt: '2026-09-01T00:00:00.000Z',
      lastSeenAt: '2026-11-22T00:00:00.000Z',
      media: { format: 'text' },
      reach: { value: 150, lowerBound: 100, upperBound: 200 },
      audience: { mainCountry: 'TR', countries: [{ countryCode: 'TR', share: 1 }, { countryCode: 'GR', share: 0 }] },
    });
  });

  it('maps the CSV rows: 3 days since last shown is inactive, 2 is active', async () => {
    expect(await adById(AD(11))).toMatchObject({
      status: 'inactive',
      network: 'youtube',
      media: { type: 'image', format: 'image' },
      reach: { value: 2500, lowerBound: 2000, upperBound: 3000 },
      audience: { mainCountry: 'IT', remarketing: true, interest: false },
    });
    expect(await adById(AD(13))).toMatchObject({
      status: 'active',
      network: 'youtube',
      firstSeenAt: '2026-10-10T00:00:00.000Z',
      lastSeenAt: '2026-11-20T00:00:00.000Z',
      media: { type: 'video', format: 'video' },
      advertiser: { id: AR(3), name: 'Velo Nord', liveAds: { all: 1, search: 0, shopping: 0, maps: 0, youtube: 1, other: 0 } },
      reach: { value: 4750, lowerBound: 4000, upperBound: 5500 },
      audience: { mainCountry: 'ES', countries: [{ countryCode: 'ES', share: 0.7368 }, { countryCode: 'PT', share: 0.2632 }], remarketing: false, interest: true },
    });
  });

  it('is filtered by the public query: status, network, audience country, reach, advertiser name', async () => {
    const ids = async (body: unknown) => rows(await query(body)).map((ad) => ad.id).sort();
    expect(await ids({})).toEqual([AD(1), AD(11), AD(13), AD(2), AD(3), AD(6)].sort());
    expect(await ids({ status: 'active' })).toEqual([AD(1), AD(13), AD(3), AD(6)].sort());
    expect(await ids({ networks: ['youtube'] })).toEqual([AD(11), AD(13), AD(2)].sort());
    expect(await ids({ audienceCountries: { include: ['NO', 'TR'] } })).toEqual([AD(3), AD(6)].sort());
    expect(await ids({ minReach: 2000 })).toEqual([AD(1), AD(11), AD(13)].sort());
    expect(await ids({ search: ['fjord'] })).toEqual([AD(3), AD(6)].sort());
  });

  it('changes nothing when the same files are imported again', async () => {
    const before = await checksums(t.db.pool, GOOGLE_TABLES);
    expect(await run(JSONL)).toEqual({ ...jsonl, inserted: 0, updated: 0 });
    expect(await run(CSV)).toEqual({ ...csv, inserted: 0, updated: 0 });
    expect(await checksums(t.db.pool, GOOGLE_TABLES)).toEqual(before);
  });

  it('updates the changed ads and recomputes the live ads of the advertisers they leave and join', async () => {
    const lines = (await readFile(JSONL, 'utf8')).trim().split('\n');
    const first = JSON.parse(lines[0]);
    for (const region of first.region_stats) region.last_shown = '2026-11-01'; // stopped
    const sixth = JSON.parse(lines[6]);
    Object.assign(sixth, { advertiser_id: AR(1), advertiser_disclosed_name: 'Aurora Glow' }); // moves to Aurora Glow
    lines[0] = JSON.stringify(first);
    lines[6] = JSON.stringify(sixth);
    const changed = path.join(scratch, 'changed.ndjson');
    await writeFile(changed, lines.join('\n'));
    expect(await run(changed)).toMatchObject({ read: 7, inserted: 0, updated: 2, skipped: 3 });
    expect(await adById(AD(1))).toMatchObject({ status: 'inactive', lastSeenAt: '2026-11-01T00:00:00.000Z' });
    expect((await adById(AD(6)))!.advertiser).toMatchObject({ id: AR(1), liveAds: { all: 1, shopping: 0, maps: 1 } });
    expect((await adById(AD(3)))!.advertiser).toMatchObject({ id: AR(2), liveAds: { all: 1, maps: 0, other: 1 } });
    expect(await run(JSONL)).toMatchObject({ inserted: 0, updated: 2 });
    expect((await adById(AD(6)))!.advertiser).toMatchObject({ id: AR(2), liveAds: { all: 2, maps: 1, other: 1 } });
  });
});

describe('google-ads files', () => {
  it('reads a large file in batches of 2,000 with the position of their first record', async () => {
    const template = JSON.parse((await readFile(JSONL, 'utf8')).split('\n')[3]);
    const lines = Array.from({ length: 2100 }, (_, i) => JSON.stringify({ ...template, creative_id: `CR3${String(i).padStart(19, '0')}` }));
    lines[2050] = '{ not json';
    const file = path.join(scratch, 'large.jsonl');
    await writeFile(file, lines.join('\n') + '\n');

    const batches: Batch[] = [];
    for await (const batch of googleAds.readFile!(file)) batches.push(batch);
    expect(batches.map((batch) => [batch.offset, (batch.records as unknown[]).length])).toEqual([[0, 2000], [2000, 100]]);

    const summary = await run(file);
    expect(summary).toMatchObject({ read: 2100, inserted: 2099, updated: 0, skipped: 1 });
    expect(summary.errors).toEqual([{ file, position: 2050, reason: expect.stringMatching(/^not JSON: /) }]);
    const { rows: [advertiser] } = await t.db.pool.query(`SELECT "liveAdsAll", "liveAdsOther" FROM google_advertisers WHERE id = $1`, [AR(2)]);
    expect(advertiser).toEqual({ liveAdsAll: 2101, liveAdsOther: 2100 });
  });

  it('reads a directory of exports, a JSON array, and refuses a CSV without region_stats for the whole file', async () => {
    const dir = path.join(scratch, 'exports');
    await mkdir(dir);
    await cp(JSONL, path.join(dir, 'a.jsonl'));
    await cp(CSV, path.join(dir, 'b.csv'));
    const lines = (await readFile(JSONL, 'utf8')).trim().split('\n');
    const array = [JSON.parse(lines[0]), { ...JSON.parse(lines[1]), ad_format_type: 'GIF' }];
    await writeFile(path.join(dir, 'c.json'), JSON.stringify(array, null, 2));
    await writeFile(path.join(dir, 'd.csv'), 'advertiser_id,creative_id,ad_format_type\nAR1,CR1,TEXT\n');
    await writeFile(path.join(dir, 'ignored.txt'), 'not imported');
    const summary = await run(dir);
    expect(summary).toMatchObject({ read: 7 + 4 + 2, inserted: 0, skipped: 3 + 2 + 1 });
    expect(positions(summary)).toEqual([['a.jsonl', 2], ['a.jsonl', 4], ['a.jsonl', 5], ['b.csv', 1], ['b.csv', 3], ['c.json', 1], ['d.csv', null]]);
    expect(summary.errors.at(-1)!.reason).toMatch(/no region_stats column/);
    expect(summary.errors.at(-2)!.reason).toBe('ad_format_type must be one of TEXT, IMAGE, VIDEO, got "GIF"');
  });
});

describe('cli import google-ads', () => {
  it('imports an export and names google-ads among the formats', async () => {
    const harness = await createCliHarness();
    try {
      const res = await harness.cli('import', 'google-ads', CSV, '--as-of', AS_OF.toISOString());
      expect(res.code, res.stdout).toBe(0);
      expect(res.json).toMatchObject({ read: 4, inserted: 2, updated: 0, skipped: 2 });
      const { rows: [advertiser] } = await harness.db.pool.query(`SELECT name, "liveAdsAll", "liveAdsYoutube" FROM google_advertisers`);
      expect(advertiser).toEqual({ name: 'Velo Nord', liveAdsAll: 1, liveAdsYoutube: 1 });
      const unknown = await harness.cli('import', 'google-sheets', CSV);
      expect(unknown.code).not.toBe(0);
      expect(unknown.stdout).toMatch(/google-ads/);
    } finally {
      await harness.close();
    }
  });
});
