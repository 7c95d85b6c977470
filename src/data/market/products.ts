import type { Rng } from '../random.js';
import { currencyOf } from './locale.js';
import { USD_PER_UNIT } from '../usd-rates.js';
import type { ShopSeed } from './advertisers.js';
import { define, type TableRows } from './define.js';
import { drawProductAds, PRODUCT_WEEKS, shareAds, splitInteger, type ProductAdsSeed } from './product-ads.js';
import { drawProductRows, type ProductImageSeed, type ProductVariantSeed } from './product-rows.js';
import {
  charmPrice,
  GENERAL_WORDS,
  PRODUCT_WORDS,
  type CategoryWords,
  type ProductLine,
} from './product-words.js';
import { cubeLiteral, fingerprint, fingerprintId, type Fingerprint } from '../images/fingerprint.js';
import { drawDesign, FINGERPRINT_SIZE } from '../images/draw.js';
import { taxonomyId } from './taxonomy.js';
import { DAY, isoDate, isoTimestamp, type Window } from './time.js';

// Products of the shops with variants, images and weekly history. A shop's sales figures are drawn from its
// own stream twice: up front, to sum its catalogue, and again with its rows, so no product is held in between.

/**
 * Fields of a shop set by startProducts. `currency` is the storefront currency (ISO 4217) every price of the
 * shop is in; `monthlyRevenueUsd` and `monthlyUnitsSold` are the sums over its products (the latest sales reading
 * of the shop equals them); `bestSellerPriceUsd` is the price of its best-selling product (null without products).
 */
export type ShopCatalogSeed = {
  currency: string;
  productsCount: number;
  monthlyRevenueUsd: number;
  monthlyUnitsSold: number;
  bestSellerPriceUsd: number | null;
};

/** Prices are in cents (of the shop currency, or of USD for `priceUsd`). */
export type ProductSeed = {
  id: string;
  shopId: string;
  shopifyId: string;
  title: string;
  description: string;
  handle: string;
  url: string;
  vendor: string;
  productType: string;
  tags: string[];
  optionNames: string[];
  createdAt: number;
  publishedAt: number;
  updatedAt: number;
  currency: string;
  price: number;
  compareAtPrice: number | null;
  priceUsd: number;
  isSubscription: boolean;
  categoryIds: number[];
  rating: number | null;
  reviewCount: number;
  bestSellerPosition: number;
  bestSellerPercentile: number;
  monthlyRevenueUsd: number;
  dailyRevenueUsd: number;
  dailyRevenueMinUsd: number;
  dailyRevenueMaxUsd: number;
  monthlyUnitsSold: number;
  dailyUnitsSold: number;
  ads: ProductAdsSeed | null;
  /** The drawn design of the featured image (src/data/images/draw.ts). */
  design: number;
  variants: ProductVariantSeed[];
  images: ProductImageSeed[];
};

/** `fingerprints`: the pictures first shown by this slice's products (each distinct picture is stored once). */
export type ProductSlice = { kind: 'products'; shops: ShopSeed[]; products: ProductSeed[]; fingerprints: DesignFingerprint[]; window: Window };
export type DesignFingerprint = Fingerprint & { id: bigint };

export type ProductsPlan = {
  /** Products per shop, in shop order (each shop's `productsCount`). */
  productCounts: number[];
  /** The products of shops `start`..`end - 1`; call on consecutive runs from 0. */
  shopsBetween(start: number, end: number): Omit<ProductSlice, 'kind'>;
};

/** The figures of a product that its shop's catalogue sums: drawn before its other fields. Amounts in cents. */
type Figure = { words: CategoryWords; category: number; line: ProductLine; price: number; priceUsd: number; units: number };

const round2 = (x: number) => Math.round(x * 100) / 100;
export const centsText = (cents: number) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;

/** Catalogue sizes: heavy-tailed, larger for busier shops, at least one each and `total` in all. */
function productCounts(rng: Rng, shops: readonly ShopSeed[], total: number): number[] {
  const raw = shops.map((shop) => Math.pow(shop.monthlyVisits, 0.45) * rng.logNormal(1, 1));
  const mean = raw.reduce((a, b) => a + b, 0) / Math.max(1, raw.length);
  // Saturates smoothly towards 200 times the mean, so a few catalogues run to thousands but none swamps the market.
  const cap = 200 * mean;
  const weights = raw.map((w) => w / (1 + w / cap));
  const spare = Math.max(0, total - shops.length);
  return splitInteger(spare, weights).map((n) => n + 1);
}

