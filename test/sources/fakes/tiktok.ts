import { createHash, randomBytes } from 'node:crypto';
import { parseJson } from '../../../src/data/import/json.js';
import {
  DAY_MS, FaultScript, jsonWithIntegers, pick, recordAt, recordCount, startServer, type FakeServer, type FaultRule,
  type RecordedRequest, type Records, type Reply,
} from './server.js';

// A fake TikTok Commercial Content API, as developers.tiktok.com documents it:
//   - `POST /v2/oauth/token/` (client access token): form-encoded client_key, client_secret,
//     grant_type=client_credentials → `{ access_token: 'clt.…', expires_in, token_type: 'Bearer' }`; OAuth errors
//     are `{ error, error_description, log_id }` (invalid_client, invalid_request, unsupported_grant_type).
//   - `POST /v2/research/adlib/ad/query/?fields=ad.id,…` with `Authorization: Bearer <token>` and a JSON body
//     `{ filters: { ad_published_date_range: { min, max } (YYYYMMDD, min from 20221001), country_code?,
//     advertiser_business_ids? }, search_term? (≤ 50 chars; when given, advertiser_business_ids is ignored),
//     search_type? (exact_phrase | fuzzy_phrase), max_count? (default 10, at most 50), search_id? }` →
//     `{ data: { ads: [{ ad, advertiser }], has_more, search_id }, error: { code: 'ok', message: '', log_id } }`.
//     search_id is an opaque cursor (base64 of `{"last_sort":[…]}`, as the API's look); one that does not belong to
//     the query is `invalid_params` "Search Id … is invalid or expired".
//   - v2 errors `{ error: { code, message, log_id } }`: access_token_invalid 401 (a missing, unknown or expired
//     token), invalid_params 400, rate_limit_exceeded 429, internal_error 500.
//   - ad.id and advertiser.business_id go out as JSON number literals (19 digits), as the API sends them.
// The ad's date filter applies to ad.first_shown_date; country_code is validated, not filtered on.
// Chosen where no public source gives it: invalid_client is HTTP 401 (the OAuth 2.0 default), other OAuth errors 400;
// the messages of invalid_params.

export type TikTokAdRecord = { ad: Record<string, unknown>; advertiser: Record<string, unknown> };

export type TikTokFault =
  | 'rate_limit_exceeded' | 'internal_error' | 'invalid_params' | 'access_token_invalid' | 'expire_tokens' | 'truncated' | 'dropped'
  /** The normal answer, `ms` late. */
  | { kind: 'slow'; ms: number }
  | { kind: 'rate_limit_exceeded' | 'internal_error' | 'invalid_params' | 'access_token_invalid' | 'expire_tokens' | 'truncated' | 'dropped' };

export type FakeTikTokOptions = {
  clientKey?: string;
  clientSecret?: string;
  /** expires_in of the tokens issued, in seconds (may be fractional for tests). Default 7200. */
  tokenTtlSeconds?: number;
  ads: Records<TikTokAdRecord>;
  /** Scripted by ad query request number (1-based). `expire_tokens` expires every token issued, then answers 401. */
  faults?: FaultRule<TikTokFault>[];
  /** Scripted by token request number: rate_limit_exceeded, internal_error, truncated, dropped, slow. */
  tokenFaults?: FaultRule<TikTokFault>[];
  latencyMs?: number;
};

export type FakeTikTok = FakeServer & {
  faults: FaultScript<TikTokFault>;
  tokenFaults: FaultScript<TikTokFault>;
  clientKey: string;
  clientSecret: string;
  /** Tokens issued so far, in order. */
  tokens(): string[];
  queryRequests(): RecordedRequest[];
  tokenRequests(): RecordedRequest[];
  setAds(ads: Records<TikTokAdRecord>): void;
  /** Expires every token issued (the next query with one answers 401 access_token_invalid). */
  expireTokens(): void;
};

