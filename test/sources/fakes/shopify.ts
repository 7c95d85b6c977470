import { createHash, randomUUID } from 'node:crypto';
import {
  DAY_MS, FaultScript, pick, recordAt, recordCount, startServer, type FakeServer, type FaultRule, type RecordedRequest, type Records,
  type Reply,
} from './server.js';

// A fake of many Shopify storefronts' public `products.json`, one server for all stores: the connector's URL template
// `SHOPIFY_STORE_URL=http://127.0.0.1:PORT/{domain}` makes `GET /<domain>/products.json?limit=250&page=N`.
//   - `{ products: [...] }` pages of `limit` (default 30, at most 250) by `page` (from 1); past the end `products` is
//     empty; page × limit above 25,000 is HTTP 400 `{ "errors": "Page * Limit exceeds the 25000 limit." }`, as stores
//     answer (a limit reported by scraper authors, not documented by Shopify).
//   - ids are JSON numbers, prices decimal text, tags an array, as the storefront serves them.
//   - ETag (a hash of the page) and Last-Modified (when the store's products last changed) when enabled; a matching
//     If-None-Match, or else an If-Modified-Since not before the change, answers 304 without a body.
//   - a store's status other than 200 answers every request with it and the storefront's kind of body: 401/402/403/
//     404/423 an HTML page, 429 and 430 (Shopify's "Security Rejection", its answer to too many requests from one
//     client) an HTML "Too Many Requests" page with Retry-After, 5xx an HTML error page.
//   - in flight at once and timestamps are tracked per store (`maxInFlight(domain)`, `requestsFor(domain)`).

export type ShopifyProductRecord = Record<string, unknown>;

export type ShopifyFault =
  | 'truncated' | 'dropped'
  /** Answer this status with the storefront's body for it (see above). */
  | { kind: 'status'; status: number; retryAfterSeconds?: number }
  | { kind: 'truncated' } | { kind: 'dropped' }
  /** The normal answer, `ms` late. */
  | { kind: 'slow'; ms: number };

export type ShopifyStore = {
  products: Records<ShopifyProductRecord>;
  /** Every request answers this status (200, the default, serves the products). */
  status?: number;
  /** Retry-After on 429/430 answers. Default 2. */
  retryAfterSeconds?: number;
  etag?: boolean;
  /** true: Last-Modified from when the fake started or `setProducts` last ran; a Date: that time. */
  lastModified?: boolean | Date;
  /** A 301 to the same path on this domain (of the same fake), as a store moved to its primary domain does. */
  redirectTo?: string;
  /** Scripted by this store's request number (1-based). */
  faults?: FaultRule<ShopifyFault>[];
  latencyMs?: number;
};

export type FakeShopifyOptions = {
  stores: Record<string, ShopifyStore>;
  /** Delay of every normal answer of every store (a store's own `latencyMs` wins). */
  latencyMs?: number;
};

export type FakeShopify = FakeServer & {
  /** `${url}/{domain}`: the SHOPIFY_STORE_URL template. */
  storeUrlTemplate: string;
  /** `${url}/<domain>` */
  storeUrl(domain: string): string;
  /** The store's products.json requests, in order (`at` is the arrival time). */
  requestsFor(domain: string): RecordedRequest[];
  faults(domain: string): FaultScript<ShopifyFault>;
  /** New products for a store: its pages (and ETags) change and Last-Modified moves on (at least one second). */
  setProducts(domain: string, products: Records<ShopifyProductRecord>): void;
  /** Adds or replaces a store. */
  setStore(domain: string, store: ShopifyStore): void;
};

const PATH = /^\/([^/]+)\/products\.json$/;
const REASONS: Record<number, string> = {
  401: 'Unauthorized', 402: 'Unavailable Shop', 403: 'Forbidden', 404: 'Not Found', 423: 'Locked', 429: 'Too Many Requests',
  430: 'Too Many Requests', 500: 'Internal Server Error', 502: 'Bad Gateway', 503: 'Service Unavailable', 504: 'Gateway Timeout',
};

type State = { store: ShopifyStore; faults: FaultScript<ShopifyFault>; modifiedAt: number };

const second = (time: number) => Math.floor(time / 1000) * 1000;

function htmlPage(status: number): string {
  const reason = REASONS[status] ?? 'Error';
  const detail = status === 430 ? 'Shopify Security Rejection: too many requests from your network.' : reason;
  return `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>${reason}</title></head>` +
    `<body><h1>${status} ${reason}</h1><p>${detail}</p></body></html>\n`;
}

/** Whether an If-None-Match header lists `etag` (weak comparison, `*` included). */
function etagMatches(header: string, etag: string): boolean {
  const bare = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim() === '*' || bare(tag) === bare(etag));
}

