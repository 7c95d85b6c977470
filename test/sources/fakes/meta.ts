import { randomBytes } from 'node:crypto';
import {
  DAY_MS, FaultScript, isoDay, pick, recordAt, recordCount, startServer, type FakeServer, type FaultRule, type RecordedRequest,
  type Records, type Reply,
} from './server.js';

// A fake Meta Ad Library API: `GET /v{major}.{minor}/ads_archive` of the Graph API, as the reference page
// (developers.facebook.com/docs/graph-api/reference/ads_archive) and the Graph API's error and rate-limit pages describe:
//   - access_token as a query parameter (or `Authorization: Bearer|OAuth <token>`); none → code 104, a wrong one →
//     code 190, an expired one → code 190 subcode 463; every error is HTTP 400 `{ error: { message, type, code,
//     error_subcode?, is_transient?, fbtrace_id } }` with a `WWW-Authenticate` header on token errors.
//   - ad_reached_countries required, an array text (`['FR']` or `["FR"]`); search_terms or search_page_ids (at most
//     10) required; limit (default 25, capped at `maxLimit`); fields (a comma list of ArchivedAd fields, `id` always
//     returned; none given → only `id`); ad_active_status (default ACTIVE: no stop time or one after `now`);
//     ad_delivery_date_min/max (inclusive days, on the delivery start); search_type KEYWORD_UNORDERED (default: every
//     word) or KEYWORD_EXACT_PHRASE, case-insensitive over bodies, titles, descriptions, captions and page name;
//     ad_type is validated, not filtered on; countries are validated, not filtered on.
//   - pages `{ data, paging: { cursors: { before, after }, next } }`; `next` (the same query with `after`) only when
//     more ads match; an empty result is `{ data: [] }`. Cursors are opaque base64.
//   - `x-app-usage` and `x-business-use-case-usage` (type ads_archive; estimated_time_to_regain_access in minutes)
//     on every answer.
// Chosen where no public source gives the exact text: the messages of the code 100 validation errors.

export type MetaAdRecord = Record<string, unknown>;

export type MetaUsage = {
  call_count: number;
  total_cputime: number;
  total_time: number;
  /** Minutes, as Meta sends it (only in x-business-use-case-usage). Fractions are allowed so a test can wait little. */
  estimated_time_to_regain_access: number;
};

export type MetaFault =
  | 'throttle' | 'http429' | 'server_error' | 'truncated' | 'dropped' | 'expired_token'
  /** A rate-limit error: code 613 by default (4, 17, 613 or 80000–80014), HTTP 400 by default (or 403), usage at 100%. */
  | { kind: 'throttle'; code?: number; subcode?: number; status?: 400 | 403; regainMinutes?: number }
  /** HTTP 429 with a code 4 error body, and Retry-After when given. */
  | { kind: 'http429'; retryAfterSeconds?: number }
  /** HTTP 500 code 2 "An unexpected error has occurred", is_transient. */
  | { kind: 'server_error' }
  /** Status 200, the page's JSON cut in the middle (framed as complete). */
  | { kind: 'truncated' }
  /** Status 200, the connection dropped in the middle of the body. */
  | { kind: 'dropped' }
  /** Code 190 subcode 463 from now on, until `setToken`. */
  | { kind: 'expired_token' }
  /** The normal answer, `ms` late. */
  | { kind: 'slow'; ms: number };

export type FakeMetaOptions = {
  /** The valid access token. */
  token: string;
  ads: Records<MetaAdRecord>;
  /** Scripted by ads_archive request number (1-based). */
  faults?: FaultRule<MetaFault>[];
  /** Usage reported on normal answers, fixed or per request number. Default: 1% everywhere, 0 minutes. */
  usage?: Partial<MetaUsage> | ((n: number) => Partial<MetaUsage>);
  /** The business id keying x-business-use-case-usage. */
  businessId?: string;
  /** Largest page served. Default 1000. */
  maxLimit?: number;
  /** The time deciding ACTIVE/INACTIVE. Default: the real clock. */
  now?: () => Date;
  /** Delay of every normal answer. */
  latencyMs?: number;
};