function shopFigures(rng: Rng, shop: ShopSeed, count: number, currency: string): Figure[] {
  const usdPerUnit = USD_PER_UNIT[currency] ?? 1;
  const names = shop.categories.length > 0 ? shop.categories : ['General'];
  const sells = names.map((name, i) => {
    const words = PRODUCT_WORDS[name] ?? GENERAL_WORDS;
    const lineCount = i === 0 ? rng.weighted([[1, 60], [2, 30], [3, 10]] as const) : 1;
    return { words, lines: rng.shuffle(words.lines.slice()).slice(0, lineCount) };
  });
  const priceLevel = rng.logNormal(1, 0.35);
  const figures = Array.from({ length: count }, (): Figure => {
    const category = sells.length === 1 || rng.chance(0.75) ? 0 : rng.int(1, sells.length - 1);
    const { words, lines } = sells[category];
    const line = rng.pick(lines);
    const free = count > 3 && rng.chance(0.004);
    const price = free ? 0 : charmPrice(rng, (line.priceUsd * priceLevel * rng.logNormal(1, 0.45)) / usdPerUnit, currency);
    return { words, category, line, price, priceUsd: Math.round(price * usdPerUnit), units: 0 };
  });
  // Monthly units: visits × conversion × items per order, spread by popularity; cheaper products sell more.
  const conversion = Math.min(0.06, Math.max(0.002, rng.logNormal(0.014, 0.5)));
  const units = shop.monthlyVisits * conversion * rng.float(1.1, 1.5);
  const weights = figures.map((f) => rng.logNormal(1, 1.2) * Math.sqrt((f.line.priceUsd * 100) / Math.max(100, f.priceUsd)));
  const sum = weights.reduce((a, b) => a + b, 0);
  for (const [j, f] of figures.entries()) f.units = Math.min(50_000_000, Math.floor((units * weights[j]) / sum + rng.next()));
  return figures;
}

/** Best-seller positions (1 = most monthly revenue; ties keep catalogue order). */
function positions(figures: readonly Figure[]): number[] {
  const order = figures.map((f, j) => ({ j, revenue: f.units * f.priceUsd })).sort((a, b) => b.revenue - a.revenue || a.j - b.j);
  const out = new Array<number>(figures.length);
  order.forEach(({ j }, k) => (out[j] = k + 1));
  return out;
}

function catalogOf(figures: readonly Figure[], currency: string): ShopCatalogSeed {
  let revenueCents = 0;
  let units = 0;
  for (const f of figures) {
    revenueCents += f.units * f.priceUsd;
    units += f.units;
  }
  const rank = positions(figures);
  const best = figures.find((_, j) => rank[j] === 1);
  return {
    currency,
    productsCount: figures.length,
    monthlyRevenueUsd: Math.min(2_147_483_647, Math.round(revenueCents / 100)),
    monthlyUnitsSold: units,
    bestSellerPriceUsd: best ? best.priceUsd / 100 : null,
  };
}

/** Shopify product ids grow with time: 13 digits in 2012, 14 from mid-2025. */
function shopifyIdAt(rng: Rng, ms: number, base: number): number {
  const since2012 = Math.max(0, ms - Date.UTC(2012, 0, 1)) / (Date.UTC(2025, 5, 1) - Date.UTC(2012, 0, 1));
  return base + Math.floor(since2012 * 8_500_000_000_000) + rng.int(0, 99_999_999);
}

/** The Monday (day number) of the week holding `day`. */
const mondayOf = (day: number) => day - ((day + 3) % 7);

