import { createHash } from 'node:crypto';
import type pg from 'pg';
import { refreshAdGroups } from '../ad-groups.js';
import type { Format, ImportContext, Outcome } from './run.js';
import { upsert } from './sql.js';
import {
  BadRecord, countryCode, EU_UK, idOf, isHostName, isObject, optionalCount, optionalDateTime, optionalString, stringList,
} from './values.js';

// Meta Ad Library API `ads_archive` pages: `{ data: [ad, …], paging: { cursors: { after }, next } }`.
//
// Mapping (one record = one ad):
//   page_id/page_name            → advertisers (id, name); the page figures are recomputed from its ads
//   id                           → ads.id `facebook_<id>`, platform facebook
//   ad_creation_time             → createdAt (else the delivery start)
//   ad_delivery_start_time       → firstSeenAt (else the creation time)
//   ad_delivery_stop_time        → status inactive and lastSeenAt when it is before the import time; else active,
//                                  lastSeenAt = the import day
//   ad_creative_link_titles[0]   → title;  ad_creative_bodies[0] → body
//   ad_creative_link_descriptions[0] → ctaDescription;  ad_creative_link_captions[0] → ctaLinkDescription, and
//                                  landingPageDomain when the caption is a host name (the landing URL is not in the API)
//   eu_total_reach               → reach (else the sum of the breakdown, else 0); isLowReach = reach < 1000
//   age_country_gender_reach_breakdown → ad_demography rows (country, age range, gender, reach); mainCountry = the
//                                  EU/UK country with the largest reach
//   target_locations + breakdown countries → targetedCountries (ISO codes; names are resolved, unknown places dropped)
//   target_gender                → gender (all/men/women);  target_ages → ageMin/ageMax (`65+` → 65)
//   isEuAd                       → the ad has EU/UK transparency data or targets an EU/UK country
//   languages, publisher_platforms, beneficiary_payers (the current pair) → their own columns
//   ads with the same page and the same non-empty creative text share a duplicate group (collationId
//   `col_<hash>`); the group figures (duplicates, aggregatedReach, lead = most reach) are recomputed
//   reach on the import day      → ad_reach_days (fetchedAt = the import's asOf, moved by every run; rank = the ad's
//                                  currentRank in its page); reachDelta1d/7d/30d = reach - the latest snapshot at least
//                                  1/7/30 days older (0 before the ad started; no change when no older snapshot is known)
//   each page fetched            → its day in advertiser_metric_days (the day's reach gains of its ads as impressions)
//   provenance                   → ads.fetchedFrom 'meta-ads' and firstFetchedAt (the database clock), on insert only
// ad_snapshot_url is not stored: the public Ad Library link is derived from the id, and the API's snapshot URL
// carries the caller's access token.

type Demography = { country: string; ageRange: string; gender: string; reach: bigint };

export type MetaAd = {
  id: string;
  pageId: string;
  pageName: string | null;
  createdAt: Date;
  firstSeenAt: Date;
  stoppedAt: Date | null;
  title: string | null;
  body: string | null;
  ctaDescription: string | null;
  ctaLinkDescription: string | null;
  landingPageDomain: string | null;
  reach: bigint;
  targetedCountries: string[];
  mainCountry: string | null;
  gender: 'all' | 'men' | 'women';
  ageMin: number | null;
  ageMax: number | null;
  isEuAd: boolean;
  languages: string[];
  publisherPlatforms: string[];
  beneficiary: string | null;
  payer: string | null;
  collationId: string;
  /** Null when the file does not carry the breakdown (the stored one is then kept). */
  demography: Demography[] | null;
};

