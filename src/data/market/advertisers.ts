import type { ShopCatalogSeed } from './products.js';
import type { ShopProfileSeed } from './shop-profiles.js';
import type { Rng } from '../random.js';
import { brandName, compactSlug, fill, shopDomain } from './names.js';
import { DAY } from './time.js';
import {
  CATEGORY_WEIGHTS,
  COUNTRY_DOMAIN_LABEL,
  COUNTRY_WEIGHTS,
  HOME_LANGUAGE,
  VOCABULARY,
  type Category,
  type Language,
} from './words.js';

export type AdvertiserSeed = {
  id: string;
  name: string;
  category: Category;
  /** The country the page sells to first; ads lead with it. */
  home: string;
  language: Language;
  facebookLikes: number;
  instagramFollowers: number;
  instagramUsername: string | null;
  /** Multiplies the reach of the page's ads. */
  popularity: number;
  adCount: number;
  /** Domains of the linked shops, the primary one first. */
  domains: string[];
  /** Creators' pages are `influencer`, the rest `brand`. */
  pageType: 'brand' | 'influencer';
  /** The page's one-line description. */
  about: string;
};

export type ShopSeed = {
  id: string;
  domain: string;
  name: string;
  monthlyVisits: number;
  categories: string[];
  createdAt: number;
  // Filled in by describeShops:
  categoryIds?: number[];
  countryCode?: string;
  trafficGrowth30d?: number;
  productsCount?: number;
  // Filled in by startProducts (products.ts), before the profiles:
  catalog?: ShopCatalogSeed;
  // Filled in by describeShopProfiles (shop-profiles.ts):
  profile?: ShopProfileSeed;
};
/** `isPrimary`: the page's primary shop; `isMain` and `rank` (set by rankShopPages): the shop's pages by strength. */
export type LinkSeed = { advertiserId: string; shopId: string; isPrimary: boolean; isMain?: boolean; rank?: number };

/**
 * Orders each shop's pages by strength, the page with the most ads first (ties: the lower page id): `rank` 1..n,
 * and `isMain` on the first. Draws nothing, so it changes no other value.
 */
export function rankShopPages(links: LinkSeed[], advertisers: AdvertiserSeed[]): void {
  const adCount = new Map(advertisers.map((advertiser) => [advertiser.id, advertiser.adCount]));
  const byShop = new Map<string, LinkSeed[]>();
  for (const link of links) {
    const own = byShop.get(link.shopId);
    if (own) own.push(link);
    else byShop.set(link.shopId, [link]);
  }
  for (const own of byShop.values()) {
    own.sort((a, b) => adCount.get(b.advertiserId)! - adCount.get(a.advertiserId)! || (a.advertiserId < b.advertiserId ? -1 : 1));
    own.forEach((link, i) => {
      link.rank = i + 1;
      link.isMain = i === 0;
    });
  }
}

const INT_MAX = 2_147_483_647;
const clampInt = (value: number, min: number) => Math.min(INT_MAX, Math.max(min, Math.round(value)));

/**
 * Splits `total` ads over `count` pages: everyone gets one, the rest goes by Pareto weights with
 * largest remainders, so most pages run a handful of ads and a few run hundreds.
 */
export function allocateAdCounts(rng: Rng, count: number, total: number, cap = 400): number[] {
  // The Pareto draw saturates smoothly towards `cap`, so the biggest pages do not all tie at a hard limit.
  const weights = Array.from({ length: count }, () => {
    const w = rng.pareto(1, 1.05);
    return w / (1 + w / cap) - 0.6;
  });
  const sum = weights.reduce((a, b) => a + b, 0);
  const spare = Math.max(0, total - count);
  const exact = weights.map((w) => (spare * w) / sum);
  const counts = exact.map((x) => 1 + Math.floor(x));
  let left = total - counts.reduce((a, b) => a + b, 0);
  const order = exact.map((x, i) => ({ i, frac: x - Math.floor(x) })).sort((a, b) => b.frac - a.frac || a.i - b.i);
  for (let k = 0; left > 0; k = (k + 1) % order.length, left--) counts[order[k].i]++;
  return counts;
}