export async function startFakeShopify(options: FakeShopifyOptions): Promise<FakeShopify> {
  const started = second(Date.now());
  const states = new Map<string, State>();
  const stateOf = (store: ShopifyStore): State => ({
    store,
    faults: new FaultScript(store.faults),
    modifiedAt: store.lastModified instanceof Date ? second(store.lastModified.getTime()) : started,
  });
  for (const [domain, store] of Object.entries(options.stores)) states.set(domain.toLowerCase(), stateOf(store));

  const domainOf = (request: RecordedRequest): string | null => {
    const match = PATH.exec(request.path);
    return match ? decodeURIComponent(match[1]).toLowerCase() : null;
  };

  const handle = (request: RecordedRequest, base: string): Reply => {
    const domain = domainOf(request);
    const state = domain === null ? undefined : states.get(domain);
    const requestId = randomUUID();
    const html = (status: number, retryAfter?: number): Reply => ({
      status,
      body: htmlPage(status),
      headers: {
        'content-type': 'text/html; charset=utf-8',
        'x-request-id': requestId,
        ...(retryAfter === undefined ? {} : { 'retry-after': String(retryAfter) }),
      },
    });
    if (!state || request.method !== 'GET') return html(404);
    const { store } = state;
    const fault = state.faults.next(request);
    const retryAfter = store.retryAfterSeconds ?? 2;
    const throttled = (status: number) => (status === 429 || status === 430 ? retryAfter : undefined);
    if (fault !== null && typeof fault === 'object' && fault.kind === 'status') return html(fault.status, fault.retryAfterSeconds ?? throttled(fault.status));
    if (store.redirectTo) {
      const search = request.query.toString();
      const location = `${base}/${store.redirectTo}/products.json${search ? `?${search}` : ''}`;
      return { status: 301, body: '', headers: { location, 'x-request-id': requestId } };
    }
    if (store.status !== undefined && store.status !== 200) return html(store.status, throttled(store.status));

    const limitText = Number(request.query.get('limit'));
    const limit = Number.isInteger(limitText) && limitText >= 1 ? Math.min(limitText, 250) : 30;
    const pageText = Number(request.query.get('page'));
    const page = Number.isInteger(pageText) && pageText >= 1 ? pageText : 1;
    if (page * limit > 25_000) {
      return { status: 400, body: JSON.stringify({ errors: 'Page * Limit exceeds the 25000 limit.' }), headers: { 'content-type': 'application/json; charset=utf-8', 'x-request-id': requestId } };
    }
    const total = recordCount(store.products);
    const products: ShopifyProductRecord[] = [];
    for (let i = (page - 1) * limit; i < Math.min(page * limit, total); i++) products.push(recordAt(store.products, i));
    const body = JSON.stringify({ products });

    const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8', 'x-request-id': requestId, vary: 'Accept' };
    const etag = store.etag ? `"${createHash('sha1').update(body).digest('hex')}"` : null;
    if (etag) headers.etag = etag;
    if (store.lastModified) headers['last-modified'] = new Date(state.modifiedAt).toUTCString();
    const ifNoneMatch = request.headers['if-none-match'];
    const ifModifiedSince = request.headers['if-modified-since'];
    let unchanged = false;
    if (typeof ifNoneMatch === 'string') unchanged = etag !== null && etagMatches(ifNoneMatch, etag);
    else if (typeof ifModifiedSince === 'string' && store.lastModified) {
      const since = Date.parse(ifModifiedSince);
      unchanged = !Number.isNaN(since) && state.modifiedAt <= since;
    }
    let reply: Reply = unchanged ? { status: 304, headers } : { status: 200, body, headers };
    const kind = typeof fault === 'string' ? fault : fault?.kind;
    const half = Math.floor(Buffer.byteLength(body) / 2);
    if (!unchanged && kind === 'truncated') reply = { ...reply, cutAt: half };
    if (!unchanged && kind === 'dropped') reply = { ...reply, dropAt: half };
    const delay = (fault !== null && typeof fault === 'object' && fault.kind === 'slow' ? fault.ms : 0) + (store.latencyMs ?? options.latencyMs ?? 0);
    return delay ? { ...reply, delayMs: delay } : reply;
  };

  const server = await startServer((request, self) => handle(request, self.url), { inFlightKey: domainOf });
  const known = (domain: string): State => {
    const state = states.get(domain.toLowerCase());
    if (!state) throw new Error(`the fake has no store ${domain}`);
    return state;
  };
  return {
    ...server,
    storeUrlTemplate: `${server.url}/{domain}`,
    storeUrl: (domain) => `${server.url}/${domain}`,
    requestsFor: (domain) => server.requests.filter((request) => domainOf(request) === domain.toLowerCase()),
    faults: (domain) => known(domain).faults,
    setProducts: (domain, products) => {
      const state = known(domain);
      state.store = { ...state.store, products };
      state.modifiedAt = Math.max(second(Date.now()), state.modifiedAt + 1000);
    },
    setStore: (domain, store) => {
      states.set(domain.toLowerCase(), stateOf(store));
    },
  };
}

