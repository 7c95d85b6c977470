import { cumulativeWeights, Rng } from '../random.js';
import type { AdvertiserSeed, LinkSeed, ShopSeed } from './advertisers.js';
import { define, type TableRows } from './define.js';
import { PIXELS, SHOPIFY_APPS, TECHNOLOGIES, THEMES, type ShopifyAppFacet, type TechnologyFacet, type ThemeFacet } from './facets.js';
import { currencyOf, languageOf } from './locale.js';
import { compactSlug } from './names.js';
import { drawApps, drawPixels, drawTechnologies } from './shop-stack.js';
import { TRAFFIC_MONTHS, trafficCountries, trafficHistory, type CountryShare, type TrafficHistory } from './shop-traffic.js';
import type { Window } from './time.js';
import { COUNTRY_WEIGHTS, HOME_LANGUAGE } from './words.js';

import { socialAndSalesTables, type ShopHistorySlice } from './shop-history.js';

export { startShopHistory, type ShopHistoryPlan, type ShopHistorySlice } from './shop-history.js';

// Shop profiles (storefront, Trustpilot, socials, theme, technologies) and the facet rows they point at; the
// shops' apps, pixels and traffic months and countries. Each shop is drawn from its own fork of the stream, so
// slicing cannot change it; the profile keeps the shop-level summary, and the longer per-shop lists (apps,
// pixels, traffic) are drawn again from the same forks when their rows are written.

export const SOCIAL_NETWORKS = ['facebook', 'instagram', 'tiktok', 'youtube', 'pinterest', 'linkedin', 'twitter'] as const;
export type SocialNetwork = (typeof SOCIAL_NETWORKS)[number];

/** Fields of a shop set by describeShopProfiles. */
export type ShopProfileSeed = {
  /** The seed of the shop's own stream (its apps, pixels and traffic breakdown come from forks of it). */
  seed: number;
  /** The technology slug of the storefront platform (`shopify` for most). */
  platform: string;
  /** Linked to a Facebook page. */
  linked: boolean;
  currency: string;
  defaultLanguage: string;
  isShopifyPlus: boolean;
  myShopifyDomain: string | null;
  relatedDomains: string[];
  /** The largest traffic country. */
  mainMarket: string;
  isDtc: boolean;
  displayInTrending: boolean;
  /** The first days of the traffic months, oldest first, the last being asOf's (one array shared by all shops). */
  months: readonly string[];
  trafficGrowth90d: number;
  trafficGrowth180d: number;
  trustpilot: { rating: number; reviewCount: number } | null;
  handles: Record<SocialNetwork, string | null>;
  /** Followers on asOf of the networks with a daily history (null without a profile there). */
  followers: { facebook: number | null; instagram: number | null; youtube: number | null };
  themeId: string | null;
  technologyIds: string[];
  /** How many apps, pixels and traffic countries `shopApps`, `shopPixels` and `shopCountries` give. */
  counts: { apps: number; pixels: number; countries: number };
};

const INT_MAX = 2_147_483_647;
const clampInt = (value: number, min: number) => Math.min(INT_MAX, Math.max(min, Math.round(value)));
const round1 = (value: number) => Math.round(value * 10) / 10;

const PLATFORMS: readonly (readonly [string, number])[] = [
  ['shopify', 88], ['woocommerce', 5], ['wix', 1.4], ['squarespace', 1.1], ['magento', 1], ['prestashop', 0.8], ['bigcommerce', 0.8],
  ['shopline', 0.4], ['shoplazza', 0.4], ['webflow', 0.3], ['clickfunnels', 0.4], ['odoo', 0.2],
];
const THEME_DRAW = cumulativeWeights(THEMES.map((theme, i) => [theme.id, 1 / Math.pow(i + 1, 1.15)] as const));

/** 1 for a median shop, about 2 for one with 100 times its visits. */
const sizeOf = (shop: ShopSeed) => Math.pow(Math.max(1, shop.monthlyVisits) / 9000, 0.15);