function shopProducts(root: Rng, shop: ShopSeed, count: number, window: Window): ProductSeed[] {
  const catalog = shop.catalog!;
  const figures = shopFigures(root.fork(`figures:${shop.id}`), shop, count, catalog.currency);
  const rank = positions(figures);
  const rng = root.fork(`details:${shop.id}`);
  const cdn = `https://cdn.shopify.com/s/files/1/0${rng.digits(3)}/${rng.digits(4)}/${rng.digits(4)}/files`;
  const skuPrefix = shop.name.replace(/[^A-Za-z]/g, '').slice(0, 3).toUpperCase() || 'SKU';
  // Busier shops advertise more often; their best sellers carry the campaigns.
  const advertises = rng.chance(Math.min(0.85, Math.max(0.25, 0.25 + 0.12 * Math.log10(Math.max(1, shop.monthlyVisits / 1000)))));
  const lastMonday = mondayOf(window.last);
  const firstMonday = lastMonday - 7 * (PRODUCT_WEEKS - 1);
  const usedIds = new Set<number>();
  const handles = new Set<string>();
  const home = shop.countryCode ?? 'US';
  const products = figures.map((figure, j): ProductSeed => {
    const position = rank[j];
    const createdAt = Math.round(window.asOf - (window.asOf - shop.createdAt) * Math.pow(rng.next(), 1.6));
    const publishedAt = Math.min(window.asOf, createdAt + (rng.chance(0.7) ? rng.int(0, 3_600_000) : Math.round(rng.float(0, 5 * DAY))));
    const updatedAt = Math.max(publishedAt, Math.round(window.asOf - (window.asOf - createdAt) * rng.next() ** 2));
    let numeric = shopifyIdAt(rng, createdAt, 1_500_000_000_000);
    while (usedIds.has(numeric)) numeric++;
    usedIds.add(numeric);
    const shopifyId = String(numeric);
    const rows = drawProductRows(rng, { shop, figure, cdn, skuPrefix, handles, index: j, position, count, createdAt, updatedAt, currency: catalog.currency });
    const ageDays = (window.asOf - createdAt) / DAY;
    const hasAds = advertises && rng.chance(Math.min(0.9, 0.2 + 0.6 / Math.sqrt(position)));
    const ads = hasAds
      ? drawProductAds(rng, home, 1 + 2 / Math.sqrt(position), ageDays, Math.max(0, Math.ceil((Math.floor(createdAt / DAY) - firstMonday - 6) / 7)), `/media/products/${shopifyId}/ads`)
      : null;
    const reviewCount = Math.min(2_000_000, Math.floor(figure.units * Math.max(0.5, Math.min(36, ageDays / 30)) * rng.logNormal(0.015, 0.9) + rng.next()));
    const rating =
      reviewCount === 0 ? null : Math.max(1, Math.min(5, Math.round((5 - Math.abs(rng.normal() * 0.35) - (rng.chance(0.05) ? rng.float(0.5, 3) : 0)) * 10) / 10));
    const revenue = (figure.units * figure.priceUsd) / 100;
    const daily = round2(revenue / 30);
    const taxonomy = taxonomyId(shop.categories[figure.category] ?? '');
    return {
      id: `${shop.id}:${shopifyId}`,
      shopId: shop.id,
      shopifyId,
      ...rows.product,
      url: `https://${shop.domain}/products/${rows.product.handle}`,
      vendor: shop.name,
      createdAt,
      publishedAt,
      updatedAt,
      currency: catalog.currency,
      price: figure.price,
      priceUsd: figure.priceUsd,
      categoryIds: taxonomy !== undefined && (shop.categoryIds ?? []).includes(taxonomy) ? [taxonomy] : [],
      rating,
      reviewCount,
      bestSellerPosition: position,
      bestSellerPercentile: Math.round((10_000 * (count - position + 1)) / count) / 100,
      monthlyRevenueUsd: revenue,
      dailyRevenueUsd: daily,
      dailyRevenueMinUsd: Math.floor(daily * rng.float(0.45, 0.85) * 100) / 100,
      dailyRevenueMaxUsd: Math.ceil(daily * rng.float(1.15, 1.9) * 100) / 100,
      monthlyUnitsSold: figure.units,
      dailyUnitsSold: round2(figure.units / 30),
      ads,
      variants: rows.variants,
      images: rows.images,
    };
  });
  shareAds(products.map((p) => p.ads));
  return products;
}

/** Draws each shop's catalogue size and figures up front (about `total` products in all). */
export function startProducts(rng: Rng, shops: ShopSeed[], total: number, window: Window): ProductsPlan {
  const counts = productCounts(rng.fork('counts'), shops, total);
  for (const [i, shop] of shops.entries()) {
    const currency = currencyOf(shop.countryCode ?? 'US');
    shop.productsCount = counts[i];
    shop.catalog = catalogOf(shopFigures(rng.fork(`figures:${shop.id}`), shop, counts[i], currency), currency);
  }
  const stored = new Set<bigint>();
  return {
    productCounts: counts,
    shopsBetween(start, end) {
      const run = shops.slice(start, end);
      const products = run.flatMap((shop, k) => shopProducts(rng, shop, counts[start + k], window));
      const fingerprints: DesignFingerprint[] = [];
      for (const product of products) {
        const found = fingerprintOf(product.design);
        if (!stored.has(found.id)) {
          stored.add(found.id);
          fingerprints.push(found);
        }
      }
      return { shops: run, products, fingerprints, window };
    },
  };
}

