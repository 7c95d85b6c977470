import type { Rng } from '../random.js';
import { BRAND_ADJECTIVES, BRAND_SUFFIXES, FIRST_NAMES, VOCABULARY, type Category } from './words.js';

/** A brand-like page name ("Nordic Glow", "Lumen & Co", "Peak Fitness Store"), unique within `taken`. */
export function brandName(rng: Rng, category: Category, taken: Set<string>): string {
  const words = VOCABULARY[category].brandWords;
  for (let attempt = 0; ; attempt++) {
    const adjective = rng.pick(BRAND_ADJECTIVES);
    const word = rng.pick(words);
    const pattern = rng.int(0, 7);
    let name: string;
    if (pattern <= 1) name = `${adjective} ${word}`;
    else if (pattern === 2) name = `${rng.chance(0.5) ? adjective : word} & Co`;
    else if (pattern === 3) name = `${adjective} ${word} ${rng.pick(BRAND_SUFFIXES)}`;
    else if (pattern === 4) name = `The ${word} ${rng.pick(BRAND_SUFFIXES)}`;
    else if (pattern === 5) name = `${rng.pick(FIRST_NAMES)}'s ${word}`;
    else if (pattern === 6) name = `${word} ${rng.pick(BRAND_SUFFIXES)}`;
    else name = `${adjective}${word.toLowerCase()}`;
    if (attempt > 40) name = `${name} ${rng.pick(BRAND_SUFFIXES)} ${rng.int(2, 99)}`;
    if (!taken.has(name)) {
      taken.add(name);
      return name;
    }
  }
}

export function slugify(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/&/g, ' ')
    .replace(/'/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** The slug without separators, as brands register domains: "Lumen & Co" → "lumenco". */
export function compactSlug(text: string): string {
  return slugify(text).replace(/-/g, '');
}

const TLDS: readonly (readonly [string, number])[] = [
  ['com', 60],
  ['co', 15],
  ['shop', 15],
  ['store', 10],
];

/** A domain for `brand`, not yet in `taken`; `country` gives the `<brand>-<cc>.com` form. */
export function shopDomain(rng: Rng, brand: string, taken: Set<string>, country?: string): string {
  const base = compactSlug(brand);
  const candidates = country
    ? [`${base}-${country}.com`, `${base}${country}.com`, `${base}-${country}.shop`]
    : [`${base}.${rng.weighted(TLDS)}`, `${base}.com`, `${base}.co`, `${base}.shop`, `${base}.store`, `shop${base}.com`, `get${base}.com`];
  for (const domain of candidates) {
    if (!taken.has(domain)) {
      taken.add(domain);
      return domain;
    }
  }
  for (let n = 2; ; n++) {
    const domain = `${base}${n}.com`;
    if (!taken.has(domain)) {
      taken.add(domain);
      return domain;
    }
  }
}

/** Replaces `{key}` placeholders; `{Key}` capitalises the value, `{key_lower}` lower-cases it. */
export function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_, key: string) => {
    const lower = key.endsWith('_lower');
    const base = lower ? key.slice(0, -6) : key;
    const exact = values[base];
    if (exact !== undefined) return lower ? exact.toLowerCase() : exact;
    const value = values[base.charAt(0).toLowerCase() + base.slice(1)];
    if (value === undefined) throw new Error(`template placeholder {${key}} has no value`);
    return value.charAt(0).toUpperCase() + value.slice(1);
  });
}
