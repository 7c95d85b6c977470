import { refreshFacetUsage } from '../../src/data/facet-usage.js';
import type { TestDatabase } from './database.js';

// A small market for advertisers, lookup and facets, with figures relative to today (the windows are "last N
// days"). Advertisers (pages) and what sets them apart:
//   P_GLOW   Nordic Glow          brand, female, page 2019-05-01, 12000 likes, 8000 IG (@nordicglow), 3 live ads (2 EU),
//                                 reach 30d 6000 / total 50000 / 100 a day; shops nordicglow.no (primary, Shopify) + glowlabstudio.com
//   P_LAB    Glow Lab Studio      influencer, female, page 2023-02-10, 500 likes, 40000 IG (@glowlabstudio), 1 live ad,
//                                 reach 100 / 900 / 1000 a day; shop glowlabstudio.com (primary, WooCommerce)
//   P_PEAK   Peak Fitness Store   brand, male, page 2021-07-15, 90000 likes, 1200 IG, 2 live ads (1 EU),
//                                 reach 250000 / 900000 / 10 a day; shop peakfitness.com (primary, Shopify)
//   P_URBAN  Urban Threads        brand, all, no page date, 3000 likes, 3000 IG, no live ads, reach 0 / 4000, no shop
// Shop threadsandco.com has no page. Ads launched: Glow 2, 20, 60 and 400 days ago (the last inactive), Lab 5, Peak 10 and 100,
// Urban 40 (inactive since 3 days ago).

export const P_GLOW = '2000000000000001';
export const P_LAB = '2000000000000002';
export const P_PEAK = '2000000000000003';
export const P_URBAN = '2000000000000004';

export const S_GLOW = '5d000000-0000-4000-8000-000000000001';
export const S_LAB = '5d000000-0000-4000-8000-000000000002';
export const S_PEAK = '5d000000-0000-4000-8000-000000000003';
export const S_THREADS = '5d000000-0000-4000-8000-000000000004';

export const THEME_DAWN = '7e000000-0000-4000-8000-000000000001';
export const THEME_IMPULSE = '7e000000-0000-4000-8000-000000000002';
export const PIXEL_META = '61000000-0000-4000-8000-000000000001';
export const PIXEL_TIKTOK = '61000000-0000-4000-8000-000000000002';
export const TECH_SHOPIFY = '7c000000-0000-4000-8000-000000000001';
export const TECH_WOO = '7c000000-0000-4000-8000-000000000002';
export const TECH_GA = '7c000000-0000-4000-8000-000000000003';
export const APP_KLAVIYO = 111111;
export const APP_JUDGE = 222222;

const DAY = 86_400_000;
const today = () => Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate());
export const daysAgo = (days: number) => new Date(today() - days * DAY + 12 * 3_600_000);

async function categories({ prisma }: TestDatabase) {
  await prisma.category.createMany({
    data: [
      { id: 469, name: 'Health & Beauty', path: 'Health & Beauty', parentId: null },
      { id: 2915, name: 'Personal Care', path: 'Health & Beauty > Personal Care', parentId: 469 },
      { id: 473, name: 'Cosmetics', path: 'Health & Beauty > Personal Care > Cosmetics', parentId: 2915 },
      { id: 988, name: 'Sporting Goods', path: 'Sporting Goods', parentId: null },
      { id: 990, name: 'Exercise & Fitness', path: 'Sporting Goods > Exercise & Fitness', parentId: 988 },
      { id: 166, name: 'Apparel & Accessories', path: 'Apparel & Accessories', parentId: null },
      { id: 1604, name: 'Clothing', path: 'Apparel & Accessories > Clothing', parentId: 166 },
    ],
    skipDuplicates: true,
  });
}

/** The Shopify apps, technologies, pixels and themes of the scenario (its shops use them). */
export async function facetValues({ prisma }: TestDatabase) {
  await prisma.theme.createMany({ data: [{ id: THEME_DAWN, name: 'Dawn' }, { id: THEME_IMPULSE, name: 'Impulse' }] });
  await prisma.pixel.createMany({
    data: [
      { id: PIXEL_META, slug: 'meta-pixel', name: 'Meta Pixel', iconUrl: '/media/facets/pixels/meta-pixel.png', categories: ['Advertising'] },
      { id: PIXEL_TIKTOK, slug: 'tiktok-pixel', name: 'TikTok Pixel', categories: ['Advertising'] },
    ],
  });
  await prisma.technology.createMany({
    data: [
      { id: TECH_SHOPIFY, slug: 'shopify', name: 'Shopify', iconUrl: '/media/facets/technologies/shopify.png', categories: ['Ecommerce'] },
      { id: TECH_WOO, slug: 'woocommerce', name: 'WooCommerce', categories: ['Ecommerce', 'WordPress plugins'] },
      { id: TECH_GA, slug: 'google-analytics', name: 'Google Analytics', categories: ['Analytics'] },
    ],
  });
  await prisma.shopifyApp.createMany({
    data: [
      { id: APP_KLAVIYO, label: 'Klaviyo: Email Marketing & SMS', slug: 'klaviyo', iconUrl: '/media/facets/apps/klaviyo.png', shopifyUrl: 'https://apps.shopify.com/klaviyo' },
      { id: APP_JUDGE, label: 'Judge.me Product Reviews', slug: 'judge-me', shopifyUrl: 'https://apps.shopify.com/judge-me' },
    ],
  });
}

