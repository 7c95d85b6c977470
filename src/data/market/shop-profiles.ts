import { cumulativeWeights, type Rng } from '../random.js';
import type { AdvertiserSeed, LinkSeed, ShopSeed } from './advertisers.js';
import { define, type TableRows } from './define.js';
import { PIXELS, PLATFORM_SLUGS, SHOPIFY_APPS, TECHNOLOGIES, THEMES, type ShopifyAppFacet, type TechnologyFacet, type ThemeFacet } from './facets.js';
import { currencyOf, languageOf } from './locale.js';
import { compactSlug } from './names.js';
import { TRAFFIC_MONTHS, trafficCountries, trafficHistory, type CountryShare } from './shop-traffic.js';
import type { Window } from './time.js';
import { COUNTRY_WEIGHTS, HOME_LANGUAGE } from './words.js';

export { startShopHistory, shopHistoryTables, type ShopHistoryPlan, type ShopHistorySlice } from './shop-history.js';

// Shop profiles (storefront, Trustpilot, socials, technology) and the facet rows they point at; the shops'
// traffic months and countries. Each shop is drawn from its own fork of the stream, so slicing cannot change it.

export const SOCIAL_NETWORKS = ['facebook', 'instagram', 'tiktok', 'youtube', 'pinterest', 'linkedin', 'twitter'] as const;
export type SocialNetwork = (typeof SOCIAL_NETWORKS)[number];

/** Fields of a shop set by describeShopProfiles. */
export type ShopProfileSeed = {
  /** The technology slug of the storefront platform (`shopify` for most). */
  platform: string;
  currency: string;
  defaultLanguage: string;
  isShopifyPlus: boolean;
  myShopifyDomain: string | null;
  relatedDomains: string[];
  /** The largest traffic country, `topCountries[0]`. */
  mainMarket: string;
  isDtc: boolean;
  displayInTrending: boolean;
  /** Visits per month, oldest first; the last (asOf's month) is `monthlyVisits`. */
  visits: Int32Array;
  /** The first days of those months (one array shared by all shops). */
  months: readonly string[];
  trafficGrowth90d: number;
  trafficGrowth180d: number;
  topCountries: CountryShare[];
  trustpilot: { rating: number; reviewCount: number; url: string } | null;
  handles: Record<SocialNetwork, string | null>;
  /** Followers on asOf of the networks with a daily history (null without a profile there). */
  followers: { facebook: number | null; instagram: number | null; youtube: number | null };
  themeId: string | null;
  appIds: number[];
  technologyIds: string[];
  pixelIds: string[];
};

const INT_MAX = 2_147_483_647;
const clampInt = (value: number, min: number) => Math.min(INT_MAX, Math.max(min, Math.round(value)));
const round1 = (value: number) => Math.round(value * 10) / 10;

const PLATFORMS: readonly (readonly [string, number])[] = [
  ['shopify', 88], ['woocommerce', 5], ['wix', 1.4], ['squarespace', 1.1], ['magento', 1], ['prestashop', 0.8], ['bigcommerce', 0.8],
  ['shopline', 0.4], ['shoplazza', 0.4], ['webflow', 0.3], ['clickfunnels', 0.4], ['odoo', 0.2],
];

/** Zipf-like popularity by position in a catalogue (the catalogues are listed most popular first). */
const zipf = <T>(items: readonly T[], exponent: number) => cumulativeWeights(items.map((item, i) => [item, 1 / Math.pow(i + 1, exponent)] as const));
const APP_DRAW = zipf(SHOPIFY_APPS, 1);
const THEME_DRAW = zipf(THEMES, 1.15);

const techBySlug = new Map(TECHNOLOGIES.map((t) => [t.slug, t]));
const pixelBySlug = new Map(PIXELS.map((p) => [p.slug, p]));
const tech = (slug: string) => techBySlug.get(slug)!;
const pixel = (slug: string) => pixelBySlug.get(slug)!;

