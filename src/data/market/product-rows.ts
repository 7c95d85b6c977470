import type { Rng } from '../random.js';
import type { ShopSeed } from './advertisers.js';
import { charmPrice, COLOR_NAMES, DESCRIPTION_ENDINGS, TITLE_SUFFIXES, type CategoryWords, type ProductLine, type ProductOption } from './product-words.js';
import { designOfKey, productImagePath } from '../images/draw.js';
import { DAY } from './time.js';

// A product's storefront side: title, handle, description, tags, sale price, variants and images, as a
// Shopify storefront's products.json shows them. Prices are in cents of the shop currency.

export type ProductVariantSeed = {
  shopifyId: string;
  title: string;
  sku: string | null;
  available: boolean;
  price: number;
  compareAtPrice: number | null;
  position: number;
  options: string[];
};

export type ProductImageSeed = { shopifyId: string; src: string; width: number; height: number; position: number };

export type ProductRowsContext = {
  shop: ShopSeed;
  figure: { words: CategoryWords; line: ProductLine; price: number };
  /** The shop's file folder on the Shopify CDN. */
  cdn: string;
  skuPrefix: string;
  /** Handles the shop already uses. */
  handles: Set<string>;
  index: number;
  position: number;
  count: number;
  createdAt: number;
  updatedAt: number;
  currency: string;
};

const DISCOUNTS = [[10, 15], [15, 15], [20, 25], [25, 15], [30, 15], [40, 8], [50, 7]] as const;
const SUBSCRIBABLE = new Set(['Supplements', 'Coffee & Tea', 'Pet Treats', 'Snacks', 'Pantry']);
const IMAGE_SIZES: readonly (readonly [readonly [number, number], number])[] = [[[2048, 2048], 40], [[1080, 1350], 20], [[1200, 1200], 15], [[1500, 1500], 15], [[1000, 1000], 10]];

export const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');

function title(rng: Rng, shop: ShopSeed, line: ProductLine, free: boolean): { title: string; noun: string; modifier: string; colour: boolean } {
  const noun = rng.pick(line.nouns);
  const modifier = rng.pick(line.modifiers);
  if (free) return { title: `Free Gift: ${modifier} ${noun}`, noun, modifier, colour: false };
  // Lines sold in colours split some products by colour ("Linen Shirt - Sage") instead of offering a Color option.
  const coloured = line.options.some((set) => set.some((option) => option.name === 'Color'));
  const pattern = rng.weighted([['plain', 45], ['the', 8], ['noun', 7], ['colour', coloured ? 12 : 0], ['suffix', 10], ['brand', 10]] as const);
  const text = {
    plain: `${modifier} ${noun}`,
    the: `The ${modifier} ${noun}`,
    noun,
    colour: `${modifier} ${noun} - ${rng.pick(COLOR_NAMES)}`,
    suffix: `${modifier} ${noun} ${rng.pick(TITLE_SUFFIXES)}`,
    brand: `${shop.name.split(' ')[0]} ${noun}`,
  }[pattern];
  return { title: text, noun, modifier, colour: pattern === 'colour' };
}

/** The shop's first free handle for `text` (Shopify appends -1, -2, … to a taken one). */
function uniqueHandle(text: string, handles: Set<string>): string {
  const base = slug(text) || 'product';
  let handle = base;
  for (let n = 1; handles.has(handle); n++) handle = `${base}-${n}`;
  handles.add(handle);
  return handle;
}

/** Up to `count` option value combinations: a run of each option's values, the first option varying slowest. */
function combinations(rng: Rng, options: readonly ProductOption[], count: number): { values: string[]; rank: number }[] {
  if (options.length === 0) return [{ values: ['Default Title'], rank: 0 }];
  const second = options.length > 1 ? (count >= 4 && rng.chance(0.4) ? 2 : 1) : 1;
  const runs = options.map((option, i) => {
    const length = Math.min(option.values.length, i === 0 ? Math.ceil(count / second) : second);
    const start = rng.int(0, option.values.length - length);
    return option.values.slice(start, start + length);
  });
  const out: { values: string[]; rank: number }[] = [];
  for (const [a, first] of runs[0].entries()) {
    for (const rest of runs[1] ?? [null]) out.push({ values: rest === null ? [first] : [first, rest], rank: options[0].priced ? a : 0 });
  }
  return out.slice(0, count);
}