// ---------------------------------------------------------------------------
// Records
// ---------------------------------------------------------------------------

const VENDORS = ['Lumen Ceramics', 'Maison Laine', 'Tidal Home', 'Oak & Ash', 'Nordic Pantry'];
const TYPES: [string, string[]][] = [
  ['Mug', ['stoneware', 'kitchen']], ['Scarf', ['merino', 'winter']], ['Candle', ['soy', 'home']], ['Napkins', ['linen', 'table']],
  ['Serum', ['skincare', 'vitamin-c']], ['Jacket', ['outdoor', 'waterproof']],
];
const ADJECTIVES = ['Tidal', 'Ember', 'Glaze', 'Harbor', 'Moss', 'Dune', 'Fjord', 'Saffron', 'Slate', 'Willow'];
const PUBLISHED = Date.UTC(2024, 2, 1, 15);

/** Shopify's storefront time: `2025-03-01T10:00:00-05:00`. */
const shopTime = (time: number) => `${new Date(time - 5 * 3_600_000).toISOString().slice(0, 19)}-05:00`;

/**
 * A storefront products.json record deterministic in `i`, as src/data/import/shopify-products.ts reads it: id a
 * 13-digit number, variants with decimal-text prices (some on sale), options (none, Size, or Color × Size), 0–3 images.
 */
export function shopifyProduct(i: number, overrides: ShopifyProductRecord = {}): ShopifyProductRecord {
  const id = 7_200_000_000_000 + i;
  const [type, tags] = TYPES[pick(i, 1, TYPES.length)];
  const title = `${ADJECTIVES[pick(i, 2, ADJECTIVES.length)]} ${type}`;
  const handle = `${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-${i}`;
  const published = PUBLISHED + pick(i, 3, 500) * DAY_MS;
  const created = published - (1 + pick(i, 4, 10)) * DAY_MS;
  const updated = published + pick(i, 5, 200) * DAY_MS;
  const shape = pick(i, 6, 3);
  const options = shape === 0
    ? [{ name: 'Title', position: 1, values: ['Default Title'] }]
    : shape === 1
      ? [{ name: 'Size', position: 1, values: ['S', 'M', 'L'] }]
      : [{ name: 'Color', position: 1, values: ['Sand', 'Slate'] }, { name: 'Size', position: 2, values: ['S', 'M'] }];
  const combos: (string | null)[][] = shape === 0 ? [['Default Title', null]] : shape === 1 ? [['S', null], ['M', null], ['L', null]]
    : [['Sand', 'S'], ['Sand', 'M'], ['Slate', 'S'], ['Slate', 'M']];
  const cents = 900 + pick(i, 7, 19_000);
  const onSale = pick(i, 8, 4) === 0;
  const variants = combos.map(([option1, option2], k) => ({
    id: 41_000_000_000_000 + i * 8 + k,
    title: [option1, option2].filter(Boolean).join(' / '),
    option1,
    option2,
    option3: null,
    sku: `SKU-${i}-${k}`,
    requires_shipping: true,
    taxable: true,
    featured_image: null,
    available: pick(i, 9 + k, 5) !== 0,
    price: ((cents + k * 100) / 100).toFixed(2),
    grams: 250 + k * 10,
    compare_at_price: onSale ? ((cents + k * 100 + 500) / 100).toFixed(2) : null,
    position: k + 1,
    product_id: id,
    created_at: shopTime(created),
    updated_at: shopTime(updated),
  }));
  const images = Array.from({ length: pick(i, 20, 4) }, (_, k) => ({
    id: 30_000_000_000_000 + i * 4 + k,
    created_at: shopTime(created),
    position: k + 1,
    updated_at: shopTime(updated),
    product_id: id,
    variant_ids: [],
    src: `https://cdn.shopify.com/s/files/1/0000/0001/files/${handle}-${k + 1}.jpg?v=${Math.floor(updated / 1000)}`,
    width: 1200,
    height: 1200,
  }));
  return {
    id,
    title,
    handle,
    body_html: `<p>The ${title.toLowerCase()}, made to last.</p>\n<ul><li>Ships in 2&ndash;3 days</li><li>Free returns</li></ul>`,
    published_at: shopTime(published),
    created_at: shopTime(created),
    updated_at: shopTime(updated),
    vendor: VENDORS[pick(i, 21, VENDORS.length)],
    product_type: type,
    tags,
    variants,
    images,
    options,
    ...overrides,
  };
}
