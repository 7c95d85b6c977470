import { performance } from 'node:perf_hooks';
import type pg from 'pg';
import { EVENT_THRESHOLDS, recordEvents, type EventType, type NewEvent } from './events.js';
import { metaAds } from './import/meta-ads.js';
import { importBatches, importContext, type Format, type ImportSummary, type Outcome } from './import/run.js';
import { shopDomain, shopifyProducts, type ShopifyProduct } from './import/shopify-products.js';
import type { AdvertiserSeed } from './market/advertisers.js';
import { makeCreative } from './market/copy.js';
import { SHOPIFY_APPS } from './market/facets.js';
import { compactSlug } from './market/names.js';
import { splitInteger } from './market/product-ads.js';
import { charmPrice } from './market/product-words.js';
import { CATEGORIES, COUNTRY_WEIGHTS, EU_UK, VOCABULARY, type Category } from './market/words.js';
import { cumulativeWeights, Rng } from './random.js';

// The demo market's daily tick (issue #36): it advances the demo market by one day, deterministically from the seed and
// the day, through the write paths of the real sources, so the events, snapshots and history follow as they do for an
// import and nothing is mapped twice:
// - Meta: a few demo pages start ads (one page a burst of EVENTS_BURST_ADS ads every third day), written as Ad Library
//   `ads_archive` records through the meta-ads format; the ads the tick started before are reported again each day,
//   with their reach of the day, until they stop. Each ad is a function of the seed, its id and the day (its launch day
//   and number are in its id), so the next day's records follow from the stored ids alone. The seeded ads are left
//   alone: the Ad Library mapping cannot reproduce them (their duplicate groups, captions and non-EU reach are the
//   generator's), so a record of one would rewrite it.
// - Shopify: a few products of a few demo shops are repriced, sold out or restocked, written as `products.json` records
//   through the shopify-products format (the shop found by its domain, so each product is the demo's own row). Only a
//   product whose record maps back to exactly its stored row is changed; the changed product's `updated_at` is the day,
//   which tells a second run of the day that the product is done.
// - Shop apps: a few Shopify shops install or remove an app; `shop_apps` is written directly (its triggers keep
//   `shops.appIds`), with the apps' usage counts, and `shop.app_installed` / `shop.app_removed` recorded in the same
//   transaction, through the import driver (one transaction, the import lock, the dispatcher woken).
// The tick stands for the day's start (00:00 UTC): a second run of the day writes the same records, which the formats
// find unchanged, and every event is keyed with the day.

export type DemoTickOptions = {
  /** The day to advance to (its UTC date); default: today. */
  asOf?: Date;
  /** The seed of the tick's draws (default 42, as `seedMarket`'s). */
  seed?: number;
};

export type DemoTickSummary = {
  day: string;
  seed: number;
  /** `reported`: Meta records written; `created`, `stopped`: the ads' events; `updated`: stored ads the records changed. */
  ads: { reported: number; created: number; stopped: number; updated: number };
  products: { reported: number; repriced: number; outOfStock: number; backInStock: number };
  apps: { installed: number; removed: number };
  events: { recorded: number; byType: Partial<Record<EventType, number>> };
  ms: number;
};

const DAY_MS = 86_400_000;
/** The longest a tick's ad runs, in days. */
const MAX_RUN_DAYS = 21;
/**
 * How far back a tick looks for the ads it started (their ids are known from the days): beyond their run, so that the
 * ads still running when the ticks paused (for up to that many days) are stopped by the next tick.
 */
const LOOKBACK_DAYS = 60;
/** Pages that start ads on a day, and the most ads each starts (a burst page: EVENTS_BURST_ADS + 0..BURST_EXTRA). */
const LAUNCH_PAGES = 3;
const MAX_ADS_PER_PAGE = 4;
const BURST_EXTRA = 4;
/** The odds that a running ad's reach jumps on a day. */
const JUMP_ODDS = 0.05;
/** Shops whose products change on a day, products each, and the best sellers they are drawn from. */
const PRODUCT_SHOPS = 3;
const PRODUCTS_PER_SHOP = 3;
const PRODUCT_POOL = 24;
/** A product a tick sells out comes back after one of these many days. */
const RESTOCK_AFTER = [2, 3, 4, 5];
const PRICE_FACTORS = [0.8, 0.85, 0.9, 1.1, 1.15, 1.2, 1.25];
/** Shops that install or remove an app on a day; the apps drawn for each; the most apps a shop runs. */
const APP_SHOPS = 3;
const APP_CANDIDATES = 10;
const MAX_APPS = 15;
/** Candidate pages and shops read per day. */
const CANDIDATES = 40;

const isoDay = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

type Tick = {
  pool: pg.Pool;
  seed: number;
  /** Days since the epoch (UTC). */
  day: number;
  date: string;
  /** The moment the tick stands for: the day's start. */
  at: Date;
  /** An independent stream of the seed for one concern. */
  stream(label: string): Rng;
  /** Events recorded, by type (counted in each transaction, see `countEvents`). */
  events: Map<EventType, number>;
  countEvents(client: pg.PoolClient): Promise<void>;
};