function homeLanguage(rng: Rng, home: string): Language {
  const local = HOME_LANGUAGE[home];
  if (local && rng.chance(0.9)) return local;
  return 'en';
}

/** What a page is about, per category, for its description. */
const TOPICS: Record<Category, string> = {
  Clothing: 'fashion',
  Beauty: 'skincare and beauty',
  'Health & wellness': 'wellness',
  'Home decor': 'home and interiors',
  Electronics: 'tech and gadgets',
  'Pet supplies': 'pets',
  Jewelry: 'jewelry and accessories',
  Sports: 'fitness and outdoor',
  'Food & beverage': 'food and drinks',
  Toys: 'toys and family',
};

const BRAND_ABOUT = [
  '{name}: {topic} essentials, {benefit}, shipped from {country}.',
  'Official page of {name}. {Topic}, {benefit}, designed in {country}.',
  'Home of the {product} everyone is talking about.',
  '{name} | {Topic} | Free shipping on your first order.',
  'Discover our {collection}: {benefit} and made to be loved.',
  '{Topic} brand from {country}. Shop the {collection} online.',
];

const CREATOR_ABOUT = [
  'Sharing my favourite {topic} finds | Collabs via DM',
  '{Topic} creator from {country}. Honest reviews, daily.',
  'Everyday {topic} inspiration · Partnerships: DM',
  'Your go-to for {topic} tips and try-ons 💬 Business inquiries via DM',
  'Content creator · {topic} · {country}',
];

const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });
const countryNames = new Map(
  COUNTRY_WEIGHTS.map(([code]) => {
    const name = regionNames.of(code) ?? code;
    return [code, /^(United|Netherlands)/.test(name) ? `the ${name}` : name];
  }),
);

/** Creators are small pages more often than big ones: about 12% of pages overall. */
function pageTypeFor(rng: Rng, adCount: number): AdvertiserSeed['pageType'] {
  const share = adCount <= 2 ? 0.15 : adCount <= 10 ? 0.09 : 0.04;
  return rng.chance(share) ? 'influencer' : 'brand';
}

function aboutPage(rng: Rng, name: string, category: Category, home: string, pageType: AdvertiserSeed['pageType']): string {
  const { products, collections, benefits } = VOCABULARY[category];
  const values = {
    name,
    topic: TOPICS[category],
    country: countryNames.get(home) ?? home,
    product: rng.pick(products),
    collection: rng.pick(collections),
    benefit: rng.pick(benefits),
  };
  return fill(rng.pick(pageType === 'influencer' ? CREATOR_ABOUT : BRAND_ABOUT), values);
}

/**
 * The biggest pages' weight cap grows with the market past the small scale's 6,000 pages, as the largest real
 * advertisers do: the biggest brands have about 330 ads at tiny and small (unchanged), a few thousand at medium
 * and more at large, so a brand with thousands of ads exists where the analytics are measured at scale.
 */
export function pageWeightCap(pages: number): number {
  return 400 * Math.max(1, pages / 6000);
}

export function makeAdvertisers(rng: Rng, count: number, totalAds: number): AdvertiserSeed[] {
  const ids = new Set<string>();
  const names = new Set<string>();
  // Page types and descriptions come from a stream of their own, so the pages' other draws do not move.
  const profiles = rng.fork('page-profiles');
  const adCounts = allocateAdCounts(rng, count, totalAds, pageWeightCap(count));
  return adCounts.map((adCount) => {
    let id: string;
    do id = rng.digits(rng.chance(0.6) ? 15 : 16);
    while (ids.has(id));
    ids.add(id);
    const category = rng.weighted(CATEGORY_WEIGHTS);
    const name = brandName(rng, category, names);
    const home = rng.weighted(COUNTRY_WEIGHTS);
    // Pages with many ads tend to be the bigger brands.
    const popularity = rng.logNormal(1, 0.6) * Math.pow(adCount, 0.15);
    const facebookLikes = clampInt(rng.logNormal(3500, 1.9) * popularity, 12);
    const hasInstagram = rng.chance(0.85);
    const instagramFollowers = hasInstagram ? clampInt(facebookLikes * rng.logNormal(0.7, 0.9), 25) : 0;
    const handle = compactSlug(name);
    const handles = [[handle, 6], [`${handle}_official`, 2], [`${handle}.${home.toLowerCase()}`, 1]] as const;
    const instagramUsername = hasInstagram ? rng.weighted(handles) : null;
    const language = homeLanguage(rng, home);
    const pageType = pageTypeFor(profiles, adCount);
    const about = aboutPage(profiles, name, category, home, pageType);
    return { id, name, category, home, language, facebookLikes, instagramFollowers, instagramUsername, popularity, adCount, domains: [], pageType, about };
  });
}

