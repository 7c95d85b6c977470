import { createReadStream } from 'node:fs';
import { open, readFile } from 'node:fs/promises';
import readline from 'node:readline';
import { parse as parseCsv } from 'csv-parse';
import type pg from 'pg';
import { recordEvents } from '../events.js';
import { parseJson } from './json.js';
import type { Batch, Format, ImportContext, Outcome } from './run.js';
import { upsert } from './sql.js';
import { BadRecord, countryCode, isObject, optionalCount, optionalDateTime, optionalString } from './values.js';

// Rows of the public BigQuery table `bigquery-public-data.google_ads_transparency_center.creative_stats` as a
// user exports them: newline-delimited JSON (`.jsonl`, `.ndjson`, `.json`; nested and repeated fields as JSON, INT64
// as numbers or text), a `.json` JSON array (the console's download, read whole), or CSV. BigQuery's CSV export
// refuses nested and repeated fields, so a CSV row carries the flat columns and `region_stats` as JSON text
// (`TO_JSON_STRING(region_stats) AS region_stats`); `audience_selection_approach_info` likewise, or its fields as
// flat columns (`customer_lists`, `topics_of_interest`). Empty CSV cells are NULL.
//
// Mapping (one record = one creative):
//   creative_id                      → google_ads.id `google_<creative_id>`, googleAdId
//   advertiser_id                    → google_advertisers.id; name = advertiser_disclosed_name, else
//                                      advertiser_legal_name (a new advertiser without either is named after its id,
//                                      a stored name is then kept)
//   region_stats[].first_shown (min) → firstSeenAt;  region_stats[].last_shown (max) → lastSeenAt (midnight UTC;
//                                      every region, aggregates such as `EEA` included)
//   lastSeenAt                       → status active when it is at most 2 days before the import day (the dataset is
//                                      refreshed daily and runs a day behind), else inactive
//   countries = regions with a two-letter code (aggregates such as `EEA` would count their countries twice):
//     times_shown_lower/upper_bound  → reachLowerBound / reachUpperBound = their sums (a missing upper bound is the
//                                      lower one, a missing lower bound 0); reach = the midpoint of the summed bounds
//     each country's lower + upper   → countryShares [{ countryCode, share }], shares rounded to 0.0001 adding up to
//                                      exactly 1, largest first; equal shares when no country has figures;
//                                      mainCountry = the first
//   surface_serving_stats.surface_serving_stats[].surface (SEARCH, YOUTUBE, SHOPPING, MAPS, PLAY → other)
//                                    → network: the surface with the most impressions (lower + upper) over the
//                                      countries (the aggregates when no country lists one), then the one listed in
//                                      most regions; `other` when no surface is listed
//   ad_format_type TEXT/IMAGE/VIDEO  → mediaType image (a text ad is archived as a rendered image) / image / video;
//                                      format text / image (shopping on the shopping network) / video
//   audience_selection_approach_info.customer_lists    → remarketing: CRITERIA_INCLUDED or CRITERIA_INCLUDED_AND_EXCLUDED
//   audience_selection_approach_info.topics_of_interest → interest: the same
// After each batch the live-ad counts of the advertisers touched (all, per network) are recomputed from the stored ads.
// Provenance: fetchedFrom 'google-ads' and firstFetchedAt (the database clock), on insert only. No daily history: the
// export holds no per-day figure, and no route reads a Google ad's history.
// Not stored (no column): creative_page_url (a Transparency Center page, not the media, so mediaUrl stays null),
// advertiser_location, advertiser_verification_status, topic, is_funded_by_google_ad_grants, the other audience
// approaches and the times_shown dates.

const BATCH_SIZE = 2000;
/** `google_ads.fetchedFrom` of the ads this format brings in. */
const SOURCE = 'google-ads';
const DAY_MS = 86_400_000;
/** An ad last shown this many days before the import day or later is still running. */
const ACTIVE_DAYS = 2;

type Network = 'search' | 'shopping' | 'maps' | 'youtube' | 'other';
type CountryShare = { countryCode: string; share: number };

export type GoogleAdRecord = {
  id: string;
  googleAdId: string;
  advertiserId: string;
  advertiserName: string | null;
  status: 'active' | 'inactive';
  network: Network;
  firstSeenAt: Date;
  lastSeenAt: Date;
  mediaType: 'image' | 'video';
  format: 'text' | 'image' | 'shopping' | 'video';
  reach: bigint;
  reachLowerBound: bigint;
  reachUpperBound: bigint;
  mainCountry: string | null;
  countryShares: CountryShare[];
  remarketing: boolean;
  interest: boolean;
};