/** Advances the demo market by one day (see the header). */
export async function demoTick(pool: pg.Pool, options: DemoTickOptions = {}): Promise<DemoTickSummary> {
  const started = performance.now();
  const seed = options.seed ?? 42;
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) throw new Error('demoTick: seed must be an integer in 0..4294967295');
  const asOf = options.asOf ?? new Date();
  if (Number.isNaN(asOf.getTime())) throw new Error('demoTick: asOf is not a valid date');
  const day = Math.floor(asOf.getTime() / DAY_MS);
  const root = new Rng(seed);
  // The events of this tick are those its own transactions insert: above the highest id now, with their xmin.
  const { rows: [top] } = await pool.query<{ id: string }>(`SELECT coalesce(max("id"), 0)::text AS id FROM "market_events"`);
  const events = new Map<EventType, number>();
  const tick: Tick = {
    pool, seed, day, date: isoDay(day), at: new Date(day * DAY_MS), stream: (label) => root.fork(label), events,
    async countEvents(client) {
      const { rows } = await client.query<{ type: EventType; n: number }>(
        `SELECT "type", count(*)::int AS n FROM "market_events" WHERE "id" > $1::int8 AND xmin = pg_current_xact_id()::xid GROUP BY 1`,
        [top.id],
      );
      for (const row of rows) events.set(row.type, (events.get(row.type) ?? 0) + row.n);
    },
  };

  const ads = await tickAds(tick);
  const products = await tickProducts(tick);
  await tickApps(tick);
  const count = (type: EventType) => events.get(type) ?? 0;
  return {
    day: tick.date,
    seed,
    ads: { reported: ads.read, created: count('ad.created'), stopped: count('ad.stopped'), updated: ads.updated },
    products: { reported: products, repriced: count('product.price_changed'), outOfStock: count('product.out_of_stock'), backInStock: count('product.back_in_stock') },
    apps: { installed: count('shop.app_installed'), removed: count('shop.app_removed') },
    events: { recorded: [...events.values()].reduce((sum, n) => sum + n, 0), byType: Object.fromEntries([...events].sort()) },
    ms: Math.round(performance.now() - started),
  };
}

/** The tick builds its records itself: a record a format refuses, or a batch the database refuses, is a fault. */
function applied(summary: ImportSummary, what: string): ImportSummary {
  if (summary.errors.length) throw new Error(`demoTick: ${what} not written: ${summary.errors.map((e) => e.reason).join('; ')}`);
  return summary;
}

/** Picks `count` distinct items, one of `followed` first (when any), so a workspace's feed sees the day. */
function choose<T>(rng: Rng, followed: T[], all: T[], count: number): T[] {
  const first = followed.length ? [rng.pick(followed)] : [];
  return [...first, ...rng.shuffle(all.filter((item) => !first.includes(item)))].slice(0, count);
}

// ---------------------------------------------------------------------------
// Meta ads
// ---------------------------------------------------------------------------

/** The ads one day starts at most (their numbers run from 0). */
const perDay = () => LAUNCH_PAGES * MAX_ADS_PER_PAGE + EVENT_THRESHOLDS.burstAds + BURST_EXTRA;

/** A tick's ad id: `9`, five digits of the seed, the launch day and the ad's number on that day (15 digits). */
function adNumber(tick: Tick, day: number, n: number): string {
  return `9${String(10_000 + (tick.seed % 90_000))}${String(day).padStart(5, '0')}${String(n).padStart(4, '0')}`;
}
const launchOf = (id: string) => ({ day: Number(id.slice(-9, -4)), n: Number(id.slice(-4)) });

type PageInfo = { id: string; name: string; category: Category; domain: string; otherDomain: string };

/** What an ad is for its whole run, drawn once from its id. */
type AdProfile = {
  launch: number;
  /** The last day it delivers. */
  lastDay: number;
  /** From this day on it points to the page's other domain. */
  switchDay: number | null;
  /** The first ad of its day: it takes off the next day (a reach jump). */
  hit: boolean;
  firstReach: number;
  countries: string[];
  gender: 'All' | 'Women' | 'Men';
  ageMin: number;
  ageMax: number;
  languages: string[];
  platforms: string[];
  /** The EU breakdown's cells with their share of the reach (main country first and largest). */
  cells: { country: string; ageRange: string; gender: 'male' | 'female'; weight: number }[];
};

const EU_COUNTRIES = COUNTRY_WEIGHTS.filter(([code]) => EU_UK.has(code));
const LANGUAGE: Record<string, string> = { GB: 'en', IE: 'en', FR: 'fr', BE: 'fr', DE: 'de', AT: 'de', ES: 'es', IT: 'it', NL: 'nl', SE: 'sv', DK: 'da', NO: 'no', FI: 'fi', PT: 'pt', PL: 'pl', CZ: 'cs', GR: 'el', RO: 'ro' };
const AGE_RANGES = [['18-24', 18, 24], ['25-34', 25, 34], ['35-44', 35, 44], ['45-54', 45, 54], ['55-64', 55, 64], ['65+', 65, 65]] as const;
const REGION_NAMES = new Intl.DisplayNames(['en'], { type: 'region' });

