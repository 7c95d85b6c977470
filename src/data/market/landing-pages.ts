import type { Rng } from '../random.js';
import type { AdSeed } from './ads.js';
import type { AdvertiserSeed, LinkSeed, ShopSeed } from './advertisers.js';
import { PLATFORM_SLUGS, TECHNOLOGIES, type TechnologyFacet } from './facets.js';

// The landing pages ads link to: one row per exact URL, with the page's technologies and screenshots.
// A page links its own shops' pages plainly or with a tracking tag; on a shop another page owns (a sister
// page's shop), its URLs carry its own page id. So every exact URL belongs to one page, and a landing page is
// complete, first seen and inserted with that page's ads.

export type LandingPageSeed = {
  id: string;
  /** The exact URL the ads link. */
  url: string;
  /** Query, fragment and trailing slash removed; lowercase host without `www.`. */
  normalizedUrl: string;
  domain: string;
  shop: ShopSeed | null;
  hasScreenshots: boolean;
  hasHeadScreenshot: boolean;
  /** The earliest firstSeenAt of the ads linking it. */
  firstSeenAt: number;
  technologies: TechnologyFacet[];
};

/** The landing page grouping key of a URL: without query, fragment or trailing slash. */
export function strippedUrl(url: string): string {
  return url.split('#')[0].split('?')[0].replace(/\/+$/, '');
}

/** `strippedUrl` with the host lowercased and without a leading `www.`. */
export function normalizedUrl(url: string): string {
  return strippedUrl(url).replace(/^([a-z]+:\/\/)([^/]+)/i, (_, scheme: string, host: string) => scheme.toLowerCase() + host.toLowerCase().replace(/^www\./, ''));
}

/** How an owner's ads link its pages: mostly plain, some with a trailing slash, a tracking tag or an anchor. */
const OWN_FORMS: readonly (readonly [string, number])[] = [
  ['', 62],
  ['/', 8],
  ['?utm_source=facebook&utm_medium=paid_social', 18],
  ['?utm_source=meta&utm_medium=cpc&utm_campaign={slug}', 8],
  ['#reviews', 4],
];

const bySlug = new Map(TECHNOLOGIES.map((t) => [t.slug, t]));
const technology = (slug: string) => {
  const found = bySlug.get(slug);
  if (!found) throw new Error(`unknown technology ${slug}`);
  return found;
};

const PLATFORMS = new Set<string>(PLATFORM_SLUGS);
/** Storefront platforms of shops whose profile names none, by how common they are among advertisers. */
const FALLBACK_PLATFORMS: readonly (readonly [string, number])[] = [
  ['shopify', 80],
  ['woocommerce', 8],
  ['wix', 3],
  ['squarespace', 2],
  ['magento', 2],
  ['bigcommerce', 2],
  ['prestashop', 2],
  ['webflow', 1],
];
/** Page builders that put their mark on single Shopify pages. */
const PAGE_BUILDERS: readonly (readonly [string, number])[] = [
  ['pagefly', 35],
  ['gempages', 30],
  ['zipify-pages', 25],
  ['shogun', 6],
  ['replo', 4],
];
const BUILDERS = new Set(PAGE_BUILDERS.map(([slug]) => slug));

/** Scripts most storefronts load, for shops whose profile lists no technologies. */
const COMMON: readonly (readonly [string, number])[] = [
  ['google-analytics', 30],
  ['google-tag-manager', 25],
  ['klaviyo', 18],
  ['paypal', 15],
  ['cloudflare', 14],
  ['jquery', 14],
  ['google-fonts', 12],
  ['judge-me', 10],
  ['klarna', 8],
  ['hotjar', 6],
  ['microsoft-clarity', 6],
  ['stripe', 6],
  ['swiper', 5],
  ['gorgias', 4],
  ['afterpay', 4],
  ['trustpilot', 4],
  ['loox', 4],
];

const byId = new Map(TECHNOLOGIES.map((t) => [t.id, t]));

/** The shop's storefront technologies as its profile lists them (the platform first), when it has a profile. */
function profileTechnologies(shop: ShopSeed): TechnologyFacet[] | undefined {
  const profile = shop.profile;
  if (!profile) return undefined;
  const listed = profile.technologyIds.map((id) => byId.get(id)).filter((t) => t !== undefined);
  return [technology(profile.platform), ...listed];
}