/** A line or CSV row that could not be read: `parse` rejects it, so it is reported at its position. */
class UnreadableRecord {
  constructor(readonly reason: string) {}
}

// ---------------------------------------------------------------------------
// Reading one record
// ---------------------------------------------------------------------------

const ID_PATTERNS = { AR: /^AR\d{1,40}$/, CR: /^CR\d{1,40}$/ };

/** `AR…` / `CR…`: the Transparency Center's advertiser and creative ids. */
function prefixedId(value: unknown, field: string, prefix: 'AR' | 'CR'): string {
  const text = optionalString(value, field);
  if (text === null) throw new BadRecord(`${field} is missing`);
  if (!ID_PATTERNS[prefix].test(text)) throw new BadRecord(`${field} must be ${prefix} and digits, got ${JSON.stringify(text)}`);
  return text;
}

/** A nested field: the value itself (JSON export) or its JSON text (CSV, `TO_JSON_STRING`). */
function nested(value: unknown, field: string): unknown {
  if (typeof value !== 'string') return value;
  if (value.trim() === '') return null;
  try {
    return parseJson(value);
  } catch (error) {
    throw new BadRecord(`${field} is not JSON: ${(error as Error).message}`);
  }
}

function enumOf<T>(value: unknown, field: string, known: Record<string, T>): T | null {
  const text = optionalString(value, field);
  if (text === null) return null;
  const mapped = known[text.toUpperCase()];
  if (mapped === undefined) throw new BadRecord(`${field} must be one of ${Object.keys(known).join(', ')}, got ${JSON.stringify(text)}`);
  return mapped;
}

const SURFACES: Record<string, Network> = { SEARCH: 'search', YOUTUBE: 'youtube', SHOPPING: 'shopping', MAPS: 'maps', PLAY: 'other' };
/** The order that breaks a tie between surfaces. */
const NETWORK_ORDER: Network[] = ['search', 'youtube', 'shopping', 'maps', 'other'];
const FORMATS = { TEXT: 'text', IMAGE: 'image', VIDEO: 'video' } as const;
const APPROACHES = { CRITERIA_INCLUDED: true, CRITERIA_INCLUDED_AND_EXCLUDED: true, CRITERIA_EXCLUDED: false, CRITERIA_UNUSED: false };

type Bounds = { lower: bigint; upper: bigint } | null;
type Surface = { network: Network; bounds: Bounds };
type Region = { code: string; country: string | null; firstShown: Date | null; lastShown: Date | null; bounds: Bounds; surfaces: Surface[] };

function bounds(entry: Record<string, unknown>, field: string): Bounds {
  const lower = optionalCount(entry.times_shown_lower_bound, `${field}.times_shown_lower_bound`);
  const upper = optionalCount(entry.times_shown_upper_bound, `${field}.times_shown_upper_bound`);
  if (lower === null && upper === null) return null;
  if (lower !== null && upper !== null && upper < lower) throw new BadRecord(`${field}.times_shown_upper_bound is below the lower bound`);
  return { lower: lower ?? 0n, upper: upper ?? lower! };
}

function surfaces(value: unknown, field: string): Surface[] {
  // The real shape is a record holding the repeated field of the same name; a bare list is read too.
  const holder = nested(value, field);
  const list = isObject(holder) ? holder.surface_serving_stats : holder;
  if (list === undefined || list === null) return [];
  if (!Array.isArray(list)) throw new BadRecord(`${field} must hold a list of surfaces`);
  return list.map((entry, i) => {
    const at = `${field}[${i}]`;
    if (!isObject(entry)) throw new BadRecord(`${at} must be an object`);
    const network = enumOf(entry.surface ?? entry.surface_code, `${at}.surface`, SURFACES);
    if (network === null) throw new BadRecord(`${at}.surface is missing`);
    return { network, bounds: bounds(entry, at) };
  });
}