function profileOf(tick: Tick, id: string): AdProfile {
  const { day: launch, n } = launchOf(id);
  const rng = tick.stream(`ad:${id}`);
  // The day's first ad takes off, its second stops the next day, its third moves to another landing page the next day.
  const life = n === 1 ? 1 : n === 0 ? rng.int(14, MAX_RUN_DAYS) : Math.min(MAX_RUN_DAYS, 2 + Math.floor(rng.logNormal(5, 0.7)));
  const switchDay = n === 2 ? launch + 1 : rng.chance(0.08) ? launch + rng.int(1, life) : null;
  const countries = rng.weightedSample(EU_COUNTRIES, rng.chance(0.6) ? 1 : 2);
  const gender = rng.weighted([['All', 80], ['Women', 12], ['Men', 8]] as const);
  const ageMin = rng.pick([18, 18, 21, 25]);
  const ageMax = rng.pick([44, 54, 64, 65, 65]);
  const ages = AGE_RANGES.filter(([, low, high]) => low <= ageMax && high >= ageMin);
  const genders = gender === 'All' ? (['female', 'male'] as const) : gender === 'Women' ? (['female'] as const) : (['male'] as const);
  const female = rng.float(0.35, 0.75);
  const cells = countries.flatMap((country, c) =>
    ages.flatMap(([ageRange]) => {
      const weight = (c === 0 ? 0.7 : 0.3) * rng.float(0.5, 1.5);
      return genders.map((g) => ({ country, ageRange, gender: g, weight: weight * (genders.length === 1 ? 1 : g === 'female' ? female : 1 - female) }));
    }),
  );
  return {
    launch,
    lastDay: launch + life - 1,
    switchDay,
    hit: n === 0,
    firstReach: Math.round(rng.logNormal(2500, 1)),
    countries,
    gender,
    ageMin,
    ageMax,
    languages: [LANGUAGE[countries[0]] ?? 'en'],
    platforms: rng.chance(0.7) ? ['facebook', 'instagram'] : ['facebook'],
    cells,
  };
}

/** The ad's reach at the end of `day` (its last day's once it has stopped). */
function reachOn(tick: Tick, id: string, profile: AdProfile, day: number): number {
  let reach = profile.firstReach;
  for (let d = profile.launch + 1; d <= Math.min(day, profile.lastDay); d++) {
    const rng = tick.stream(`reach:${id}:${d}`);
    const jump = rng.chance(JUMP_ODDS) || (profile.hit && d === profile.launch + 1);
    // A jump gains more than the threshold and more than the ad's reach so far: an `ad.reach_jumped`.
    reach += jump ? reach + Math.round(EVENT_THRESHOLDS.reachJump * rng.float(1.2, 3)) : Math.round(reach * rng.float(0.03, 0.25) + rng.float(50, 1500));
  }
  return reach;
}

/** The Ad Library breakdown of `reach`: the profile's cells, split exactly (cells of no one left out). */
function breakdownOf(profile: AdProfile, reach: number) {
  const split = splitInteger(reach, profile.cells.map((cell) => cell.weight));
  const countries = new Map<string, Map<string, Record<string, unknown>>>();
  profile.cells.forEach((cell, i) => {
    if (split[i] === 0) return;
    const ages = countries.get(cell.country) ?? new Map<string, Record<string, unknown>>();
    countries.set(cell.country, ages);
    const row = ages.get(cell.ageRange) ?? { age_range: cell.ageRange };
    ages.set(cell.ageRange, row);
    row[cell.gender] = split[i];
  });
  return [...countries].map(([country, ages]) => ({ country, age_gender_breakdowns: [...ages.values()] }));
}

/** A page as `makeCreative` reads one: its name, category and domain (the rest is not read). */
function advertiserOf(page: PageInfo): AdvertiserSeed {
  return {
    id: page.id, name: page.name, category: page.category, home: 'US', language: 'en', facebookLikes: 0, instagramFollowers: 0,
    instagramUsername: null, popularity: 1, adCount: 0, domains: [page.domain], pageType: 'brand', about: '',
  };
}

