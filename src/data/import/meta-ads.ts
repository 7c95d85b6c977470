import { createHash } from 'node:crypto';
import type pg from 'pg';
import { refreshAdGroups, refreshSeriesDays } from '../ad-groups.js';
import { bumpBrandRevisions } from '../brand-revisions.js';
import { EVENT_THRESHOLDS, recordEvents, type NewEvent } from '../events.js';
import type { Format, ImportContext, Outcome } from './run.js';
import { upsert, type UpsertSpec } from './sql.js';
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
//   the record's fingerprint     → ads.sourceHash: an ad whose record (and status) is the one stored writes its snapshot
//                                  and, when its gains move with the day, its gains and figures; nothing else
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
  /** The fingerprint of what the mapping reads of the record (see `MAPPED`). */
  hash: string;
};

/**
 * The record's fields the mapping reads, in a fixed order, and the mapping's version (raised when the mapping changes,
 * so that every stored ad is written again): the fingerprint of an ad. `ad_snapshot_url` is left out on purpose: it
 * carries the caller's access token, which changes without the ad changing.
 */
const MAPPED = [
  'id', 'page_id', 'page_name', 'ad_creation_time', 'ad_delivery_start_time', 'ad_delivery_stop_time', 'ad_creative_bodies',
  'ad_creative_link_titles', 'ad_creative_link_descriptions', 'ad_creative_link_captions', 'eu_total_reach',
  'age_country_gender_reach_breakdown', 'target_locations', 'target_gender', 'target_ages', 'languages', 'publisher_platforms',
  'beneficiary_payers',
] as const;
const MAPPING_VERSION = 1;

function fingerprintOf(raw: Record<string, unknown>): string {
  const values: unknown[] = [MAPPING_VERSION];
  for (const field of MAPPED) values.push(raw[field] ?? null);
  return createHash('sha1').update(JSON.stringify(values)).digest('base64url');
}

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
    hash: fingerprintOf(raw),
  };
}

const DAY_MS = 86_400_000;
/** `ads.fetchedFrom` of the ads this format brings in. */
const SOURCE = 'meta-ads';

/**
 * The reach gain over `days` of an ad stored for the first time: it has no older snapshot, so all its reach when it
 * started within the period, else none (what the gains of a stored ad compute from its snapshots).
 */
function newAdGain(ad: MetaAd, day: Date, days: number): bigint {
  return ad.firstSeenAt.getTime() >= day.getTime() - days * DAY_MS ? ad.reach : 0n;
}

/** A stored ad as the batch finds it, with its reach gains recomputed from the batch's reach. */
type StoredAd = {
  id: string;
  collationId: string;
  advertiserId: string;
  sourceHash: string | null;
  /** What the events compare: the stored status, landing page, copy and reach (text: int8). */
  status: string; landingPageDomain: string | null; title: string | null; body: string | null; reach: string;
  /** The gains with the batch's reach (text: int8). */
  d1: string; d7: string; d30: string;
  /** The gains stored. */
  o1: string; o7: string; o30: string;
};

/** An ad's duplicate-group figures and its position and current rank in its page, as recomputed. */
type Figures = {
  id: string; advertiserId: string; n: number; total: string; lead: boolean; position: number | null; rank: number | null;
  /** The current rank stored before (null for a new or inactive ad). */
  orank: number | null;
  mine: boolean; reranked: boolean; regrouped: boolean;
};

const CONTENT = [
  'collationId', 'status', 'createdAt', 'firstSeenAt', 'title', 'body', 'ctaDescription', 'ctaLinkDescription',
  'landingPageDomain', 'reach', 'targetedCountries', 'mainCountry', 'gender', 'ageMin', 'ageMax', 'isEuAd', 'isLowReach',
  'languages', 'publisherPlatforms', 'beneficiary', 'payer', 'advertiserId',
  'reachDelta1d', 'reachDelta7d', 'reachDelta30d', 'duplicates', 'aggregatedReach', 'isGroupLead', 'positionInPage', 'currentRank',
];

