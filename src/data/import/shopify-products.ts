import { createHash } from 'node:crypto';
import type pg from 'pg';
import { bumpBrandRevisions } from '../brand-revisions.js';
import { recordEvents, type NewEvent } from '../events.js';
import { refreshFacetUsage } from '../facet-usage.js';
import { toUsd } from '../usd-rates.js';
import type { Format, ImportContext, Outcome } from './run.js';
import { upsert, type UpsertSpec } from './sql.js';
import { BadRecord, idOf, isHostName, isObject, optionalDateTime, optionalString, stringList } from './values.js';

// Shopify storefront `products.json` pages (`https://<domain>/products.json?limit=250&page=N`):
// `{ products: [product, …] }`; a single product (`/products/<handle>.json`, `{ product }`) and a bare array are
// read too. The file does not name its shop: the domain is given with the import (`--domain`).
//
// Mapping (one record = one product of the shop):
//   the domain                  → shops: found by domain, else created with the UUID v5 of `https://<domain>` (URL
//                                 namespace), named after the vendor of at least half the file's products (a brand's
//                                 own shop) or else after the domain; currency unknown (null). Its createdAt moves back
//                                 to the oldest product's created_at; productsCount = its stored products.
//   id (64-bit, decimal text)   → products.shopifyId; products.id `<shopId>:<id>`
//   title, handle, vendor, product_type, published_at, created_at, updated_at → their columns (createdAt falls
//                                 back to published_at, updatedAt to createdAt); url `https://<domain>/products/<handle>`
//   body_html                   → description, as plain text (tags dropped, entities decoded, one line per block)
//   tags (array, or the Admin API's comma-separated text) → tags
//   options[].name by position  → optionNames (the lone "Title" option of a product without options is dropped)
//   variants                    → product_variants (replaced: variants gone from the record are deleted)
//   images                      → product_images (replaced likewise); imageUrl = the first image by position
//   price                       → the first variant's (by position) price: what the product page shows selected.
//                                 compareAtPrice = its compare_at_price when above the price (else null), and then
//                                 promoTypes ['percent-off'].
//   currency, priceUsd          → the shop's currency and the price converted at the reference rate; a shop of
//                                 unknown currency (or one without a reference rate) is priced as USD: priceUsd = price.
//   requires_selling_plan or selling_plan_groups → isSubscription
// Sales, ads, EU figures, reviews, categories and the best-seller rank are not in the file and keep their values.
// `--as-of` changes nothing here: every date comes from the record. Provenance: fetchedFrom 'shopify' and
// firstFetchedAt (the database clock), on insert only; the last complete fetch of the store is the connector's
// (shop_fetch_states). No history is written: what the products' and shops' history routes read (weekly ad activity
// and EU delivery, sales readings, social followers) is not in a storefront's products.json.

type Variant = {
  id: string;
  title: string;
  sku: string | null;
  available: boolean;
  price: bigint;
  compareAtPrice: bigint | null;
  position: number;
  option1: string | null;
  option2: string | null;
  option3: string | null;
};

type Image = { id: string; src: string; width: number | null; height: number | null; position: number };

export type ShopifyProduct = {
  id: string;
  title: string;
  handle: string;
  description: string;
  vendor: string | null;
  productType: string | null;
  tags: string[];
  optionNames: string[];
  publishedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  isSubscription: boolean;
  /** By position. */
  variants: Variant[];
  /** By position. */
  images: Image[];
};

const fail = (reason: string): never => {
  throw new BadRecord(reason);
};

// ---------------------------------------------------------------------------
// Reading a record
// ---------------------------------------------------------------------------

const MAX_CENTS = 10n ** 12n; // DECIMAL(12, 2)