/** The `ads_archive` record of a tick's ad as the Ad Library shows it on `day`. */
function adRecord(tick: Tick, id: string, page: PageInfo, day: number): Record<string, unknown> {
  const profile = profileOf(tick, id);
  const creative = makeCreative(tick.stream(`creative:${id}`), advertiserOf(page));
  const shown = Math.min(day, profile.lastDay);
  const reach = reachOn(tick, id, profile, shown);
  const domain = profile.switchDay !== null && shown >= profile.switchDay ? page.otherDomain : page.domain;
  const launched = isoDay(profile.launch);
  return {
    id,
    page_id: page.id,
    page_name: page.name,
    ad_creation_time: launched,
    ad_delivery_start_time: launched,
    ...(profile.lastDay < day ? { ad_delivery_stop_time: isoDay(profile.lastDay) } : {}),
    ad_creative_bodies: [creative.body],
    ad_creative_link_titles: creative.title ? [creative.title] : [],
    ad_creative_link_descriptions: creative.ctaDescription ? [creative.ctaDescription] : [],
    ad_creative_link_captions: [domain],
    eu_total_reach: reach,
    age_country_gender_reach_breakdown: breakdownOf(profile, reach),
    target_locations: profile.countries.map((code) => ({ name: REGION_NAMES.of(code) ?? code, type: 'countries', excluded: false })),
    target_gender: profile.gender,
    target_ages: [String(profile.ageMin), profile.ageMax >= 65 ? '65+' : String(profile.ageMax)],
    languages: profile.languages,
    publisher_platforms: profile.platforms,
    beneficiary_payers: [{ beneficiary: page.name, payer: page.name, current: true }],
  };
}

/** The pages ads are started on: those workspaces follow, and the loaded brandtrackers' pages (stable from day to day). */
async function candidatePages(pool: pg.Pool): Promise<{ all: string[]; followed: string[] }> {
  const { rows } = await pool.query<{ id: string; followed: boolean }>(
    `WITH followed AS (SELECT "key" AS id FROM "workspace_interests" WHERE "kind" = 'advertiser')
     SELECT v."id", v."id" IN (SELECT id FROM followed) AS followed FROM "advertisers" v
     WHERE v."id" IN (SELECT id FROM followed)
        OR v."id" IN (SELECT "facebookPageId" FROM "brandtrackers" WHERE "isLoaded" AND "facebookPageId" IS NOT NULL ORDER BY "facebookPageId" LIMIT $1)
     ORDER BY v."id" LIMIT $2`,
    [CANDIDATES, 3 * CANDIDATES],
  );
  return { all: rows.map((row) => row.id), followed: rows.filter((row) => row.followed).map((row) => row.id) };
}

async function pagesOf(pool: pg.Pool, ids: string[]): Promise<Map<string, PageInfo>> {
  const { rows } = await pool.query<{ id: string; name: string; category: string | null; domains: string[] }>(
    `SELECT v."id", v."name", v."category",
            array(SELECT s."domain" FROM "advertiser_shops" l JOIN "shops" s ON s."id" = l."shopId"
                  WHERE l."advertiserId" = v."id" ORDER BY l."isPrimary" DESC, l."rank" NULLS LAST, s."domain" LIMIT 2) AS domains
     FROM "advertisers" v WHERE v."id" = ANY($1::text[])`,
    [ids],
  );
  return new Map(
    rows.map((row) => {
      const domain = row.domains[0] ?? `${compactSlug(row.name) || `page${row.id}`}.com`;
      const category = (row.category !== null && Object.hasOwn(VOCABULARY, row.category) ? row.category : CATEGORIES[Number(row.id.slice(-3)) % CATEGORIES.length]) as Category;
      return [row.id, { id: row.id, name: row.name, category, domain, otherDomain: row.domains[1] ?? `shop.${domain}` }];
    }),
  );
}

/**
 * The day's Meta records: the ads started today and every ad the tick started before that still ran yesterday (or
 * that the database still holds as running), each as the Ad Library shows it today.
 */
async function tickAds(tick: Tick): Promise<ImportSummary> {
  const ids: string[] = [];
  for (let day = tick.day - LOOKBACK_DAYS; day <= tick.day + MAX_RUN_DAYS; day++) {
    for (let n = 0; n < perDay(); n++) ids.push(`facebook_${adNumber(tick, day, n)}`);
  }
  const { rows: stored } = await tick.pool.query<{ id: string; advertiserId: string; status: string }>(
    `SELECT "id", "advertiserId", "status"::text AS status FROM "ads" WHERE "id" = ANY($1::text[])`,
    [ids],
  );
  const later = stored.map((row) => launchOf(row.id).day).filter((day) => day > tick.day);
  if (later.length) {
    throw new Error(`demoTick: the demo market was already advanced to ${isoDay(Math.max(...later))}; tick that day or a later one`);
  }

  const ads = new Map<string, string>();
  const { all, followed } = await candidatePages(tick.pool);
  const rng = tick.stream(`launches:${tick.day}`);
  const burst = (tick.day + (tick.seed % 3)) % 3 === 0;
  let n = 0;
  choose(rng, followed, all, LAUNCH_PAGES).forEach((pageId, i) => {
    const count = burst && i === 0 ? EVENT_THRESHOLDS.burstAds + rng.int(0, BURST_EXTRA) : rng.int(1, MAX_ADS_PER_PAGE);
    for (let k = 0; k < count; k++) ads.set(adNumber(tick, tick.day, n++), pageId);
  });
  for (const row of stored) {
    const number = row.id.slice('facebook_'.length);
    const profile = profileOf(tick, number);
    // An ad of today keeps the page it was started on (the candidates may have moved since).
    if (profile.launch === tick.day || row.status === 'active' || profile.lastDay >= tick.day - 1) ads.set(number, row.advertiserId);
  }
  if (!ads.size) return { read: 0, inserted: 0, updated: 0, skipped: 0, errors: [] };

  const pages = await pagesOf(tick.pool, [...new Set(ads.values())]);
  const records = [...ads].filter(([, pageId]) => pages.has(pageId)).map(([id, pageId]) => adRecord(tick, id, pages.get(pageId)!, tick.day));
  const batches = (async function* () {
    yield { origin: `demo tick ${tick.date}: Meta ads`, records };
  })();
  return applied(await importBatches(tick.pool, metaAds, batches, { asOf: tick.at, onBatch: (client) => tick.countEvents(client) }), 'the Meta ads');
}