async function shops({ prisma }: TestDatabase) {
  await prisma.shop.createMany({
    data: [
      { id: S_GLOW, domain: 'nordicglow.no', name: 'Nordic Glow', monthlyVisits: 42000, categories: ['Cosmetics'], categoryIds: [469, 473], themeId: THEME_DAWN, instagramHandle: 'nordicglow.shop', logoUrl: '/media/shops/nordicglow.png' },
      { id: S_LAB, domain: 'glowlabstudio.com', name: 'Glow Lab', monthlyVisits: 8000, categories: ['Personal Care'], categoryIds: [2915], instagramHandle: 'glowlab' },
      { id: S_PEAK, domain: 'peakfitness.com', name: 'Peak Fitness', monthlyVisits: 150000, categories: ['Exercise & Fitness'], categoryIds: [988, 990], themeId: THEME_IMPULSE },
      { id: S_THREADS, domain: 'threadsandco.com', name: 'Threads & Co', monthlyVisits: 500, categories: ['Clothing'], categoryIds: [1604], themeId: THEME_DAWN },
    ],
  });
  await prisma.shopTechnology.createMany({
    data: [[S_GLOW, TECH_SHOPIFY], [S_GLOW, TECH_GA], [S_LAB, TECH_WOO], [S_PEAK, TECH_SHOPIFY], [S_THREADS, TECH_SHOPIFY]].map(([shopId, technologyId]) => ({ shopId, technologyId })),
  });
  await prisma.shopPixel.createMany({ data: [[S_GLOW, PIXEL_META], [S_PEAK, PIXEL_META], [S_PEAK, PIXEL_TIKTOK]].map(([shopId, pixelId]) => ({ shopId, pixelId })) });
  await prisma.shopApp.createMany({ data: [{ shopId: S_GLOW, appId: APP_KLAVIYO }, { shopId: S_GLOW, appId: APP_JUDGE }, { shopId: S_PEAK, appId: APP_KLAVIYO }] });
}

async function advertisers({ prisma }: TestDatabase) {
  await prisma.advertiser.createMany({
    data: [
      { id: P_GLOW, name: 'Nordic Glow', logoUrl: '/media/pages/glow.png', pageType: 'brand', audienceGender: 'female', pageCreatedAt: new Date('2019-05-01T00:00:00Z'), facebookLikes: 12000, instagramFollowers: 8000, instagramUsername: 'nordicglow', liveAdsCount: 3, reach30d: 6000n, totalReach: 50000n, countriesCount: 3 },
      { id: P_LAB, name: 'Glow Lab Studio', pageType: 'influencer', audienceGender: 'female', pageCreatedAt: new Date('2023-02-10T00:00:00Z'), facebookLikes: 500, instagramFollowers: 40000, instagramUsername: 'glowlabstudio', liveAdsCount: 1, reach30d: 100n, totalReach: 900n, countriesCount: 1 },
      { id: P_PEAK, name: 'Peak Fitness Store', pageType: 'brand', audienceGender: 'male', pageCreatedAt: new Date('2021-07-15T00:00:00Z'), facebookLikes: 90000, instagramFollowers: 1200, liveAdsCount: 2, reach30d: 250000n, totalReach: 900000n, countriesCount: 3 },
      { id: P_URBAN, name: 'Urban Threads', pageType: 'brand', audienceGender: 'all', facebookLikes: 3000, instagramFollowers: 3000, liveAdsCount: 0, reach30d: 0n, totalReach: 4000n, countriesCount: 0 },
    ],
  });
  await prisma.advertiserShop.createMany({
    data: [
      { advertiserId: P_GLOW, shopId: S_GLOW, isPrimary: true, isMain: true, rank: 1 },
      { advertiserId: P_GLOW, shopId: S_LAB, isPrimary: false, isMain: false, rank: 2 },
      { advertiserId: P_LAB, shopId: S_LAB, isPrimary: true, isMain: true, rank: 1 },
      { advertiserId: P_PEAK, shopId: S_PEAK, isPrimary: true, isMain: true, rank: 1 },
    ],
  });
  const perDay: [string, bigint][] = [[P_GLOW, 100n], [P_LAB, 1000n], [P_PEAK, 10n]];
  await prisma.advertiserMetricDay.createMany({
    data: perDay.flatMap(([advertiserId, impressions]) =>
      Array.from({ length: 20 }, (_, i) => ({ advertiserId, date: new Date(today() - (i + 1) * DAY), facebookLikes: 0, instagramFollowers: 0, totalImpressions: impressions }))),
  });
}