/** The page a shop is linked to: the one whose home country describeShops gave it (its last primary link's, else its first link's). */
function pagesOfShops(links: LinkSeed[], advertisers: AdvertiserSeed[]): Map<string, AdvertiserSeed> {
  const byId = new Map(advertisers.map((a) => [a.id, a]));
  const pages = new Map<string, AdvertiserSeed>();
  for (const link of links) if (link.isPrimary || !pages.has(link.shopId)) pages.set(link.shopId, byId.get(link.advertiserId)!);
  return pages;
}

function handles(rng: Rng, shop: ShopSeed, base: string, page: AdvertiserSeed | undefined, pageHandle: string | null, size: number): Record<SocialNetwork, string | null> {
  const own = () => rng.weighted([[base, 6], [`${base}official`, 1], [`${base}_${(shop.countryCode ?? 'us').toLowerCase()}`, 1], [`the${base}`, 1]] as const);
  // Social presence grows with the shop; pages' shops show their page (most do).
  const p = (base: number) => Math.min(0.95, base * size);
  const facebook = page ? (rng.chance(0.68) ? pageHandle : null) : rng.chance(p(0.15)) ? own() : null;
  const pageInstagram = page?.instagramUsername ?? null;
  const instagram = pageInstagram && rng.chance(facebook ? 0.8 : 0.15) ? pageInstagram : !page && rng.chance(p(facebook ? 0.7 : 0.08)) ? own() : null;
  return {
    facebook,
    instagram,
    tiktok: rng.chance(p(0.3)) ? own() : null,
    youtube: rng.chance(p(0.14)) ? own() : null,
    pinterest: rng.chance(p(0.12)) ? own() : null,
    linkedin: rng.chance(p(0.07)) ? own() : null,
    twitter: rng.chance(p(0.1)) ? own() : null,
  };
}

/** Shared by the shops without related domains (never mutated). */
const NO_DOMAINS: string[] = [];

function relatedDomains(rng: Rng, shop: ShopSeed, page: AdvertiserSeed | undefined): string[] {
  const siblings = page ? page.domains.filter((domain) => domain !== shop.domain) : [];
  if (siblings.length > 0) return siblings.slice(0, 2);
  const count = rng.weighted([[0, 75], [1, 18], [2, 7]] as const);
  if (count === 0) return NO_DOMAINS;
  const stem = shop.domain.replace(/\.[a-z]+$/, '');
  return rng.shuffle(['co.uk', 'de', 'fr', 'ca', 'com.au', 'eu', 'nl']).slice(0, count).map((tld) => `${stem}.${tld}`);
}

const calendarMonth = (profile: ShopProfileSeed) => Number(profile.months[TRAFFIC_MONTHS - 1].slice(5, 7)) - 1;

/** A shop's monthly visits (oldest first, the last = monthlyVisits) and its 90/180-day growth. */
export function shopTraffic(shop: ShopSeed): TrafficHistory {
  const profile = shop.profile!;
  return trafficHistory(new Rng(profile.seed).fork('traffic'), shop.monthlyVisits, shop.trafficGrowth30d ?? 0, calendarMonth(profile));
}

/** A shop's visitor countries, largest (its main market) first. */
export function shopCountries(shop: ShopSeed): CountryShare[] {
  return trafficCountries(new Rng(shop.profile!.seed).fork('countries'), shop.profile!.mainMarket, shop.monthlyVisits);
}

export function shopApps(shop: ShopSeed): number[] {
  return drawApps(new Rng(shop.profile!.seed).fork('apps'), shop.profile!.platform, sizeOf(shop));
}

export function shopPixels(shop: ShopSeed): string[] {
  const profile = shop.profile!;
  const inputs = { linked: profile.linked, has: (network: SocialNetwork) => profile.handles[network] !== null };
  return drawPixels(new Rng(profile.seed).fork('pixels'), inputs, profile.technologyIds);
}

