import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importData, type ImportSummary } from '../../src/data/import/index.js';
import { parseJson } from '../../src/data/import/json.js';
import { createTestApp, type HttpResult, type TestApp } from '../support/app.js';

// The importers against hand-made files in the real formats (test/fixtures), read back through the REST routes.
//   meta-ads/page-1.json  7 records: 001 (EU, FR > DE, running) and 002 (same creative, stopped) of Aurora Glow;
//                         003 (ES > PT, stop time in the future, low reach), 0077 (a 17-digit numeric id, US, stopped)
//                         of Fjord Outdoor; at positions 3, 4, 5 a bad date, a missing id and a wrong type.
//   meta-ads/page-2.json  006 (IT) of Aurora Glow.
//   tiktok-ads/query-1.json  5 records: two ads of Maison Laine (64-bit numeric ids), one of Velo Nord; at positions
//                         2 and 3 a bad date and a missing id.

const fixtures = path.resolve(import.meta.dirname, '../fixtures');
const META_DIR = path.join(fixtures, 'meta-ads');
const PAGE_1 = path.join(META_DIR, 'page-1.json');
const PAGE_2 = path.join(META_DIR, 'page-2.json');
const TIKTOK = path.join(fixtures, 'tiktok-ads/query-1.json');
const AS_OF = new Date('2026-11-22T10:00:00Z');
const TABLES = ['advertisers', 'ads', 'ad_reach_days', 'ad_demography', 'tiktok_profiles', 'tiktok_items'];

let t: TestApp;
let key: string;
let scratch: string;
beforeAll(async () => {
  t = await createTestApp();
  ({ apiKey: key } = await t.newKey());
  scratch = await mkdtemp(path.join(tmpdir(), 'mi-import-'));
});
afterAll(async () => {
  await t?.close();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

const get = (route: string) => t.rest('GET', route, { key });
const query = (body: unknown) => t.rest('POST', '/ads/query', { key, body });
const ids = (res: HttpResult): string[] => {
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.map((row: { id: string }) => row.id).sort();
};
const run = (format: 'meta-ads' | 'tiktok-ads', ...paths: string[]) => importData(t.db.pool, format, paths, { asOf: AS_OF });

/** One digest per table of every row's text, so any changed value shows. */
async function checksums(): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const table of TABLES) {
    const { rows } = await t.db.pool.query<{ sum: string | null; n: number }>(
      `SELECT md5(string_agg(r::text, '|' ORDER BY r::text)) AS sum, count(*)::int AS n FROM "${table}" r`,
    );
    out[table] = `${rows[0].n}:${rows[0].sum}`;
  }
  return out;
}

const positions = (summary: ImportSummary) => summary.errors.map((e) => [path.basename(e.file), e.position]);