function hostOf(caption: string | null): string | null {
  if (!caption) return null;
  const host = caption.trim().toLowerCase().replace(/^[a-z]+:\/\//, '').replace(/^www\./, '').split(/[/?#\s]/)[0];
  return isHostName(host) ? host : null;
}

function gender(value: unknown): MetaAd['gender'] {
  const text = optionalString(value, 'target_gender');
  if (text === null) return 'all';
  const known: Record<string, MetaAd['gender']> = { all: 'all', men: 'men', male: 'men', women: 'women', female: 'women' };
  const mapped = known[text.toLowerCase()];
  if (!mapped) throw new BadRecord(`target_gender must be All, Men or Women, got ${JSON.stringify(text)}`);
  return mapped;
}

function ages(value: unknown): { ageMin: number | null; ageMax: number | null } {
  if (value === undefined || value === null) return { ageMin: null, ageMax: null };
  const parts = typeof value === 'string' ? value.split(/\s*-\s*/) : Array.isArray(value) ? value : null;
  if (!parts || parts.length === 0) throw new BadRecord('target_ages must be an array of ages like ["18", "65+"]');
  const numbers = parts.map((part, i) => {
    const text = typeof part === 'number' ? String(part) : part;
    const match = typeof text === 'string' ? /^\s*(\d{1,3})\+?\s*$/.exec(text) : null;
    if (!match) throw new BadRecord(`target_ages[${i}] is not an age: ${JSON.stringify(part)}`);
    return Number(match[1]);
  });
  return { ageMin: Math.min(...numbers), ageMax: Math.max(...numbers) };
}

function targetLocations(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new BadRecord('target_locations must be an array');
  const codes: string[] = [];
  value.forEach((location, i) => {
    if (!isObject(location)) throw new BadRecord(`target_locations[${i}] must be an object`);
    if (location.excluded === true) return;
    const name = optionalString(location.name, `target_locations[${i}].name`);
    if (!name) return;
    // A country by name; a region, city or zip as "…, <country>".
    const type = optionalString(location.type, `target_locations[${i}].type`);
    const isCountry = type === null || type === 'countries' || type === 'country';
    const code = isCountry ? countryCode(name) : name.includes(',') ? countryCode(name.split(',').pop()!) : null;
    if (code) codes.push(code);
  });
  return codes;
}

function breakdown(value: unknown): Demography[] | null {
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value)) throw new BadRecord('age_country_gender_reach_breakdown must be an array');
  const cells = new Map<string, Demography>();
  value.forEach((entry, i) => {
    const field = `age_country_gender_reach_breakdown[${i}]`;
    if (!isObject(entry)) throw new BadRecord(`${field} must be an object`);
    const country = typeof entry.country === 'string' ? countryCode(entry.country) : null;
    if (!country) throw new BadRecord(`${field}.country must be a country code, got ${JSON.stringify(entry.country)}`);
    const rows = entry.age_gender_breakdowns ?? [];
    if (!Array.isArray(rows)) throw new BadRecord(`${field}.age_gender_breakdowns must be an array`);
    rows.forEach((row, j) => {
      const at = `${field}.age_gender_breakdowns[${j}]`;
      if (!isObject(row)) throw new BadRecord(`${at} must be an object`);
      const ageRange = optionalString(row.age_range, `${at}.age_range`);
      if (!ageRange) throw new BadRecord(`${at}.age_range is missing`);
      for (const sex of ['male', 'female', 'unknown']) {
        const reach = optionalCount(row[sex], `${at}.${sex}`);
        if (reach === null) continue;
        const key = `${country}\u0000${ageRange}\u0000${sex}`;
        const cell = cells.get(key);
        if (cell) cell.reach += reach;
        else cells.set(key, { country, ageRange, gender: sex, reach });
      }
    });
  });
  return [...cells.values()].sort((a, b) => (a.country + a.ageRange + a.gender < b.country + b.ageRange + b.gender ? -1 : 1));
}

function mainCountryOf(demography: Demography[] | null): string | null {
  if (!demography) return null;
  const totals = new Map<string, bigint>();
  for (const cell of demography) if (EU_UK.has(cell.country)) totals.set(cell.country, (totals.get(cell.country) ?? 0n) + cell.reach);
  let best: string | null = null;
  for (const [country, reach] of [...totals].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (best === null || reach > totals.get(best)!) best = country;
  }
  return best;
}

