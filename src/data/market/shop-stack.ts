import { cumulativeWeights, type Rng } from '../random.js';
import { PIXELS, PLATFORM_SLUGS, SHOPIFY_APPS, TECHNOLOGIES, type TechnologyFacet } from './facets.js';

// A shop's technology stack: its Shopify apps, the technologies a crawler sees (platform, the apps' scripts and
// common ones) and its tracking pixels. Each list follows from the previous one and the shop's socials.

export type PixelInputs = {
  /** Linked to a Facebook page. */
  linked: boolean;
  has: (network: 'tiktok' | 'pinterest' | 'twitter' | 'linkedin') => boolean;
};

const isPlatform = (slug: string) => (PLATFORM_SLUGS as readonly string[]).includes(slug);
const techBySlug = new Map(TECHNOLOGIES.map((t) => [t.slug, t]));
const pixelBySlug = new Map(PIXELS.map((p) => [p.slug, p]));
const tech = (slug: string) => techBySlug.get(slug)!;

/** The catalogue lists apps most popular first: Zipf-like weights by position. */
const APP_DRAW = cumulativeWeights(SHOPIFY_APPS.map((app, i) => [app.id, 1 / (i + 1)] as const));

/** The technology an app's script shows up as (Klaviyo app → klaviyo), when the catalogue has one. */
const APP_TECHNOLOGY = new Map<number, TechnologyFacet>();
for (const app of SHOPIFY_APPS) {
  const slug = app.slug === 'smile' ? 'smile-io' : app.slug;
  const found = TECHNOLOGIES.find((t) => !isPlatform(t.slug) && (slug === t.slug || slug.startsWith(`${t.slug}-`)));
  if (found) APP_TECHNOLOGY.set(app.id, found);
}

const COMMON_WEIGHTS: Record<string, number> = {
  'google-analytics': 12, 'google-tag-manager': 9, jquery: 9, 'google-fonts': 8, 'shop-pay': 10, paypal: 8, 'apple-pay': 7, 'google-pay': 6,
  cloudflare: 5, swiper: 4, 'core-js': 4,
};
/** Technologies any storefront may show beside its platform and apps, by how common they are. */
const COMMON_TECHNOLOGIES = cumulativeWeights(
  TECHNOLOGIES.filter((t) => !isPlatform(t.slug) && !t.categories.includes('Shopify apps')).map((t) => [t, COMMON_WEIGHTS[t.slug] ?? 1] as const),
);
const SHOPIFY_ONLY = new Set(['shop-pay', 'hydrogen']);

/** Shopify apps by popularity, more for bigger shops (`size` 1 for a median shop). */
export function drawApps(rng: Rng, platform: string, size: number): number[] {
  if (platform !== 'shopify') return [];
  const count = rng.chance(0.08) ? 0 : Math.min(15, Math.floor(rng.logNormal(4.5, 0.7) * size));
  const ids = new Set<number>();
  for (let attempt = 0; ids.size < count && attempt < count * 6; attempt++) ids.add(rng.weightedFrom(APP_DRAW));
  return [...ids];
}

/** The platform, the apps' own scripts and two to eight common technologies. */
export function drawTechnologies(rng: Rng, platform: string, apps: number[]): string[] {
  const ids = new Set<string>([tech(platform).id]);
  if (platform === 'woocommerce') ids.add(tech('wordpress').id);
  for (const id of apps) {
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
export function drawPixels(rng: Rng, { linked, has }: PixelInputs, technologies: readonly string[]): string[] {
  const uses = (slug: string) => technologies.includes(tech(slug).id);
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
  return odds.filter(([, p]) => rng.chance(p)).map(([slug]) => pixelBySlug.get(slug)!.id);
}