const TOKEN_PATH = /^\/v2\/oauth\/token\/?$/;
const QUERY_PATH = /^\/v2\/research\/adlib\/ad\/query\/?$/;
const AD_FIELDS = ['id', 'first_shown_date', 'last_shown_date', 'status', 'status_statement', 'videos', 'image_urls', 'reach'];
const ADVERTISER_FIELDS = ['business_id', 'business_name', 'paid_for_by'];
const FIELDS = new Set(['ad', 'advertiser', ...AD_FIELDS.map((f) => `ad.${f}`), ...ADVERTISER_FIELDS.map((f) => `advertiser.${f}`)]);
const MESSAGES = {
  access_token_invalid: 'The access token is invalid or not found in the request.',
  rate_limit_exceeded: 'The API rate limit was exceeded. Please try again later.',
  internal_error: 'Something went wrong. Please try again later.',
  invalid_params: 'One or more fields in the request are invalid.',
} as const;
const STATUS = { access_token_invalid: 401, rate_limit_exceeded: 429, internal_error: 500, invalid_params: 400 } as const;

/** TikTok's log id: a UTC timestamp and hex, like `202207280326050102231031430C7E754E`. */
const logId = () => new Date().toISOString().replace(/\D/g, '').slice(0, 14) + randomBytes(10).toString('hex').toUpperCase();

class Invalid extends Error {}
const invalid = (message: string): never => {
  throw new Invalid(message);
};

type Query = {
  fields: string[];
  min: number;
  max: number;
  businessIds: Set<string> | null;
  term: string | null;
  fuzzy: boolean;
  maxCount: number;
  start: number;
  fingerprint: string;
};

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function ymd(value: unknown, field: string): number {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value : '';
  if (!/^\d{8}$/.test(text)) invalid(`${field} must be a date formatted as YYYYMMDD`);
  return Number(text);
}

function readQuery(request: RecordedRequest): Query {
  const fields = (request.query.get('fields') ?? '').split(',').map((field) => field.trim()).filter(Boolean);
  if (fields.length === 0) invalid('fields is required');
  for (const field of fields) if (!FIELDS.has(field)) invalid(`Invalid field: ${field}`);
  let body: unknown;
  try {
    body = parseJson(request.body);
  } catch {
    return invalid('The request body is not valid JSON');
  }
  if (!isObject(body)) return invalid('The request body must be a JSON object');
  const filters = body.filters;
  if (!isObject(filters)) return invalid('filters is required');
  const range = filters.ad_published_date_range;
  if (!isObject(range)) return invalid('filters.ad_published_date_range is required');
  const min = ymd(range.min, 'ad_published_date_range.min');
  const max = ymd(range.max, 'ad_published_date_range.max');
  if (min < 20221001) invalid('ad_published_date_range.min must be after 20221001');
  if (max < min) invalid('ad_published_date_range.max must not be before min');
  const country = filters.country_code ?? 'ALL';
  if (typeof country !== 'string' || !/^(?:[A-Z]{2}|ALL)$/.test(country)) invalid('filters.country_code must be a country code or ALL');
  const ids = filters.advertiser_business_ids;
  if (ids !== undefined && (!Array.isArray(ids) || !ids.every((id) => /^\d+$/.test(String(id))))) invalid('filters.advertiser_business_ids must be a list of ids');
  const term = body.search_term;
  if (term !== undefined && (typeof term !== 'string' || term.length > 50)) invalid('search_term must be a string of at most 50 characters');
  const searchType = String(body.search_type ?? 'exact_phrase').toLowerCase();
  if (searchType !== 'exact_phrase' && searchType !== 'fuzzy_phrase') invalid('search_type must be exact_phrase or fuzzy_phrase');
  const maxCount = body.max_count ?? 10;
  if (typeof maxCount !== 'number' || !Number.isInteger(maxCount) || maxCount < 1 || maxCount > 50) invalid('max_count must be between 1 and 50');
  const search = typeof term === 'string' && term.trim() !== '' ? term.trim().toLowerCase() : null;
  const businessIds = search === null && Array.isArray(ids) && ids.length > 0 ? new Set(ids.map(String)) : null;
  const fingerprint = createHash('sha1').update(JSON.stringify([min, max, country, [...(businessIds ?? [])], search, searchType])).digest('hex').slice(0, 12);
  let start = 0;
  if (body.search_id !== undefined) {
    const id = String(body.search_id);
    let sort: unknown;
    try {
      sort = (JSON.parse(Buffer.from(id, 'base64url').toString('utf8')) as { last_sort?: unknown }).last_sort;
    } catch {
      sort = null;
    }
    if (!Array.isArray(sort) || typeof sort[0] !== 'number' || sort[1] !== fingerprint) invalid(`Search Id ${id} is invalid or expired`);
    start = (sort as [number])[0];
  }
  return { fields, min, max, businessIds, term: search, fuzzy: searchType === 'fuzzy_phrase', maxCount: maxCount as number, start, fingerprint };
}