function payers(value: unknown): { beneficiary: string | null; payer: string | null } {
  if (value === undefined || value === null) return { beneficiary: null, payer: null };
  if (!Array.isArray(value)) throw new BadRecord('beneficiary_payers must be an array');
  const entries = value.map((entry, i) => {
    if (!isObject(entry)) throw new BadRecord(`beneficiary_payers[${i}] must be an object`);
    return {
      beneficiary: optionalString(entry.beneficiary, `beneficiary_payers[${i}].beneficiary`),
      payer: optionalString(entry.payer, `beneficiary_payers[${i}].payer`),
      current: entry.current === true,
    };
  });
  const chosen = entries.find((entry) => entry.current) ?? entries[0];
  return { beneficiary: chosen?.beneficiary ?? null, payer: chosen?.payer ?? null };
}

const first = (list: string[]) => list.map((item) => item.trim()).find((item) => item !== '') ?? null;

export function parseMetaAd(raw: unknown, context: ImportContext): MetaAd {
  if (!isObject(raw)) throw new BadRecord('the record is not an object');
  const id = idOf(raw.id, 'id');
  const pageId = idOf(raw.page_id, 'page_id');
  const created = optionalDateTime(raw.ad_creation_time, 'ad_creation_time');
  const started = optionalDateTime(raw.ad_delivery_start_time, 'ad_delivery_start_time');
  const stoppedAt = optionalDateTime(raw.ad_delivery_stop_time, 'ad_delivery_stop_time');
  if (!created && !started) throw new BadRecord('ad_delivery_start_time and ad_creation_time are both missing');
  const bodies = stringList(raw.ad_creative_bodies, 'ad_creative_bodies');
  const titles = stringList(raw.ad_creative_link_titles, 'ad_creative_link_titles');
  const descriptions = stringList(raw.ad_creative_link_descriptions, 'ad_creative_link_descriptions');
  const captions = stringList(raw.ad_creative_link_captions, 'ad_creative_link_captions');
  const demography = breakdown(raw.age_country_gender_reach_breakdown);
  const euReach = optionalCount(raw.eu_total_reach, 'eu_total_reach');
  const reach = euReach ?? demography?.reduce((sum, cell) => sum + cell.reach, 0n) ?? 0n;
  const targeted = new Set([...targetLocations(raw.target_locations), ...(demography ?? []).map((cell) => cell.country)]);
  const targetedCountries = [...targeted].sort();
  const creative = [bodies, titles, descriptions, captions].map((list) => list.map((item) => item.trim()));
  const hasCreative = creative.some((list) => list.some((item) => item !== ''));
  const identity = hasCreative ? JSON.stringify([pageId, ...creative]) : `ad:${id}`;
  void context;
  return {
    id: `facebook_${id}`,
    pageId,
    pageName: optionalString(raw.page_name, 'page_name'),
    createdAt: created ?? started!,
    firstSeenAt: started ?? created!,
    stoppedAt,
    title: first(titles),
    body: first(bodies),
    ctaDescription: first(descriptions),
    ctaLinkDescription: first(captions),
    landingPageDomain: hostOf(first(captions)),
    reach,
    targetedCountries,
    mainCountry: mainCountryOf(demography),
    gender: gender(raw.target_gender),
    ...ages(raw.target_ages),
    isEuAd: euReach !== null || (demography?.length ?? 0) > 0 || targetedCountries.some((code) => EU_UK.has(code)),
    languages: stringList(raw.languages, 'languages').map((code) => code.trim().toLowerCase()).filter(Boolean),
    publisherPlatforms: stringList(raw.publisher_platforms, 'publisher_platforms').map((name) => name.trim().toLowerCase()).filter(Boolean),
    ...payers(raw.beneficiary_payers),
    collationId: `col_${createHash('sha256').update(identity).digest('hex').slice(0, 16)}`,
    demography,
  };
}

const DAY_MS = 86_400_000;
/** `ads.fetchedFrom` of the ads this format brings in. */
const SOURCE = 'meta-ads';

/**
 * The reach gain over `days` of an ad stored for the first time: it has no older snapshot, so all its reach when it
 * started within the period, else none (what the deltas below compute for it from the snapshots).
 */
function newAdGain(ad: MetaAd, day: Date, days: number): bigint {
  return ad.firstSeenAt.getTime() >= day.getTime() - days * DAY_MS ? ad.reach : 0n;
}