/** Draws every shop's profile; call after describeShops and startProducts. */
export function describeShopProfiles(rng: Rng, shops: ShopSeed[], links: LinkSeed[], advertisers: AdvertiserSeed[], window: Window): void {
  const pages = pagesOfShops(links, advertisers);
  const asOf = new Date(window.asOf);
  const months = Array.from({ length: TRAFFIC_MONTHS }, (_, i) =>
    new Date(Date.UTC(asOf.getUTCFullYear(), asOf.getUTCMonth() - (TRAFFIC_MONTHS - 1 - i), 1)).toISOString().slice(0, 10),
  );
  const abroad = COUNTRY_WEIGHTS.filter(([code]) => code !== 'US');
  for (const shop of shops) {
    const r = rng.fork(shop.id);
    const page = pages.get(shop.id);
    const country = shop.countryCode ?? 'US';
    const growth30d = shop.trafficGrowth30d ?? 0;
    const size = sizeOf(shop);
    const base = compactSlug(shop.name);
    const pageHandle = page ? compactSlug(page.name) : null;
    const platform = r.weighted(PLATFORMS);
    const shopify = platform === 'shopify';
    const language = page && HOME_LANGUAGE[country] ? page.language : r.chance(0.85) ? languageOf(country) : 'en';
    const mainMarket = r.chance(0.85) ? country : country === 'US' ? r.weighted(abroad) : 'US';
    const socials = handles(r, shop, base, page, pageHandle, size);
    const ownFollowers = (median: number) => clampInt(r.logNormal(median, 1.5) * Math.pow(size, 6), 10);
    const shopifyName = r.weighted([[0, 7], [1, 2], [2, 1]] as const);
    const profile: ShopProfileSeed = {
      // As an int32 (a small integer to V8); Rng reads it back as the same uint32.
      seed: r.seed | 0,
      platform,
      linked: page !== undefined,
      currency: shop.catalog?.currency ?? currencyOf(country),
      defaultLanguage: language,
      isShopifyPlus: shopify && r.chance(Math.min(0.6, 0.035 * Math.pow(size, 6))),
      myShopifyDomain: shopify ? `${base}${shopifyName === 1 ? `-${r.digits(4)}` : shopifyName === 2 ? '-store' : ''}.myshopify.com` : null,
      relatedDomains: relatedDomains(r, shop, page),
      mainMarket,
      isDtc: r.chance(0.9),
      displayInTrending: false,
      months,
      trafficGrowth90d: 0,
      trafficGrowth180d: 0,
      trustpilot: r.chance(Math.min(0.9, 0.42 * size))
        ? { rating: Math.min(5, Math.max(1, round1(4.2 + 0.7 * r.normal()))), reviewCount: clampInt(r.logNormal(60, 1.6) * Math.pow(size, 5), 1) }
        : null,
      handles: socials,
      followers: {
        facebook: socials.facebook === null ? null : socials.facebook === pageHandle ? page!.facebookLikes : ownFollowers(1500),
        instagram: socials.instagram === null ? null : page && socials.instagram === page.instagramUsername ? page.instagramFollowers : ownFollowers(2000),
        youtube: socials.youtube === null ? null : ownFollowers(400),
      },
      themeId: shopify ? r.weightedFrom(THEME_DRAW) : null,
      technologyIds: [],
      counts: { apps: 0, pixels: 0, countries: 0 },
    };
    shop.profile = profile;
    const apps = shopApps(shop);
    profile.technologyIds = drawTechnologies(r.fork('technologies'), platform, apps);
    profile.counts = { apps: apps.length, pixels: shopPixels(shop).length, countries: shopCountries(shop).length };
    const traffic = shopTraffic(shop);
    profile.trafficGrowth90d = traffic.growth90d;
    profile.trafficGrowth180d = traffic.growth180d;
    profile.displayInTrending = growth30d >= 0.3 && shop.monthlyVisits >= 3000 && traffic.growth90d > 0;
  }
}