// ---------------------------------------------------------------------------
// Shopify products
// ---------------------------------------------------------------------------

/**
 * The demo storefronts' featured images are served by this server at `/media/…`, which a products.json record cannot
 * carry (its images are absolute URLs): the records give them on this origin and the format's parse reads them back.
 */
const MEDIA_ORIGIN = 'https://media.demo.invalid';

function demoShopifyProducts(domain: string): Format<ShopifyProduct> {
  const format = shopifyProducts(domain);
  return {
    ...format,
    parse(raw, context) {
      const product = format.parse(raw, context);
      return { ...product, images: product.images.map((image) => (image.src.startsWith(`${MEDIA_ORIGIN}/`) ? { ...image, src: image.src.slice(MEDIA_ORIGIN.length) } : image)) };
    },
  };
}

type ShopRow = { id: string; domain: string; currency: string | null; followed: boolean };
type ProductRow = {
  id: string; shopId: string; shopifyId: string; title: string; description: string; handle: string; vendor: string | null;
  productType: string | null; tags: string[]; optionNames: string[]; publishedAt: Date | null; createdAt: Date; updatedAt: Date;
  currency: string; isSubscription: boolean;
};
type VariantRow = {
  productId: string; shopifyId: string; title: string; sku: string | null; available: boolean; price: string; compareAtPrice: string | null;
  position: number; option1: string | null; option2: string | null; option3: string | null;
};
type ImageRow = { productId: string; shopifyId: string; src: string; width: number | null; height: number | null; position: number };

/** Shopify shops with products: those workspaces follow, and the busiest (stable from day to day). */
async function candidateShops(pool: pg.Pool): Promise<{ all: ShopRow[]; followed: ShopRow[] }> {
  const { rows } = await pool.query<ShopRow>(
    `WITH followed AS (SELECT "key"::uuid AS id FROM "workspace_interests" WHERE "kind" = 'shop')
     SELECT s."id", s."domain", s."currency", s."id" IN (SELECT id FROM followed) AS followed FROM "shops" s
     WHERE s."myShopifyDomain" IS NOT NULL AND s."productsCount" > 0
       AND (s."id" IN (SELECT id FROM followed)
            OR s."id" IN (SELECT "id" FROM "shops" WHERE "myShopifyDomain" IS NOT NULL ORDER BY "monthlyVisits" DESC, "id" LIMIT $1))
     ORDER BY s."id" LIMIT $2`,
    [CANDIDATES, 3 * CANDIDATES],
  );
  return { all: rows, followed: rows.filter((row) => row.followed) };
}

const cents = (amount: string) => BigInt(amount.replace('.', ''));
const decimal = (amount: bigint) => `${amount / 100n}.${String(amount % 100n).padStart(2, '0')}`;
const html = (text: string) => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('\n', '<br>');

/** A stored product as its storefront's `products.json` shows it, with `variants` and `updatedAt` as given. */
function productRecord(row: ProductRow, variants: VariantRow[], images: ImageRow[], updatedAt: Date): Record<string, unknown> {
  const optionValues = (i: number) => [...new Set(variants.map((v) => [v.option1, v.option2, v.option3][i]).filter((value) => value !== null))];
  return {
    id: row.shopifyId,
    title: row.title,
    handle: row.handle,
    body_html: html(row.description),
    vendor: row.vendor,
    product_type: row.productType,
    tags: row.tags,
    published_at: row.publishedAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
    updated_at: updatedAt.toISOString(),
    options: row.optionNames.map((name, i) => ({ name, position: i + 1, values: optionValues(i) })),
    variants: variants.map((v) => ({
      id: v.shopifyId, title: v.title, sku: v.sku, available: v.available, price: v.price, compare_at_price: v.compareAtPrice,
      position: v.position, option1: v.option1, option2: v.option2, option3: v.option3,
    })),
    images: images.map((image) => ({
      id: image.shopifyId, src: image.src.startsWith('/media/') ? `${MEDIA_ORIGIN}${image.src}` : image.src, width: image.width,
      height: image.height, position: image.position,
    })),
    requires_selling_plan: row.isSubscription,
  };
}