/**
 * A page's technologies: its shop's platform, a few of the shop's other technologies and, on some Shopify pages,
 * a page builder. They depend only on the shop and the normalized URL, so every tagged form of one page agrees.
 */
function technologiesOf(rng: Rng, shop: ShopSeed | null, domain: string, normalized: string): TechnologyFacet[] {
  let platform: TechnologyFacet;
  let others: TechnologyFacet[];
  const listed = shop ? profileTechnologies(shop) : undefined;
  if (listed) {
    platform = listed[0];
    others = listed.filter((t) => !PLATFORMS.has(t.slug));
  } else {
    const site = rng.fork(`site:${domain}`);
    platform = technology(site.weighted(FALLBACK_PLATFORMS));
    others = site.weightedSample(COMMON, site.int(3, 8)).map(technology);
  }

  // One builder at most: the shop's own (when it runs one) on most of its pages, otherwise now and then.
  const page = rng.fork(`page:${normalized}`);
  const shopBuilders = others.filter((t) => BUILDERS.has(t.slug));
  const chosen = [platform];
  if (platform.slug === 'shopify') {
    if (shopBuilders.length > 0 ? page.chance(0.6) : page.chance(0.2)) {
      chosen.push(shopBuilders.length > 0 ? page.pick(shopBuilders) : technology(page.weighted(PAGE_BUILDERS)));
    }
  }
  const want = page.int(2, 6);
  for (const t of page.shuffle(others.filter((t) => !BUILDERS.has(t.slug)))) {
    if (chosen.length >= want) break;
    if (!chosen.includes(t)) chosen.push(t);
  }
  // Shops with a short list still show the usual scripts.
  while (chosen.length < 2) {
    const t = technology(page.weighted(COMMON));
    if (!chosen.includes(t)) chosen.push(t);
  }
  return chosen;
}

export type LandingPages = {
  /**
   * Gives the ads of one page (in its ad order) their exact landing URL and landing page; returns the landing
   * pages they introduce, in first-use order. Call page by page, in market order.
   */
  pagesOf(advertiser: AdvertiserSeed, ads: AdSeed[][]): LandingPageSeed[];
};

/** `rng` is used in page order (ids, URL forms, screenshots); technologies come from forks keyed by site and page. */
export function startLandingPages(rng: Rng, shops: ShopSeed[], links: LinkSeed[]): LandingPages {
  const shopByDomain = new Map(shops.map((shop) => [shop.domain, shop]));
  // A shop's owner is the page that created it: its first link, as pages are linked in market order.
  const ownerOf = new Map<string, string>();
  for (const link of links) if (!ownerOf.has(link.shopId)) ownerOf.set(link.shopId, link.advertiserId);

  function linkedUrl(advertiser: AdvertiserSeed, base: string, shop: ShopSeed | undefined): string {
    if (shop && ownerOf.get(shop.id) !== advertiser.id) {
      return `${base}?utm_source=facebook&utm_medium=paid_social&utm_content=page_${advertiser.id}`;
    }
    const form = rng.weighted(OWN_FORMS);
    return base + form.replace('{slug}', base.slice(base.lastIndexOf('/') + 1));
  }

  return {
    pagesOf(advertiser, groups) {
      const pages = new Map<string, LandingPageSeed>();
      for (const group of groups) {
        const creative = group[0].creative;
        const base = creative.landingPageUrl;
        if (base === null || creative.landingPageDomain === null) continue;
        const domain = creative.landingPageDomain;
        const shop = shopByDomain.get(domain);
        const url = linkedUrl(advertiser, base, shop);
        creative.landingPageUrl = url;
        let page = pages.get(url);
        if (!page) {
          const normalized = normalizedUrl(url);
          const hasScreenshots = rng.chance(0.9);
          page = {
            id: rng.uuid(),
            url,
            normalizedUrl: normalized,
            domain,
            shop: shop ?? null,
            hasScreenshots,
            hasHeadScreenshot: hasScreenshots && rng.chance(0.85),
            firstSeenAt: Infinity,
            technologies: technologiesOf(rng, shop ?? null, domain, normalized),
          };
          pages.set(url, page);
        }
        for (const ad of group) {
          ad.landingPage = page;
          page.firstSeenAt = Math.min(page.firstSeenAt, ad.firstSeenAt);
        }
      }
      return [...pages.values()];
    },
  };
}