async function applyMetaAds(client: pg.PoolClient, ads: MetaAd[], context: ImportContext): Promise<Map<string, Outcome>> {
  const outcomes = new Map<string, Outcome>();
  const changed = (id: string) => {
    if (!outcomes.has(id)) outcomes.set(id, 'updated');
  };
  const ids = ads.map((ad) => ad.id);
  const ours = new Set(ids);
  const day = context.day;
  const dayText = day.toISOString().slice(0, 10);

  // What the ads were before: a moved ad leaves its old group and page to recompute.
  const before = await client.query<{ id: string; collationId: string; advertiserId: string }>(
    `SELECT "id", "collationId", "advertiserId" FROM "ads" WHERE "id" = ANY($1::text[])`,
    [ids],
  );

  // Pages: one row per page, the last name in the file wins.
  const pages = new Map<string, string | null>();
  for (const ad of ads) pages.set(ad.pageId, ad.pageName ?? pages.get(ad.pageId) ?? null);
  const pageSpec = (update: string[]) => ({
    table: 'advertisers',
    columns: [{ name: 'id', type: 'text' }, { name: 'name', type: 'text' }],
    key: ['id'],
    update,
    returning: 'id, (xmax = 0) AS inserted',
  });
  const entries = [...pages];
  // A record without page_name names a new page after its id and leaves a stored name alone.
  const renamed = await upsert<{ id: string; inserted: boolean }>(client, pageSpec(['name']), entries.filter(([, name]) => name !== null));
  await upsert(client, pageSpec([]), entries.filter(([, name]) => name === null).map(([id]) => [id, `Facebook page ${id}`]));
  const renamedPages = new Set(renamed.filter((row) => !row.inserted).map((row) => row.id));
  for (const ad of ads) if (renamedPages.has(ad.pageId)) changed(ad.id);

  const running = (ad: MetaAd) => ad.stoppedAt === null || ad.stoppedAt.getTime() > context.asOf.getTime();
  const lastSeenOf = (ad: MetaAd) => (running(ad) ? new Date(Math.max(day.getTime(), ad.firstSeenAt.getTime())) : ad.stoppedAt!);
  const content = [
    'collationId', 'status', 'createdAt', 'firstSeenAt', 'title', 'body', 'ctaDescription', 'ctaLinkDescription',
    'landingPageDomain', 'reach', 'targetedCountries', 'mainCountry', 'gender', 'ageMin', 'ageMax', 'isEuAd', 'isLowReach',
    'languages', 'publisherPlatforms', 'beneficiary', 'payer', 'advertiserId',
  ];
  const written = await upsert<{ id: string; inserted: boolean }>(
    client,
    {
      table: 'ads',
      columns: [
        { name: 'id', type: 'text' }, { name: 'collationId', type: 'text' }, { name: 'status', type: '"AdStatus"' },
        { name: 'createdAt', type: 'timestamptz' }, { name: 'firstSeenAt', type: 'timestamptz' }, { name: 'lastSeenAt', type: 'timestamptz' },
        { name: 'title', type: 'text' }, { name: 'body', type: 'text' }, { name: 'ctaDescription', type: 'text' },
        { name: 'ctaLinkDescription', type: 'text' }, { name: 'landingPageDomain', type: 'text' }, { name: 'reach', type: 'int8' },
        { name: 'targetedCountries', type: 'text[]' }, { name: 'mainCountry', type: 'text' }, { name: 'gender', type: 'text' },
        { name: 'ageMin', type: 'int4' }, { name: 'ageMax', type: 'int4' }, { name: 'isEuAd', type: 'bool' }, { name: 'isLowReach', type: 'bool' },
        { name: 'languages', type: 'text[]' }, { name: 'publisherPlatforms', type: 'text[]' }, { name: 'beneficiary', type: 'text' },
        { name: 'payer', type: 'text' }, { name: 'advertiserId', type: 'text' },
        // Insert-only: a new ad is its own group until the groups are recomputed below; where it came from.
        { name: 'platform', type: 'text' }, { name: 'mediaType', type: '"AdMediaType"' }, { name: 'aggregatedReach', type: 'int8' },
        { name: 'fetchedFrom', type: 'text' },
        { name: 'reachDelta1d', type: 'int8' }, { name: 'reachDelta7d', type: 'int8' }, { name: 'reachDelta30d', type: 'int8' },
      ],
      key: ['id'],
      update: content,
      insertOnly: { firstFetchedAt: 'now()' },
      returning: 'id, (xmax = 0) AS inserted',
    },
    ads.map((ad) => {
      const active = running(ad);
      const lastSeenAt = lastSeenOf(ad);
      return [
        ad.id, ad.collationId, active ? 'active' : 'inactive', ad.createdAt, ad.firstSeenAt, lastSeenAt, ad.title, ad.body, ad.ctaDescription,
        ad.ctaLinkDescription, ad.landingPageDomain, ad.reach, ad.targetedCountries, ad.mainCountry, ad.gender, ad.ageMin, ad.ageMax,
        ad.isEuAd, ad.reach < 1000n, ad.languages, ad.publisherPlatforms, ad.beneficiary, ad.payer, ad.pageId,
        'facebook', 'unknown', ad.reach, SOURCE, ...[1, 7, 30].map((days) => newAdGain(ad, day, days)),
      ];
    }),
  );
  for (const row of written) outcomes.set(row.id, row.inserted ? 'inserted' : 'updated');
  // The day an ad was last seen moves with every daily run while it runs: kept up to date without counting as a change
  // of the ad (nothing derives from it), so an unchanged running ad is `unchanged` on the next day too.
  const seenBefore = ads.filter((ad) => outcomes.get(ad.id) !== 'inserted');
  if (seenBefore.length) {
    await client.query(
      `UPDATE "ads" a SET "lastSeenAt" = u.seen FROM unnest($1::text[], $2::timestamptz[]) AS u(id, seen)
       WHERE a."id" = u.id AND a."lastSeenAt" IS DISTINCT FROM u.seen`,
      [seenBefore.map((ad) => ad.id), seenBefore.map((ad) => lastSeenOf(ad).toISOString())],
    );
  }
  // The ads whose content or gains changed: what the groups, ranks and page figures derive from.
  const reworked = new Set(written.map((row) => row.id));

  // Demography: the file's breakdown replaces the stored one (ads whose record has no breakdown keep theirs).
  const withBreakdown = ads.filter((ad) => ad.demography !== null);
  if (withBreakdown.length) {
    const cells = withBreakdown.flatMap((ad) => ad.demography!.map((cell) => [ad.id, cell.country, cell.ageRange, cell.gender, cell.reach]));
    const column = (i: number) => cells.map((cell) => (typeof cell[i] === 'bigint' ? cell[i].toString() : cell[i]));
    const removed = await client.query<{ adId: string }>(
      `DELETE FROM "ad_demography" d WHERE d."adId" = ANY($1::text[])
         AND NOT EXISTS (SELECT 1 FROM unnest($2::text[], $3::text[], $4::text[], $5::text[]) AS u(a, c, r, g)
                         WHERE u.a = d."adId" AND u.c = d."country" AND u.r = d."ageRange" AND u.g = d."gender")
       RETURNING d."adId"`,
      [withBreakdown.map((ad) => ad.id), column(0), column(1), column(2), column(3)],
    );
    const upserted = await upsert<{ adId: string }>(
      client,
      {
        table: 'ad_demography',
        columns: [
          { name: 'adId', type: 'text' }, { name: 'country', type: 'text' }, { name: 'ageRange', type: 'text' },
          { name: 'gender', type: 'text' }, { name: 'reach', type: 'int8' },
        ],
        key: ['adId', 'country', 'ageRange', 'gender'],
        update: ['reach'],
        returning: '"adId"',
      },
      cells,
    );
    for (const row of [...removed.rows, ...upserted]) changed(row.adId);
  }

  // Reach gains from the stored snapshots, for the ads stored before (a new ad's were written with it).
  const stored = ids.filter((id) => outcomes.get(id) !== 'inserted');
  // The period's first day is parameter `param` ($2, $3, $4 for 1, 7 and 30 days).
  const delta = (param: string) => `a."reach" - coalesce(
      (SELECT r."reach" FROM "ad_reach_days" r WHERE r."adId" = a."id" AND r."date" <= ${param}::date ORDER BY r."date" DESC LIMIT 1),
      CASE WHEN a."firstSeenAt" >= (${param}::date)::timestamp AT TIME ZONE 'UTC' THEN 0 ELSE a."reach" END)`;
  const periodStart = (days: number) => new Date(day.getTime() - days * DAY_MS).toISOString().slice(0, 10);
  if (stored.length) {
    const deltas = await client.query<{ id: string }>(
      `WITH d AS (SELECT a."id", ${delta('$2')} AS d1, ${delta('$3')} AS d7, ${delta('$4')} AS d30 FROM "ads" a WHERE a."id" = ANY($1::text[]))
       UPDATE "ads" a SET "reachDelta1d" = d.d1, "reachDelta7d" = d.d7, "reachDelta30d" = d.d30 FROM d
       WHERE a."id" = d."id" AND (a."reachDelta1d", a."reachDelta7d", a."reachDelta30d") IS DISTINCT FROM (d.d1, d.d7, d.d30)
       RETURNING a."id"`,
      [stored, periodStart(1), periodStart(7), periodStart(30)],
    );
    for (const row of deltas.rows) {
      changed(row.id);
      reworked.add(row.id);
    }
  }

  // What the figures derive from changed only for the ads written above (content or gains) and the pages and groups
  // they left: only those groups and pages are recomputed, so a page of unchanged ads costs its snapshots alone.
  const beforeById = new Map(before.rows.map((row) => [row.id, row]));
  const dirty = ads.filter((ad) => reworked.has(ad.id));
  const dirtyPages = new Set<string>();
  const dirtyGroups = new Set<string>();
  for (const ad of dirty) {
    dirtyPages.add(ad.pageId);
    dirtyGroups.add(ad.collationId);
    const old = beforeById.get(ad.id);
    if (old) {
      dirtyPages.add(old.advertiserId);
      dirtyGroups.add(old.collationId);
    }
  }
  const regroupedPages = new Set<string>();
  const reranked: string[] = [];
  if (dirtyGroups.size || dirtyPages.size) {
    // Duplicate groups (size, reach, lead: media first, then the most reach) and the pages' positions (newest first)
    // and current ranks (active ads by 7-day gain), in one pass over the ads they change.
    type Figures = { id: string; advertiserId: string; n: number; total: string; lead: boolean; position: number | null; rank: number | null; reranked: boolean; regrouped: boolean };
    // Computed first, then written by key: an UPDATE joined to the windows would hash the whole ads table.
    const old = `"advertiserId", "duplicates" AS od, "aggregatedReach" AS ot, "isGroupLead" AS ol, "positionInPage" AS op, "currentRank" AS orank`;
    const { rows } = await client.query<Figures>(
      `WITH g AS (
         SELECT "id", ${old}, count(*) OVER w AS n, sum("reach") OVER w AS total,
                row_number() OVER (w ORDER BY ("mediaUrl" IS NOT NULL) DESC, "reach" DESC, "id" COLLATE "C") = 1 AS lead
         FROM "ads" WHERE "collationId" = ANY($1::text[]) WINDOW w AS (PARTITION BY "collationId")),
       p AS (
         SELECT "id", ${old},
                row_number() OVER (PARTITION BY "advertiserId" ORDER BY "firstSeenAt" DESC, "id" COLLATE "C")::int AS position,
                CASE WHEN "status" = 'active' THEN row_number() OVER (
                  PARTITION BY "advertiserId", "status" = 'active' ORDER BY "reachDelta7d" DESC, "reach" DESC, "id" COLLATE "C")::int END AS rank
         FROM "ads" WHERE "advertiserId" = ANY($2::text[])),
       x AS (
         SELECT coalesce(g."id", p."id") AS id, coalesce(g."advertiserId", p."advertiserId") AS "advertiserId",
                coalesce(g.od, p.od) AS od, coalesce(g.ot, p.ot) AS ot, coalesce(g.ol, p.ol) AS ol,
                coalesce(g.op, p.op) AS op, coalesce(g.orank, p.orank) AS orank,
                CASE WHEN g."id" IS NULL THEN p.od ELSE g.n::int END AS n,
                CASE WHEN g."id" IS NULL THEN p.ot ELSE g.total::int8 END AS total,
                CASE WHEN g."id" IS NULL THEN p.ol ELSE g.lead END AS lead,
                CASE WHEN p."id" IS NULL THEN g.op ELSE p.position END AS position,
                CASE WHEN p."id" IS NULL THEN g.orank ELSE p.rank END AS rank
         FROM g FULL JOIN p ON p."id" = g."id")
       SELECT "id", "advertiserId", n, total::text AS total, lead, position, rank,
              orank IS DISTINCT FROM rank AS reranked, (od, ot, ol) IS DISTINCT FROM (n, total, lead) AS regrouped
       FROM x WHERE (od, ot, ol, op, orank) IS DISTINCT FROM (n, total, lead, position, rank)`,
      [[...dirtyGroups], [...dirtyPages]],
    );
    if (rows.length) {
      await client.query(
        `UPDATE "ads" a SET "duplicates" = u.n, "aggregatedReach" = u.total, "isGroupLead" = u.lead, "positionInPage" = u.position, "currentRank" = u.rank
         FROM unnest($1::text[], $2::int[], $3::int8[], $4::bool[], $5::int[], $6::int[]) AS u(id, n, total, lead, position, rank)
         WHERE a."id" = u.id`,
        [rows.map((r) => r.id), rows.map((r) => r.n), rows.map((r) => r.total), rows.map((r) => r.lead), rows.map((r) => r.position), rows.map((r) => r.rank)],
      );
    }
    for (const row of rows) {
      if (ours.has(row.id)) changed(row.id);
      else if (row.reranked) reranked.push(row.id);
      if (row.regrouped) regroupedPages.add(row.advertiserId);
    }
    if (dirtyPages.size) {
      await client.query(
        `WITH f AS (
           SELECT "advertiserId" AS id, count(*) FILTER (WHERE "status" = 'active') AS live, sum("reach") AS total, sum("reachDelta30d") AS r30
           FROM "ads" WHERE "advertiserId" = ANY($1::text[]) GROUP BY 1),
         c AS (
           SELECT a."advertiserId" AS id, count(DISTINCT code) AS n
           FROM "ads" a CROSS JOIN LATERAL unnest(a."targetedCountries") AS code WHERE a."advertiserId" = ANY($1::text[]) GROUP BY 1),
         s AS (
           SELECT v."id", coalesce(f.live, 0)::int AS live, coalesce(f.total, 0)::int8 AS total, coalesce(f.r30, 0)::int8 AS r30,
                  coalesce(c.n, 0)::int AS countries
           FROM "advertisers" v LEFT JOIN f ON f.id = v."id" LEFT JOIN c ON c.id = v."id" WHERE v."id" = ANY($1::text[]))
         UPDATE "advertisers" v SET "liveAdsCount" = s.live, "totalReach" = s.total, "reach30d" = s.r30, "countriesCount" = s.countries FROM s
         WHERE v."id" = s."id" AND (v."liveAdsCount", v."totalReach", v."reach30d", v."countriesCount") IS DISTINCT FROM (s.live, s.total, s.r30, s.countries)`,
        [[...dirtyPages]],
      );
    }
  }

  // The day's snapshots with the ads' reach and rank of the day; the fetch time moves on every run (a snapshot write only).
  const snapshots = await client.query<{ adId: string; advertiserId: string; inserted: boolean }>(
    `INSERT INTO "ad_reach_days" AS t ("adId", "date", "reach", "rank", "fetchedAt")
     SELECT a."id", $2::date, a."reach", a."currentRank", $3::timestamptz FROM "ads" a WHERE a."id" = ANY($1::text[])
     ON CONFLICT ("adId", "date") DO UPDATE SET "reach" = excluded."reach", "rank" = excluded."rank", "fetchedAt" = excluded."fetchedAt"
       WHERE (t."reach", t."rank", t."fetchedAt") IS DISTINCT FROM (excluded."reach", excluded."rank", excluded."fetchedAt")
     RETURNING t."adId", (xmax = 0) AS inserted, (SELECT a."advertiserId" FROM "ads" a WHERE a."id" = t."adId") AS "advertiserId"`,
    [ids, dayText, context.asOf.toISOString()],
  );
  const historyPages = new Set(dirtyPages);
  // A new day's snapshot is history, not a change of the ad: an ad that only got its snapshot counts as unchanged.
  for (const row of snapshots.rows) if (row.inserted) historyPages.add(row.advertiserId);
  // The day's rank of the pages' other ads, where a recomputed rank moved it (found by their key, not by the day).
  if (reranked.length) {
    await client.query(
      `UPDATE "ad_reach_days" r SET "rank" = a."currentRank" FROM "ads" a
       WHERE r."adId" = ANY($1::text[]) AND r."date" = $2::date AND a."id" = r."adId" AND r."rank" IS DISTINCT FROM a."currentRank"`,
      [reranked, dayText],
    );
  }
  await writePageHistory(client, [...pages.keys()].filter((id) => historyPages.has(id)), dayText);
  // A duplicate group may span pages: a page whose ads changed lead is regrouped too.
  const regroup = [...new Set([...dirtyPages, ...regroupedPages])];
  if (regroup.length) await refreshAdGroups(client, regroup);
  return outcomes;
}