async function applyMetaAds(client: pg.PoolClient, ads: MetaAd[], context: ImportContext): Promise<Map<string, Outcome>> {
  const outcomes = new Map<string, Outcome>();
  const changed = (id: string) => {
    if (!outcomes.has(id)) outcomes.set(id, 'updated');
  };
  const ids = ads.map((ad) => ad.id);
  const ours = new Set(ids);
  const day = context.day;
  const dayText = day.toISOString().slice(0, 10);
  const running = (ad: MetaAd) => ad.stoppedAt === null || ad.stoppedAt.getTime() > context.asOf.getTime();
  const lastSeenOf = (ad: MetaAd) => (running(ad) ? new Date(Math.max(day.getTime(), ad.firstSeenAt.getTime())) : ad.stoppedAt!);
  // The record's fingerprint with what the mapping derives from the run's time (a stop time that has passed).
  const fingerprint = (ad: MetaAd) => `${ad.hash}${running(ad) ? 'a' : 'i'}`;

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

  // The ads stored before, and their reach gains with the batch's reach: reach minus the latest snapshot at least
  // 1/7/30 days older (0 before the ad started; no change when no older snapshot is known). The period's first day is
  // parameter $4, $5, $6 for 1, 7 and 30 days.
  const periodStart = (days: number) => new Date(day.getTime() - days * DAY_MS).toISOString().slice(0, 10);
  const gain = (param: string) => `(u.reach - coalesce(
      (SELECT r."reach" FROM "ad_reach_days" r WHERE r."adId" = u.id AND r."date" <= ${param}::date ORDER BY r."adId" DESC, r."date" DESC LIMIT 1),
      CASE WHEN u.first >= (${param}::date)::timestamp AT TIME ZONE 'UTC' THEN 0 ELSE u.reach END))::text`;
  const storedRows = await client.query<StoredAd>(
    `SELECT a."id", a."collationId", a."advertiserId", a."sourceHash", a."status"::text AS status, a."landingPageDomain", a."title", a."body",
            a."reach"::text AS reach, ${gain('$4')} AS d1, ${gain('$5')} AS d7, ${gain('$6')} AS d30,
            a."reachDelta1d"::text AS o1, a."reachDelta7d"::text AS o7, a."reachDelta30d"::text AS o30
     FROM unnest($1::text[], $2::int8[], $3::timestamptz[]) AS u(id, reach, first) JOIN "ads" a ON a."id" = u.id`,
    [ids, ads.map((ad) => ad.reach.toString()), ads.map((ad) => ad.firstSeenAt.toISOString()), periodStart(1), periodStart(7), periodStart(30)],
  );
  const stored = new Map(storedRows.rows.map((row) => [row.id, row]));

  // What changes: new ads, ads whose record (or its status) differs from the one stored, ads whose gains moved. An ad
  // whose record is the one stored and whose gains hold costs its snapshot alone.
  type Write = { ad: MetaAd; gains: [bigint, bigint, bigint]; recordChanged: boolean };
  const writes: Write[] = [];
  for (const ad of ads) {
    const before = stored.get(ad.id);
    if (!before) {
      writes.push({ ad, gains: [newAdGain(ad, day, 1), newAdGain(ad, day, 7), newAdGain(ad, day, 30)], recordChanged: true });
      continue;
    }
    const recordChanged = before.sourceHash !== fingerprint(ad);
    const gainsMoved = before.d1 !== before.o1 || before.d7 !== before.o7 || before.d30 !== before.o30;
    if (recordChanged || gainsMoved) writes.push({ ad, gains: [BigInt(before.d1), BigInt(before.d7), BigInt(before.d30)], recordChanged });
  }

  // The figures derived from the ads written: their duplicate groups (size, reach, lead: media first, then the most
  // reach) and their pages' positions (newest first) and current ranks (active ads by 7-day gain), with the groups and
  // pages a moved ad leaves. Computed before the write, over the stored ads with the batch's values in place, so the
  // ads are written once with their figures; the other ads whose figures move are updated after.
  const dirtyPages = new Set<string>();
  const dirtyGroups = new Set<string>();
  for (const { ad } of writes) {
    dirtyPages.add(ad.pageId);
    dirtyGroups.add(ad.collationId);
    const old = stored.get(ad.id);
    if (old) {
      dirtyPages.add(old.advertiserId);
      dirtyGroups.add(old.collationId);
    }
  }
  const figures = new Map<string, Figures>();
  if (writes.length) {
    const old = `"duplicates" AS od, "aggregatedReach" AS ot, "isGroupLead" AS ol, "positionInPage" AS op, "currentRank" AS orank`;
    const { rows } = await client.query<Figures>(
      `WITH w AS (
         SELECT * FROM unnest($3::text[], $4::text[], $5::text[], $6::timestamptz[], $7::text[], $8::int8[], $9::int8[])
           AS u("id", "advertiserId", "collationId", "firstSeenAt", "status", "reach", "reachDelta7d")),
       pool AS (
         SELECT a."id", a."advertiserId", a."collationId", a."firstSeenAt", a."status"::text AS "status", a."reach", a."reachDelta7d",
                a."mediaUrl" IS NOT NULL AS media, ${old}, false AS mine
         FROM "ads" a
         WHERE (a."advertiserId" = ANY($1::text[]) OR a."collationId" = ANY($2::text[])) AND NOT EXISTS (SELECT 1 FROM w WHERE w."id" = a."id")
         UNION ALL
         SELECT w.*, coalesce(a."mediaUrl" IS NOT NULL, false), a.${old.replaceAll(', "', ', a."')}, true
         FROM w LEFT JOIN "ads" a ON a."id" = w."id"),
       g AS (
         SELECT "id", count(*) OVER w AS n, sum("reach") OVER w AS total,
                row_number() OVER (w ORDER BY media DESC, "reach" DESC, "id" COLLATE "C") = 1 AS lead
         FROM pool WHERE "collationId" = ANY($2::text[]) WINDOW w AS (PARTITION BY "collationId")),
       p AS (
         SELECT "id", row_number() OVER (PARTITION BY "advertiserId" ORDER BY "firstSeenAt" DESC, "id" COLLATE "C")::int AS position,
                CASE WHEN "status" = 'active' THEN row_number() OVER (
                  PARTITION BY "advertiserId", "status" = 'active' ORDER BY "reachDelta7d" DESC, "reach" DESC, "id" COLLATE "C")::int END AS rank
         FROM pool WHERE "advertiserId" = ANY($1::text[])),
       x AS (
         SELECT o."id", o."advertiserId", o.mine, o.od, o.ot, o.ol, o.op, o.orank,
                coalesce(g.n::int, o.od) AS n, coalesce(g.total::int8, o.ot) AS total, CASE WHEN g."id" IS NULL THEN o.ol ELSE g.lead END AS lead,
                CASE WHEN p."id" IS NULL THEN o.op ELSE p.position END AS position, CASE WHEN p."id" IS NULL THEN o.orank ELSE p.rank END AS rank
         FROM pool o LEFT JOIN g ON g."id" = o."id" LEFT JOIN p ON p."id" = o."id")
       SELECT "id", "advertiserId", n, total::text AS total, lead, position, rank, orank, mine,
              orank IS DISTINCT FROM rank AS reranked, (od, ot, ol) IS DISTINCT FROM (n, total, lead) AS regrouped
       FROM x WHERE mine OR (od, ot, ol, op, orank) IS DISTINCT FROM (n, total, lead, position, rank)`,
      [
        [...dirtyPages], [...dirtyGroups], writes.map((w) => w.ad.id), writes.map((w) => w.ad.pageId), writes.map((w) => w.ad.collationId),
        writes.map((w) => w.ad.firstSeenAt.toISOString()), writes.map((w) => (running(w.ad) ? 'active' : 'inactive')),
        writes.map((w) => w.ad.reach.toString()), writes.map((w) => w.gains[1].toString()),
      ],
    );
    for (const row of rows) figures.set(row.id, row);
  }

  // The ads, with their gains and figures: a new ad inserted, a stored ad rewritten only when one of its values differs.
  const adSpec: UpsertSpec = {
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
      { name: 'reachDelta1d', type: 'int8' }, { name: 'reachDelta7d', type: 'int8' }, { name: 'reachDelta30d', type: 'int8' },
      { name: 'duplicates', type: 'int4' }, { name: 'aggregatedReach', type: 'int8' }, { name: 'isGroupLead', type: 'bool' },
      { name: 'positionInPage', type: 'int4' }, { name: 'currentRank', type: 'int4' },
      // Written with a change only: the fingerprint of the record. Insert-only: the platform, the media type, the source.
      { name: 'sourceHash', type: 'text' }, { name: 'platform', type: 'text' }, { name: 'mediaType', type: '"AdMediaType"' },
      { name: 'fetchedFrom', type: 'text' },
    ],
    key: ['id'],
    update: CONTENT,
    alsoOnChange: ['"sourceHash" = excluded."sourceHash"'],
    insertOnly: { firstFetchedAt: 'now()' },
    returning: 'id, (xmax = 0) AS inserted',
  };
  const adRow = ({ ad, gains }: Write) => {
    const f = figures.get(ad.id)!;
    return [
      ad.id, ad.collationId, running(ad) ? 'active' : 'inactive', ad.createdAt, ad.firstSeenAt, lastSeenOf(ad), ad.title, ad.body, ad.ctaDescription,
      ad.ctaLinkDescription, ad.landingPageDomain, ad.reach, ad.targetedCountries, ad.mainCountry, ad.gender, ad.ageMin, ad.ageMax,
      ad.isEuAd, ad.reach < 1000n, ad.languages, ad.publisherPlatforms, ad.beneficiary, ad.payer, ad.pageId, ...gains,
      f.n, f.total, f.lead, f.position, f.rank, fingerprint(ad), 'facebook', 'unknown', SOURCE,
    ];
  };
  const isNew = (w: Write) => !stored.has(w.ad.id);
  const written = [
    ...(await upsert<{ id: string; inserted: boolean }>(client, { ...adSpec, allNew: true }, writes.filter(isNew).map(adRow))),
    ...(await upsert<{ id: string; inserted: boolean }>(client, adSpec, writes.filter((w) => !isNew(w)).map(adRow))),
  ];
  for (const row of written) outcomes.set(row.id, row.inserted ? 'inserted' : 'updated');
  // A record that differs where the mapping reads nothing of it (its order, a field not mapped) writes its fingerprint
  // alone, without counting as a change, so the next run skips it.
  const rehashed = writes.filter((w) => w.recordChanged && !outcomes.has(w.ad.id) && stored.has(w.ad.id));
  if (rehashed.length) {
    await client.query(
      `UPDATE "ads" a SET "sourceHash" = u.h FROM unnest($1::text[], $2::text[]) AS u(id, h) WHERE a."id" = u.id AND a."sourceHash" IS DISTINCT FROM u.h`,
      [rehashed.map((w) => w.ad.id), rehashed.map((w) => fingerprint(w.ad))],
    );
  }
  // The day an ad was last seen moves with every daily run while it runs: kept up to date without counting as a change
  // of the ad (nothing derives from it), so an unchanged running ad is `unchanged` on the next day too.
  const seenBefore = ads.filter((ad) => stored.has(ad.id));
  if (seenBefore.length) {
    await client.query(
      `UPDATE "ads" a SET "lastSeenAt" = u.seen FROM unnest($1::text[], $2::timestamptz[]) AS u(id, seen)
       WHERE a."id" = u.id AND a."lastSeenAt" IS DISTINCT FROM u.seen`,
      [seenBefore.map((ad) => ad.id), seenBefore.map((ad) => lastSeenOf(ad).toISOString())],
    );
  }

  // The other ads of those groups and pages whose figures moved.
  const others = [...figures.values()].filter((row) => !row.mine);
  if (others.length) {
    await client.query(
      `UPDATE "ads" a SET "duplicates" = u.n, "aggregatedReach" = u.total, "isGroupLead" = u.lead, "positionInPage" = u.position, "currentRank" = u.rank
       FROM unnest($1::text[], $2::int[], $3::int8[], $4::bool[], $5::int[], $6::int[]) AS u(id, n, total, lead, position, rank)
       WHERE a."id" = u.id`,
      [others.map((r) => r.id), others.map((r) => r.n), others.map((r) => r.total), others.map((r) => r.lead), others.map((r) => r.position), others.map((r) => r.rank)],
    );
  }
  const regroupedPages = new Set<string>();
  const reranked: string[] = [];
  for (const row of figures.values()) {
    if (!row.mine && ours.has(row.id)) changed(row.id);
    else if (!row.mine && row.reranked) reranked.push(row.id);
    if (row.regrouped) regroupedPages.add(row.advertiserId);
  }

  // Demography: the record's breakdown replaces the stored one (ads whose record has no breakdown keep theirs; an ad
  // whose record is the one stored has the breakdown stored).
  const withBreakdown = writes.filter((w) => w.recordChanged && w.ad.demography !== null).map((w) => w.ad);
  if (withBreakdown.length) {
    const cells = withBreakdown.flatMap((ad) => ad.demography!.map((cell) => [ad.id, cell.country, cell.ageRange, cell.gender, cell.reach]));
    const column = (i: number) => cells.map((cell) => (typeof cell[i] === 'bigint' ? cell[i].toString() : cell[i]));
    // Only stored ads can have cells the record no longer has.
    const replaced = withBreakdown.filter((ad) => stored.has(ad.id)).map((ad) => ad.id);
    const removed = replaced.length
      ? await client.query<{ adId: string }>(
          `DELETE FROM "ad_demography" d WHERE d."adId" = ANY($1::text[])
             AND NOT EXISTS (SELECT 1 FROM unnest($2::text[], $3::text[], $4::text[], $5::text[]) AS u(a, c, r, g)
                             WHERE u.a = d."adId" AND u.c = d."country" AND u.r = d."ageRange" AND u.g = d."gender")
           RETURNING d."adId"`,
          [replaced, column(0), column(1), column(2), column(3)],
        )
      : { rows: [] };
    const cellSpec: UpsertSpec = {
      table: 'ad_demography',
      columns: [
        { name: 'adId', type: 'text' }, { name: 'country', type: 'text' }, { name: 'ageRange', type: 'text' },
        { name: 'gender', type: 'text' }, { name: 'reach', type: 'int8' },
      ],
      key: ['adId', 'country', 'ageRange', 'gender'],
      update: ['reach'],
      returning: '"adId"',
    };
    const ofStored = (cell: unknown[]) => stored.has(cell[0] as string);
    const upserted = [
      ...(await upsert<{ adId: string }>(client, { ...cellSpec, allNew: true }, cells.filter((cell) => !ofStored(cell)))),
      ...(await upsert<{ adId: string }>(client, cellSpec, cells.filter(ofStored))),
    ];
    for (const row of [...removed.rows, ...upserted]) changed(row.adId);
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

  // The day's snapshots with the ads' reach and rank of the day; the fetch time moves on every run (a snapshot write only).
  // `inserted`: the day had no row before this statement (its subquery reads the table as the statement found it). Not
  // xmax: "ad_reach_days" is partitioned (migration 0037), and a partitioned table's RETURNING has no system columns.
  const snapshots = await client.query<{ adId: string; advertiserId: string; inserted: boolean }>(
    `INSERT INTO "ad_reach_days" AS t ("adId", "date", "reach", "rank", "fetchedAt")
     SELECT a."id", $2::date, a."reach", a."currentRank", $3::timestamptz FROM "ads" a WHERE a."id" = ANY($1::text[])
     ON CONFLICT ("adId", "date") DO UPDATE SET "reach" = excluded."reach", "rank" = excluded."rank", "fetchedAt" = excluded."fetchedAt"
       WHERE (t."reach", t."rank", t."fetchedAt") IS DISTINCT FROM (excluded."reach", excluded."rank", excluded."fetchedAt")
     RETURNING t."adId", NOT EXISTS (SELECT 1 FROM "ad_reach_days" d WHERE d."adId" = t."adId" AND d."date" = t."date") AS inserted,
       (SELECT a."advertiserId" FROM "ads" a WHERE a."id" = t."adId") AS "advertiserId"`,
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
  // The brands' daily series sum the reach rows: a page whose ads only got (or changed) a day's row is recomputed too.
  const regrouped = new Set(regroup);
  const reseries = [...new Set(snapshots.rows.map((row) => row.advertiserId))].filter((id) => id && !regrouped.has(id));
  if (reseries.length) await refreshSeriesDays(client, reseries);
  await recordEvents(client, 'meta-ads', [
    ...(await changesOf(client, ads, writes, stored, outcomes, running, lastSeenOf, dayText)),
    ...(await rankMoves(client, [...figures.values()], dayText)),
  ], context.asOf);
  // The pages whose ads were rewritten (and those a moved ad left): their brand diffs read anew, events or not. Last,
  // so that the counters' row locks are held as briefly as the transaction allows.
  await bumpBrandRevisions(client, dirtyPages);
  return outcomes;
}

/**
 * The events of a batch (see src/data/events.ts): ads created, stopped, pointed elsewhere, rewritten, or whose reach
 * jumped, and pages that started many ads on the day. Keyed so that a re-run of the day finds the same changes again
 * without recording them twice.
 */
async function changesOf(
  client: pg.PoolClient,
  ads: MetaAd[],
  writes: { ad: MetaAd; gains: [bigint, bigint, bigint]; recordChanged: boolean }[],
  stored: Map<string, StoredAd>,
  outcomes: Map<string, Outcome>,
  running: (ad: MetaAd) => boolean,
  lastSeenOf: (ad: MetaAd) => Date,
  day: string,
): Promise<NewEvent[]> {
  const events: NewEvent[] = [];
  const subject = (ad: MetaAd) => ({ adId: ad.id, advertiserId: ad.pageId });
  for (const { ad, gains, recordChanged } of writes) {
    const before = stored.get(ad.id);
    if (!before) {
      if (outcomes.get(ad.id) !== 'inserted') continue;
      const after = { platform: 'facebook', title: ad.title, status: running(ad) ? 'active' : 'inactive', reach: ad.reach, firstSeenAt: ad.firstSeenAt.toISOString() };
      events.push({ type: 'ad.created', dedupeKey: `ad.created:${ad.id}`, ...subject(ad), data: { before: null, after } });
      continue;
    }
    if (recordChanged) {
      if (before.status === 'active' && !running(ad)) {
        const last = lastSeenOf(ad).toISOString();
        events.push({ type: 'ad.stopped', dedupeKey: `ad.stopped:${ad.id}:${last.slice(0, 10)}`, ...subject(ad),
          data: { before: { status: 'active' }, after: { status: 'inactive', lastSeenAt: last } } });
      }
      if (before.landingPageDomain !== ad.landingPageDomain) {
        events.push({ type: 'ad.landing_page_changed', dedupeKey: `ad.landing_page_changed:${ad.id}:${day}:${ad.landingPageDomain ?? ''}`, ...subject(ad),
          data: { before: { landingPageDomain: before.landingPageDomain }, after: { landingPageDomain: ad.landingPageDomain } } });
      }
      if (before.title !== ad.title || before.body !== ad.body) {
        const copy = createHash('sha1').update(JSON.stringify([ad.title, ad.body])).digest('base64url').slice(0, 12);
        events.push({ type: 'ad.copy_changed', dedupeKey: `ad.copy_changed:${ad.id}:${day}:${copy}`, ...subject(ad),
          data: { before: { title: before.title, body: before.body }, after: { title: ad.title, body: ad.body } } });
      }
    }
    // The day's gain: at least the threshold, and at least half the reach the ad had before it.
    const gain = gains[0];
    const previous = ad.reach - gain;
    if (gain >= BigInt(EVENT_THRESHOLDS.reachJump) && gain * 2n >= previous) {
      events.push({ type: 'ad.reach_jumped', dedupeKey: `ad.reach_jumped:${ad.id}:${day}`, ...subject(ad),
        data: { before: { reach: BigInt(before.reach) }, after: { reach: ad.reach, gain } } });
    }
  }
  // Pages that got new ads: a burst when the ads started on the day reach the threshold.
  const grown = [...new Set(ads.filter((ad) => outcomes.get(ad.id) === 'inserted').map((ad) => ad.pageId))];
  if (grown.length) {
    const { rows } = await client.query<{ id: string; n: number }>(
      `SELECT "advertiserId" AS id, count(*)::int AS n FROM "ads"
       WHERE "advertiserId" = ANY($1::text[]) AND "firstSeenAt" >= ($2::date)::timestamp AT TIME ZONE 'UTC'
         AND "firstSeenAt" < ($2::date + 1)::timestamp AT TIME ZONE 'UTC'
       GROUP BY 1 HAVING count(*) >= $3`,
      [grown, day, EVENT_THRESHOLDS.burstAds],
    );
    for (const row of rows) {
      events.push({ type: 'advertiser.burst', dedupeKey: `advertiser.burst:${row.id}:${day}`, advertiserId: row.id, data: { before: null, after: { day, newAds: row.n } } });
    }
  }
  return events;
}

/** Where a current rank stands for `brandtracker.rank_changed`: first, in the page's top, or neither (below, inactive). */
function rankTier(rank: number | null): 'first' | 'top' | null {
  if (rank === null) return null;
  if (rank === 1) return 'first';
  return rank <= EVENT_THRESHOLDS.topRank ? 'top' : null;
}

/**
 * `brandtracker.rank_changed`: the ads of tracked pages (a brandtracker follows the page, in any workspace) whose current
 * rank in their page crossed a line: into or out of the page's top `EVENTS_TOP_RANK`, or into or out of the first place.
 * A move inside the top (4th to 6th), which every new leader causes for the ads below it, is not an event, nor the
 * stop of an ad (an inactive ad has no rank; `ad.stopped` tells it). `figures`
 * holds every ad whose rank the batch recomputed, with its stored rank.
 */
async function rankMoves(client: pg.PoolClient, figures: Figures[], day: string): Promise<NewEvent[]> {
  // An ad that stopped has no rank: its `ad.stopped` says it left.
  const moved = figures.filter((row) => row.rank !== null && rankTier(row.orank) !== rankTier(row.rank));
  if (!moved.length) return [];
  const { rows } = await client.query<{ id: string; page: string }>(
    `SELECT "id", "facebookPageId" AS page FROM "brandtrackers" WHERE "facebookPageId" = ANY($1::text[])`,
    [[...new Set(moved.map((row) => row.advertiserId))]],
  );
  const trackerOf = new Map(rows.map((row) => [row.page, row.id]));
  return moved.flatMap((row) => {
    const brandtrackerId = trackerOf.get(row.advertiserId);
    if (!brandtrackerId) return [];
    return [{
      type: 'brandtracker.rank_changed' as const,
      dedupeKey: `brandtracker.rank_changed:${row.id}:${day}:${rankTier(row.rank) ?? 'out'}`,
      adId: row.id,
      advertiserId: row.advertiserId,
      data: { brandtrackerId, top: EVENT_THRESHOLDS.topRank, before: { rank: row.orank }, after: { rank: row.rank, day } },
    }];
  });
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
