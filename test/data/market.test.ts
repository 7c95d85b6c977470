import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MARKET_TABLES, marketChecksums, seedMarket, type SeedProgress } from '../../src/data/market.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { TINY_MARKET } from '../support/tiny-market.js';
import { offenders, one } from '../support/sql.js';

const AS_OF = '2025-06-01';
const options = { scale: 'tiny' as const, seed: 42, asOf: new Date(`${AS_OF}T00:00:00Z`) };

let a: TestDatabase;
let b: TestDatabase;
let counts: Record<string, number>;
/** The fingerprint of b's ads before its load replaced them. */
let replacedAds: string;
const progress: SeedProgress[] = [];
/** Database b is loaded (over another market, with `replace`) through the streaming path in small slices (250 ads or items per slice and statement), with its secondary indexes dropped and rebuilt. */
const streamed: SeedProgress[] = [];
const indexes = (db: TestDatabase) =>
  db.pool
    .query<{ indexdef: string }>(`SELECT indexdef FROM pg_indexes WHERE schemaname = current_schema() ORDER BY indexname`)
    .then((result) => result.rows.map((row) => row.indexdef));

/** Every constraint of the schema's tables with its definition (the foreign keys a deferred load drops and re-adds). */
const constraints = (db: TestDatabase) =>
  db.pool
    .query<{ c: string }>(
      `SELECT t.relname || '.' || k.conname || ' ' || pg_get_constraintdef(k.oid) AS c
       FROM pg_constraint k JOIN pg_class t ON t.oid = k.conrelid JOIN pg_namespace n ON n.oid = t.relnamespace
       WHERE n.nspname = current_schema() ORDER BY 1`,
    )
    .then((result) => result.rows.map((row) => row.c));

/** The table's primary key columns, quoted, in key order: the order its rows are fingerprinted in. */
const primaryKey = (db: TestDatabase, table: string) =>
  one<{ key: string }>(
    db,
    `SELECT string_agg(quote_ident(a.attname), ', ' ORDER BY k.n) AS key
     FROM pg_index i CROSS JOIN LATERAL unnest(i.indkey) WITH ORDINALITY AS k(attnum, n)
     JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum
     WHERE i.indrelid = $1::regclass AND i.indisprimary`,
    [`"${table}"`],
  ).then((row) => row.key);

/** An md5 of every row of the table in primary-key order, generated columns included. */
const fingerprint = async (db: TestDatabase, table: string) => {
  const key = await primaryKey(db, table);
  const row = await one<{ md5: string }>(db, `SELECT md5(string_agg(t::text, ',' ORDER BY ${key})) AS md5 FROM "${table}" t`);
  return row.md5;
};

beforeAll(async () => {
  // b starts from another market (a copy of seed 7's template), which its load replaces.
  [a, b] = await Promise.all([createTestDatabase(), createTestDatabase({ market: TINY_MARKET })]);
  replacedAds = await fingerprint(b, 'ads');
  // The two loads at once: on PostgreSQL the server writes one while this process generates the other.
  [{ counts }] = await Promise.all([
    seedMarket(a.pool, { ...options, onProgress: (event) => progress.push(event) }),
    seedMarket(b.pool, { ...options, replace: true, batchSize: 250, deferIndexes: true, onProgress: (event) => streamed.push(event) }),
  ]);
});

afterAll(async () => {
  await Promise.all([a?.dispose(), b?.dispose()]);
});