function matches(record: TikTokAdRecord, query: Query): boolean {
  const shown = Number(record.ad.first_shown_date);
  if (!(shown >= query.min && shown <= query.max)) return false;
  if (query.businessIds && !query.businessIds.has(String(record.advertiser.business_id))) return false;
  if (query.term !== null) {
    const haystack = [record.advertiser.business_name, record.advertiser.paid_for_by, record.ad.title].filter((t) => typeof t === 'string').join('\n').toLowerCase();
    const words = query.fuzzy ? query.term.split(/\s+/) : [query.term];
    if (!words.some((word) => haystack.includes(word))) return false;
  }
  return true;
}

function project(record: TikTokAdRecord, fields: string[]): Partial<TikTokAdRecord> {
  const out: Partial<TikTokAdRecord> = {};
  for (const group of ['ad', 'advertiser'] as const) {
    const source = record[group];
    const all = fields.includes(group);
    const wanted = (group === 'ad' ? AD_FIELDS : ADVERTISER_FIELDS).filter((f) => all || fields.includes(`${group}.${f}`));
    if (wanted.length === 0) continue;
    const picked: Record<string, unknown> = {};
    for (const field of wanted) if (source[field] !== undefined) picked[field] = source[field];
    out[group] = picked;
  }
  return out;
}

const searchId = (index: number, fingerprint: string) => Buffer.from(JSON.stringify({ last_sort: [index, fingerprint] }), 'utf8').toString('base64url');
const isRawId = (path: string[]) => {
  const [parent, key] = path.slice(-2);
  return (parent === 'ad' && key === 'id') || (parent === 'advertiser' && key === 'business_id');
};