/** The facet catalogues (themes, Shopify apps, technologies, pixels), inserted once before the shops. */
export function facetTables(): TableRows[] {
  const technologyColumns = [
    ['id', 'uuid', (t) => t.id],
    ['slug', 'text', (t) => t.slug],
    ['name', 'text', (t) => t.name],
    ['iconUrl', 'text', (t) => t.iconUrl],
    ['categories', 'text[]', (t) => t.categories],
  ] as const satisfies readonly (readonly [string, string, (t: TechnologyFacet) => unknown])[];
  return [
    define<ThemeFacet>('themes', THEMES.length, THEMES, [
      ['id', 'uuid', (t) => t.id],
      ['name', 'text', (t) => t.name],
    ]),
    define<ShopifyAppFacet>('shopify_apps', SHOPIFY_APPS.length, SHOPIFY_APPS, [
      ['id', 'int4', (a) => a.id],
      ['label', 'text', (a) => a.label],
      ['slug', 'text', (a) => a.slug],
      ['iconUrl', 'text', (a) => a.iconUrl],
      ['shopifyUrl', 'text', (a) => a.shopifyUrl],
    ]),
    define<TechnologyFacet>('technologies', TECHNOLOGIES.length, TECHNOLOGIES, technologyColumns),
    define<TechnologyFacet>('pixels', PIXELS.length, PIXELS, technologyColumns),
  ];
}

type Pair<T> = { shop: ShopSeed; value: T };
type TrafficMonth = { shop: ShopSeed; month: string; visits: number };

function* pairs<T>(shops: ShopSeed[], values: (shop: ShopSeed) => readonly T[]): Generator<Pair<T>> {
  for (const shop of shops) for (const value of values(shop)) yield { shop, value };
}

function* trafficMonths(shops: ShopSeed[]): Generator<TrafficMonth> {
  for (const shop of shops) {
    const { visits } = shopTraffic(shop);
    const { months } = shop.profile!;
    for (let i = 0; i < TRAFFIC_MONTHS; i++) yield { shop, month: months[i], visits: visits[i] };
  }
}

const total = (shops: ShopSeed[], count: (shop: ShopSeed) => number) => shops.reduce((sum, shop) => sum + count(shop), 0);

/** The rows that hang off each shop (apps, technologies, pixels, traffic months and countries), drawn as they are written. */
function shopProfileTables(shops: ShopSeed[]): TableRows[] {
  const counts = (shop: ShopSeed) => shop.profile!.counts;
  const technologies = (shop: ShopSeed) => shop.profile!.technologyIds;
  return [
    define<Pair<number>>('shop_apps', total(shops, (s) => counts(s).apps), pairs(shops, shopApps), [
      ['shopId', 'uuid', (p) => p.shop.id],
      ['appId', 'int4', (p) => p.value],
    ]),
    define<Pair<string>>('shop_technologies', total(shops, (s) => technologies(s).length), pairs(shops, technologies), [
      ['shopId', 'uuid', (p) => p.shop.id],
      ['technologyId', 'uuid', (p) => p.value],
    ]),
    define<Pair<string>>('shop_pixels', total(shops, (s) => counts(s).pixels), pairs(shops, shopPixels), [
      ['shopId', 'uuid', (p) => p.shop.id],
      ['pixelId', 'uuid', (p) => p.value],
    ]),
    define<TrafficMonth>('shop_traffic_months', shops.length * TRAFFIC_MONTHS, trafficMonths(shops), [
      ['shopId', 'uuid', (m) => m.shop.id],
      ['month', 'date', (m) => m.month],
      ['visits', 'int4', (m) => m.visits],
    ]),
    define<Pair<CountryShare>>('shop_traffic_countries', total(shops, (s) => counts(s).countries), pairs(shops, shopCountries), [
      ['shopId', 'uuid', (p) => p.shop.id],
      ['countryCode', 'text', (p) => p.value.countryCode],
      ['share', 'float8', (p) => p.value.share],
    ]),
  ];
}

/** A run of shops' profile rows, social days and sales readings. */
export function shopHistoryTables(slice: ShopHistorySlice): TableRows[] {
  return [...shopProfileTables(slice.shops), ...socialAndSalesTables(slice)];
}