describe('import meta-ads', () => {
  let first: ImportSummary;
  beforeAll(async () => {
    first = await run('meta-ads', META_DIR);
  });

  it('imports a directory of ads_archive pages and reports each bad record with file and position', () => {
    expect(first).toMatchObject({ read: 8, inserted: 5, updated: 0, skipped: 3 });
    expect(positions(first)).toEqual([['page-1.json', 3], ['page-1.json', 4], ['page-1.json', 5]]);
    expect(first.errors[0].file).toBe(PAGE_1);
    expect(first.errors.map((e) => e.reason)).toEqual([
      expect.stringMatching(/ad_delivery_start_time is not a valid date/),
      'id is missing',
      'ad_creative_bodies must be an array of strings',
    ]);
  });

  it('maps an EU ad: reach, breakdown countries, main country, targeting, duplicate group, page', async () => {
    const res = await get('/ads/facebook_120210000000001');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const ad = res.body.data;
    expect(ad).toMatchObject({
      id: 'facebook_120210000000001',
      platform: 'facebook',
      status: 'active',
      createdAt: '2026-10-02T00:00:00.000Z',
      firstSeenAt: '2026-10-03T00:00:00.000Z',
      lastSeenAt: null, // an active duplicate group
      media: { type: 'unknown', thumbnailUrl: null, mediaUrl: null },
      content: {
        title: 'Aurora Serum',
        body: 'Aurora serum launch: glow all winter, free shipping across Europe',
        ctaDescription: 'Vitamin C serum, 30 ml',
        ctaLinkDescription: 'auroraglow.eu',
        landingPageDomain: 'auroraglow.eu',
        landingPageUrl: null,
      },
      // No earlier snapshot and running for more than 30 days: no gain is known yet.
      metrics: { reach: 15000, aggregatedReach: 19000, duplicates: 2, reachDelta1d: 0, reachDelta7d: 0, reachDelta30d: 0 },
      audience: { targetedCountries: ['DE', 'FR'], mainCountry: 'FR', gender: 'all', ageMin: 18, ageMax: 65 },
      flags: { isEuAd: true, isLowReach: false },
      advertiser: { id: '100200300400500', name: 'Aurora Glow', liveAdsCount: 2, totalReach: 21500, countriesCount: 3 },
      links: { adLibraryUrl: 'https://www.facebook.com/ads/library/?id=120210000000001' },
    });
    expect(ad.collationId).toMatch(/^col_[0-9a-f]{16}$/);

    // The stopped member of the group answers with the lead.
    const member = await get('/ads/facebook_120210000000002');
    expect(member.body.data.resolvedFrom).toEqual({ requestedId: 'facebook_120210000000002', reason: 'duplicate_group' });
    expect(member.body.data.id).toBe('facebook_120210000000001');
  });

  it('keeps a stop time in the future active, reads region targeting and a women-only age band', async () => {
    const { body } = await get('/ads/facebook_120210000000003');
    expect(body.data).toMatchObject({
      status: 'active',
      lastSeenAt: '2026-11-22T00:00:00.000Z',
      content: { landingPageDomain: 'fjordoutdoor.es' },
      metrics: { reach: 900, aggregatedReach: 900, duplicates: 1 },
      audience: { targetedCountries: ['ES', 'PT'], mainCountry: 'ES', gender: 'women', ageMin: 25, ageMax: 44 },
      flags: { isEuAd: true, isLowReach: true },
    });
    expect(body.data.collationId ?? null).toBeNull(); // a group of one
  });

  it('keeps a 17-digit numeric id exact and maps a non-EU stopped ad', async () => {
    const { status, body } = await get('/ads/facebook_12021000000000077');
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body.data).toMatchObject({
      status: 'inactive',
      lastSeenAt: '2025-06-30T00:00:00.000Z',
      metrics: { reach: 0 },
      audience: { targetedCountries: ['US'], mainCountry: null, gender: 'all', ageMin: null, ageMax: null },
      flags: { isEuAd: false, isLowReach: true },
      advertiser: { id: '200300400500600', name: 'Fjord Outdoor', liveAdsCount: 1, totalReach: 900, countriesCount: 3 },
    });
  });

  it('is found by ad copy search, one row per duplicate group', async () => {
    expect(ids(await get('/ads?search=aurora'))).toEqual(['facebook_120210000000001', 'facebook_120210000000006']);
    expect(ids(await get('/ads?search=fjord'))).toEqual(['facebook_12021000000000077', 'facebook_120210000000003']);
    expect(ids(await get('/ads?search=serum&status=inactive'))).toEqual([]);
  });

  it('is filtered by targeted and main countries in POST /v1/ads/query', async () => {
    expect(ids(await query({ adCountries: { include: ['PT'] } }))).toEqual(['facebook_120210000000003']);
    expect(ids(await query({ adCountries: { include: ['US'] } }))).toEqual(['facebook_12021000000000077']);
    expect(ids(await query({ mainCountries: ['FR'] }))).toEqual(['facebook_120210000000001']);
    expect(ids(await query({ mainCountries: ['ES', 'IT'] }))).toEqual(['facebook_120210000000003', 'facebook_120210000000006']);
    expect(ids(await query({ hideNonEuUkAds: true, adCountries: { exclude: ['FR'] } }))).toEqual(['facebook_120210000000003', 'facebook_120210000000006']);
  });

  it('stores the breakdown, the day snapshot and the extra Ad Library fields', async () => {
    const { rows: cells } = await t.db.pool.query(
      `SELECT country, "ageRange", gender, reach::int FROM ad_demography WHERE "adId" = 'facebook_120210000000001' ORDER BY 1, 2, 3`,
    );
    expect(cells).toHaveLength(9);
    expect(cells[0]).toEqual({ country: 'DE', ageRange: '25-34', gender: 'female', reach: 2100 });
    const { rows: days } = await t.db.pool.query(`SELECT "adId", date::text, reach::int FROM ad_reach_days ORDER BY 1`);
    expect(days).toHaveLength(5);
    expect(days.every((d) => d.date === '2026-11-22')).toBe(true);
    const { rows } = await t.db.pool.query(
      `SELECT languages, "publisherPlatforms", beneficiary, payer, "positionInPage", "currentRank" FROM ads WHERE id = 'facebook_120210000000001'`,
    );
    expect(rows[0]).toEqual({ languages: ['en', 'fr'], publisherPlatforms: ['facebook', 'instagram'], beneficiary: 'Aurora Glow', payer: 'Aurora Glow SAS', positionInPage: 2, currentRank: 1 });
  });

  it('changes nothing when the same files are imported again', async () => {
    const before = await checksums();
    const again = await run('meta-ads', META_DIR);
    expect(again).toEqual({ ...first, inserted: 0, updated: 0 });
    expect(await checksums()).toEqual(before);
  });

  it('updates only the records whose values changed, and the page figures with them', async () => {
    const page = JSON.parse(await readFile(PAGE_2, 'utf8'));
    page.data[0].eu_total_reach = 3000;
    const changed = path.join(scratch, 'page-2-changed.json');
    await writeFile(changed, JSON.stringify(page));
    expect(await run('meta-ads', PAGE_1, changed)).toMatchObject({ read: 8, inserted: 0, updated: 1, skipped: 3 });
    const { body } = await get('/ads/facebook_120210000000006');
    expect(body.data.metrics.reach).toBe(3000);
    expect(body.data.advertiser.totalReach).toBe(22000);
    expect(body.data.metrics).toMatchObject({ reachDelta1d: 0, reachDelta7d: 0, reachDelta30d: 3000 }); // started 12 days ago
  });

  it('never half-applies a file: a database error rolls the whole file back and the next file still imports', async () => {
    // A real failure in the middle of the file: pages and ads are written, then the breakdown insert fails.
    await t.db.pool.query(`CREATE FUNCTION fail_on_pt() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.country = 'PT' THEN RAISE EXCEPTION 'injected failure'; END IF; RETURN NEW; END $$`);
    await t.db.pool.query(`CREATE TRIGGER fail_on_pt BEFORE INSERT OR UPDATE ON ad_demography FOR EACH ROW EXECUTE FUNCTION fail_on_pt()`);
    try {
      const page = parseJson(await readFile(PAGE_1, 'utf8')) as { data: Record<string, any>[] }; // keeps the 17-digit id exact
      page.data[0].eu_total_reach = 99999; // an update of 001
      page.data[2].age_country_gender_reach_breakdown[1].age_gender_breakdowns[0].female = 251; // PT changes: the trigger fires
      page.data.push({ ...page.data[6], id: '120210000000008', ad_creative_bodies: ['A new ad in the failing file'] });
      const failing = path.join(scratch, 'a-failing.json');
      await writeFile(failing, JSON.stringify(page));
      const other = JSON.parse(await readFile(PAGE_2, 'utf8'));
      other.data[0] = { ...other.data[0], id: '120210000000009', age_country_gender_reach_breakdown: [] };
      const good = path.join(scratch, 'b-good.json');
      await writeFile(good, JSON.stringify(other));

      const before = await checksums();
      const summary = await run('meta-ads', failing);
      expect(summary).toMatchObject({ read: 8, inserted: 0, updated: 0, skipped: 8 });
      expect(summary.errors.at(-1)).toEqual({ file: failing, position: null, reason: expect.stringMatching(/rolled back: .*injected failure/) });
      expect(await checksums()).toEqual(before);

      const both = await run('meta-ads', scratch.concat('/a-failing.json'), good);
      expect(both).toMatchObject({ read: 9, inserted: 1, updated: 0, skipped: 8 });
      expect((await get('/ads/facebook_120210000000009')).status).toBe(200);
      expect((await get('/ads/facebook_120210000000008')).status).toBe(404);
      expect((await get('/ads/facebook_120210000000001')).body.data.metrics.reach).toBe(15000);
    } finally {
      await t.db.pool.query('DROP TRIGGER fail_on_pt ON ad_demography');
      await t.db.pool.query('DROP FUNCTION fail_on_pt()');
    }
  });
});