export function drawProductRows(rng: Rng, ctx: ProductRowsContext) {
  const { shop, figure, currency } = ctx;
  const { line, words } = figure;
  const free = figure.price === 0;
  const named = title(rng, shop, line, free);
  // A product split out by colour does not offer its colours again as variants.
  const options = rng.pick(named.colour ? line.options.map((set) => set.filter((option) => option.name !== 'Color')) : line.options);
  const handle = uniqueHandle(named.title, ctx.handles);

  const discount = !free && rng.chance(0.25) ? rng.weighted(DISCOUNTS) : 0;
  const compareAt = (price: number) => (discount === 0 ? null : Math.max(price + 100, charmPrice(rng, price / 100 / (1 - discount / 100), currency)));
  const variantCount = options.length === 0 ? 1 : rng.weighted([[1, 10], [2, 30], [3, 25], [4, 35]] as const);
  const skus = rng.chance(0.8);
  const variantBase = 30_000_000_000_000 + (ctx.createdAt % 1_000_000_000) * 10_000 + rng.int(0, 9_999);
  const variants = combinations(rng, options, variantCount).map(({ values, rank }, i): ProductVariantSeed => {
    const price = rank === 0 || free ? figure.price : charmPrice(rng, (figure.price / 100) * (1 + 0.6 * rank), currency);
    const codes = options.length === 0 ? [] : values.map((value) => value.replace(/[^A-Za-z0-9]/g, '').slice(0, 3).toUpperCase());
    return {
      shopifyId: String(variantBase + i),
      title: values.join(' / '),
      sku: skus ? [ctx.skuPrefix, String(1000 + ctx.index), ...codes].join('-') : null,
      available: rng.chance(i === 0 ? 0.95 : 0.85),
      price,
      compareAtPrice: compareAt(price),
      position: i + 1,
      options: values,
    };
  });

  const imageCount = rng.weighted([[1, 30], [2, 30], [3, 20], [4, 20]] as const);
  const [width, height] = rng.weighted(IMAGE_SIZES);
  const version = Math.floor(ctx.updatedAt / 1000);
  const imageBase = 35_000_000_000_000 + (ctx.createdAt % 1_000_000_000) * 10_000 + rng.int(0, 9_999);
  // The featured image is a drawn design the server serves itself; products of the same line, noun and modifier
  // share one of a few designs across shops, as dropshipped items share their supplier's photos.
  const design = designOfKey(`${line.productType}|${named.noun}|${named.modifier}|${ctx.createdAt % 6}`);
  const images = Array.from({ length: imageCount }, (_, i): ProductImageSeed => ({
    shopifyId: String(imageBase + i),
    src: i === 0 ? productImagePath(design) : `${ctx.cdn}/${handle}-${i + 1}.jpg?v=${version}`,
    width,
    height,
    position: i + 1,
  }));

  const tags = [slug(line.productType)];
  if (named.title.includes(named.modifier)) tags.push(slug(named.modifier));
  if (discount > 0) tags.push('sale');
  if (ctx.position <= Math.max(1, Math.round(ctx.count * 0.1))) tags.push('bestseller');
  if (ctx.updatedAt - ctx.createdAt < 30 * DAY && rng.chance(0.6)) tags.push('new-arrival');
  const lead = rng.pick([`Meet the ${named.title.replace(/^The /, '')}.`, `Our ${named.modifier.toLowerCase()} take on the ${named.noun.toLowerCase()}.`, `${named.title}, made for every day.`]);
  const description = [lead, `${rng.pick(words.benefits)}.`, rng.pick(DESCRIPTION_ENDINGS)].filter(Boolean).join(' ');

  return {
    product: {
      title: named.title,
      description,
      handle,
      productType: line.productType,
      tags,
      optionNames: options.length === 0 ? ['Title'] : options.map((option) => option.name),
      compareAtPrice: variants[0].compareAtPrice,
      isSubscription: rng.chance(SUBSCRIBABLE.has(line.productType) ? 0.2 : 0.015),
      design,
    },
    variants,
    images,
  };
}