/** Whether the format reads `record` back as the stored product: only then does writing it change nothing else. */
function readsBack(product: ShopifyProduct, row: ProductRow, variants: VariantRow[], images: ImageRow[]): boolean {
  const time = (date: Date | null) => date?.getTime() ?? null;
  const stored = [
    row.title, row.description, row.handle, row.vendor, row.productType, row.tags, row.optionNames, time(row.publishedAt), time(row.createdAt),
    time(row.updatedAt), row.isSubscription,
    variants.map((v) => [v.shopifyId, v.title, v.sku, v.available, String(cents(v.price)), v.compareAtPrice === null ? null : String(cents(v.compareAtPrice)), v.position, v.option1, v.option2, v.option3]),
    images.map((i) => [i.shopifyId, i.src, i.width, i.height, i.position]),
  ];
  const read = [
    product.title, product.description, product.handle, product.vendor, product.productType, product.tags, product.optionNames,
    time(product.publishedAt), time(product.createdAt), time(product.updatedAt), product.isSubscription,
    product.variants.map((v) => [v.id, v.title, v.sku, v.available, String(v.price), v.compareAtPrice === null ? null : String(v.compareAtPrice), v.position, v.option1, v.option2, v.option3]),
    product.images.map((i) => [i.id, i.src, i.width, i.height, i.position]),
  ];
  return JSON.stringify(stored) === JSON.stringify(read);
}

/** The day's change of a product: restocked when nothing is available, else repriced or sold out. */
function changedVariants(rng: Rng, row: ProductRow, variants: VariantRow[]): VariantRow[] | null {
  if (!variants.some((v) => v.available)) return variants.map((v) => ({ ...v, available: true }));
  const free = cents(variants[0].price) === 0n;
  if (free || rng.chance(0.25)) return variants.map((v) => ({ ...v, available: false }));
  const factor = rng.pick(PRICE_FACTORS);
  const repriced = variants.map((v) => {
    const old = Number(cents(v.price));
    if (old === 0) return v;
    let next = charmPrice(rng, (old / 100) * factor, row.currency);
    if (next === old) next = Math.max(1, Math.round(old * factor));
    return { ...v, price: decimal(BigInt(next)) };
  });
  return repriced[0].price === variants[0].price ? null : repriced;
}

/** A product with its variants and images, and whether the format reads its record back as stored. */
type StoredProduct = { row: ProductRow; variants: VariantRow[]; images: ImageRow[]; readsBack: boolean };

/** The best sellers of `shops` (an order the tick does not move), from which each day's products are drawn. */
async function bestSellers(tick: Tick, shops: ShopRow[]): Promise<Map<string, StoredProduct[]>> {
  const { rows } = await tick.pool.query<ProductRow>(
    `SELECT p."id", p."shopId", p."shopifyId", p."title", p."description", p."handle", p."vendor", p."productType", p."tags", p."optionNames",
            p."publishedAt", p."createdAt", p."updatedAt", p."currency", p."isSubscription"
     FROM "shops" s CROSS JOIN LATERAL (
       SELECT * FROM "products" p WHERE p."shopId" = s."id" ORDER BY p."bestSellerPosition", p."id" LIMIT $2) p
     WHERE s."id" = ANY($1::uuid[])
     ORDER BY p."shopId", p."bestSellerPosition", p."id"`,
    [shops.map((shop) => shop.id), PRODUCT_POOL],
  );
  const ids = rows.map((row) => row.id);
  const [variants, images] = await Promise.all([
    tick.pool.query<VariantRow>(
      `SELECT "productId", "shopifyId", "title", "sku", "available", "price"::text AS price, "compareAtPrice"::text AS "compareAtPrice", "position",
              "option1", "option2", "option3"
       FROM "product_variants" WHERE "productId" = ANY($1::text[]) ORDER BY "productId", "position", "shopifyId"`,
      [ids],
    ),
    tick.pool.query<ImageRow>(
      `SELECT "productId", "shopifyId", "src", "width", "height", "position" FROM "product_images" WHERE "productId" = ANY($1::text[])
       ORDER BY "productId", "position", "shopifyId"`,
      [ids],
    ),
  ]);
  const context = importContext(tick.at);
  const out = new Map<string, StoredProduct[]>(shops.map((shop) => [shop.id, []]));
  for (const shop of shops) {
    const format = demoShopifyProducts(shop.domain);
    for (const row of rows.filter((product) => product.shopId === shop.id)) {
      const own = variants.rows.filter((v) => v.productId === row.id);
      const pictures = images.rows.filter((image) => image.productId === row.id);
      const ok = own.length > 0 && row.currency === (shop.currency ?? 'USD') && readsBack(format.parse(productRecord(row, own, pictures, row.updatedAt), context), row, own, pictures);
      out.get(shop.id)!.push({ row, variants: own, images: pictures, readsBack: ok });
    }
  }
  return out;
}