function regions(value: unknown): Region[] {
  const list = nested(value, 'region_stats');
  if (list === undefined || list === null) throw new BadRecord('region_stats is missing');
  if (!Array.isArray(list)) throw new BadRecord('region_stats must be a list of regions');
  return list.map((entry, i) => {
    const at = `region_stats[${i}]`;
    if (!isObject(entry)) throw new BadRecord(`${at} must be an object`);
    const code = optionalString(entry.region_code, `${at}.region_code`);
    if (code === null) throw new BadRecord(`${at}.region_code is missing`);
    const country = /^[A-Za-z]{2}$/.test(code) ? countryCode(code) : null;
    return {
      code,
      country,
      firstShown: optionalDateTime(entry.first_shown, `${at}.first_shown`),
      lastShown: optionalDateTime(entry.last_shown, `${at}.last_shown`),
      bounds: bounds(entry, at),
      surfaces: surfaces(entry.surface_serving_stats, `${at}.surface_serving_stats`),
    };
  });
}

const weight = (b: Bounds) => (b ? b.lower + b.upper : 0n);

/** Shares in 0.0001 steps adding up to exactly 1 (largest remainders get the leftover steps), largest first. */
function sharesOf(weights: Map<string, bigint>): CountryShare[] {
  const entries = [...weights].sort(([a], [b]) => (a < b ? -1 : 1));
  if (entries.length === 0) return [];
  const known = entries.some(([, w]) => w > 0n);
  const used = entries.map(([code, w]) => [code, known ? w : 1n] as const);
  const total = used.reduce((sum, [, w]) => sum + w, 0n);
  const STEPS = 10_000n;
  const cells = used.map(([code, w]) => ({ code, steps: (w * STEPS) / total, rest: (w * STEPS) % total }));
  let left = STEPS - cells.reduce((sum, cell) => sum + cell.steps, 0n);
  for (const cell of [...cells].sort((a, b) => (b.rest > a.rest ? 1 : b.rest < a.rest ? -1 : a.code < b.code ? -1 : 1))) {
    if (left === 0n) break;
    cell.steps++;
    left--;
  }
  return cells
    .sort((a, b) => (b.steps > a.steps ? 1 : b.steps < a.steps ? -1 : a.code < b.code ? -1 : 1))
    .map((cell) => ({ countryCode: cell.code, share: Number(cell.steps) / Number(STEPS) }));
}

function dominantNetwork(list: Region[]): Network {
  const countries = list.filter((region) => region.country !== null && region.surfaces.length > 0);
  const from = countries.length > 0 ? countries : list;
  const totals = new Map<Network, { weight: bigint; regions: number }>();
  for (const region of from) {
    for (const network of new Set(region.surfaces.map((surface) => surface.network))) {
      const total = totals.get(network) ?? { weight: 0n, regions: 0 };
      total.regions++;
      totals.set(network, total);
    }
    for (const surface of region.surfaces) totals.get(surface.network)!.weight += weight(surface.bounds);
  }
  let best: Network = 'other';
  let top: { weight: bigint; regions: number } | null = null;
  for (const network of NETWORK_ORDER) {
    const total = totals.get(network);
    if (!total) continue;
    if (!top || total.weight > top.weight || (total.weight === top.weight && total.regions > top.regions)) {
      best = network;
      top = total;
    }
  }
  return best;
}

function audience(raw: Record<string, unknown>): { remarketing: boolean; interest: boolean } {
  const info = nested(raw.audience_selection_approach_info, 'audience_selection_approach_info');
  if (info !== undefined && info !== null && !isObject(info)) throw new BadRecord('audience_selection_approach_info must be an object');
  // A CSV export flattens the record into columns of the same names.
  const source = isObject(info) ? info : raw;
  const field = (name: string) => (isObject(info) ? `audience_selection_approach_info.${name}` : name);
  return {
    remarketing: enumOf(source.customer_lists, field('customer_lists'), APPROACHES) ?? false,
    interest: enumOf(source.topics_of_interest, field('topics_of_interest'), APPROACHES) ?? false,
  };
}

