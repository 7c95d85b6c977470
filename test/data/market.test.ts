import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MARKET_TABLES, seedMarket } from '../../src/data/market.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';

const AS_OF = '2025-06-01';
const options = { scale: 'tiny' as const, seed: 42, asOf: new Date(`${AS_OF}T00:00:00Z`) };

let a: TestDatabase;
let b: TestDatabase;
let counts: Record<string, number>;
const progress: { table: string; done: number; total: number }[] = [];

/** Rows of a query that should return none; returned so a failure shows the offenders. */
async function offenders(db: TestDatabase, sql: string, params: unknown[] = []): Promise<unknown[]> {
  return (await db.pool.query(`${sql} LIMIT 5`, params)).rows;
}

async function one<T = Record<string, unknown>>(db: TestDatabase, sql: string, params: unknown[] = []): Promise<T> {
  return (await db.pool.query(sql, params)).rows[0] as T;
}

const fingerprint = (db: TestDatabase, table: string, key: string) =>
  one<{ md5: string }>(db, `SELECT md5(string_agg(t::text, ',' ORDER BY ${key})) AS md5 FROM "${table}" t`).then((row) => row.md5);

const KEYS: Record<string, string> = {
  advertisers: 'id',
  shops: 'id',
  advertiser_shops: '"advertiserId", "shopId"',
  ads: 'id',
  ad_transcripts: '"adId"',
  ad_hooks: '"adId"',
  ad_reach_days: '"adId", date',
  advertiser_metric_days: '"advertiserId", date',
};

beforeAll(async () => {
  [a, b] = await Promise.all([createTestDatabase(), createTestDatabase()]);
  ({ counts } = await seedMarket(a.pool, { ...options, onProgress: (event) => progress.push(event) }));
  await seedMarket(b.pool, options);
}, 120_000);

afterAll(async () => {
  await Promise.all([a?.dispose(), b?.dispose()]);
});