/** How many shops a page links: mostly one, some none, a few two or three. */
const SHOPS_PER_PAGE: readonly (readonly [number, number])[] = [
  [0, 7],
  [1, 78],
  [2, 11],
  [3, 4],
];

function shopCategories(rng: Rng, category: Category): string[] {
  const { taxonomy, related } = VOCABULARY[category];
  return [taxonomy, ...rng.shuffle(related.slice()).slice(0, rng.weighted([[0, 60], [1, 30], [2, 10]] as const))];
}

/**
 * Creates the shops and links them to pages: a page's first shop is its own brand domain (a few "sister pages"
 * share another page's shop instead), extra shops are country sites or other pages' shops. Unlinked shops fill
 * the market up to `total`.
 */
export function makeShops(rng: Rng, advertisers: AdvertiserSeed[], total: number, asOf: number): { shops: ShopSeed[]; links: LinkSeed[] } {
  const shops: ShopSeed[] = [];
  const links: LinkSeed[] = [];
  const domains = new Set<string>();
  const linked: ShopSeed[] = [];
  const earliest = Date.UTC(2012, 0, 1);
  const latest = asOf - 60 * DAY;
  const newShop = (name: string, domain: string, category: Category, popularity: number): ShopSeed => {
    const shop: ShopSeed = {
      id: rng.uuid(),
      domain,
      name,
      monthlyVisits: clampInt(rng.logNormal(9000, 1.7) * popularity, 40),
      categories: shopCategories(rng, category),
      createdAt: Math.round(rng.float(earliest, latest)),
    };
    shops.push(shop);
    return shop;
  };

  for (const advertiser of advertisers) {
    const count = rng.weighted(SHOPS_PER_PAGE);
    const mine = new Set<string>();
    for (let slot = 0; slot < count; slot++) {
      const reuse = linked.length > 0 && (rng.chance(slot === 0 ? 0.06 : 0.3) || shops.length >= total);
      let shop: ShopSeed | undefined;
      if (reuse) {
        shop = rng.pick(linked);
        if (mine.has(shop.id)) shop = undefined;
      } else if (slot === 0) {
        shop = newShop(advertiser.name, shopDomain(rng, advertiser.name, domains), advertiser.category, advertiser.popularity);
        linked.push(shop);
      } else {
        const country = rng.weighted(COUNTRY_WEIGHTS.filter(([code]) => code !== advertiser.home));
        const label = COUNTRY_DOMAIN_LABEL[country] ?? country.toLowerCase();
        const domain = shopDomain(rng, advertiser.name, domains, label);
        shop = newShop(`${advertiser.name} ${country === 'GB' ? 'UK' : country}`, domain, advertiser.category, advertiser.popularity * 0.4);
        linked.push(shop);
      }
      if (!shop) continue;
      mine.add(shop.id);
      advertiser.domains.push(shop.domain);
      links.push({ advertiserId: advertiser.id, shopId: shop.id, isPrimary: advertiser.domains.length === 1 });
    }
  }

  const names = new Set(advertisers.map((a) => a.name));
  while (shops.length < total) {
    const category = rng.weighted(CATEGORY_WEIGHTS);
    const name = brandName(rng, category, names);
    newShop(name, shopDomain(rng, name, domains), category, rng.logNormal(0.8, 0.5));
  }
  return { shops, links };
}