/** A price as cents: decimal text (`"19.99"`) or a number; more than two decimals round half up. */
function cents(value: unknown, field: string): bigint {
  const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : typeof value === 'string' ? value.trim() : null;
  const match = text === null ? null : /^(\d+)(?:\.(\d*))?$/.exec(text);
  if (!match) return fail(`${field} must be a decimal amount like "19.99", got ${JSON.stringify(value)}`);
  const fraction = match[2] ?? '';
  const amount = BigInt(match[1]) * 100n + BigInt(fraction.padEnd(2, '0').slice(0, 2)) + (fraction[2] >= '5' ? 1n : 0n);
  if (amount >= MAX_CENTS) return fail(`${field} is too large: ${JSON.stringify(value)}`);
  return amount;
}

const decimal = (amount: bigint) => `${amount / 100n}.${String(amount % 100n).padStart(2, '0')}`;

function optionalCents(value: unknown, field: string): bigint | null {
  return value === undefined || value === null || value === '' ? null : cents(value, field);
}

function optionalInteger(value: unknown, field: string, min: number): number | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= min && value <= 2_147_483_647) return value;
  return fail(`${field} must be a whole number of at least ${min}, got ${JSON.stringify(value)}`);
}

function list(value: unknown, field: string): unknown[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) return fail(`${field} must be an array`);
  return value;
}

/** Items in position order (ties in file order); an id twice is a bad record. */
function byPosition<T extends { id: string; position: number }>(items: T[], field: string): T[] {
  const seen = new Set<string>();
  for (const item of items) {
    if (seen.has(item.id)) fail(`${field} has the id ${item.id} twice`);
    seen.add(item.id);
  }
  return items.map((item, i) => ({ item, i })).sort((a, b) => a.item.position - b.item.position || a.i - b.i).map(({ item }) => item);
}

function variantOf(raw: unknown, i: number): Variant {
  const field = `variants[${i}]`;
  if (!isObject(raw)) return fail(`${field} must be an object`);
  const options = [1, 2, 3].map((n) => optionalString(raw[`option${n}`], `${field}.option${n}`));
  if (raw.available !== undefined && raw.available !== null && typeof raw.available !== 'boolean') {
    fail(`${field}.available must be true or false, got ${JSON.stringify(raw.available)}`);
  }
  if (raw.price === undefined || raw.price === null || raw.price === '') fail(`${field}.price is missing`);
  return {
    id: idOf(raw.id, `${field}.id`),
    title: optionalString(raw.title, `${field}.title`) ?? (options.filter(Boolean).join(' / ') || 'Default Title'),
    sku: optionalString(raw.sku, `${field}.sku`),
    available: raw.available !== false,
    price: cents(raw.price, `${field}.price`),
    compareAtPrice: optionalCents(raw.compare_at_price, `${field}.compare_at_price`),
    position: optionalInteger(raw.position, `${field}.position`, 0) ?? i + 1,
    option1: options[0],
    option2: options[1],
    option3: options[2],
  };
}

function imageOf(raw: unknown, i: number): Image {
  const field = `images[${i}]`;
  if (!isObject(raw)) return fail(`${field} must be an object`);
  const given = optionalString(raw.src, `${field}.src`);
  if (!given) return fail(`${field}.src is missing`);
  const src = given.startsWith('//') ? `https:${given}` : given;
  if (!/^https?:\/\/[^\s/]+/i.test(src)) fail(`${field}.src is not a URL: ${JSON.stringify(given)}`);
  return {
    id: idOf(raw.id, `${field}.id`),
    src,
    width: optionalInteger(raw.width, `${field}.width`, 0),
    height: optionalInteger(raw.height, `${field}.height`, 0),
    position: optionalInteger(raw.position, `${field}.position`, 0) ?? i + 1,
  };
}

function optionNamesOf(value: unknown): string[] {
  const options = list(value, 'options').map((raw, i) => {
    if (typeof raw === 'string') return { name: raw.trim(), position: i + 1, values: [] as string[] };
    if (!isObject(raw)) return fail(`options[${i}] must be an object with a name`);
    return {
      name: optionalString(raw.name, `options[${i}].name`) ?? fail(`options[${i}].name is missing`),
      position: optionalInteger(raw.position, `options[${i}].position`, 0) ?? i + 1,
      values: stringList(raw.values, `options[${i}].values`),
    };
  });
  const [only] = options;
  if (options.length === 1 && only.name === 'Title' && only.values.every((value) => value === 'Default Title')) return [];
  return options.map((option, i) => ({ option, i })).sort((a, b) => a.option.position - b.option.position || a.i - b.i).map(({ option }) => option.name);
}