/**
 * Reprices, sells out or restocks a few products of a few shops, and restocks the products a tick sold out two to
 * five days before; returns the records written.
 */
async function tickProducts(tick: Tick): Promise<number> {
  const { all, followed } = await candidateShops(tick.pool);
  const shopsOn = (day: number) =>
    choose(tick.stream(`product-shops:${day}`), followed, all, PRODUCT_SHOPS).filter((shop) => shopDomain(shop.domain) === shop.domain);
  const days = [tick.day, ...RESTOCK_AFTER.map((k) => tick.day - k)];
  const shops = [...new Map(days.flatMap(shopsOn).map((shop) => [shop.id, shop])).values()];
  if (!shops.length) return 0;
  const catalogue = await bestSellers(tick, shops);
  // The products a day changes: drawn from the shop's best sellers whose record reads back (which no change of a
  // price or a stock alters), so a second run of the day draws the same ones.
  const picksOn = (day: number) =>
    shopsOn(day).flatMap((shop) =>
      tick.stream(`products:${day}:${shop.id}`).shuffle(catalogue.get(shop.id)!.filter((p) => p.readsBack)).slice(0, PRODUCTS_PER_SHOP),
    );
  const restockDay = (product: StoredProduct, day: number) => day + tick.stream(`restock:${product.row.id}:${day}`).pick(RESTOCK_AFTER);
  const soldOut = RESTOCK_AFTER.flatMap((k) => picksOn(tick.day - k).map((product) => ({ product, day: tick.day - k })))
    .filter(({ product, day }) => restockDay(product, day) === tick.day);
  const { rows: found } = await tick.pool.query<{ dedupeKey: string }>(
    `SELECT "dedupeKey" FROM "market_events" WHERE "dedupeKey" = ANY($1::text[])`,
    [soldOut.map(({ product, day }) => `product.out_of_stock:${product.row.id}:${isoDay(day)}`)],
  );
  const sold = new Set(found.map((row) => row.dedupeKey));

  const changes = new Map<string, { product: StoredProduct; variants: VariantRow[] }>();
  for (const { product, day } of soldOut) {
    if (!sold.has(`product.out_of_stock:${product.row.id}:${isoDay(day)}`) || product.variants.some((v) => v.available)) continue;
    changes.set(product.row.id, { product, variants: product.variants.map((v) => ({ ...v, available: true })) });
  }
  for (const product of picksOn(tick.day)) {
    const variants = changes.has(product.row.id) ? null : changedVariants(tick.stream(`product:${tick.day}:${product.row.id}`), product.row, product.variants);
    if (variants) changes.set(product.row.id, { product, variants });
  }
  let written = 0;
  for (const shop of shops) {
    // A product changed today (by this tick or a fetch of the store) is left as it is: a second run changes nothing.
    const records = [...changes.values()]
      .filter(({ product }) => product.row.shopId === shop.id && product.row.updatedAt.getTime() < tick.at.getTime())
      .map(({ product, variants }) => productRecord(product.row, variants, product.images, tick.at));
    if (!records.length) continue;
    const batches = (async function* () {
      yield { origin: `demo tick ${tick.date}: products of ${shop.domain}`, records };
    })();
    const format = demoShopifyProducts(shop.domain);
    applied(await importBatches(tick.pool, format, batches, { asOf: tick.at, onBatch: (client) => tick.countEvents(client) }), `the products of ${shop.domain}`);
    written += records.length;
  }
  return written;
}

// ---------------------------------------------------------------------------
// Shop apps
// ---------------------------------------------------------------------------

type AppChange = { shopId: string; appId: number; action: 'install' | 'remove' };

/** The catalogue's apps by popularity, as the market draws them. */
const APP_DRAW = cumulativeWeights(SHOPIFY_APPS.map((app, i) => [app.id, 1 / (i + 1)] as const));

const appKey = (type: 'shop.app_installed' | 'shop.app_removed', shopId: string, appId: number, date: string) => `${type}:${shopId}:${appId}:${date}`;

/**
 * Writes the day's app changes: `shop_apps` (whose triggers keep `shops.appIds`), the apps' usage counts, and the
 * events of the rows that did change, in the batch's transaction.
 */
