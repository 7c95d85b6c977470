import type pg from 'pg';
import { z } from 'zod';
import { shopDomain, shopifyProducts } from '../../data/import/shopify-products.js';
import { apiError } from '../../errors.js';
import { acrossWorkspaces } from '../../db/workspace-check.js';
import { sourceConfig } from '../config.js';
import { SourceError, sleep, type Answer, type Verdict } from '../http.js';
import { cursorOf, queryOf } from '../query.js';
import type { Connector, Page, SourceIO } from '../types.js';

// Shopify storefronts: `GET {SHOPIFY_STORE_URL with the domain}/products.json?limit=250&page=N` from page 1 until a
// page comes back empty, for the shops named or else every shop a workspace tracks (a brandtracker's shops, while a
// workspace's link to it is active) and those the operator lists (SHOPIFY_DOMAINS). One store at a time, one request
// in flight, SHOPIFY_DELAY_MS between two requests (retries included). Each page is asked conditionally with the
// ETag / Last-Modified it last came with: a 304 writes nothing, its products counted unchanged. A store that refuses
// (404 gone, 401/403 password-protected, 402/423 closed, 430 Shopify's bot shield) is marked in `shop_fetch_states`
// with when to try it again (an hour, doubling per refusal, at most a week) and left out until then: never retried
// in a loop.

const PAGE_SIZE = 250;
/** A store of more pages than this is cut (and reported): 25,000 products. */
const MAX_PAGES = 100;
const REFUSALS = new Set([401, 402, 403, 404, 423, 430]);

const querySchema = z
  .object({
    domains: z.array(z.string()).min(1).max(10_000).optional(),
    /** Ask even a store marked as refusing. */
    force: z.boolean().default(false),
  })
  .strict();

export type ShopifyQuery = { domains?: string[]; force: boolean };
/** Where a run is: the store and its next page. */
const cursorSchema = z.object({ domain: z.string(), page: z.number() });
type Cursor = z.infer<typeof cursorSchema>;
/** Per page: its validators, whether it was the empty page after the last, and how many products it held. */
type Validators = Record<string, { etag?: string; lastModified?: string; empty?: boolean; count?: number }>;

const TRACKED = `${acrossWorkspaces('the shops any workspace tracks, for the Shopify connector')}
  SELECT DISTINCT s."domain" FROM "shops" s
  WHERE s."id" IN (SELECT w."shopId" FROM "brandtracker_websites" w
                   WHERE EXISTS (SELECT 1 FROM "brandtracker_links" l WHERE l."brandtrackerId" = w."brandtrackerId" AND l."isActive"))
     OR s."id" IN (SELECT b."websiteId" FROM "brandtrackers" b
                   WHERE b."websiteId" IS NOT NULL AND EXISTS (SELECT 1 FROM "brandtracker_links" l WHERE l."brandtrackerId" = b."id" AND l."isActive"))`;

/** The stores of a run: those named, or the tracked and listed ones; sorted, so a resumed run finds its place. */
async function storesOf(pool: pg.Pool, query: ShopifyQuery): Promise<string[]> {
  if (query.domains) return [...new Set(query.domains)].sort();
  const tracked = (await pool.query<{ domain: string }>(TRACKED)).rows.map((row) => row.domain);
  const all = [...tracked, ...sourceConfig().shopify.domains].map((domain) => shopDomain(domain)).filter((domain): domain is string => domain !== null);
  return [...new Set(all)].sort();
}

type StoreAnswer =
  | { kind: 'page'; products: unknown[] | string; etag: string | null; lastModified: string | null }
  | { kind: 'unchanged' }
  | { kind: 'refused'; status: number };

function judge(answer: Answer, body: unknown): Verdict<StoreAnswer> {
  if (answer.status === 304) return { ok: { kind: 'unchanged' } };
  if (REFUSALS.has(answer.status)) return { ok: { kind: 'refused', status: answer.status } };
  if (answer.status === 429) {
    const retryAfter = Number(answer.headers.get('retry-after'));
    return { wait: Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : null, reason: 'store throttled (HTTP 429)' };
  }
  if (answer.status >= 500) return { retry: `store answered HTTP ${answer.status}` };
  if (answer.status !== 200) return { ok: { kind: 'refused', status: answer.status } };
  if (body === undefined) return { retry: `store answered a body that is not JSON (${answer.text.length} bytes, cut or not JSON)` };
  return {
    ok: {
      kind: 'page',
      products: shopifyProducts('example.com').records(body),
      etag: answer.headers.get('etag'),
      lastModified: answer.headers.get('last-modified'),
    },
  };
}

const HOUR = 3_600_000;

async function markRefused(pool: pg.Pool, domain: string, status: number | null, reason: string): Promise<Date> {
  const { rows: [row] } = await pool.query<{ retryAt: Date }>(
    `INSERT INTO "shop_fetch_states" ("domain", "state", "lastStatus", "failures", "retryAt")
     VALUES ($1, $2, $3, 1, now() + make_interval(secs => $4::float8 / 1000))
     ON CONFLICT ("domain") DO UPDATE SET "state" = excluded."state", "lastStatus" = excluded."lastStatus",
       "failures" = "shop_fetch_states"."failures" + 1,
       "retryAt" = now() + make_interval(secs => least($5::float8, $4::float8 * power(2, "shop_fetch_states"."failures")) / 1000)
     RETURNING "retryAt"`,
    [domain, reason, status, HOUR, 7 * 24 * HOUR],
  );
  return row.retryAt;
}