function tagsOf(value: unknown): string[] {
  const tags = typeof value === 'string' ? value.split(',') : stringList(value, 'tags');
  return [...new Set(tags.map((tag) => tag.trim()).filter(Boolean))];
}

const ENTITIES: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', ndash: '–', mdash: '—', hellip: '…', lsquo: '‘', rsquo: '’',
  ldquo: '“', rdquo: '”', laquo: '«', raquo: '»', bull: '•', middot: '·', copy: '©', reg: '®', trade: '™', deg: '°',
  times: '×', euro: '€', pound: '£', yen: '¥', cent: '¢', frac12: '½', eacute: 'é', egrave: 'è', agrave: 'à',
  ccedil: 'ç', uuml: 'ü', ouml: 'ö', auml: 'ä', szlig: 'ß',
};

function entity(match: string, name: string): string {
  if (name[0] !== '#') return ENTITIES[name] ?? ENTITIES[name.toLowerCase()] ?? match;
  const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
  return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : match;
}

const BLOCK = /<\/?(?:p|div|li|ul|ol|h[1-6]|tr|table|section|article|blockquote|details|summary)\b[^>]*>|<br\s*\/?>/gi;

/** The text of a product's `body_html`: one line per paragraph, list item or line break. */
export function plainText(html: string): string {
  return html
    .replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(BLOCK, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&(#[xX][0-9a-fA-F]+|#\d+|[A-Za-z][A-Za-z0-9]*);/g, entity)
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter(Boolean)
    .join('\n');
}

export function parseShopifyProduct(raw: unknown, context: ImportContext): ShopifyProduct {
  void context;
  if (!isObject(raw)) return fail('the record is not an object');
  const id = idOf(raw.id, 'id');
  const title = optionalString(raw.title, 'title') ?? fail('title is missing');
  const handle = optionalString(raw.handle, 'handle') ?? fail('handle is missing');
  if (/[\s/?#]/.test(handle)) fail(`handle is not a URL handle: ${JSON.stringify(handle)}`);
  const publishedAt = optionalDateTime(raw.published_at, 'published_at');
  const createdAt = optionalDateTime(raw.created_at, 'created_at') ?? publishedAt ?? fail('created_at is missing');
  const variants = byPosition(list(raw.variants, 'variants').map(variantOf), 'variants');
  if (variants.length === 0) fail('variants is empty: the product has no price');
  const body = raw.body_html;
  if (body !== undefined && body !== null && typeof body !== 'string') fail(`body_html must be a string, got ${typeof body}`);
  const plans = raw.selling_plan_groups;
  return {
    id,
    title,
    handle,
    description: typeof body === 'string' ? plainText(body) : '',
    vendor: optionalString(raw.vendor, 'vendor'),
    productType: optionalString(raw.product_type, 'product_type'),
    tags: tagsOf(raw.tags),
    optionNames: optionNamesOf(raw.options),
    publishedAt,
    createdAt,
    updatedAt: optionalDateTime(raw.updated_at, 'updated_at') ?? createdAt,
    isSubscription: raw.requires_selling_plan === true || (Array.isArray(plans) && plans.length > 0),
    variants,
    images: byPosition(list(raw.images, 'images').map(imageOf), 'images'),
  };
}

// ---------------------------------------------------------------------------
// The shop
// ---------------------------------------------------------------------------

/** A shop's domain from a host or URL ("https://www.Shop.com/" → "shop.com", IDNs as punycode); null when it is none. */
export function shopDomain(value: string): string | null {
  const text = value.trim().replace(/^[a-z][a-z0-9+.-]*:\/\//i, '');
  if (text === '' || /[\s@]/.test(text)) return null;
  let host: string;
  try {
    host = new URL(`https://${text}`).hostname;
  } catch {
    return null;
  }
  host = host.replace(/\.$/, '').replace(/^www\./, '');
  return isHostName(host) ? host : null;
}

const URL_NAMESPACE = Buffer.from('6ba7b8119dad11d180b400c04fd430c8', 'hex');

/** The id of a shop first seen by an import: the UUID v5 of `https://<domain>` in the URL namespace. */
export function shopIdOf(domain: string): string {
  const hash = createHash('sha1').update(URL_NAMESPACE).update(`https://${domain}`).digest();
  hash[6] = (hash[6] & 0x0f) | 0x50;
  hash[8] = (hash[8] & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The vendor of at least half the products, else the domain's name ("lumen-ceramics.co.uk" → "Lumen Ceramics"). */
function shopName(domain: string, products: ShopifyProduct[]): string {
  const counts = new Map<string, number>();
  for (const product of products) if (product.vendor) counts.set(product.vendor, (counts.get(product.vendor) ?? 0) + 1);
  const [top] = [...counts].sort(([a, m], [b, n]) => n - m || (a < b ? -1 : 1));
  if (top && top[1] * 2 >= products.length) return top[0];
  return domain.split('.')[0].split('-').filter(Boolean).map((word) => word[0].toUpperCase() + word.slice(1)).join(' ');
}

type Shop = { id: string; currency: string | null; inserted: boolean };

async function shopOf(client: pg.PoolClient, domain: string, products: ShopifyProduct[]): Promise<Shop> {
  const oldest = new Date(Math.min(...products.map((product) => product.createdAt.getTime())));
  const created = await client.query(
    `INSERT INTO "shops" ("id", "domain", "name", "categories", "createdAt") VALUES ($1, $2, $3, '{}', $4)
     ON CONFLICT ("domain") DO NOTHING RETURNING "id"`,
    [shopIdOf(domain), domain, shopName(domain, products), oldest.toISOString()],
  );
  const { rows } = await client.query<{ id: string; currency: string | null }>(`SELECT "id", "currency" FROM "shops" WHERE "domain" = $1`, [domain]);
  await client.query(`UPDATE "shops" SET "createdAt" = $2::timestamptz WHERE "id" = $1 AND "createdAt" > $2::timestamptz`, [rows[0].id, oldest.toISOString()]);
  return { ...rows[0], inserted: created.rowCount === 1 };
}

// ---------------------------------------------------------------------------
// Writing
// ---------------------------------------------------------------------------

function productUrl(domain: string, handle: string): string {
  return `https://${domain}/products/${handle.replace(/[^A-Za-z0-9\-._~%]/gu, (c) => encodeURIComponent(c))}`;
}

/** `products.fetchedFrom` of the products this format brings in. */
const SOURCE = 'shopify';

async function applyShopifyProducts(
  domain: string,
  client: pg.PoolClient,
  products: ShopifyProduct[],
  context: ImportContext,
): Promise<Map<string, Outcome>> {
  void context;
  const outcomes = new Map<string, Outcome>();
  const shop = await shopOf(client, domain, products);
  const productId = (product: ShopifyProduct) => `${shop.id}:${product.id}`;
  const shopifyIdOf = new Map(products.map((product) => [productId(product), product.id]));
  const changed = (id: string) => {
    const key = shopifyIdOf.get(id)!;
    if (!outcomes.has(key)) outcomes.set(key, 'updated');
  };
  const currency = shop.currency ?? 'USD';
  // What the events compare: the stored price and whether any variant was available.
  const before = await client.query<{ id: string; price: string | null; available: boolean | null }>(
    `SELECT p."id", p."price"::text AS price, (SELECT bool_or(v."available") FROM "product_variants" v WHERE v."productId" = p."id") AS available
     FROM "products" p WHERE p."id" = ANY($1::text[])`,
    [products.map(productId)],
  );

  const written = await upsert<{ id: string; inserted: boolean }>(
    client,
    {
      table: 'products',
      columns: [
        { name: 'id', type: 'text' }, { name: 'shopId', type: 'uuid' }, { name: 'shopifyId', type: 'text' }, { name: 'title', type: 'text' },
        { name: 'description', type: 'text' }, { name: 'handle', type: 'text' }, { name: 'url', type: 'text' }, { name: 'imageUrl', type: 'text' },
        { name: 'vendor', type: 'text' }, { name: 'productType', type: 'text' }, { name: 'tags', type: 'text[]' },
        { name: 'optionNames', type: 'text[]' }, { name: 'publishedAt', type: 'timestamptz' }, { name: 'createdAt', type: 'timestamptz' },
        { name: 'updatedAt', type: 'timestamptz' }, { name: 'currency', type: 'text' }, { name: 'price', type: 'numeric' },
        { name: 'compareAtPrice', type: 'numeric' }, { name: 'priceUsd', type: 'numeric' }, { name: 'isSubscription', type: 'bool' },
        { name: 'promoTypes', type: 'text[]' }, { name: 'fetchedFrom', type: 'text' },
      ],
      key: ['id'],
      insertOnly: { firstFetchedAt: 'now()' },
      update: [
        'title', 'description', 'handle', 'url', 'imageUrl', 'vendor', 'productType', 'tags', 'optionNames', 'publishedAt', 'createdAt',
        'updatedAt', 'currency', 'price', 'compareAtPrice', 'priceUsd', 'isSubscription', 'promoTypes',
      ],
      returning: 'id, (xmax = 0) AS inserted',
    },
    products.map((product) => {
      const [shown] = product.variants;
      const price = decimal(shown.price);
      const onSale = shown.compareAtPrice !== null && shown.compareAtPrice > shown.price;
      return [
        productId(product), shop.id, product.id, product.title, product.description, product.handle, productUrl(domain, product.handle),
        product.images[0]?.src ?? null, product.vendor, product.productType, product.tags, product.optionNames, product.publishedAt,
        product.createdAt, product.updatedAt, currency, price, onSale ? decimal(shown.compareAtPrice!) : null,
        toUsd(price, currency) ?? price, product.isSubscription, onSale ? ['percent-off'] : [], SOURCE,
      ];
    }),
  );
  for (const row of written) outcomes.set(shopifyIdOf.get(row.id)!, row.inserted ? 'inserted' : 'updated');

  // Variants and images: the record's list replaces the stored one.
  const ids = products.map(productId);
  const replace = async (table: string, rows: unknown[][], spec: Pick<UpsertSpec, 'columns' | 'update'>) => {
    const removed = await client.query<{ productId: string }>(
      `DELETE FROM "${table}" x WHERE x."productId" = ANY($1::text[])
         AND (x."productId", x."shopifyId") NOT IN (SELECT * FROM unnest($2::text[], $3::text[]))
       RETURNING x."productId"`,
      [ids, rows.map((row) => row[0]), rows.map((row) => row[1])],
    );
    const upserted = await upsert<{ productId: string }>(client, { ...spec, table, key: ['productId', 'shopifyId'], returning: '"productId"' }, rows);
    for (const row of [...removed.rows, ...upserted]) changed(row.productId);
  };
  await replace(
    'product_variants',
    products.flatMap((product) =>
      product.variants.map((v) => [
        productId(product), v.id, v.title, v.sku, v.available, decimal(v.price), v.compareAtPrice === null ? null : decimal(v.compareAtPrice),
        v.position, v.option1, v.option2, v.option3,
      ]),
    ),
    {
      columns: [
        { name: 'productId', type: 'text' }, { name: 'shopifyId', type: 'text' }, { name: 'title', type: 'text' }, { name: 'sku', type: 'text' },
        { name: 'available', type: 'bool' }, { name: 'price', type: 'numeric' }, { name: 'compareAtPrice', type: 'numeric' },
        { name: 'position', type: 'int4' }, { name: 'option1', type: 'text' }, { name: 'option2', type: 'text' }, { name: 'option3', type: 'text' },
      ],
      update: ['title', 'sku', 'available', 'price', 'compareAtPrice', 'position', 'option1', 'option2', 'option3'],
    },
  );
  await replace(
    'product_images',
    products.flatMap((product) => product.images.map((image) => [productId(product), image.id, image.src, image.width, image.height, image.position])),
    {
      columns: [
        { name: 'productId', type: 'text' }, { name: 'shopifyId', type: 'text' }, { name: 'src', type: 'text' },
        { name: 'width', type: 'int4' }, { name: 'height', type: 'int4' }, { name: 'position', type: 'int4' },
      ],
      update: ['src', 'width', 'height', 'position'],
    },
  );

  await client.query(
    `UPDATE "shops" s SET "productsCount" = c.n FROM (SELECT count(*)::int AS n FROM "products" WHERE "shopId" = $1) c
     WHERE s."id" = $1 AND s."productsCount" IS DISTINCT FROM c.n`,
    [shop.id],
  );
  if (shop.inserted || written.some((row) => row.inserted)) await refreshFacetUsage(client);
  await recordEvents(client, 'shopify', productChanges(shop.id, products.map((product) => ({ id: productId(product), product })), before.rows, written, currency, context), context.asOf);
  // A product written (created, renamed, its creation day corrected…): the shop's brand diffs read anew, events or not.
  if (written.length) await bumpBrandRevisions(client, [shop.id]);
  return outcomes;
}

/**
 * The events of a page of products (see src/data/events.ts): products created, repriced, sold out or back in stock.
 * Keyed by the day and the new value, so that a re-run of the day records nothing twice.
 */
function productChanges(
  shopId: string,
  products: { id: string; product: ShopifyProduct }[],
  stored: { id: string; price: string | null; available: boolean | null }[],
  written: { id: string; inserted: boolean }[],
  currency: string,
  context: ImportContext,
): NewEvent[] {
  const day = context.day.toISOString().slice(0, 10);
  const before = new Map(stored.map((row) => [row.id, row]));
  const created = new Set(written.filter((row) => row.inserted).map((row) => row.id));
  const events: NewEvent[] = [];
  for (const { id, product } of products) {
    const subject = { productId: id, shopId };
    const price = decimal(product.variants[0].price);
    const available = product.variants.some((variant) => variant.available);
    if (created.has(id)) {
      events.push({ type: 'product.created', dedupeKey: `product.created:${id}`, ...subject,
        data: { before: null, after: { title: product.title, price: Number(price), currency, available } } });
      continue;
    }
    const old = before.get(id);
    if (!old) continue;
    if (old.price !== null && Number(old.price) !== Number(price)) {
      events.push({ type: 'product.price_changed', dedupeKey: `product.price_changed:${id}:${day}:${price}`, ...subject,
        data: { before: { price: Number(old.price), currency }, after: { price: Number(price), currency } } });
    }
    if (old.available === true && !available) {
      events.push({ type: 'product.out_of_stock', dedupeKey: `product.out_of_stock:${id}:${day}`, ...subject,
        data: { before: { available: true }, after: { available: false } } });
    } else if (old.available === false && available) {
      events.push({ type: 'product.back_in_stock', dedupeKey: `product.back_in_stock:${id}:${day}`, ...subject,
        data: { before: { available: false }, after: { available: true } } });
    }
  }
  return events;
}

/** The format for one shop's pages: `domain` as `shopDomain` gives it. */
export function shopifyProducts(domain: string): Format<ShopifyProduct> {
  return {
    records(document) {
      if (Array.isArray(document)) return document;
      if (isObject(document) && Array.isArray(document.products)) return document.products;
      if (isObject(document) && isObject(document.product)) return [document.product];
      return 'not a products.json page: expected { "products": [ … ] }';
    },
    parse: parseShopifyProduct,
    key: (product) => product.id,
    apply: (client, products, context) => applyShopifyProducts(domain, client, products, context),
  };
}