/** The technology an app's script shows up as (Klaviyo app → klaviyo), when the catalogue has one. */
const APP_TECHNOLOGY = new Map<number, TechnologyFacet>();
for (const app of SHOPIFY_APPS) {
  const slug = app.slug === 'smile' ? 'smile-io' : app.slug;
  const found = TECHNOLOGIES.find((t) => !(PLATFORM_SLUGS as readonly string[]).includes(t.slug) && (slug === t.slug || slug.startsWith(`${t.slug}-`)));
  if (found) APP_TECHNOLOGY.set(app.id, found);
}

/** Technologies any storefront may show beside its platform and apps, by how common they are. */
const COMMON_TECHNOLOGIES = cumulativeWeights(
  TECHNOLOGIES.filter((t) => !(PLATFORM_SLUGS as readonly string[]).includes(t.slug) && !t.categories.includes('Shopify apps')).map(
    (t) => [t, { 'google-analytics': 12, 'google-tag-manager': 9, jquery: 9, 'google-fonts': 8, 'shop-pay': 10, paypal: 8, 'apple-pay': 7, 'google-pay': 6, cloudflare: 5, swiper: 4, 'core-js': 4 }[t.slug] ?? 1] as const,
  ),
);
const SHOPIFY_ONLY = new Set(['shop-pay', 'hydrogen']);

/** The page a shop is linked to: the one whose home country describeShops gave it (its last primary link's, else its first link's). */
function pagesOfShops(links: LinkSeed[], advertisers: AdvertiserSeed[]): Map<string, AdvertiserSeed> {
  const byId = new Map(advertisers.map((a) => [a.id, a]));
  const pages = new Map<string, AdvertiserSeed>();
  for (const link of links) if (link.isPrimary || !pages.has(link.shopId)) pages.set(link.shopId, byId.get(link.advertiserId)!);
  return pages;
}

function drawDistinct<T>(rng: Rng, count: number, draw: () => T): T[] {
  const out = new Set<T>();
  for (let attempt = 0; out.size < count && attempt < count * 6; attempt++) out.add(draw());
  return [...out];
}