describe('seedMarket (tiny)', () => {
  it('fills every market table at the tiny scale and reports progress', () => {
    expect(counts.ads).toBe(3000);
    expect(counts.advertisers).toBe(600);
    expect(counts.shops).toBe(1000);
    for (const table of MARKET_TABLES) {
      expect(counts[table], table).toBeGreaterThan(0);
      const last = progress.filter((event) => event.table === table).at(-1);
      expect(last, table).toEqual({ table, done: counts[table], total: counts[table] });
    }
  });

  it('is deterministic for the same scale, seed and asOf', async () => {
    for (const table of MARKET_TABLES) {
      expect(await fingerprint(b, table, KEYS[table]), table).toBe(await fingerprint(a, table, KEYS[table]));
    }
  });

  it('refuses to seed over existing ads unless replace is set', async () => {
    await expect(seedMarket(b.pool, options)).rejects.toThrow(/already hold data.*replace/);
    const replaced = await seedMarket(b.pool, { ...options, seed: 7, replace: true });
    expect(replaced.counts.ads).toBe(3000);
    expect(await fingerprint(b, 'ads', 'id')).not.toBe(await fingerprint(a, 'ads', 'id'));
  }, 60_000);

  it('uses Facebook-shaped identifiers', async () => {
    expect(await offenders(a, `SELECT id FROM advertisers WHERE id !~ '^[1-9][0-9]{14,15}$'`)).toEqual([]);
    expect(await offenders(a, `SELECT id FROM ads WHERE id !~ '^facebook_[1-9][0-9]{14,16}$' OR "collationId" !~ '^col_[0-9a-f]+$'`)).toEqual([]);
    expect(await offenders(a, `SELECT id FROM shops WHERE id::text !~ '^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$'`)).toEqual([]);
  });

  it('forms duplicate groups with one lead and the group figures on every member', async () => {
    expect(
      await offenders(
        a,
        `SELECT "collationId" FROM ads GROUP BY 1
         HAVING count(*) FILTER (WHERE "isGroupLead") <> 1 OR count(DISTINCT "advertiserId") <> 1
           OR min(duplicates) <> count(*) OR max(duplicates) <> count(*)
           OR min("aggregatedReach") <> sum(reach) OR max("aggregatedReach") <> sum(reach)`,
      ),
    ).toEqual([]);
    // The lead has the highest reach among members with media (or among all members when none has media).
    expect(
      await offenders(
        a,
        `SELECT lead.id FROM ads lead JOIN ads m ON m."collationId" = lead."collationId"
         WHERE lead."isGroupLead" AND (
           (lead."mediaUrl" IS NULL AND m."mediaUrl" IS NOT NULL)
           OR ((lead."mediaUrl" IS NULL) = (m."mediaUrl" IS NULL) AND m.reach > lead.reach))`,
      ),
    ).toEqual([]);
    const { share } = await one<{ share: number }>(a, `SELECT avg((duplicates > 1)::int)::float8 AS share FROM ads`);
    expect(share).toBeGreaterThan(0.15);
    expect(share).toBeLessThan(0.35);
  });

  it('keeps reach series cumulative, contiguous and ending at the ad reach', async () => {
    expect(
      await offenders(a, `SELECT * FROM (SELECT "adId", reach < lag(reach) OVER (PARTITION BY "adId" ORDER BY date) AS down FROM ad_reach_days) s WHERE down`),
    ).toEqual([]);
    expect(
      await offenders(
        a,
        `SELECT a.id FROM ads a JOIN (
           SELECT "adId", min(date) AS first, max(date) AS last, count(*) AS n,
                  (array_agg(reach ORDER BY date DESC))[1] AS final FROM ad_reach_days GROUP BY 1) d ON d."adId" = a.id
         WHERE d.n <> d.last - d.first + 1 OR d.final <> a.reach
            OR d.first <> greatest((a."firstSeenAt" AT TIME ZONE 'UTC')::date, $1::date - 89)
            OR d.last <> least((a."lastSeenAt" AT TIME ZONE 'UTC')::date, $1::date)`,
        [AS_OF],
      ),
    ).toEqual([]);
    // Active ads run at asOf; stopped ones ended before it.
    expect(
      await offenders(
        a,
        `SELECT id FROM ads a WHERE (status = 'active') <> EXISTS (SELECT 1 FROM ad_reach_days d WHERE d."adId" = a.id AND d.date = $1::date)
           OR (status = 'active' AND "lastSeenAt" <> $1::timestamptz) OR "lastSeenAt" < "firstSeenAt" OR "createdAt" < "firstSeenAt"
           OR "firstSeenAt" < '2018-01-01' OR "createdAt" > $1::timestamptz`,
        [AS_OF],
      ),
    ).toEqual([]);
  });

  it('stores reach deltas equal to the snapshot differences', async () => {
    const at = (days: number) =>
      `coalesce((SELECT reach FROM ad_reach_days d WHERE d."adId" = a.id AND d.date <= $1::date - ${days} ORDER BY date DESC LIMIT 1), 0)`;
    expect(
      await offenders(
        a,
        `SELECT id, "reachDelta1d", "reachDelta7d", "reachDelta30d", s.* FROM ads a,
           LATERAL (SELECT ${at(0)} AS r0, ${at(1)} AS r1, ${at(7)} AS r7, ${at(30)} AS r30) s
         WHERE "reachDelta1d" <> r0 - r1 OR "reachDelta7d" <> r0 - r7 OR "reachDelta30d" <> r0 - r30`,
        [AS_OF],
      ),
    ).toEqual([]);
    expect(await offenders(a, `SELECT id FROM ads WHERE "isLowReach" <> (reach < 1000)`)).toEqual([]);
  });

  it('ranks ads within their page', async () => {
    expect(
      await offenders(
        a,
        `SELECT "advertiserId" FROM ads GROUP BY 1
         HAVING count(DISTINCT "positionInPage") <> count(*) OR min("positionInPage") <> 1 OR max("positionInPage") <> count(*)`,
      ),
    ).toEqual([]);
    expect(
      await offenders(
        a,
        `SELECT id FROM (
           SELECT id, "positionInPage", row_number() OVER (PARTITION BY "advertiserId" ORDER BY "firstSeenAt" DESC, id COLLATE "C") AS expected
           FROM ads) r WHERE "positionInPage" <> expected`,
      ),
    ).toEqual([]);
    // Current rank: active ads by 7-day reach gain; previous rank: the same ranking as of a week ago.
    expect(
      await offenders(
        a,
        `WITH snap AS (
           SELECT a.id, a."advertiserId", a.status, a.reach, a."reachDelta7d", a."currentRank", a."rankDelta", a."improvementPct",
                  (SELECT reach FROM ad_reach_days d WHERE d."adId" = a.id AND d.date = $1::date - 7) AS r7,
                  coalesce((SELECT reach FROM ad_reach_days d WHERE d."adId" = a.id AND d.date <= $1::date - 14 ORDER BY date DESC LIMIT 1), 0) AS r14
           FROM ads a),
         cur AS (
           SELECT id, row_number() OVER (PARTITION BY "advertiserId" ORDER BY "reachDelta7d" DESC, reach DESC, id COLLATE "C") AS rank
           FROM snap WHERE status = 'active'),
         prev AS (
           SELECT id, row_number() OVER (PARTITION BY "advertiserId" ORDER BY r7 - r14 DESC, r7 DESC, id COLLATE "C") AS rank
           FROM snap WHERE r7 IS NOT NULL)
         SELECT s.id, s."currentRank", cur.rank, s."rankDelta", prev.rank AS previous FROM snap s
           LEFT JOIN cur USING (id) LEFT JOIN prev USING (id)
         WHERE s."currentRank" IS DISTINCT FROM cur.rank
            OR s."rankDelta" IS DISTINCT FROM prev.rank - cur.rank
            OR s."improvementPct" IS DISTINCT FROM (prev.rank - cur.rank)::float8 / prev.rank * 100`,
        [AS_OF],
      ),
    ).toEqual([]);
    // Daily ranks, 1 = the day's largest increment (the first window day's increments need the day before it).
    expect(
      await offenders(
        a,
        `WITH inc AS (
           SELECT d."adId", a."advertiserId", d.date, d.rank,
                  d.reach - coalesce(lag(d.reach) OVER (PARTITION BY d."adId" ORDER BY d.date), 0) AS increment
           FROM ad_reach_days d JOIN ads a ON a.id = d."adId")
         SELECT * FROM (
           SELECT *, row_number() OVER (PARTITION BY "advertiserId", date ORDER BY increment DESC, "adId" COLLATE "C") AS expected
           FROM inc WHERE date > $1::date - 89) r
         WHERE rank <> expected`,
        [AS_OF],
      ),
    ).toEqual([]);
  });

  it('keeps page figures in line with their ads', async () => {
    expect(
      await offenders(
        a,
        `SELECT p.id FROM advertisers p LEFT JOIN (
           SELECT "advertiserId", count(*) FILTER (WHERE status = 'active') AS live, sum(reach) AS total, sum("reachDelta30d") AS r30,
                  (SELECT count(DISTINCT c) FROM ads x, unnest(x."targetedCountries") c WHERE x."advertiserId" = ads."advertiserId") AS countries
           FROM ads GROUP BY 1) s ON s."advertiserId" = p.id
         WHERE p."liveAdsCount" <> coalesce(s.live, 0) OR p."totalReach" <> coalesce(s.total, 0)
            OR p."reach30d" <> coalesce(s.r30, 0) OR p."countriesCount" <> coalesce(s.countries, 0)`,
      ),
    ).toEqual([]);
    expect(
      await offenders(
        a,
        `SELECT p.id FROM advertisers p JOIN advertiser_metric_days m ON m."advertiserId" = p.id GROUP BY p.id
         HAVING count(*) <> 90 OR max(m.date) <> $1::date
            OR (array_agg(m."facebookLikes" ORDER BY m.date DESC))[1] <> p."facebookLikes"
            OR (array_agg(m."instagramFollowers" ORDER BY m.date DESC))[1] <> p."instagramFollowers"`,
        [AS_OF],
      ),
    ).toEqual([]);
    expect(
      await offenders(
        a,
        `WITH inc AS (
           SELECT a."advertiserId", d.date, d.reach - coalesce(lag(d.reach) OVER (PARTITION BY d."adId" ORDER BY d.date), 0) AS increment
           FROM ad_reach_days d JOIN ads a ON a.id = d."adId"),
         day AS (SELECT "advertiserId", date, sum(increment) AS total FROM inc WHERE date > $1::date - 89 GROUP BY 1, 2)
         SELECT m.* FROM advertiser_metric_days m LEFT JOIN day ON day."advertiserId" = m."advertiserId" AND day.date = m.date
         WHERE m.date > $1::date - 89 AND m."totalImpressions" <> coalesce(day.total, 0)`,
        [AS_OF],
      ),
    ).toEqual([]);
  });

  it('links shops to pages and lands ads on their own shops', async () => {
    expect(
      await offenders(a, `SELECT "advertiserId" FROM advertiser_shops GROUP BY 1 HAVING count(*) FILTER (WHERE "isPrimary") <> 1`),
    ).toEqual([]);
    expect(
      await offenders(
        a,
        `SELECT a.id, a."landingPageDomain" FROM ads a
         WHERE (a."landingPageDomain" IS NOT NULL OR EXISTS (SELECT 1 FROM advertiser_shops l WHERE l."advertiserId" = a."advertiserId"))
           AND NOT EXISTS (SELECT 1 FROM advertiser_shops l JOIN shops s ON s.id = l."shopId"
                           WHERE l."advertiserId" = a."advertiserId" AND s.domain = a."landingPageDomain"
                             AND a."landingPageUrl" LIKE 'https://' || s.domain || '/%')`,
      ),
    ).toEqual([]);
    const { shared } = await one<{ shared: number }>(
      a,
      `SELECT avg((n > 1)::int)::float8 AS shared FROM (SELECT count(*) AS n FROM advertiser_shops GROUP BY "shopId") s`,
    );
    expect(shared).toBeGreaterThan(0.03);
    expect(shared).toBeLessThan(0.2);
  });

  it('derives audience flags, transcripts and hooks consistently', async () => {
    expect(
      await offenders(
        a,
        `SELECT id FROM ads WHERE cardinality("targetedCountries") NOT BETWEEN 1 AND 8
           OR "isEuAd" <> ("mainCountry" IS NOT NULL) OR ("mainCountry" IS NOT NULL AND NOT "mainCountry" = ANY ("targetedCountries"))
           OR "ageMin" NOT BETWEEN 18 AND 25 OR "ageMax" NOT BETWEEN 45 AND 65 OR gender NOT IN ('all', 'men', 'women')`,
      ),
    ).toEqual([]);
    expect(
      await offenders(
        a,
        `SELECT t."adId" FROM ad_transcripts t JOIN ads a ON a.id = t."adId"
         WHERE a."mediaType" <> 'video' OR jsonb_array_length(t.segments) NOT BETWEEN 2 AND 6
            OR t."fullText" <> (SELECT string_agg(s->>'text', ' ' ORDER BY ord) FROM jsonb_array_elements(t.segments) WITH ORDINALITY e(s, ord))`,
      ),
    ).toEqual([]);
    expect(
      await offenders(
        a,
        `SELECT h."adId" FROM ad_hooks h JOIN ads a ON a.id = h."adId" LEFT JOIN ad_transcripts t ON t."adId" = h."adId"
         WHERE h."isFallback" <> (h.source = 'headline')
            OR (h.source = 'transcript' AND h.text <> t.segments->0->>'text')
            OR (h.source = 'ad_copy' AND position(h.text IN a.body) <> 1)
            OR (h.source = 'headline' AND h.text <> a.title)`,
      ),
    ).toEqual([]);
  });

  it('writes searchable ad copy', async () => {
    const search = (word: string) =>
      one<{ n: number }>(a, `SELECT count(*)::int AS n FROM ads WHERE "searchText" @@ to_tsquery('simple', $1)`, [word]).then((row) => row.n);
    for (const word of ['shipping', 'summer', 'serum']) {
      const n = await search(word);
      expect(n, word).toBeGreaterThan(0);
      expect(n, word).toBeLessThan(counts.ads / 2);
    }
  });
});