/**
 * The day's history of the pages fetched whose snapshots of the day are new or changed, keyed by day (a re-run of the
 * day overwrites it): each gets its day in advertiser_metric_days. Its impressions are the day's reach gains of its
 * ads, as the routes sum them over windows: reach minus the ad's previous snapshot (all of it for an ad first seen
 * since the day before, nothing for an older ad seen for the first time), never below 0: the ad's `reachDelta1d`, which
 * is that gain, computed when the ad was written today. Likes and followers are not in the API: the page's stored
 * figures (0 for a page the import created). The day's snapshots are found by their key from the pages' ads (the
 * date's own index would read the whole day of every page).
 */
async function writePageHistory(client: pg.PoolClient, fetched: string[], day: string): Promise<void> {
  if (!fetched.length) return;
  await client.query(
    `WITH g AS (
       SELECT a."advertiserId" AS id, sum(greatest(a."reachDelta1d", 0))::int8 AS n
       FROM "ads" a
       WHERE a."advertiserId" = ANY($1::text[]) AND EXISTS (SELECT 1 FROM "ad_reach_days" d WHERE d."adId" = a."id" AND d."date" = $2::date)
       GROUP BY 1)
     INSERT INTO "advertiser_metric_days" AS m ("advertiserId", "date", "facebookLikes", "instagramFollowers", "totalImpressions")
     SELECT v."id", $2::date, v."facebookLikes", v."instagramFollowers", g.n FROM g JOIN "advertisers" v ON v."id" = g.id
     ON CONFLICT ("advertiserId", "date") DO UPDATE
       SET "facebookLikes" = excluded."facebookLikes", "instagramFollowers" = excluded."instagramFollowers", "totalImpressions" = excluded."totalImpressions"
       WHERE (m."facebookLikes", m."instagramFollowers", m."totalImpressions")
             IS DISTINCT FROM (excluded."facebookLikes", excluded."instagramFollowers", excluded."totalImpressions")`,
    [fetched, day],
  );
}

export const metaAds: Format<MetaAd> = {
  records(document) {
    if (Array.isArray(document)) return document;
    if (isObject(document) && Array.isArray(document.data)) return document.data;
    if (isObject(document) && isObject(document.error)) return `the file is an API error response: ${String(document.error.message ?? 'no message')}`;
    return 'not an ads_archive page: expected { "data": [ … ] }';
  },
  analyze: ['ads', 'ad_reach_days', 'ad_demography', 'advertisers'],
  parse: parseMetaAd,
  key: (ad) => ad.id,
  apply: applyMetaAds,
};