export function parseGoogleAd(raw: unknown, context: ImportContext): GoogleAdRecord {
  if (raw instanceof UnreadableRecord) throw new BadRecord(raw.reason);
  if (!isObject(raw)) throw new BadRecord('the record is not an object');
  const googleAdId = prefixedId(raw.creative_id, 'creative_id', 'CR');
  const advertiserId = prefixedId(raw.advertiser_id, 'advertiser_id', 'AR');
  const adFormat = enumOf(raw.ad_format_type, 'ad_format_type', FORMATS);
  if (adFormat === null) throw new BadRecord('ad_format_type is missing');
  const list = regions(raw.region_stats);
  const firsts = list.flatMap((region) => (region.firstShown ? [region.firstShown.getTime()] : []));
  const lasts = list.flatMap((region) => {
    const last = region.lastShown ?? region.firstShown;
    return last ? [last.getTime()] : [];
  });
  if (firsts.length === 0) throw new BadRecord('region_stats has no first_shown date');
  const firstSeenAt = new Date(Math.min(...firsts));
  const lastSeenAt = new Date(Math.max(...lasts));
  if (lastSeenAt < firstSeenAt) throw new BadRecord('region_stats: last_shown is before first_shown');

  let lower = 0n;
  let upper = 0n;
  const weights = new Map<string, bigint>();
  for (const region of list) {
    if (region.country === null) continue;
    lower += region.bounds?.lower ?? 0n;
    upper += region.bounds?.upper ?? 0n;
    weights.set(region.country, (weights.get(region.country) ?? 0n) + weight(region.bounds));
  }
  const countryShares = sharesOf(weights);
  const network = dominantNetwork(list);
  return {
    id: `google_${googleAdId}`,
    googleAdId,
    advertiserId,
    advertiserName: optionalString(raw.advertiser_disclosed_name, 'advertiser_disclosed_name') ?? optionalString(raw.advertiser_legal_name, 'advertiser_legal_name'),
    status: lastSeenAt.getTime() >= context.day.getTime() - ACTIVE_DAYS * DAY_MS ? 'active' : 'inactive',
    network,
    firstSeenAt,
    lastSeenAt,
    mediaType: adFormat === 'video' ? 'video' : 'image',
    format: adFormat === 'image' && network === 'shopping' ? 'shopping' : adFormat,
    reach: (lower + upper) / 2n,
    reachLowerBound: lower,
    reachUpperBound: upper,
    mainCountry: countryShares[0]?.countryCode ?? null,
    countryShares,
    ...audience(raw),
  };
}

// ---------------------------------------------------------------------------
// Writing a batch
// ---------------------------------------------------------------------------