describe('seedMarket (tiny)', () => {
  it('fills every market table at the tiny scale and reports progress', () => {
    expect(counts.ads).toBe(3000);
    expect(counts.advertisers).toBe(600);
    expect(counts.shops).toBe(1000);
    expect(counts.tiktok_items).toBe(2000);
    expect(counts.google_ads).toBe(2000);
    for (const table of MARKET_TABLES) {
      expect(counts[table], table).toBeGreaterThan(0);
      const last = progress.filter((event) => event.table === table).at(-1);
      expect(last, table).toEqual({ table, done: counts[table], total: counts[table] });
    }
  });

  it('is deterministic for the same scale, seed and asOf, whatever the slice size', async () => {
    for (const table of MARKET_TABLES) {
      expect(await fingerprint(b, table), table).toBe(await fingerprint(a, table));
    }
  });

  it('streams small slices, estimating the totals it cannot know in advance, and restores the indexes and foreign keys it dropped', async () => {
    const ads = streamed.filter((event) => event.table === 'ads');
    expect(ads.length).toBeGreaterThanOrEqual(3000 / 250);
    expect(ads.every((event, i) => event.total === 3000 && !event.estimated && event.done > (ads[i - 1]?.done ?? 0))).toBe(true);
    expect(ads.at(-1)?.done).toBe(3000);
    // Reach days arrive with every ad slice; their total is extrapolated until the last slice.
    const days = streamed.filter((event) => event.table === 'ad_reach_days');
    expect(days.at(0)?.estimated).toBe(true);
    expect(days.at(-1)).toEqual({ table: 'ad_reach_days', done: counts.ad_reach_days, total: counts.ad_reach_days });
    for (const [i, event] of days.entries()) {
      expect(event.done).toBeLessThanOrEqual(event.total);
      if (i > 0) expect(event.done).toBeGreaterThan(days[i - 1].done);
    }
    // The email catalogues and the emails are known before the first slice: never estimated.
    for (const table of ['email_promotion_types', 'email_categories', 'email_events', 'emails']) {
      const events = streamed.filter((event) => event.table === table);
      expect(events.length, table).toBeGreaterThan(0);
      expect(events.every((event) => event.total === counts[table] && !event.estimated), table).toBe(true);
    }
    expect(streamed.filter((event) => event.table === 'emails').length).toBeGreaterThan(2);
    // The music catalogue comes whole with the first TikTok slice; only the original sounds are extrapolated.
    const music = streamed.filter((event) => event.table === 'tiktok_music');
    expect(music.length).toBeGreaterThan(1);
    for (const event of music) expect(Math.abs(event.total - counts.tiktok_music)).toBeLessThan(counts.tiktok_music * 0.25);
    // Tables interleave: a page's ads follow its advertiser rows, before the next pages.
    const tables = streamed.map((event) => event.table);
    expect(tables.indexOf('ads')).toBeLessThan(tables.lastIndexOf('advertisers'));
    expect(await indexes(b)).toEqual(await indexes(a));
    expect(await constraints(b)).toEqual(await constraints(a));
    expect((await constraints(a)).filter((c) => c.includes('FOREIGN KEY')).length).toBeGreaterThan(20);
  });

  it('generates the same rows in memory for the same seed, whatever the slice size', () => {
    const once = marketChecksums(options);
    expect(Object.keys(once).sort()).toEqual([...MARKET_TABLES].sort());
    for (const table of MARKET_TABLES) expect(once[table].rows, table).toBe(counts[table]);
    expect(marketChecksums({ ...options, batchSize: 700 })).toEqual(once);
    expect(marketChecksums({ ...options, seed: 43 }).ads.sha256).not.toBe(once.ads.sha256);
  });

  it('refuses to seed over existing ads unless replace is set, which loads the market anew', async () => {
    await expect(seedMarket(b.pool, options)).rejects.toThrow(/already hold data.*replace/);
    // b held seed 7's market before beforeAll replaced it: its rows were other rows, and are now a's (the test above).
    expect(replacedAds).not.toBe(await fingerprint(a, 'ads'));
    expect(await fingerprint(b, 'ads')).toBe(await fingerprint(a, 'ads'));
  });

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

describe('seedMarket (tiny): EU demography', () => {
  // The Ad Library's breakdown vocabulary, as the importer stores it and GET /v1/brandtrackers/{id}/demography reads it.
  const AGES = ['18-24', '25-34', '35-44', '45-54', '55-64', '65+'];
  const GENDERS = ['female', 'male', 'unknown'];

  it('breaks the reach of every EU ad down, and only of EU ads, in the Ad Library vocabulary', async () => {
    const { rows, ads, eu } = await one<{ rows: number; ads: number; eu: number }>(
      a,
      `SELECT (SELECT count(*)::int FROM ad_demography) AS rows, (SELECT count(DISTINCT "adId")::int FROM ad_demography) AS ads,
              (SELECT count(*)::int FROM ads WHERE "isEuAd") AS eu`,
    );
    expect(rows).toBe(counts.ad_demography);
    expect(ads).toBe(eu);
    // Bounded: at most 3 countries × 6 age ranges × 3 genders per ad, about 17 on average.
    expect(rows).toBeLessThan(20 * eu);
    expect(
      await offenders(
        a,
        `SELECT d.* FROM ad_demography d JOIN ads a ON a.id = d."adId"
         WHERE NOT a."isEuAd" OR d.reach <= 0 OR d."ageRange" <> ALL ($1::text[]) OR d.gender <> ALL ($2::text[])
            OR NOT d.country = ANY (a."targetedCountries")
            OR d.country NOT IN ('AT', 'BE', 'BG', 'HR', 'CY', 'CZ', 'DK', 'EE', 'FI', 'FR', 'DE', 'GR', 'HU', 'IE', 'IT', 'LV', 'LT', 'LU',
                                 'MT', 'NL', 'PL', 'PT', 'RO', 'SK', 'SI', 'ES', 'SE', 'IS', 'LI', 'NO', 'GB')`,
        [AGES, GENDERS],
      ),
    ).toEqual([]);
    const used = await one<{ ages: string[]; genders: string[] }>(
      a,
      `SELECT array_agg(DISTINCT "ageRange" ORDER BY "ageRange") AS ages, array_agg(DISTINCT gender ORDER BY gender) AS genders FROM ad_demography`,
    );
    expect(used).toEqual({ ages: AGES, genders: GENDERS });
  });

  it("adds up to each ad's reach, its main country first, within its targeting", async () => {
    expect(
      await offenders(
        a,
        `SELECT a.id, a.reach, d.total FROM ads a JOIN (SELECT "adId", sum(reach) AS total FROM ad_demography GROUP BY 1) d ON d."adId" = a.id
         WHERE d.total <> a.reach`,
      ),
    ).toEqual([]);
    // The main country reaches at least as many people as any other (the importer derives mainCountry that way),
    // and a breakdown names at most three countries.
    expect(
      await offenders(
        a,
        `SELECT c."adId" FROM (SELECT "adId", country, sum(reach) AS reach FROM ad_demography GROUP BY 1, 2) c JOIN ads a ON a.id = c."adId"
         GROUP BY c."adId", a."mainCountry"
         HAVING count(*) > 3 OR coalesce(max(c.reach) FILTER (WHERE c.country = a."mainCountry"), -1) < max(c.reach)`,
      ),
    ).toEqual([]);
    // Reached ages overlap the targeted ones (65+ only when the ad targets up to 65); a one-gender ad reaches no one of the other.
    expect(
      await offenders(
        a,
        `SELECT d."adId", d."ageRange", d.gender, a."ageMin", a."ageMax", a.gender AS targeted FROM ad_demography d JOIN ads a ON a.id = d."adId"
         WHERE split_part(rtrim(d."ageRange", '+'), '-', 1)::int > a."ageMax"
            OR coalesce(nullif(split_part(d."ageRange", '-', 2), ''), '999')::int < a."ageMin"
            OR (a.gender = 'men' AND d.gender = 'female') OR (a.gender = 'women' AND d.gender = 'male')`,
      ),
    ).toEqual([]);
  });
});

describe('seedMarket (tiny): TikTok library', () => {
  it('uses 19-digit TikTok ids, above 2^53', async () => {
    for (const table of ['tiktok_items', 'tiktok_profiles', 'tiktok_music']) {
      expect(await offenders(a, `SELECT id FROM ${table} WHERE id !~ '^[67][0-9]{18}$' OR id::numeric <= 9007199254740992`), table).toEqual([]);
    }
  });

  it('keeps metrics consistent: engagement rate, heavy-tailed views, ranks', async () => {
    expect(
      await offenders(
        a,
        `SELECT id, "engagementRate" FROM tiktok_items
         WHERE views <= 0 OR likes > views OR abs("engagementRate" - (likes + comments + shares)::float8 / views * 100) > 0.006
            OR "relevanceScore" NOT BETWEEN 0 AND 1 OR reposts > shares`,
      ),
    ).toEqual([]);
    const { p50, p99 } = await one<{ p50: number; p99: number }>(
      a,
      `SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY views) AS p50, percentile_cont(0.99) WITHIN GROUP (ORDER BY views) AS p99 FROM tiktok_items`,
    );
    expect(p99 / p50).toBeGreaterThan(50);
    expect(
      await offenders(
        a,
        `SELECT "profileId" FROM (
           SELECT "profileId", rank, "rankPercent", views, count(*) OVER w AS n, lag(views) OVER (w ORDER BY rank) AS better FROM tiktok_items WINDOW w AS (PARTITION BY "profileId")) r
         GROUP BY 1
         HAVING min(rank) <> 1 OR max(rank) <> count(*) OR count(DISTINCT rank) <> count(*) OR bool_or(views > better)
            OR bool_or("rankPercent" <> round((rank * 100.0 / n)::numeric, 1)::float8)`,
      ),
    ).toEqual([]);
  });

  it('orders the dates of every item and derives running days from them', async () => {
    expect(
      await offenders(
        a,
        `SELECT id FROM tiktok_items
         WHERE NOT ("publishedAt" <= "createdAt" AND "createdAt" <= "updatedAt" AND "updatedAt" <= "indexedAt" AND "indexedAt" <= $1::timestamptz)
            OR "updatedAt" > "lastSeenAt" OR "publishedAt" < timestamptz '2018-01-01'
            OR (status = 'active') <> ("lastSeenAt" = $1::timestamptz)`,
        [AS_OF],
      ),
    ).toEqual([]);
  });

  it('uses real language and country codes, lower-case hashtags in the caption', async () => {
    expect(await offenders(a, `SELECT id, language FROM tiktok_items WHERE language NOT IN ('en', 'fr', 'de', 'es', 'it', 'nl')`)).toEqual([]);
    expect(await offenders(a, `SELECT id FROM tiktok_items WHERE cardinality(countries) NOT BETWEEN 1 AND 4 OR EXISTS (SELECT 1 FROM unnest(countries) c WHERE c !~ '^[A-Z]{2}$')`)).toEqual([]);
    expect(
      await offenders(a, `SELECT id FROM tiktok_items, unnest(hashtags) h WHERE h !~ '^[a-z0-9]+$' OR position('#' || h IN description) = 0`),
    ).toEqual([]);
  });

  it('keeps profile figures in line with their items', async () => {
    expect(
      await offenders(
        a,
        `SELECT p.handle FROM tiktok_profiles p JOIN tiktok_items i ON i."profileId" = p.id GROUP BY p.id
         HAVING p."totalTikToks" <> count(*) OR p.views <> sum(i.views) OR p.likes <> sum(i.likes)
            OR p."percentAds" <> round((count(*) FILTER (WHERE i.type = 'ad') * 100.0 / count(*))::numeric, 1)::float8
            OR p."newTikToks" <> count(*) FILTER (WHERE i."publishedAt" >= $1::timestamptz - interval '30 days')`,
        [AS_OF],
      ),
    ).toEqual([]);
    expect(await offenders(a, `SELECT id FROM tiktok_profiles p WHERE NOT EXISTS (SELECT 1 FROM tiktok_items i WHERE i."profileId" = p.id)`)).toEqual([]);
  });

  it('mixes ads and organic videos, links some to shops and pins some', async () => {
    const mix = await one<{ ads: number; linked: number; business: number; pinned: number }>(
      a,
      `SELECT avg((type = 'ad')::int)::float8 AS ads, avg(("shopId" IS NOT NULL)::int)::float8 AS linked,
              (SELECT avg(("shopId" IS NOT NULL)::int)::float8 FROM tiktok_profiles) AS business, avg("isPinned"::int)::float8 AS pinned
       FROM tiktok_items`,
    );
    expect(mix.ads).toBeGreaterThan(0.2);
    expect(mix.ads).toBeLessThan(0.6);
    expect(mix.linked).toBeGreaterThan(0.2);
    expect(mix.linked).toBeLessThan(0.8);
    expect(mix.business).toBeGreaterThan(0.3);
    expect(mix.pinned).toBeGreaterThan(0);
    // A brand account's items link to its own shop, if to any.
    expect(
      await offenders(
        a,
        `SELECT i.id FROM tiktok_items i JOIN tiktok_profiles p ON p.id = i."profileId"
         WHERE p."shopId" IS NOT NULL AND i."shopId" IS DISTINCT FROM p."shopId" AND i."shopId" IS NOT NULL`,
      ),
    ).toEqual([]);
  });

  it('records pins consistently', async () => {
    expect(
      await offenders(
        a,
        `SELECT i.id FROM tiktok_items i LEFT JOIN tiktok_pins p ON p."itemId" = i.id
         WHERE i."isPinned" <> coalesce(p."isCurrent", false)
            OR p."firstPinnedAt" > p."lastPinnedAt" OR p."firstPinnedAt" < i."publishedAt"
            OR (p."isCurrent" AND (i.type <> 'organic' OR i.status <> 'active'))
            OR (NOT p."isCurrent" AND (p."lastUnpinnedAt" IS NULL OR p."lastUnpinnedAt" < p."lastPinnedAt"))`,
      ),
    ).toEqual([]);
    expect(await offenders(a, `SELECT "profileId" FROM tiktok_items WHERE "isPinned" GROUP BY 1 HAVING count(*) > 3`)).toEqual([]);
  });

  it('snapshots 30 days of every profile, the last one matching its items', async () => {
    expect(
      await offenders(
        a,
        `SELECT s."profileId" FROM tiktok_page_snapshots s GROUP BY 1
         HAVING count(*) <> 30 OR max(date) <> $1::date OR min(date) <> $1::date - 29`,
        [AS_OF],
      ),
    ).toEqual([]);
    expect(
      await offenders(
        a,
        `SELECT s."profileId" FROM tiktok_page_snapshots s JOIN tiktok_items i ON i."profileId" = s."profileId"
         WHERE s.date = $1::date GROUP BY s."profileId", s."adsCount", s."organicCount", s."totalTikToks"
         HAVING s."adsCount" <> count(*) FILTER (WHERE i.type = 'ad' AND i.status = 'active')
            OR s."organicCount" <> count(*) FILTER (WHERE i.type = 'organic' AND i.status = 'active')
            OR s."totalTikToks" <> count(*)`,
        [AS_OF],
      ),
    ).toEqual([]);
  });
});

describe('seedMarket (tiny): Google Ads and shop figures', () => {
  it('uses Transparency-shaped ids and consistent reach ranges, dates and audiences', async () => {
    expect(await offenders(a, `SELECT id FROM google_advertisers WHERE id !~ '^AR[0-9]{20}$'`)).toEqual([]);
    expect(
      await offenders(
        a,
        `SELECT id FROM google_ads
         WHERE id <> 'google_' || "googleAdId" OR "googleAdId" !~ '^CR[0-9]{20}$'
            OR NOT ("reachLowerBound" <= reach AND reach <= "reachUpperBound")
            OR "firstSeenAt" < timestamptz '2018-01-01' OR "firstSeenAt" > "lastSeenAt"
            OR (status = 'active') <> ("lastSeenAt" = $1::timestamptz)
            OR (network = 'youtube') <> ("mediaType" = 'video')`,
        [AS_OF],
      ),
    ).toEqual([]);
    expect(
      await offenders(
        a,
        `SELECT g.id FROM google_ads g
         WHERE abs((SELECT sum((c->>'share')::numeric) FROM jsonb_array_elements(g."countryShares") c) - 1) > 0.0001
            OR g."mainCountry" <> g."countryShares"->0->>'countryCode'
            OR EXISTS (SELECT 1 FROM jsonb_array_elements(g."countryShares") WITH ORDINALITY e(c, n)
                       WHERE n > 1 AND (c->>'share')::numeric > (g."countryShares"->(n::int - 2)->>'share')::numeric)`,
      ),
    ).toEqual([]);
  });

  it('counts live ads per advertiser and network', async () => {
    expect(
      await offenders(
        a,
        `SELECT v.id FROM google_advertisers v LEFT JOIN google_ads g ON g."advertiserId" = v.id AND g.status = 'active' GROUP BY v.id
         HAVING v."liveAdsAll" <> count(g.id) OR v."liveAdsSearch" <> count(g.id) FILTER (WHERE g.network = 'search')
            OR v."liveAdsShopping" <> count(g.id) FILTER (WHERE g.network = 'shopping') OR v."liveAdsMaps" <> count(g.id) FILTER (WHERE g.network = 'maps')
            OR v."liveAdsYoutube" <> count(g.id) FILTER (WHERE g.network = 'youtube') OR v."liveAdsOther" <> count(g.id) FILTER (WHERE g.network = 'other')`,
      ),
    ).toEqual([]);
  });

  it('links advertisers to shops and to taxonomy categories', async () => {
    expect(
      await offenders(
        a,
        `SELECT v.id FROM google_advertisers v LEFT JOIN shops s ON s.id = v."websiteId"
         WHERE (v."websiteId" IS NOT NULL AND (s.domain <> v.domain OR v."shopName" <> s.name))
            OR (v."websiteId" IS NULL AND v."shopName" IS NOT NULL)
            OR cardinality(v."categoryIds") = 0
            OR EXISTS (SELECT 1 FROM unnest(v."categoryIds") c WHERE NOT EXISTS (SELECT 1 FROM categories k WHERE k.id = c))`,
      ),
    ).toEqual([]);
    const { linked } = await one<{ linked: number }>(a, `SELECT avg(("websiteId" IS NOT NULL)::int)::float8 AS linked FROM google_advertisers`);
    expect(linked).toBeGreaterThan(0.4);
    expect(linked).toBeLessThan(0.8);
    expect(
      await offenders(
        a,
        `SELECT c.id FROM categories c LEFT JOIN categories p ON p.id = c."parentId"
         WHERE (c."parentId" IS NULL AND c.path <> c.name) OR (c."parentId" IS NOT NULL AND c.path <> p.path || ' > ' || c.name)`,
      ),
    ).toEqual([]);
  });

  it('gives every shop a country, growth, catalogue size and the ids of its categories', async () => {
    expect(
      await offenders(
        a,
        `SELECT s.id FROM shops s
         WHERE s."countryCode" !~ '^[A-Z]{2}$' OR s."trafficGrowth30d" < -0.9 OR s."productsCount" < 1
            OR cardinality(s."categoryIds") <> cardinality(s.categories)
            OR EXISTS (SELECT 1 FROM unnest(s.categories, s."categoryIds") u(name, id) WHERE NOT EXISTS (SELECT 1 FROM categories c WHERE c.id = u.id AND c.name = u.name))`,
      ),
    ).toEqual([]);
  });
});