function shopAppsFormat(date: string): Format<AppChange> {
  return {
    records: (document) => (Array.isArray(document) ? document : 'not a list of app changes'),
    parse: (record) => record as AppChange,
    key: (change) => change.shopId,
    async apply(client, changes, context) {
      const column = (action: AppChange['action']) => {
        const chosen = changes.filter((change) => change.action === action);
        return [chosen.map((change) => change.shopId), chosen.map((change) => change.appId)];
      };
      const installed = await client.query<{ shopId: string; appId: number }>(
        `INSERT INTO "shop_apps" ("shopId", "appId") SELECT * FROM unnest($1::uuid[], $2::int[]) ON CONFLICT DO NOTHING RETURNING "shopId", "appId"`,
        column('install'),
      );
      const removed = await client.query<{ shopId: string; appId: number }>(
        `DELETE FROM "shop_apps" x USING unnest($1::uuid[], $2::int[]) AS u(shop, app) WHERE x."shopId" = u.shop AND x."appId" = u.app
         RETURNING x."shopId", x."appId"`,
        column('remove'),
      );
      const moved = [...installed.rows, ...removed.rows];
      const outcomes = new Map<string, Outcome>(moved.map((row) => [row.shopId, 'updated']));
      if (!moved.length) return outcomes;
      const { rows: apps } = await client.query<{ id: number; label: string }>(
        `UPDATE "shopify_apps" a SET "usageCount" = (SELECT count(*)::int FROM "shop_apps" x WHERE x."appId" = a."id") WHERE a."id" = ANY($1::int[])
         RETURNING a."id", a."label"`,
        [[...new Set(moved.map((row) => row.appId))]],
      );
      const app = (id: number) => ({ id, name: apps.find((row) => row.id === id)?.label ?? null });
      const events: NewEvent[] = [
        ...installed.rows.map((row): NewEvent => ({
          type: 'shop.app_installed', dedupeKey: appKey('shop.app_installed', row.shopId, row.appId, date), shopId: row.shopId,
          data: { before: null, after: { app: app(row.appId) } },
        })),
        ...removed.rows.map((row): NewEvent => ({
          type: 'shop.app_removed', dedupeKey: appKey('shop.app_removed', row.shopId, row.appId, date), shopId: row.shopId,
          data: { before: { app: app(row.appId) }, after: null },
        })),
      ];
      await recordEvents(client, 'demo', events, context.asOf);
      return outcomes;
    },
  };
}

/** A few Shopify shops install an app they lack or remove one they run. */
async function tickApps(tick: Tick): Promise<void> {
  const { all, followed } = await candidateShops(tick.pool);
  const shops = choose(tick.stream(`app-shops:${tick.day}`), followed, all, APP_SHOPS);
  if (!shops.length) return;
  const ids = shops.map((shop) => shop.id);
  const [{ rows: links }, { rows: known }] = await Promise.all([
    tick.pool.query<{ shopId: string; appId: number }>(`SELECT "shopId", "appId" FROM "shop_apps" WHERE "shopId" = ANY($1::uuid[])`, [ids]),
    tick.pool.query<{ id: number }>(`SELECT "id" FROM "shopify_apps" WHERE "id" = ANY($1::int[])`, [SHOPIFY_APPS.map((app) => app.id)]),
  ]);
  const catalogue = new Set(known.map((row) => row.id));
  // Each shop's candidates come from a stream of the day and the shop, not from what it runs, so a second run of the
  // day looks at the same apps and finds the day's change done.
  const plans = shops.map((shop) => {
    const rng = tick.stream(`apps:${tick.day}:${shop.id}`);
    const candidates = new Set<number>();
    for (let attempt = 0; candidates.size < APP_CANDIDATES && attempt < APP_CANDIDATES * 6; attempt++) {
      const id = rng.weightedFrom(APP_DRAW);
      if (catalogue.has(id)) candidates.add(id);
    }
    return { shop, remove: rng.chance(0.35), candidates: [...candidates] };
  });
  const keys = plans.flatMap(({ shop, candidates }) =>
    candidates.flatMap((appId) => [appKey('shop.app_installed', shop.id, appId, tick.date), appKey('shop.app_removed', shop.id, appId, tick.date)]),
  );
  const { rows: done } = await tick.pool.query<{ dedupeKey: string }>(`SELECT "dedupeKey" FROM "market_events" WHERE "dedupeKey" = ANY($1::text[])`, [keys]);
  const doneKeys = new Set(done.map((row) => row.dedupeKey));
  const changes: AppChange[] = [];
  for (const { shop, remove, candidates } of plans) {
    if (candidates.some((appId) => doneKeys.has(appKey('shop.app_installed', shop.id, appId, tick.date)) || doneKeys.has(appKey('shop.app_removed', shop.id, appId, tick.date)))) continue;
    const runs = new Set(links.filter((link) => link.shopId === shop.id).map((link) => link.appId));
    const install = runs.size < MAX_APPS ? candidates.find((appId) => !runs.has(appId)) : undefined;
    const drop = candidates.find((appId) => runs.has(appId));
    const change = (remove || install === undefined) && drop !== undefined ? { appId: drop, action: 'remove' as const } : install !== undefined ? { appId: install, action: 'install' as const } : null;
    if (change) changes.push({ shopId: shop.id, ...change });
  }
  if (!changes.length) return;
  const batches = (async function* () {
    yield { origin: `demo tick ${tick.date}: shop apps`, records: changes };
  })();
  applied(await importBatches(tick.pool, shopAppsFormat(tick.date), batches, { asOf: tick.at, onBatch: (client) => tick.countEvents(client) }), 'the shop apps');
}