async function applyGoogleAds(client: pg.PoolClient, ads: GoogleAdRecord[], context: ImportContext): Promise<Map<string, Outcome>> {
  const outcomes = new Map<string, Outcome>();
  const ids = ads.map((ad) => ad.id);
  // An ad that moved to another advertiser leaves its old advertiser's counts to recompute.
  const before = await client.query<{ advertiserId: string }>(`SELECT DISTINCT "advertiserId" FROM "google_ads" WHERE "id" = ANY($1::text[])`, [ids]);

  // Advertisers: the last name in the batch wins; a record without one names a new advertiser after its id.
  const names = new Map<string, string | null>();
  for (const ad of ads) names.set(ad.advertiserId, ad.advertiserName ?? names.get(ad.advertiserId) ?? null);
  const advertiserSpec = (update: string[]) => ({
    table: 'google_advertisers',
    columns: [{ name: 'id', type: 'text' }, { name: 'name', type: 'text' }, { name: 'categoryIds', type: 'int4[]' }],
    key: ['id'],
    update,
    returning: 'id, (xmax = 0) AS inserted',
  });
  const entries = [...names];
  const renamed = await upsert<{ id: string; inserted: boolean }>(
    client, advertiserSpec(['name']), entries.filter(([, name]) => name !== null).map(([id, name]) => [id, name, []]),
  );
  await upsert(client, advertiserSpec([]), entries.filter(([, name]) => name === null).map(([id]) => [id, `Google advertiser ${id}`, []]));
  const renamedAdvertisers = new Set(renamed.filter((row) => !row.inserted).map((row) => row.id));

  const content = [
    'status', 'network', 'firstSeenAt', 'lastSeenAt', 'mediaType', 'format', 'reach', 'reachLowerBound', 'reachUpperBound',
    'mainCountry', 'countryShares', 'remarketing', 'interest', 'advertiserId',
  ];
  const written = await upsert<{ id: string; inserted: boolean }>(
    client,
    {
      table: 'google_ads',
      columns: [
        { name: 'id', type: 'text' }, { name: 'googleAdId', type: 'text' }, { name: 'status', type: '"GoogleAdStatus"' },
        { name: 'network', type: '"GoogleAdNetwork"' }, { name: 'firstSeenAt', type: 'timestamptz' }, { name: 'lastSeenAt', type: 'timestamptz' },
        { name: 'mediaType', type: '"GoogleAdMediaType"' }, { name: 'format', type: 'text' }, { name: 'reach', type: 'int8' },
        { name: 'reachLowerBound', type: 'int8' }, { name: 'reachUpperBound', type: 'int8' }, { name: 'mainCountry', type: 'text' },
        { name: 'countryShares', type: 'jsonb' }, { name: 'remarketing', type: 'bool' }, { name: 'interest', type: 'bool' },
        { name: 'advertiserId', type: 'text' }, { name: 'fetchedFrom', type: 'text' },
      ],
      key: ['id'],
      update: content,
      insertOnly: { firstFetchedAt: 'now()' },
      returning: 'id, (xmax = 0) AS inserted',
    },
    ads.map((ad) => [
      ad.id, ad.googleAdId, ad.status, ad.network, ad.firstSeenAt, ad.lastSeenAt, ad.mediaType, ad.format, ad.reach,
      ad.reachLowerBound, ad.reachUpperBound, ad.mainCountry, JSON.stringify(ad.countryShares), ad.remarketing, ad.interest,
      ad.advertiserId, SOURCE,
    ]),
  );
  for (const row of written) outcomes.set(row.id, row.inserted ? 'inserted' : 'updated');
  for (const ad of ads) if (renamedAdvertisers.has(ad.advertiserId) && !outcomes.has(ad.id)) outcomes.set(ad.id, 'updated');
  const created = new Set(written.filter((row) => row.inserted).map((row) => row.id));
  await recordEvents(client, 'google-ads', ads.filter((ad) => created.has(ad.id)).map((ad) => ({
    type: 'ad.created',
    dedupeKey: `ad.created:${ad.id}`,
    adId: ad.id,
    data: { before: null, after: { platform: 'google', googleAdvertiserId: ad.advertiserId, status: ad.status, network: ad.network, reach: ad.reach, firstSeenAt: ad.firstSeenAt.toISOString() } },
  })), context.asOf);

  // Live ads per advertiser, written only where a count differs (a repeated import writes nothing).
  const touched = [...new Set([...names.keys(), ...before.rows.map((row) => row.advertiserId)])];
  await client.query(
    `WITH f AS (
       SELECT "advertiserId" AS id,
              count(*) FILTER (WHERE "status" = 'active') AS live,
              count(*) FILTER (WHERE "status" = 'active' AND "network" = 'search') AS search,
              count(*) FILTER (WHERE "status" = 'active' AND "network" = 'shopping') AS shopping,
              count(*) FILTER (WHERE "status" = 'active' AND "network" = 'maps') AS maps,
              count(*) FILTER (WHERE "status" = 'active' AND "network" = 'youtube') AS youtube,
              count(*) FILTER (WHERE "status" = 'active' AND "network" = 'other') AS other
       FROM "google_ads" WHERE "advertiserId" = ANY($1::text[]) GROUP BY 1),
     s AS (
       SELECT v."id", coalesce(f.live, 0)::int AS live, coalesce(f.search, 0)::int AS search, coalesce(f.shopping, 0)::int AS shopping,
              coalesce(f.maps, 0)::int AS maps, coalesce(f.youtube, 0)::int AS youtube, coalesce(f.other, 0)::int AS other
       FROM "google_advertisers" v LEFT JOIN f ON f.id = v."id" WHERE v."id" = ANY($1::text[]))
     UPDATE "google_advertisers" v
     SET "liveAdsAll" = s.live, "liveAdsSearch" = s.search, "liveAdsShopping" = s.shopping, "liveAdsMaps" = s.maps,
         "liveAdsYoutube" = s.youtube, "liveAdsOther" = s.other
     FROM s
     WHERE v."id" = s."id"
       AND (v."liveAdsAll", v."liveAdsSearch", v."liveAdsShopping", v."liveAdsMaps", v."liveAdsYoutube", v."liveAdsOther")
           IS DISTINCT FROM (s.live, s.search, s.shopping, s.maps, s.youtube, s.other)`,
    [touched],
  );
  return outcomes;
}

// ---------------------------------------------------------------------------
// Reading a file in batches
// ---------------------------------------------------------------------------

/** Groups records into batches of at most BATCH_SIZE, each with the position of its first record. */
async function* batched(origin: string, records: AsyncIterable<unknown>): AsyncIterable<Batch> {
  let batch: unknown[] = [];
  let offset = 0;
  for await (const record of records) {
    batch.push(record);
    if (batch.length === BATCH_SIZE) {
      yield { origin, records: batch, offset };
      offset += batch.length;
      batch = [];
    }
  }
  if (batch.length > 0) yield { origin, records: batch, offset };
}