type Week = { product: ProductSeed; k: number };

/** Fingerprints of the designs drawn so far in this process (a design always draws the same picture). */
const designFingerprints = new Map<number, DesignFingerprint>();

function fingerprintOf(design: number): DesignFingerprint {
  let found = designFingerprints.get(design);
  if (!found) {
    const drawn = fingerprint(drawDesign(design, FINGERPRINT_SIZE));
    found = { ...drawn, id: fingerprintId(drawn) };
    designFingerprints.set(design, found);
  }
  return found;
}

function* weeksOf(products: readonly ProductSeed[]): Generator<Week> {
  for (const product of products) {
    if (!product.ads) continue;
    for (let k = 0; k < PRODUCT_WEEKS; k++) yield { product, k };
  }
}

export function productTables(slice: ProductSlice): TableRows[] {
  const { products } = slice;
  const ads = (p: ProductSeed) => p.ads;
  const firstMonday = mondayOf(slice.window.last) - 7 * (PRODUCT_WEEKS - 1);
  const weekStarts = Array.from({ length: PRODUCT_WEEKS }, (_, k) => isoDate(firstMonday + 7 * k));
  const weekEnds = Array.from({ length: PRODUCT_WEEKS }, (_, k) => isoDate(firstMonday + 7 * k + 6));
  const week = (w: Week) => w.product.ads!.weeks[w.k];
  const variants = products.flatMap((p) => p.variants.map((variant) => ({ product: p, variant })));
  const images = products.flatMap((p) => p.images.map((image) => ({ product: p, image })));
  const withAds = products.reduce((n, p) => n + (p.ads ? 1 : 0), 0);
  return [
    define<DesignFingerprint>('image_fingerprints', slice.fingerprints.length, slice.fingerprints, [
      ['id', 'int8', (f) => f.id.toString()],
      ['phash', 'int8', (f) => f.phash.toString()],
      ['features', 'cube', (f) => cubeLiteral(f.features)],
    ]),
    define<ProductSeed>('products', products.length, products, [
      ['id', 'text', (p) => p.id],
      ['shopId', 'uuid', (p) => p.shopId],
      ['shopifyId', 'text', (p) => p.shopifyId],
      ['title', 'text', (p) => p.title],
      ['description', 'text', (p) => p.description],
      ['handle', 'text', (p) => p.handle],
      ['url', 'text', (p) => p.url],
      ['imageUrl', 'text', (p) => p.images[0].src],
      ['imageFingerprintId', 'int8', (p) => fingerprintOf(p.design).id.toString()],
      ['vendor', 'text', (p) => p.vendor],
      ['productType', 'text', (p) => p.productType],
      ['tags', 'text[]', (p) => p.tags],
      ['optionNames', 'text[]', (p) => p.optionNames],
      ['publishedAt', 'timestamptz', (p) => isoTimestamp(p.publishedAt)],
      ['createdAt', 'timestamptz', (p) => isoTimestamp(p.createdAt)],
      ['updatedAt', 'timestamptz', (p) => isoTimestamp(p.updatedAt)],
      ['currency', 'text', (p) => p.currency],
      ['price', 'numeric', (p) => centsText(p.price)],
      ['compareAtPrice', 'numeric', (p) => (p.compareAtPrice === null ? null : centsText(p.compareAtPrice))],
      ['priceUsd', 'numeric', (p) => centsText(p.priceUsd)],
      ['isSubscription', 'bool', (p) => p.isSubscription],
      ['promoTypes', 'text[]', (p) => (p.compareAtPrice === null ? [] : ['percent-off'])],
      ['categoryIds', 'int4[]', (p) => p.categoryIds],
      ['rating', 'float8', (p) => p.rating],
      ['reviewCount', 'int4', (p) => p.reviewCount],
      ['bestSellerPosition', 'int4', (p) => p.bestSellerPosition],
      ['bestSellerPercentile', 'float8', (p) => p.bestSellerPercentile],
      ['dailyRevenueUsd', 'float8', (p) => p.dailyRevenueUsd],
      ['dailyRevenueMinUsd', 'float8', (p) => p.dailyRevenueMinUsd],
      ['dailyRevenueMaxUsd', 'float8', (p) => p.dailyRevenueMaxUsd],
      ['monthlyRevenueUsd', 'float8', (p) => p.monthlyRevenueUsd],
      ['dailyUnitsSold', 'float8', (p) => p.dailyUnitsSold],
      ['monthlyUnitsSold', 'int4', (p) => p.monthlyUnitsSold],
      ['activeAds', 'int4', (p) => ads(p)?.activeAds ?? 0],
      ['totalAds', 'int4', (p) => ads(p)?.totalAds ?? 0],
      ['adsLaunched7d', 'int4', (p) => ads(p)?.adsLaunched7d ?? 0],
      ['adsLaunched14d', 'int4', (p) => ads(p)?.adsLaunched14d ?? 0],
      ['adsLaunched30d', 'int4', (p) => ads(p)?.adsLaunched30d ?? 0],
      ['weekOverWeekGrowth', 'float8', (p) => ads(p)?.weekOverWeekGrowth ?? null],
      ['adShare', 'float8', (p) => ads(p)?.adShare ?? 0],
      ['advertisersCount', 'int4', (p) => ads(p)?.advertisersCount ?? 0],
      ['hasPartnershipAds', 'bool', (p) => ads(p)?.hasPartnershipAds ?? false],
      ['previewUrls', 'text[]', (p) => ads(p)?.previewUrls ?? []],
      ['activeByCountry', 'jsonb', (p) => ads(p)?.activeByCountry ?? []],
      ['sellingCountries', 'text[]', (p) => ads(p)?.sellingCountries ?? []],
      ['mainSellingCountry', 'text', (p) => ads(p)?.mainSellingCountry ?? null],
      ['euSpendUsd', 'float8', (p) => ads(p)?.euSpendUsd ?? 0],
      ['euDailySpendUsd', 'float8', (p) => ads(p)?.euDailySpendUsd ?? 0],
      ['euSpend14dUsd', 'float8', (p) => ads(p)?.euSpend14dUsd ?? 0],
      ['euReach', 'int8', (p) => ads(p)?.euReach ?? 0],
      ['spendShare', 'float8', (p) => ads(p)?.spendShare ?? 0],
      ['euReachByCountry', 'jsonb', (p) => ads(p)?.euReachByCountry ?? []],
    ]),
    define<{ product: ProductSeed; variant: ProductVariantSeed }>('product_variants', variants.length, variants, [
      ['productId', 'text', (v) => v.product.id],
      ['shopifyId', 'text', (v) => v.variant.shopifyId],
      ['title', 'text', (v) => v.variant.title],
      ['sku', 'text', (v) => v.variant.sku],
      ['available', 'bool', (v) => v.variant.available],
      ['price', 'numeric', (v) => centsText(v.variant.price)],
      ['compareAtPrice', 'numeric', (v) => (v.variant.compareAtPrice === null ? null : centsText(v.variant.compareAtPrice))],
      ['position', 'int4', (v) => v.variant.position],
      ['option1', 'text', (v) => v.variant.options[0] ?? null],
      ['option2', 'text', (v) => v.variant.options[1] ?? null],
      ['option3', 'text', (v) => v.variant.options[2] ?? null],
    ]),
    define<{ product: ProductSeed; image: ProductImageSeed }>('product_images', images.length, images, [
      ['productId', 'text', (i) => i.product.id],
      ['shopifyId', 'text', (i) => i.image.shopifyId],
      ['src', 'text', (i) => i.image.src],
      ['width', 'int4', (i) => i.image.width],
      ['height', 'int4', (i) => i.image.height],
      ['position', 'int4', (i) => i.image.position],
    ]),
    define<Week>('product_weeks', withAds * PRODUCT_WEEKS, weeksOf(products), [
      ['productId', 'text', (w) => w.product.id],
      ['weekStart', 'date', (w) => weekStarts[w.k]],
      ['weekEnd', 'date', (w) => weekEnds[w.k]],
      ['activeAds', 'int4', (w) => week(w).activeAds],
      ['euDailySpendUsd', 'float8', (w) => week(w).euDailySpendUsd],
      ['euDailyReach', 'int4', (w) => week(w).euDailyReach],
    ]),
  ];
}