describe('import tiktok-ads', () => {
  let first: ImportSummary;
  beforeAll(async () => {
    first = await run('tiktok-ads', TIKTOK);
  });

  it('imports an ad query response and reports each bad record', () => {
    expect(first).toMatchObject({ read: 5, inserted: 3, updated: 0, skipped: 2 });
    expect(positions(first)).toEqual([['query-1.json', 2], ['query-1.json', 3]]);
    expect(first.errors.map((e) => e.reason)).toEqual([expect.stringMatching(/ad.first_shown_date is not a valid date/), 'ad.id is missing']);
  });

  it('serves a video ad by its 64-bit id, exact to the last digit', async () => {
    const res = await get('/tiktok/library/tiktok_7301234567890123456');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({
      id: 'tiktok_7301234567890123456',
      tiktokId: '7301234567890123456',
      type: 'ad',
      status: 'active',
      publishedAt: '2026-10-01T00:00:00.000Z',
      media: { type: 'video', videoUrl: 'https://cdn.example.com/tt/7301234567890123456.mp4', thumbnailUrl: 'https://cdn.example.com/tt/7301234567890123456.jpg' },
      metrics: { views: 30000, rank: 2 },
      profile: { id: '7012345678901234567', name: 'Maison Laine', handle: 'business_7012345678901234567', accountType: 'business', totalTikToks: 2, views: 1030000, percentAds: 100 },
      source: { sourceType: 'commercial_content_library', tiktokPageId: '7012345678901234567' },
    });
    expect((await get('/tiktok/library/7301234567890123456')).body.data.id).toBe('tiktok_7301234567890123456');
  });

  it('maps image ads, rounded reach ranges, countries and the payer', async () => {
    const carousel = (await get('/tiktok/library/tiktok_7301234567890123457')).body.data;
    expect(carousel).toMatchObject({ status: 'inactive', media: { type: 'carousel', imageCount: 2 }, metrics: { views: 1000000, rank: 1 } });
    const single = (await get('/tiktok/library/tiktok_7309999999999999999')).body.data;
    expect(single).toMatchObject({ status: 'active', media: { type: 'image' }, metrics: { views: 0 }, profile: { name: 'Velo Nord' } });
    const { rows } = await t.db.pool.query(`SELECT id, countries, "paidForBy", "lastSeenAt" FROM tiktok_items ORDER BY id`);
    expect(rows.map((r) => [r.id, r.countries, r.paidForBy, r.lastSeenAt.toISOString().slice(0, 10)])).toEqual([
      ['7301234567890123456', ['FR', 'IT'], 'Maison Laine SAS', '2026-11-20'],
      ['7301234567890123457', ['DE'], 'Maison Laine SAS', '2025-04-15'],
      ['7309999999999999999', [], 'Velo Nord GmbH', '2026-11-22'],
    ]);
  });

  it('changes nothing when the same file is imported again', async () => {
    const before = await checksums();
    expect(await run('tiktok-ads', TIKTOK)).toEqual({ ...first, inserted: 0, updated: 0 });
    expect(await checksums()).toEqual(before);
  });
});