/** One record per non-blank line; a line that is not JSON is an unreadable record at its position. */
async function* jsonLines(file: string): AsyncIterable<unknown> {
  const lines = readline.createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  let first = true;
  for await (const raw of lines) {
    const line = first ? raw.replace(/^\uFEFF/, '') : raw;
    first = false;
    if (line.trim() === '') continue;
    try {
      yield parseJson(line);
    } catch (error) {
      yield new UnreadableRecord(`not JSON: ${(error as Error).message}`);
    }
  }
}

/** The first character that is not white space (nor a byte order mark), read from the file's first bytes. */
async function firstCharacter(file: string): Promise<string | null> {
  const handle = await open(file, 'r');
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(4096), 0, 4096, 0);
    return /[^\s\uFEFF]/.exec(buffer.subarray(0, bytesRead).toString('utf8'))?.[0] ?? null;
  } finally {
    await handle.close();
  }
}

type CsvItem = { skipped: UnreadableRecord[]; record: Record<string, unknown> };

/** CSV rows as records (empty cells are NULL); a row csv-parse rejects is an unreadable record at its position. */
async function* csvRows(file: string): AsyncIterable<unknown> {
  // A rejected row is reported while parsing runs ahead of this loop, so it travels with the next good row.
  let skipped: UnreadableRecord[] = [];
  const input = createReadStream(file);
  const parser = input.pipe(
    parseCsv({
      columns: true,
      bom: true,
      skip_records_with_error: true,
      on_skip: (error) => {
        skipped.push(new UnreadableRecord(`not a CSV row: ${error?.message ?? 'unreadable'}`));
        return undefined;
      },
      on_record: (row: Record<string, string>): CsvItem => {
        const item = { skipped, record: Object.fromEntries(Object.entries(row).map(([name, value]) => [name, value === '' ? null : value])) };
        skipped = [];
        return item;
      },
    }),
  );
  // pipe() does not pass on a read error; without this the loop would wait forever.
  input.on('error', (error) => parser.destroy(error));
  for await (const item of parser as AsyncIterable<CsvItem>) {
    yield* item.skipped;
    yield item.record;
  }
  yield* skipped;
}

const isCsvError = (error: unknown): error is Error => error instanceof Error && String((error as NodeJS.ErrnoException).code).startsWith('CSV_');

async function* readGoogleAdsFile(file: string): AsyncIterable<Batch> {
  if (file.toLowerCase().endsWith('.csv')) {
    const rows = csvRows(file)[Symbol.asyncIterator]();
    const head = await rows.next().catch((error: unknown) => {
      if (isCsvError(error)) return error;
      throw error;
    });
    if (head instanceof Error) {
      yield { origin: file, records: `not CSV: ${head.message}` };
      return;
    }
    if (!head.done && isObject(head.value) && !('region_stats' in head.value)) {
      yield { origin: file, records: 'not a creative_stats export: the CSV has no region_stats column (export it as TO_JSON_STRING(region_stats) AS region_stats)' };
      return;
    }
    const all = async function* () {
      if (!head.done) yield head.value;
      for (let next = await rows.next(); !next.done; next = await rows.next()) yield next.value;
    };
    try {
      yield* batched(file, all());
    } catch (error) {
      // csv-parse stops at an error it cannot skip; the batches before it are imported.
      if (!isCsvError(error)) throw error;
      yield { origin: file, records: `not CSV after the rows read: ${error.message}` };
    }
    return;
  }
  if ((await firstCharacter(file)) === '[') {
    // A JSON array (the console's download, which is small): read whole.
    let document: unknown;
    try {
      document = parseJson(await readFile(file, 'utf8'));
    } catch (error) {
      if (!(error instanceof SyntaxError)) throw error;
      yield { origin: file, records: `not JSON: ${error.message}` };
      return;
    }
    const records = googleAds.records(document);
    if (typeof records === 'string') {
      yield { origin: file, records };
      return;
    }
    for (let offset = 0; offset < records.length; offset += BATCH_SIZE) {
      yield { origin: file, records: records.slice(offset, offset + BATCH_SIZE), offset };
    }
    return;
  }
  yield* batched(file, jsonLines(file));
}

export const googleAds: Format<GoogleAdRecord> = {
  records(document) {
    if (Array.isArray(document)) return document;
    if (isObject(document) && 'creative_id' in document) return [document];
    return 'not a creative_stats export: expected rows with creative_id, advertiser_id and region_stats';
  },
  extensions: ['.jsonl', '.ndjson', '.json', '.csv'],
  readFile: readGoogleAdsFile,
  parse: parseGoogleAd,
  key: (ad) => ad.id,
  apply: applyGoogleAds,
};