export async function startFakeTikTok(options: FakeTikTokOptions): Promise<FakeTikTok> {
  const clientKey = options.clientKey ?? 'fake-client-key';
  const clientSecret = options.clientSecret ?? 'fake-client-secret';
  const ttl = options.tokenTtlSeconds ?? 7200;
  const faults = new FaultScript<TikTokFault>(options.faults);
  const tokenFaults = new FaultScript<TikTokFault>(options.tokenFaults);
  const issued = new Map<string, number>();
  let ads = options.ads;

  const json = (status: number, body: string, log: string, extra: Partial<Reply> = {}): Reply => ({
    status,
    body,
    headers: { 'content-type': 'application/json', 'x-tt-logid': log },
    ...extra,
  });
  const v2Error = (code: keyof typeof STATUS, message: string = MESSAGES[code]): Reply => {
    const log = logId();
    return json(STATUS[code], JSON.stringify({ error: { code, message, log_id: log } }), log);
  };
  const oauthError = (status: number, error: string, description: string): Reply => {
    const log = logId();
    return json(status, JSON.stringify({ error, error_description: description, log_id: log }), log);
  };
  const shaped = (reply: Reply, fault: TikTokFault | null): Reply => {
    const kind = typeof fault === 'string' ? fault : fault?.kind;
    const half = Math.floor(Buffer.byteLength(reply.body ?? '') / 2);
    if (kind === 'truncated') return { ...reply, cutAt: half };
    if (kind === 'dropped') return { ...reply, dropAt: half };
    const delay = (typeof fault === 'object' && fault?.kind === 'slow' ? fault.ms : 0) + (options.latencyMs ?? 0);
    return delay ? { ...reply, delayMs: delay } : reply;
  };
  const faultReply = (fault: TikTokFault | null): Reply | null => {
    const kind = typeof fault === 'string' ? fault : fault?.kind;
    if (kind === 'rate_limit_exceeded' || kind === 'internal_error' || kind === 'invalid_params' || kind === 'access_token_invalid') return v2Error(kind);
    return null;
  };

  const token = (request: RecordedRequest): Reply => {
    const fault = tokenFaults.next(request);
    const early = faultReply(fault);
    if (early) return early;
    if (request.method !== 'POST') return oauthError(405, 'invalid_request', 'The token endpoint takes POST.');
    if (!String(request.headers['content-type'] ?? '').toLowerCase().startsWith('application/x-www-form-urlencoded')) {
      return oauthError(400, 'invalid_request', 'Content-Type must be application/x-www-form-urlencoded.');
    }
    const form = new URLSearchParams(request.body);
    const [key, secret, grant] = ['client_key', 'client_secret', 'grant_type'].map((name) => form.get(name));
    if (!key || !secret || !grant) return oauthError(400, 'invalid_request', 'The request parameters are malformed: client_key, client_secret and grant_type are required.');
    if (grant !== 'client_credentials') return oauthError(400, 'unsupported_grant_type', `Grant type ${grant} is not supported.`);
    if (key !== clientKey || secret !== clientSecret) return oauthError(401, 'invalid_client', 'Client key or secret is incorrect.');
    const access = `clt.${randomBytes(30).toString('base64url')}`;
    issued.set(access, Date.now() + ttl * 1000);
    return shaped(json(200, JSON.stringify({ access_token: access, expires_in: ttl, token_type: 'Bearer' }), logId()), fault);
  };

  const query = (request: RecordedRequest): Reply => {
    const fault = faults.next(request);
    if (fault === 'expire_tokens' || (fault !== null && typeof fault === 'object' && fault.kind === 'expire_tokens')) {
      for (const access of issued.keys()) issued.set(access, 0);
    }
    const early = faultReply(fault);
    if (early) return early;
    if (request.method !== 'POST') return v2Error('invalid_params', 'The ad query takes POST.');
    const bearer = /^Bearer\s+(\S+)$/i.exec(String(request.headers.authorization ?? ''))?.[1];
    const expires = bearer === undefined ? undefined : issued.get(bearer);
    if (expires === undefined || expires <= Date.now()) return v2Error('access_token_invalid');
    let q: Query;
    try {
      q = readQuery(request);
    } catch (e) {
      if (e instanceof Invalid) return v2Error('invalid_params', e.message);
      throw e;
    }
    const total = recordCount(ads);
    const page: Partial<TikTokAdRecord>[] = [];
    let i = q.start;
    let hasMore = false;
    for (; i < total; i++) {
      const record = recordAt(ads, i);
      if (!matches(record, q)) continue;
      if (page.length === q.maxCount) {
        hasMore = true;
        break;
      }
      page.push(project(record, q.fields));
    }
    const log = logId();
    const body = { data: { ads: page, has_more: hasMore, search_id: searchId(i, q.fingerprint) }, error: { code: 'ok', message: '', log_id: log } };
    return shaped(json(200, jsonWithIntegers(body, isRawId), log), fault);
  };

  const server = await startServer((request) => {
    if (TOKEN_PATH.test(request.path)) return token(request);
    if (QUERY_PATH.test(request.path)) return query(request);
    const log = logId();
    return json(404, JSON.stringify({ error: { code: 'not_found', message: `No API at ${request.path}`, log_id: log } }), log);
  });
  return {
    ...server,
    faults,
    tokenFaults,
    clientKey,
    clientSecret,
    tokens: () => [...issued.keys()],
    queryRequests: () => server.requests.filter((request) => QUERY_PATH.test(request.path)),
    tokenRequests: () => server.requests.filter((request) => TOKEN_PATH.test(request.path)),
    setAds: (next) => {
      ads = next;
    },
    expireTokens: () => {
      for (const access of issued.keys()) issued.set(access, 0);
    },
  };
}