function handles(rng: Rng, shop: ShopSeed, page: AdvertiserSeed | undefined, size: number): Record<SocialNetwork, string | null> {
  const base = compactSlug(shop.name);
  const own = () => rng.weighted([[base, 6], [`${base}official`, 1], [`${base}_${(shop.countryCode ?? 'us').toLowerCase()}`, 1], [`the${base}`, 1]] as const);
  // Social presence grows with the shop; pages' shops show their page (most do).
  const p = (base: number) => Math.min(0.95, base * size);
  const facebook = page ? (rng.chance(0.68) ? compactSlug(page.name) : null) : rng.chance(p(0.15)) ? own() : null;
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

function technologyIds(rng: Rng, platform: string, appIds: number[]): string[] {
  const ids = new Set<string>([tech(platform).id]);
  if (platform === 'woocommerce') ids.add(tech('wordpress').id);
  for (const id of appIds) {
    const implied = APP_TECHNOLOGY.get(id);
    if (implied) ids.add(implied.id);
  }
  const others = rng.int(2, 8);
  for (let added = 0, attempt = 0; added < others && attempt < 40; attempt++) {
    const drawn = rng.weightedFrom(COMMON_TECHNOLOGIES);
    if (ids.has(drawn.id) || (platform !== 'shopify' && SHOPIFY_ONLY.has(drawn.slug))) continue;
    ids.add(drawn.id);
    added++;
  }
  return [...ids];
}

/** Pixels, from what the shop runs: Meta on most shops with a page, a network's tag where it has a profile. */
function pixelIds(rng: Rng, linked: boolean, profile: Pick<ShopProfileSeed, 'handles' | 'technologyIds'>): string[] {
  const uses = (slug: string) => profile.technologyIds.includes(tech(slug).id);
  const has = (network: SocialNetwork) => profile.handles[network] !== null;
  const odds: [string, number][] = [
    ['meta-pixel', linked ? 0.93 : 0.5],
    ['google-analytics-4', uses('google-analytics') ? 0.95 : 0.35],
    ['google-ads', 0.4],
    ['tiktok-pixel', has('tiktok') ? 0.65 : 0.15],
    ['google-tag-manager', uses('google-tag-manager') ? 0.95 : 0.1],
    ['klaviyo', uses('klaviyo') ? 0.9 : 0.02],
    ['pinterest-tag', has('pinterest') ? 0.6 : 0.05],
    ['snap-pixel', 0.07],
    ['hotjar', uses('hotjar') ? 0.9 : 0.03],
    ['microsoft-clarity', uses('microsoft-clarity') ? 0.9 : 0.05],
    ['microsoft-uet', 0.07],
    ['x-pixel', has('twitter') ? 0.3 : 0.02],
    ['reddit-pixel', 0.03],
    ['triple-pixel', uses('triple-whale') ? 0.95 : 0.01],
    ['linkedin-insight-tag', has('linkedin') ? 0.3 : 0.01],
    ['criteo', 0.03],
    ['elevar', uses('elevar') ? 0.9 : 0.01],
    ['northbeam', uses('northbeam') ? 0.9 : 0.005],
    ['taboola', 0.02],
    ['outbrain', 0.015],
    ['amazon-ads', 0.02],
    ['applovin', 0.03],
    ['the-trade-desk', 0.01],
    ['quora-pixel', 0.008],
    ['segment', uses('segment') ? 0.9 : 0.005],
    ['attentive', uses('attentive') ? 0.9 : 0.01],
  ];
  return odds.filter(([, p]) => rng.chance(p)).map(([slug]) => pixel(slug).id);
}

function relatedDomains(rng: Rng, shop: ShopSeed, page: AdvertiserSeed | undefined): string[] {
  const siblings = page ? page.domains.filter((domain) => domain !== shop.domain) : [];
  if (siblings.length > 0) return siblings.slice(0, 2);
  const count = rng.weighted([[0, 75], [1, 18], [2, 7]] as const);
  const stem = shop.domain.replace(/\.[a-z]+$/, '');
  return rng.shuffle(['co.uk', 'de', 'fr', 'ca', 'com.au', 'eu', 'nl']).slice(0, count).map((tld) => `${stem}.${tld}`);
}

/** Draws every shop's profile, technology and traffic breakdown; call after describeShops and startProducts. */
export function describeShopProfiles(rng: Rng, shops: ShopSeed[], links: LinkSeed[], advertisers: AdvertiserSeed[], window: Window): void {
  const pages = pagesOfShops(links, advertisers);
  const asOf = new Date(window.asOf);
  const month = asOf.getUTCMonth();
  const months = Array.from({ length: TRAFFIC_MONTHS }, (_, i) =>
    new Date(Date.UTC(asOf.getUTCFullYear(), month - (TRAFFIC_MONTHS - 1 - i), 1)).toISOString().slice(0, 10),
  );
  for (const shop of shops) {
    const r = rng.fork(shop.id);
    const page = pages.get(shop.id);
    const country = shop.countryCode ?? 'US';
    const growth30d = shop.trafficGrowth30d ?? 0;
    // 1 for a median shop, about 2 for one with 100 times its visits.
    const size = Math.pow(Math.max(1, shop.monthlyVisits) / 9000, 0.15);
    const platform = r.weighted(PLATFORMS);
    const shopify = platform === 'shopify';
    const language = page && HOME_LANGUAGE[country] ? page.language : r.chance(0.85) ? languageOf(country) : 'en';
    const traffic = trafficHistory(r, shop.monthlyVisits, growth30d, month);
    const mainMarket = r.chance(0.85) ? country : r.weighted(country === 'US' ? COUNTRY_WEIGHTS.filter(([c]) => c !== 'US') : [['US', 1]]);
    const topCountries = trafficCountries(r, mainMarket, shop.monthlyVisits);
    const appIds = shopify ? drawDistinct(r, Math.min(15, Math.floor(r.logNormal(4.5, 0.7) * size) - (r.chance(0.08) ? 99 : 0)), () => r.weightedFrom(APP_DRAW).id) : [];
    const socials = handles(r, shop, page, size);
    const technologies = technologyIds(r, platform, appIds);
    const ownFollowers = (median: number) => clampInt(r.logNormal(median, 1.5) * Math.pow(size, 6), 10);
    const profile: ShopProfileSeed = {
      platform,
      currency: shop.catalog?.currency ?? currencyOf(country),
      defaultLanguage: language,
      isShopifyPlus: shopify && r.chance(Math.min(0.6, 0.045 * Math.pow(size, 6))),
      myShopifyDomain: shopify ? `${r.weighted([[compactSlug(shop.name), 7], [`${compactSlug(shop.name)}-${r.digits(4)}`, 2], [`${compactSlug(shop.name)}-store`, 1]] as const)}.myshopify.com` : null,
      relatedDomains: relatedDomains(r, shop, page),
      mainMarket: topCountries[0].countryCode,
      isDtc: r.chance(0.9),
      displayInTrending: growth30d >= 0.3 && shop.monthlyVisits >= 3000 && traffic.growth90d > 0,
      visits: traffic.visits,
      months,
      trafficGrowth90d: traffic.growth90d,
      trafficGrowth180d: traffic.growth180d,
      topCountries,
      trustpilot: r.chance(Math.min(0.9, 0.45 * size))
        ? { rating: Math.min(5, Math.max(1, round1(4.2 + 0.7 * r.normal()))), reviewCount: clampInt(r.logNormal(60, 1.6) * Math.pow(size, 5), 1), url: `https://www.trustpilot.com/review/${shop.domain}` }
        : null,
      handles: socials,
      followers: {
        facebook: socials.facebook === null ? null : page && socials.facebook === compactSlug(page.name) ? page.facebookLikes : ownFollowers(1500),
        instagram: socials.instagram === null ? null : page && socials.instagram === page.instagramUsername ? page.instagramFollowers : ownFollowers(2000),
        youtube: socials.youtube === null ? null : ownFollowers(400),
      },
      themeId: shopify ? r.weightedFrom(THEME_DRAW).id : null,
      appIds,
      technologyIds: technologies,
      pixelIds: [],
    };
    profile.pixelIds = pixelIds(r, page !== undefined, profile);
    shop.profile = profile;
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
    const { visits, months } = shop.profile!;
    for (let i = 0; i < TRAFFIC_MONTHS; i++) yield { shop, month: months[i], visits: visits[i] };
  }
}

const countOf = (shops: ShopSeed[], values: (shop: ShopSeed) => readonly unknown[]) => shops.reduce((sum, shop) => sum + values(shop).length, 0);

/** The rows that hang off each shop and are drawn up front (apps, technologies, pixels, traffic months and countries). */
export function shopProfileTables(shops: ShopSeed[]): TableRows[] {
  const profile = (shop: ShopSeed) => shop.profile!;
  const apps = (shop: ShopSeed) => profile(shop).appIds;
  const technologies = (shop: ShopSeed) => profile(shop).technologyIds;
  const pixels = (shop: ShopSeed) => profile(shop).pixelIds;
  const countries = (shop: ShopSeed) => profile(shop).topCountries;
  return [
    define<Pair<number>>('shop_apps', countOf(shops, apps), pairs(shops, apps), [
      ['shopId', 'uuid', (p) => p.shop.id],
      ['appId', 'int4', (p) => p.value],
    ]),
    define<Pair<string>>('shop_technologies', countOf(shops, technologies), pairs(shops, technologies), [
      ['shopId', 'uuid', (p) => p.shop.id],
      ['technologyId', 'uuid', (p) => p.value],
    ]),
    define<Pair<string>>('shop_pixels', countOf(shops, pixels), pairs(shops, pixels), [
      ['shopId', 'uuid', (p) => p.shop.id],
      ['pixelId', 'uuid', (p) => p.value],
    ]),
    define<TrafficMonth>('shop_traffic_months', shops.length * TRAFFIC_MONTHS, trafficMonths(shops), [
      ['shopId', 'uuid', (m) => m.shop.id],
      ['month', 'date', (m) => m.month],
      ['visits', 'int4', (m) => m.visits],
    ]),
    define<Pair<CountryShare>>('shop_traffic_countries', countOf(shops, countries), pairs(shops, countries), [
      ['shopId', 'uuid', (p) => p.shop.id],
      ['countryCode', 'text', (p) => p.value.countryCode],
      ['share', 'float8', (p) => p.value.share],
    ]),
  ];
}