export const shopifyConnector: Connector<ShopifyQuery> = {
  name: 'shopify',
  parse(query) {
    const parsed = queryOf('shopify', querySchema, query ?? {});
    const domains = parsed.domains?.map((value) => {
      const domain = shopDomain(value);
      if (!domain) throw apiError('validation_error', `shopify: ${JSON.stringify(value)} is not a shop domain (like example.com)`);
      return domain;
    });
    return { domains, force: parsed.force };
  },
  ready() {
    sourceConfig(); // a malformed SHOPIFY_STORE_URL or SHOPIFY_DELAY_MS stops the run before it starts
  },
  // One store throttling is waited on a few times, briefly: the other stores are not held up behind it for hours.
  http: { maxWaits: 3, maxWaitMs: 120_000 },
  secrets: () => [],
  async *pages(query, cursor, io: SourceIO): AsyncIterable<Page> {
    const { storeUrl, delayMs } = sourceConfig().shopify;
    const stores = await storesOf(io.pool, query);
    const start = cursorOf(cursorSchema, cursor);
    let lastRequest = 0;
    for (const [index, domain] of stores.entries()) {
      if (start && domain < start.domain) continue;
      const { rows: [state] } = await io.pool.query<{ retryAt: Date | null; state: string; validators: Validators }>(
        `SELECT "retryAt", "state", "validators" FROM "shop_fetch_states" WHERE "domain" = $1`,
        [domain],
      );
      if (!query.force && state?.retryAt && state.retryAt.getTime() > Date.now()) {
        io.skip(`store left out until its retry time (${state.state})`);
        io.progress(index + 1, stores.length);
        continue;
      }
      const validators: Validators = { ...(state?.validators ?? {}) };
      const format = shopifyProducts(domain);
      let changed = false;
      for (let page = start && domain === start.domain ? start.page : 1; ; page++) {
        if (page > MAX_PAGES) {
          io.skip(`store cut at ${MAX_PAGES} pages`);
          break;
        }
        const known = validators[String(page)];
        let answer: StoreAnswer;
        try {
          answer = await io.http.send(
            `${domain} products.json page ${page}`,
            async () => {
              const wait = lastRequest + delayMs - Date.now();
              if (wait > 0) await sleep(wait, io.signal);
              lastRequest = Date.now();
              const headers: Record<string, string> = { accept: 'application/json' };
              if (known?.etag) headers['if-none-match'] = known.etag;
              if (known?.lastModified) headers['if-modified-since'] = known.lastModified;
              return { url: `${storeUrl.replace('{domain}', domain)}/products.json?limit=${PAGE_SIZE}&page=${page}`, init: { headers } };
            },
            judge,
          );
        } catch (error) {
          if (!(error instanceof SourceError) || io.signal.aborted) throw error;
          // A store that keeps failing is marked and left for later; the run goes on with the next store.
          await markRefused(io.pool, domain, null, 'failing');
          io.skip('store failing (retries used up), marked to retry later');
          break;
        }
        const next: Cursor = { domain, page: page + 1 };
        if (answer.kind === 'refused') {
          await markRefused(io.pool, domain, answer.status, answer.status === 430 ? 'blocked' : answer.status === 404 ? 'gone' : 'closed');
          io.skip(`store refused (HTTP ${answer.status}), marked to retry later`);
          break;
        }
        const products = answer.kind === 'page' ? answer.products : null;
        // JSON that is no product list: its reason goes to the run's errors, and the store ends there, its state as it was.
        const strange = typeof products === 'string';
        // A page not modified since it was stored holds what it held: the end of the store when it was empty then.
        const ended = strange || (products === null ? known?.empty === true || !known : products.length === 0);
        if (answer.kind === 'page' && !strange) {
          if (!ended) changed = true;
          const validator = { ...(answer.etag ? { etag: answer.etag } : {}), ...(answer.lastModified ? { lastModified: answer.lastModified } : {}) };
          if (validator.etag || validator.lastModified) validators[String(page)] = ended ? { ...validator, empty: true } : { ...validator, count: products?.length };
          else delete validators[String(page)];
        }
        if (ended) for (const key of Object.keys(validators)) if (Number(key) > page) delete validators[key];
        const last = index === stores.length - 1;
        yield {
          format,
          batch: { origin: `${domain} page ${page}${answer.kind === 'unchanged' ? ' (not modified)' : ''}`, records: products ?? [] },
          unchanged: answer.kind === 'unchanged' ? known?.count ?? 0 : 0,
          next: ended ? (last ? null : { domain: stores[index + 1], page: 1 }) : next,
          keep: ended && !strange
            ? async (client) => {
                await client.query(
                  `INSERT INTO "shop_fetch_states" ("domain", "state", "lastStatus", "validators", "lastFetchedAt", "lastChangedAt")
                   VALUES ($1, 'ok', 200, $2, now(), CASE WHEN $3 THEN now() END)
                   ON CONFLICT ("domain") DO UPDATE SET "state" = 'ok', "lastStatus" = 200, "failures" = 0, "retryAt" = NULL,
                     "validators" = excluded."validators", "lastFetchedAt" = now(),
                     "lastChangedAt" = coalesce(excluded."lastChangedAt", "shop_fetch_states"."lastChangedAt")`,
                  [domain, JSON.stringify(validators), changed],
                );
              }
            : undefined,
        };
        if (ended) break;
      }
      // The store is done (its last page stored, or it refused or failed): the generator resumes here only after the
      // run has stored the page yielded last.
      io.progress(index + 1, stores.length);
    }
  },
};
