import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importData } from '../../src/data/import/index.js';
import { metaAd, type MetaAdRecord } from '../sources/fakes/meta.js';
import { createTestApp, type TestApp } from '../support/app.js';

// The Meta import writes the figures derived from many ads (duplicate groups, positions and ranks in a page, the page
// totals) incrementally, for the groups and pages a batch touches only, and skips an ad whose record is the one
// stored. These tests change ads in every way a page can (reach, copy that moves an ad to another duplicate group, an
// ad moving to another page, a stop, new ads), split pages across files, and compare what is stored with the same
// figures computed from scratch over every ad.

let t: TestApp;
let scratch: string;
let files = 0;
beforeAll(async () => {
  t = await createTestApp();
  scratch = await mkdtemp(path.join(tmpdir(), 'mi-meta-incremental-'));
});
afterAll(async () => {
  await t?.close();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

const day = (n: number) => new Date(Date.UTC(2026, 10, 20 + n, 9));

/** Writes `records` as ads_archive pages of `size` records and imports them in one run at `asOf`. */
async function importPages(records: MetaAdRecord[], asOf: Date, size = 35) {
  const paths: string[] = [];
  for (let i = 0; i < records.length; i += size) {
    const file = path.join(scratch, `page-${String(++files).padStart(4, '0')}.json`);
    await writeFile(file, JSON.stringify({ data: records.slice(i, i + size) }));
    paths.push(file);
  }
  return importData(t.db.pool, 'meta-ads', paths, { asOf });
}

/** The stored figures that differ from the same figures computed over every ad (an empty list when all agree). */
async function figuresThatDisagree(asOf: Date): Promise<unknown[]> {
  const ads = await t.db.pool.query(
    `WITH x AS (
       SELECT "id", "duplicates", "aggregatedReach", "isGroupLead", "positionInPage", "currentRank",
              count(*) OVER g AS n, sum("reach") OVER g AS total,
              row_number() OVER (g ORDER BY ("mediaUrl" IS NOT NULL) DESC, "reach" DESC, "id" COLLATE "C") = 1 AS lead,
              row_number() OVER (PARTITION BY "advertiserId" ORDER BY "firstSeenAt" DESC, "id" COLLATE "C") AS position,
              CASE WHEN "status" = 'active' THEN row_number() OVER (
                PARTITION BY "advertiserId", "status" = 'active' ORDER BY "reachDelta7d" DESC, "reach" DESC, "id" COLLATE "C") END AS rank
       FROM "ads" WINDOW g AS (PARTITION BY "collationId"))
     SELECT * FROM x WHERE ("duplicates", "aggregatedReach", "isGroupLead", "positionInPage", "currentRank") IS DISTINCT FROM (n, total, lead, position, rank)`,
  );
  const pages = await t.db.pool.query(
    `SELECT v."id", v."liveAdsCount", v."totalReach", v."reach30d", f.* FROM "advertisers" v
     LEFT JOIN LATERAL (SELECT count(*) FILTER (WHERE a."status" = 'active')::int AS live, coalesce(sum(a."reach"), 0)::int8 AS total,
                               coalesce(sum(a."reachDelta30d"), 0)::int8 AS r30 FROM "ads" a WHERE a."advertiserId" = v."id") f ON true
     WHERE (v."liveAdsCount", v."totalReach", v."reach30d") IS DISTINCT FROM (f.live, f.total, f.r30)`,
  );
  const snapshots = await t.db.pool.query(
    `SELECT a."id", a."currentRank", r."rank" FROM "ads" a JOIN "ad_reach_days" r ON r."adId" = a."id" AND r."date" = $1::date
     WHERE r."rank" IS DISTINCT FROM a."currentRank" OR r."reach" <> a."reach"`,
    [asOf.toISOString().slice(0, 10)],
  );
  return [...ads.rows, ...pages.rows, ...snapshots.rows];
}

async function adRows(): Promise<string> {
  const { rows } = await t.db.pool.query<{ sum: string }>(`SELECT md5(string_agg(a::text, '|' ORDER BY a."id")) AS sum FROM "ads" a`);
  return rows[0].sum;
}

const base = Array.from({ length: 120 }, (_, i) => metaAd(i));

describe('meta-ads import: figures written incrementally equal the figures recomputed over every ad', () => {
  it('after a first import in pages that split the advertisers across files', async () => {
    const summary = await importPages(base, day(0));
    expect(summary).toMatchObject({ read: 120, inserted: 120, updated: 0, skipped: 0 });
    expect(await figuresThatDisagree(day(0))).toEqual([]);
  });

  it('after a day of changes: reach, copy, a move to another page, a stop, new ads', async () => {
    const moved = metaAd(45); // to the first page
    const changed = base.map((record, i) => {
      if (i % 7 === 0) return { ...record, eu_total_reach: Number(record.eu_total_reach) + 5000 + i };
      if (i === 3) return { ...record, ad_creative_bodies: base[8].ad_creative_bodies, ad_creative_link_titles: base[8].ad_creative_link_titles,
        ad_creative_link_descriptions: base[8].ad_creative_link_descriptions }; // joins 8's duplicate group
      if (i === 45) return { ...moved, page_id: base[0].page_id, page_name: base[0].page_name };
      if (i === 61) return { ...record, ad_delivery_stop_time: '2026-11-20' };
      return record;
    });
    const added = Array.from({ length: 15 }, (_, k) => metaAd(200 + k * 3, { page_id: base[k * 8].page_id, page_name: base[k * 8].page_name,
      ad_delivery_start_time: '2026-11-21' }));
    const summary = await importPages([...changed.reverse(), ...added], day(1), 23);
    expect(summary.inserted).toBe(15);
    expect(summary.updated).toBeGreaterThanOrEqual(20);
    expect(await figuresThatDisagree(day(1))).toEqual([]);
    const { rows } = await t.db.pool.query(`SELECT "advertiserId", "status" FROM "ads" WHERE "id" IN ('facebook_${base[45].id}', 'facebook_${base[61].id}') ORDER BY "id"`);
    expect(rows).toEqual([{ advertiserId: String(base[0].page_id), status: 'active' }, { advertiserId: String(base[61].page_id), status: 'inactive' }]);
  });
});

describe('meta-ads import: an ad whose record is the one stored', () => {
  const today = day(2);
  let records: MetaAdRecord[];
  beforeAll(async () => {
    records = base.slice(0, 40).map((record, i) => (i === 5 ? { ...record, ad_delivery_stop_time: '2026-11-22T15:00:00+0000' } : record));
    await importPages(records, today);
  });

  it('is unchanged when only its snapshot URL (which carries the caller token) differs, and nothing is written', async () => {
    const before = await adRows();
    const again = await importPages(records.map((record) => ({ ...record, ad_snapshot_url: `${record.ad_snapshot_url}&access_token=other` })), today);
    expect(again).toMatchObject({ read: 40, inserted: 0, updated: 0 });
    expect(await adRows()).toBe(before);
  });

  it('is written again when its stop time has passed since, though the record is the same', async () => {
    const later = new Date(Date.UTC(2026, 10, 22, 18));
    const ranks = async () => (await t.db.pool.query(`SELECT "id", "status", "currentRank" FROM "ads" WHERE "advertiserId" = $1 ORDER BY "id"`, [String(records[5].page_id)])).rows;
    const before = await ranks();
    const again = await importPages(records, later);
    const after = await ranks();
    // The ad itself, and the ads of the run in its page whose rank among the active ones moved up (the page also has ads
    // of the other tests' runs: their ranks move too, but they are not records of this run).
    const ofTheRun = new Set(records.map((record) => `facebook_${record.id}`));
    const moved = after.filter((row, i) => ofTheRun.has(row.id) && (row.currentRank !== before[i].currentRank || row.status !== before[i].status)).length;
    expect(after.find((row) => row.id === `facebook_${records[5].id}`)?.status).toBe('inactive');
    expect(moved).toBeGreaterThan(1);
    expect(again).toMatchObject({ inserted: 0, updated: moved });
    expect(await figuresThatDisagree(later)).toEqual([]);
  });

  it('stored before its fingerprint was kept: compared by its values, counted unchanged, its fingerprint kept for the next run', async () => {
    const later = new Date(Date.UTC(2026, 10, 22, 18));
    await t.db.pool.query(`UPDATE "ads" SET "sourceHash" = NULL WHERE "id" = ANY($1::text[])`, [records.map((record) => `facebook_${record.id}`)]);
    const again = await importPages(records, later);
    expect(again).toMatchObject({ inserted: 0, updated: 0 });
    const { rows } = await t.db.pool.query(`SELECT count(*)::int AS n FROM "ads" WHERE "id" = ANY($1::text[]) AND "sourceHash" IS NOT NULL`, [
      records.map((record) => `facebook_${record.id}`),
    ]);
    expect(rows[0].n).toBe(40);
  });
});