export type FakeMeta = FakeServer & {
  faults: FaultScript<MetaFault>;
  /** The ads_archive requests received (any status). */
  archiveRequests(): RecordedRequest[];
  setAds(ads: Records<MetaAdRecord>): void;
  /** A new valid token; also ends an `expired_token` fault. */
  setToken(token: string): void;
  setUsage(usage: FakeMetaOptions['usage']): void;
};

const ARCHIVED_AD_FIELDS = new Set([
  'id', 'ad_creation_time', 'ad_creative_bodies', 'ad_creative_link_captions', 'ad_creative_link_descriptions',
  'ad_creative_link_titles', 'ad_delivery_start_time', 'ad_delivery_stop_time', 'ad_snapshot_url', 'age_country_gender_reach_breakdown',
  'beneficiary_payers', 'br_total_reach', 'bylines', 'currency', 'delivery_by_region', 'demographic_distribution',
  'estimated_audience_size', 'eu_total_reach', 'impressions', 'languages', 'page_id', 'page_name', 'publisher_platforms', 'spend',
  'target_ages', 'target_gender', 'target_locations', 'total_reach_by_location',
]);
const AD_TYPES = new Set(['ALL', 'POLITICAL_AND_ISSUE_ADS', 'EMPLOYMENT_ADS', 'HOUSING_ADS', 'FINANCIAL_PRODUCTS_AND_SERVICES_ADS']);
const PATH = /^\/v(\d+)\.(\d+)\/ads_archive\/?$/;

type GraphError = { status: number; code: number; message: string; subcode?: number; transient?: boolean; headers?: Record<string, string> };

class Invalid extends Error {}
const invalid = (message: string): never => {
  throw new Invalid(message);
};