describe('import: the same record twice in one file', () => {
  it('imports the later one and reports the earlier one as replaced', async () => {
    const page = JSON.parse(await readFile(PAGE_2, 'utf8'));
    const newer = { ...page.data[0], id: '120210000000010', ad_creative_bodies: ['Twice in one page'], eu_total_reach: 700 };
    const older = { ...newer, eu_total_reach: 600 };
    const file = path.join(scratch, 'twice.json');
    await writeFile(file, JSON.stringify({ data: [older, newer] }));
    const summary = await run('meta-ads', file);
    expect(summary).toEqual({
      read: 2, inserted: 1, updated: 0, skipped: 1,
      errors: [{ file, position: 0, reason: 'duplicate of the record at position 1, which replaces it' }],
    });
    expect((await get('/ads/facebook_120210000000010')).body.data.metrics.reach).toBe(700);
  });
});

describe('import: unreadable files', () => {
  it('reports a missing path, a file that is not JSON and a JSON file of another shape, each for its file', async () => {
    const dir = path.join(scratch, 'broken');
    await cp(META_DIR, dir, { recursive: true });
    await writeFile(path.join(dir, 'a-not-json.json'), '{ "data": [ { "id": "1" ');
    await writeFile(path.join(dir, 'b-other.json'), JSON.stringify({ products: [] }));
    await writeFile(path.join(dir, 'ignored.txt'), 'not imported');
    const before = await checksums();
    const summary = await run('meta-ads', path.join(scratch, 'missing.json'), dir);
    expect(summary).toMatchObject({ read: 8, inserted: 0, updated: 1, skipped: 3 }); // page-2 has reach 2500 again
    expect(summary.errors.slice(0, 3)).toEqual([
      { file: path.join(scratch, 'missing.json'), position: null, reason: 'cannot read: ENOENT' },
      { file: path.join(dir, 'a-not-json.json'), position: null, reason: expect.stringMatching(/^not JSON/) },
      { file: path.join(dir, 'b-other.json'), position: null, reason: 'not an ads_archive page: expected { "data": [ … ] }' },
    ]);
    expect(positions(summary).slice(3)).toEqual([['page-1.json', 3], ['page-1.json', 4], ['page-1.json', 5]]);
    expect(await checksums()).not.toEqual(before);
    expect(await run('tiktok-ads', path.join(dir, 'page-1.json'))).toMatchObject({
      read: 0,
      errors: [{ position: null, reason: 'not an ad query response: expected { "data": { "ads": [ … ] } }' }],
    });
  });
});