const LP_SERUM = 'a1000000-0000-4000-8000-000000000001';
const LP_ABOUT = 'a1000000-0000-4000-8000-000000000002';

async function ads({ prisma }: TestDatabase) {
  await prisma.landingPage.createMany({
    data: [
      { id: LP_SERUM, url: 'https://nordicglow.no/products/serum?utm=fb', normalizedUrl: 'https://nordicglow.no/products/serum', domain: 'nordicglow.no', shopId: S_GLOW, screenshotDesktopUrl: '/media/lp/serum.png' },
      { id: LP_ABOUT, url: 'https://nordicglow.no/pages/about', normalizedUrl: 'https://nordicglow.no/pages/about', domain: 'nordicglow.no', shopId: S_GLOW },
    ],
  });
  const ad = (id: string, advertiserId: string, launched: number, fields: Record<string, unknown>) => ({
    id, collationId: `col_${id}`, advertiserId, status: 'active' as const, mediaType: 'image' as const, createdAt: daysAgo(launched), firstSeenAt: daysAgo(launched), lastSeenAt: daysAgo(0),
    thumbnailUrl: `/media/ads/${id}-thumb.jpg`, mediaUrl: `/media/ads/${id}.jpg`, targetedCountries: ['US'], ...fields,
  });
  await prisma.ad.createMany({
    data: [
      ad('facebook_101', P_GLOW, 2, { mediaType: 'video', isEuAd: true, targetedCountries: ['FR', 'DE'], mainCountry: 'FR', reach: 3000n, duplicates: 2, collationId: 'col_glow', landingPageId: LP_SERUM, landingPageUrl: 'https://nordicglow.no/products/serum?utm=fb', languages: ['fr'], ageMin: 18, ageMax: 34, body: 'Glow serum with vitamin C' }),
      ad('facebook_105', P_GLOW, 3, { mediaType: 'video', isGroupLead: false, collationId: 'col_glow', reach: 700n, duplicates: 2, targetedCountries: ['BE'], body: 'Glow serum with vitamin C' }),
      ad('facebook_102', P_GLOW, 20, { reach: 2000n, hasPartnerBadge: true, landingPageId: LP_SERUM, landingPageUrl: 'https://nordicglow.no/products/serum?utm=fb', languages: ['en'], ageMin: 25, ageMax: 54, body: 'Serum restock, free shipping' }),
      ad('facebook_103', P_GLOW, 60, { mediaType: 'video', isEuAd: true, targetedCountries: ['FR'], mainCountry: 'FR', reach: 1000n, landingPageId: LP_ABOUT, landingPageUrl: 'https://nordicglow.no/pages/about', body: 'Our story in Oslo' }),
      ad('facebook_104', P_GLOW, 400, { status: 'inactive', lastSeenAt: daysAgo(300), reach: 500n, body: 'Winter balm clearance' }),
      ad('facebook_201', P_LAB, 5, { mediaType: 'video', reach: 100n, hasPartnerBadge: true, body: 'Glow lab tutorial, my evening routine', landingPageUrl: 'https://glowlabstudio.com/routine' }),
      ad('facebook_301', P_PEAK, 10, { isEuAd: true, targetedCountries: ['DE'], mainCountry: 'DE', reach: 200000n, duplicates: 3, body: 'Summer training plan' }),
      ad('facebook_302', P_PEAK, 100, { mediaType: 'video', targetedCountries: ['US', 'CA'], reach: 50000n, body: 'Protein shaker giveaway' }),
      ad('facebook_401', P_URBAN, 40, { status: 'inactive', lastSeenAt: daysAgo(3), reach: 4000n, body: 'Denim days' }),
    ],
  });
}

export async function discoveryScenario(db: TestDatabase): Promise<void> {
  await categories(db);
  await facetValues(db);
  await shops(db);
  await advertisers(db);
  await ads(db);
  await refreshFacetUsage(db.pool);
}

/** A brandtracker of a page (or of a shop) tracked by a workspace under a display name. */
export async function trackBrand(db: TestDatabase, workspaceId: string, brand: { name: string; facebookPageId?: string; websiteId?: string; displayName?: string }) {
  const tracker = await db.prisma.brandtracker.upsert({
    where: brand.facebookPageId ? { facebookPageId: brand.facebookPageId } : { websiteId: brand.websiteId! },
    create: { name: brand.name, facebookPageId: brand.facebookPageId, websiteId: brand.websiteId, targetType: brand.websiteId ? 'shop' : 'page' },
    update: {},
  });
  await db.prisma.brandtrackerLink.create({ data: { workspaceId, brandtrackerId: tracker.id, name: brand.displayName ?? null } });
  return tracker.id;
}