/** A Graph API array parameter: `['FR']`, `["FR","DE"]`, `[123,456]`. */
function arrayParam(name: string, text: string, item: RegExp): string[] {
  const match = /^\s*\[(.*)\]\s*$/s.exec(text);
  if (!match) return invalid(`(#100) Param ${name} must be an array, like ['FR']`);
  const items = match[1].trim() === '' ? [] : match[1].split(',').map((part) => part.trim().replace(/^(['"])(.*)\1$/s, '$2'));
  items.forEach((value, i) => {
    if (!item.test(value)) invalid(`(#100) Param ${name}[${i}] is not valid: ${JSON.stringify(value)}`);
  });
  return items;
}

/** A Graph time: `YYYY-MM-DD` or `YYYY-MM-DDTHH:MM:SS+0000`. */
function graphTime(value: unknown): number | null {
  if (typeof value !== 'string' || value === '') return null;
  const time = Date.parse(value.length === 10 ? `${value}T00:00:00Z` : value.replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
  return Number.isNaN(time) ? null : time;
}

const texts = (value: unknown): string[] => (Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : []);

type Query = {
  fields: string[];
  limit: number;
  status: 'ACTIVE' | 'ALL' | 'INACTIVE';
  min: string | null;
  max: string | null;
  pageIds: Set<string> | null;
  words: string[] | null;
  phrase: string | null;
  start: number;
};

function readQuery(params: URLSearchParams, maxLimit: number): Query {
  const countries = params.get('ad_reached_countries');
  if (countries === null || countries.trim() === '') invalid('(#100) The parameter ad_reached_countries is required');
  if (arrayParam('ad_reached_countries', countries!, /^(?:[A-Z]{2}|ALL)$/).length === 0) invalid('(#100) Param ad_reached_countries must not be empty');
  const terms = params.get('search_terms');
  const pages = params.get('search_page_ids');
  if ((terms === null || terms.trim() === '') && pages === null) invalid('(#100) Either search_terms or search_page_ids is required');
  const pageIds = pages === null ? null : arrayParam('search_page_ids', pages, /^\d{1,20}$/);
  if (pageIds && pageIds.length === 0) invalid('(#100) Param search_page_ids must not be empty');
  if (pageIds && pageIds.length > 10) invalid(`(#100) Param search_page_ids must have at most 10 elements, got ${pageIds.length}`);
  const limitText = params.get('limit');
  if (limitText !== null && !/^[1-9]\d*$/.test(limitText)) invalid('(#100) Param limit must be a positive integer');
  const fields = (params.get('fields') ?? '').split(',').map((field) => field.trim()).filter(Boolean);
  for (const field of fields) if (!ARCHIVED_AD_FIELDS.has(field)) invalid(`(#100) Tried accessing nonexisting field (${field}) on node type (ArchivedAd)`);
  const status = params.get('ad_active_status') ?? 'ACTIVE';
  if (status !== 'ACTIVE' && status !== 'ALL' && status !== 'INACTIVE') return invalid('(#100) Param ad_active_status must be one of {ACTIVE, ALL, INACTIVE}');
  const day = (name: string) => {
    const value = params.get(name);
    if (value !== null && !/^\d{4}-\d{2}-\d{2}$/.test(value)) invalid(`(#100) Param ${name} must be a date formatted as YYYY-mm-dd`);
    return value;
  };
  const adType = params.get('ad_type');
  if (adType !== null && !AD_TYPES.has(adType)) invalid(`(#100) Param ad_type must be one of {${[...AD_TYPES].join(', ')}}`);
  const searchType = params.get('search_type') ?? 'KEYWORD_UNORDERED';
  if (searchType !== 'KEYWORD_UNORDERED' && searchType !== 'KEYWORD_EXACT_PHRASE') invalid('(#100) Param search_type must be one of {KEYWORD_UNORDERED, KEYWORD_EXACT_PHRASE}');
  const term = terms?.trim().replace(/^(['"])(.*)\1$/s, '$2').toLowerCase() ?? '';
  const after = params.get('after');
  let start = 0;
  if (after !== null) {
    const decoded = /^ads_archive:(\d+)$/.exec(Buffer.from(after, 'base64').toString('utf8'));
    if (!decoded) invalid('(#100) Invalid cursor: the after parameter is not a cursor of this edge');
    start = Number(decoded![1]);
  }
  return {
    fields,
    limit: Math.min(limitText === null ? 25 : Number(limitText), maxLimit),
    status,
    min: day('ad_delivery_date_min'),
    max: day('ad_delivery_date_max'),
    pageIds: pageIds && new Set(pageIds.map((id) => id.replace(/^0+(?=\d)/, ''))),
    words: term === '' || searchType === 'KEYWORD_EXACT_PHRASE' ? null : term.split(/\s+/),
    phrase: term === '' || searchType !== 'KEYWORD_EXACT_PHRASE' ? null : term,
    start,
  };
}

function matches(ad: MetaAdRecord, query: Query, now: number): boolean {
  const stop = graphTime(ad.ad_delivery_stop_time);
  const running = stop === null || stop > now;
  if (query.status === 'ACTIVE' && !running) return false;
  if (query.status === 'INACTIVE' && running) return false;
  if (query.min !== null || query.max !== null) {
    const started = graphTime(ad.ad_delivery_start_time) ?? graphTime(ad.ad_creation_time);
    if (started === null) return false;
    const day = isoDay(started);
    if ((query.min !== null && day < query.min) || (query.max !== null && day > query.max)) return false;
  }
  if (query.pageIds && !query.pageIds.has(String(ad.page_id))) return false;
  if (query.words || query.phrase) {
    const haystack = [
      ...texts(ad.ad_creative_bodies), ...texts(ad.ad_creative_link_titles), ...texts(ad.ad_creative_link_descriptions),
      ...texts(ad.ad_creative_link_captions), typeof ad.page_name === 'string' ? ad.page_name : '',
    ].join('\n').toLowerCase();
    if (query.phrase !== null && !haystack.includes(query.phrase)) return false;
    if (query.words && !query.words.every((word) => haystack.includes(word))) return false;
  }
  return true;
}

function project(ad: MetaAdRecord, fields: string[], token: string): MetaAdRecord {
  const out: MetaAdRecord = {};
  for (const field of fields) {
    if (field === 'id' || ad[field] === undefined) continue;
    const value = ad[field];
    // Meta's snapshot URL carries the caller's token; a connector must not store it as is.
    out[field] = field === 'ad_snapshot_url' && typeof value === 'string' && !value.includes('access_token=')
      ? `${value}${value.includes('?') ? '&' : '?'}access_token=${encodeURIComponent(token)}`
      : value;
  }
  out.id = ad.id;
  return out;
}

const cursor = (index: number) => Buffer.from(`ads_archive:${index}`, 'utf8').toString('base64');

export async function startFakeMeta(options: FakeMetaOptions): Promise<FakeMeta> {
  let ads = options.ads;
  let token = options.token;
  let expired = false;
  let usage = options.usage;
  const faults = new FaultScript<MetaFault>(options.faults);
  const businessId = options.businessId ?? '1122334455667788';
  const maxLimit = options.maxLimit ?? 1000;
  const now = options.now ?? (() => new Date());

  const usageHeaders = (n: number, high?: { regainMinutes: number }): Record<string, string> => {
    const given = typeof usage === 'function' ? usage(n) : usage;
    const figures: MetaUsage = high
      ? { call_count: 100, total_cputime: 100, total_time: 100, estimated_time_to_regain_access: high.regainMinutes }
      : { call_count: 1, total_cputime: 1, total_time: 1, estimated_time_to_regain_access: 0, ...given };
    const { estimated_time_to_regain_access, ...app } = figures;
    return {
      'x-app-usage': JSON.stringify(app),
      'x-business-use-case-usage': JSON.stringify({ [businessId]: [{ type: 'ads_archive', ...app, estimated_time_to_regain_access }] }),
    };
  };

  const answer = (status: number, body: string, version: string, n: number, extra: Record<string, string> = {}, high?: { regainMinutes: number }): Reply => {
    const trace = randomBytes(8).toString('base64url');
    return {
      status,
      body,
      headers: {
        'content-type': 'application/json; charset=UTF-8',
        'facebook-api-version': version,
        'x-fb-trace-id': trace,
        'x-fb-rev': '1019283746',
        'cache-control': 'private, no-cache, no-store, must-revalidate',
        ...usageHeaders(n, high),
        ...extra,
      },
    };
  };

  const error = (e: GraphError, version: string, n: number, high?: { regainMinutes: number }): Reply => {
    const body = {
      error: {
        message: e.message,
        type: 'OAuthException',
        code: e.code,
        ...(e.subcode !== undefined ? { error_subcode: e.subcode } : {}),
        ...(e.transient ? { is_transient: true } : {}),
        fbtrace_id: randomBytes(8).toString('base64url'),
      },
    };
    const headers = { ...e.headers };
    if (e.code === 190 || e.code === 104) headers['www-authenticate'] = `OAuth "Facebook Platform" "invalid_token" "${e.message.replace(/"/g, "'")}"`;
    return answer(e.status, JSON.stringify(body), version, n, headers, high);
  };

  const expiredError = (): GraphError => ({
    status: 400,
    code: 190,
    subcode: 463,
    message: `Error validating access token: Session has expired on ${new Date(now().getTime() - 3_600_000).toUTCString()}. The current time is ${now().toUTCString()}.`,
  });

  const page = (request: RecordedRequest, base: string, version: string, n: number): Reply => {
    const query = readQuery(request.query, maxLimit);
    const total = recordCount(ads);
    const time = now().getTime();
    const data: MetaAdRecord[] = [];
    let i = query.start;
    let first = -1;
    let nextIndex = -1;
    for (; i < total; i++) {
      const ad = recordAt(ads, i);
      if (!matches(ad, query, time)) continue;
      if (data.length === query.limit) {
        nextIndex = i;
        break;
      }
      if (first < 0) first = i;
      data.push(project(ad, query.fields, token));
    }
    if (data.length === 0) return answer(200, JSON.stringify({ data: [] }), version, n);
    const after = cursor(nextIndex >= 0 ? nextIndex : i);
    const paging: { cursors: { before: string; after: string }; next?: string } = { cursors: { before: cursor(first), after } };
    if (nextIndex >= 0) {
      const next = new URLSearchParams(request.query);
      next.set('after', after);
      paging.next = `${base}${request.path}?${next.toString()}`;
    }
    return answer(200, JSON.stringify({ data, paging }), version, n);
  };

  const handle = (request: RecordedRequest, base: string): Reply => {
    const route = PATH.exec(request.path);
    if (!route) {
      return error({ status: 400, code: 2500, message: `Unknown path components: ${request.path}` }, 'v21.0', faults.count);
    }
    const version = `v${route[1]}.${route[2]}`;
    const fault = faults.next(request);
    const n = faults.count;
    if (request.method !== 'GET') return error({ status: 400, code: 100, message: 'Unsupported post request.' }, version, n);
    const kind = typeof fault === 'string' ? fault : fault?.kind;
    const spec = typeof fault === 'object' && fault !== null ? fault : null;
    switch (kind) {
      case 'throttle': {
        const t: Extract<MetaFault, { kind: 'throttle' }> = spec && spec.kind === 'throttle' ? spec : { kind: 'throttle' };
        const code = t.code ?? 613;
        const text: Record<number, string> = { 4: 'Application request limit reached', 17: 'User request limit reached', 613: 'Calls to this api have exceeded the rate limit.' };
        const message = text[code] ?? 'There have been too many calls from this ad-account. Wait a bit and try again. For more info, please refer to https://developers.facebook.com/docs/graph-api/overview/rate-limiting.';
        const subcode = t.subcode ?? (code === 17 || code >= 80000 ? 2446079 : undefined);
        return error({ status: t.status ?? 400, code, subcode, message: `(#${code}) ${message}`, transient: true }, version, n, { regainMinutes: t.regainMinutes ?? 1 });
      }
      case 'http429': {
        const retry = spec && spec.kind === 'http429' ? spec.retryAfterSeconds : undefined;
        const headers: Record<string, string> = retry === undefined ? {} : { 'retry-after': String(retry) };
        return error({ status: 429, code: 4, message: '(#4) Application request limit reached', transient: true, headers }, version, n, { regainMinutes: 1 });
      }
      case 'server_error':
        return error({ status: 500, code: 2, message: 'An unexpected error has occurred. Please retry your request later.', transient: true }, version, n);
      case 'expired_token':
        expired = true;
        break;
    }

    const given = request.query.get('access_token') ?? /^(?:Bearer|OAuth)\s+(\S+)$/i.exec(String(request.headers.authorization ?? ''))?.[1] ?? null;
    if (given === null || given === '') return error({ status: 400, code: 104, message: 'An access token is required to request this resource.' }, version, n);
    if (given !== token) return error({ status: 400, code: 190, message: 'Invalid OAuth access token - Cannot parse access token' }, version, n);
    if (expired) return error(expiredError(), version, n);

    let reply: Reply;
    try {
      reply = page(request, base, version, n);
    } catch (e) {
      if (e instanceof Invalid) return error({ status: 400, code: 100, message: e.message }, version, n);
      throw e;
    }
    const half = Math.floor(Buffer.byteLength(reply.body ?? '') / 2);
    if (kind === 'truncated') return { ...reply, cutAt: half };
    if (kind === 'dropped') return { ...reply, dropAt: half };
    const delay = (spec && spec.kind === 'slow' ? spec.ms : 0) + (options.latencyMs ?? 0);
    return delay ? { ...reply, delayMs: delay } : reply;
  };

  const server = await startServer((request, self) => handle(request, self.url));
  return {
    ...server,
    faults,
    archiveRequests: () => server.requests.filter((request) => PATH.test(request.path)),
    setAds: (next) => {
      ads = next;
    },
    setToken: (next) => {
      token = next;
      expired = false;
    },
    setUsage: (next) => {
      usage = next;
    },
  };
}

// ---------------------------------------------------------------------------
// Records
// ---------------------------------------------------------------------------

const BRANDS = [
  'Aurora Glow', 'Maison Laine', 'Velo Nord', 'Tidal Home', 'Ember Studio', 'Lumen Ceramics', 'Nordic Pantry', 'Petit Atelier',
  'Solstice Skin', 'Fjord Outdoor', 'Citrus Lane', 'Oak & Ash',
];
const PRODUCTS = [
  'vitamin C serum', 'night cream', 'merino scarf', 'rain jacket', 'stoneware mug', 'linen napkins', 'single-origin coffee',
  'trail running shoes', 'soy candle', 'cork yoga mat', 'leather wallet', 'polarized sunglasses',
];
const HOOKS = [
  'free shipping across Europe', '20% off this week only', 'the new collection just dropped', 'loved by 10,000 customers',
  'handmade in small batches', 'back in stock at last',
];
const COUNTRIES: [string, string][] = [
  ['FR', 'France'], ['DE', 'Germany'], ['IT', 'Italy'], ['ES', 'Spain'], ['NL', 'Netherlands'], ['BE', 'Belgium'], ['PL', 'Poland'], ['SE', 'Sweden'],
];
const AGES = ['18-24', '25-34', '35-44', '45-54', '55-64', '65+'];
const LANGUAGES = [['fr'], ['en'], ['de'], ['en', 'fr'], ['it'], ['es']];
const PLATFORMS = [['facebook', 'instagram'], ['facebook'], ['instagram'], ['facebook', 'instagram', 'messenger', 'audience_network']];
const START = Date.UTC(2025, 0, 1);

/** The Facebook page of ad `i`: 20 ads a page. */
export function metaPageOf(i: number): { pageId: string; pageName: string; domain: string } {
  const p = Math.floor(i / 20);
  const brand = BRANDS[p % BRANDS.length];
  const round = Math.floor(p / BRANDS.length);
  const pageName = round === 0 ? brand : `${brand} ${round + 1}`;
  const slug = brand.toLowerCase().replace(/&/g, 'and').replace(/[^a-z0-9]+/g, '');
  return { pageId: String(100_200_300_400_500 + p * 13), pageName, domain: `${slug}${round === 0 ? '' : round + 1}.com` };
}

/**
 * A realistic ads_archive record, deterministic in `i`: 20 ads a page, each 4 consecutive ads of a page sharing their
 * creative text (one duplicate group), a third stopped, about a fifth under 1,000 reach, EU reach split over two
 * countries. The id is 16 digits.
 */
export function metaAd(i: number, overrides: MetaAdRecord = {}): MetaAdRecord {
  const { pageId, pageName, domain } = metaPageOf(i);
  const p = Math.floor(i / 20);
  const creative = Math.floor((i % 20) / 4);
  const product = PRODUCTS[(p + creative) % PRODUCTS.length];
  const hook = HOOKS[(p * 3 + creative) % HOOKS.length];
  const id = String(1_202_100_000_000_000 + i * 7);
  const started = START + pick(i, 1, 600) * DAY_MS;
  const stopped = pick(i, 4, 3) === 0 ? started + (7 + pick(i, 5, 60)) * DAY_MS : null;
  const reach = pick(i, 6, 5) === 0 ? pick(i, 7, 900) : 1000 + pick(i, 8, 200_000);
  const a = pick(i, 9, COUNTRIES.length);
  const b = (a + 1 + pick(i, 10, COUNTRIES.length - 1)) % COUNTRIES.length;
  const shares = [Math.floor(reach * 0.6), reach - Math.floor(reach * 0.6)];
  const breakdown = [a, b].map((c, k) => {
    const male = Math.floor(shares[k] * 0.4);
    return { country: COUNTRIES[c][0], age_gender_breakdowns: [{ age_range: AGES[pick(i, 11 + k, AGES.length)], male, female: shares[k] - male }] };
  });
  const title = product[0].toUpperCase() + product.slice(1);
  return {
    id,
    ad_creation_time: isoDay(started - pick(i, 3, 3) * DAY_MS),
    ad_creative_bodies: [`${pageName}: our ${product}, ${hook}.`],
    ad_creative_link_captions: [domain],
    ad_creative_link_descriptions: [`Shop the ${product} at ${pageName}`],
    ad_creative_link_titles: [title],
    ad_delivery_start_time: isoDay(started),
    ...(stopped === null ? {} : { ad_delivery_stop_time: isoDay(stopped) }),
    ad_snapshot_url: `https://www.facebook.com/ads/archive/render_ad/?id=${id}`,
    page_id: pageId,
    page_name: pageName,
    publisher_platforms: PLATFORMS[pick(i, 13, PLATFORMS.length)],
    languages: LANGUAGES[pick(i, 14, LANGUAGES.length)],
    eu_total_reach: reach,
    age_country_gender_reach_breakdown: breakdown,
    target_ages: pick(i, 15, 2) === 0 ? ['18', '65+'] : ['25', '54'],
    target_gender: ['All', 'Women', 'Men'][pick(i, 16, 3)],
    target_locations: [a, b].map((c) => ({ name: COUNTRIES[c][1], num_obfuscated: 0, type: 'countries', excluded: false })),
    beneficiary_payers: [{ payer: `${pageName} SAS`, beneficiary: pageName, current: true }],
    ...overrides,
  };
}