// ---------------------------------------------------------------------------
// Records
// ---------------------------------------------------------------------------

const BUSINESSES = [
  'Maison Laine', 'Velo Nord', 'Aurora Glow', 'Tidal Home', 'Nordic Pantry', 'Ember Studio', 'Solstice Skin', 'Fjord Outdoor',
  'Citrus Lane', 'Petit Atelier',
];
const AUDIENCES = ['<1K', '1K-10K', '30K', '120K', '1M-5M', '10M+'];
const COUNTRY_SPLITS = [['FR', 'IT'], ['DE', 'AT'], ['ES', 'PT'], ['NL', 'BE'], ['PL', 'CZ'], ['SE', 'DK']];
const FIRST = Date.UTC(2024, 0, 1);

const ymdOf = (time: number) => Number(new Date(time).toISOString().slice(0, 10).replace(/-/g, ''));

/**
 * A query-ads record deterministic in `i`, as the importer (src/data/import/tiktok-ads.ts) reads it: ad.id 19 digits
 * (decimal text here; the fake sends it as a number literal), 20 ads an advertiser, first shown between 2024-01-01
 * and 2025-11, a third inactive, videos / one image / a carousel, reach as TikTok's rounded text.
 */
export function tiktokAd(i: number, overrides: { ad?: Record<string, unknown>; advertiser?: Record<string, unknown> } = {}): TikTokAdRecord {
  const a = Math.floor(i / 20);
  const name = BUSINESSES[a % BUSINESSES.length] + (a >= BUSINESSES.length ? ` ${Math.floor(a / BUSINESSES.length) + 1}` : '');
  const id = (7_301_234_567_000_000_000n + BigInt(i)).toString();
  const first = FIRST + pick(i, 1, 700) * DAY_MS;
  const media = pick(i, 4, 4);
  const [c1, c2] = COUNTRY_SPLITS[pick(i, 5, COUNTRY_SPLITS.length)];
  const base = `https://library-media.tiktok.example/${id}`;
  return {
    ad: {
      id,
      first_shown_date: ymdOf(first),
      last_shown_date: ymdOf(first + pick(i, 2, 90) * DAY_MS),
      status: pick(i, 3, 3) === 0 ? 'inactive' : 'active',
      status_statement: '',
      videos: media < 2 ? [{ url: `${base}.mp4`, cover_image_url: `${base}.jpg` }] : [],
      image_urls: media === 2 ? [`${base}-1.jpg`, `${base}-2.jpg`] : media === 3 ? [`${base}.jpg`] : [],
      reach: {
        unique_users_seen: AUDIENCES[pick(i, 6, AUDIENCES.length)],
        unique_users_seen_by_country: { [c1]: `${10 + pick(i, 7, 80)}K`, [c2]: `${1 + pick(i, 8, 9)}K` },
      },
      ...overrides.ad,
    },
    advertiser: {
      business_id: (7_012_345_678_900_000_000n + BigInt(a) * 17n).toString(),
      business_name: name,
      paid_for_by: `${name} SAS`,
      ...overrides.advertiser,
    },
  };
}
