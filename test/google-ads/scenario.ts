import type { TestDatabase } from '../support/database.js';
import { scenarioShops, SHOP_GLOW } from '../support/scenario-shops.js';

export { SHOP_GLOW };

const at = (iso: string) => new Date(iso.length === 10 ? `${iso}T00:00:00.000Z` : iso);

// The Google Ads scenario: a hand-made market with known figures (it can share a database with the others).

export const G_GLOW = 'AR00000000000000000001';
export const G_DENTAL = 'AR00000000000000000002';
export const A1 = 'google_CR00000000000000000001';
export const A2 = 'google_CR00000000000000000002';
export const A3 = 'google_CR00000000000000000003';
export const A4 = 'google_CR00000000000000000004';
export const A5 = 'google_CR00000000000000000005';

/**
 *   A1  Glow Lab, active search ad since 2026-08-01, reach 12000, US 0.7 + CA 0.3, remarketing
 *   A2  Glow Lab, active youtube video since 2026-09-15, reach 500000, FR
 *   A3  Glow Lab, inactive shopping ad 2025-01-01 to 2025-03-01 (59 days), reach 3000, GB
 *   A4  Bright Dental, active maps ad since 2026-06-01, reach 800, US
 *   A5  Bright Dental, inactive other ad 2019-05-01 to 2019-05-11 (10 days), reach 50, DE
 * Categories: Glow Lab 469 + 2915, Bright Dental 491; 166 has no advertiser.
 */
export async function googleAdsScenario(db: TestDatabase): Promise<void> {
  const { prisma } = db;
  await scenarioShops(db);
  await prisma.category.createMany({
    data: [
      { id: 166, name: 'Apparel & Accessories', path: 'Apparel & Accessories', parentId: null },
      { id: 469, name: 'Health & Beauty', path: 'Health & Beauty', parentId: null },
      { id: 491, name: 'Health Care', path: 'Health & Beauty > Health Care', parentId: 469 },
      { id: 2915, name: 'Personal Care', path: 'Health & Beauty > Personal Care', parentId: 469 },
    ],
    skipDuplicates: true,
  });
  await prisma.googleAdvertiser.createMany({
    data: [
      { id: G_GLOW, name: 'Glow Lab', shopName: 'Glow Lab', domain: 'glowlab.co', websiteId: SHOP_GLOW, logoUrl: '/media/google/advertisers/glow.png', categoryIds: [469, 2915], liveAdsAll: 2, liveAdsSearch: 1, liveAdsYoutube: 1 },
      { id: G_DENTAL, name: 'Bright Dental Clinic LLC', domain: 'brightdental.com', categoryIds: [491], liveAdsAll: 1, liveAdsMaps: 1 },
    ],
  });
  const ad = (n: number) => ({ id: `google_CR0000000000000000000${n}`, googleAdId: `CR0000000000000000000${n}` });
  await prisma.googleAd.createMany({
    data: [
      { ...ad(1), status: 'active', network: 'search', firstSeenAt: at('2026-08-01'), lastSeenAt: at('2026-11-21'), mediaType: 'image', mediaUrl: '/media/google/1.png', format: 'text', reach: 12000n, reachLowerBound: 10000n, reachUpperBound: 20000n, mainCountry: 'US', countryShares: [{ countryCode: 'US', share: 0.7 }, { countryCode: 'CA', share: 0.3 }], remarketing: true, interest: false, advertiserId: G_GLOW },
      { ...ad(2), status: 'active', network: 'youtube', firstSeenAt: at('2026-09-15'), lastSeenAt: at('2026-11-21'), mediaType: 'video', mediaUrl: '/media/google/2.mp4', format: 'video', reach: 500000n, reachLowerBound: 500000n, reachUpperBound: 600000n, mainCountry: 'FR', countryShares: [{ countryCode: 'FR', share: 1 }], remarketing: false, interest: true, advertiserId: G_GLOW },
      { ...ad(3), status: 'inactive', network: 'shopping', firstSeenAt: at('2025-01-01'), lastSeenAt: at('2025-03-01'), mediaType: 'image', mediaUrl: null, format: 'shopping', reach: 3000n, reachLowerBound: 3000n, reachUpperBound: 4000n, mainCountry: 'GB', countryShares: [{ countryCode: 'GB', share: 1 }], remarketing: false, interest: false, advertiserId: G_GLOW },
      { ...ad(4), status: 'active', network: 'maps', firstSeenAt: at('2026-06-01'), lastSeenAt: at('2026-11-21'), mediaType: 'image', mediaUrl: '/media/google/4.png', format: 'text', reach: 800n, reachLowerBound: 800n, reachUpperBound: 900n, mainCountry: 'US', countryShares: [{ countryCode: 'US', share: 1 }], remarketing: false, interest: true, advertiserId: G_DENTAL },
      { ...ad(5), status: 'inactive', network: 'other', firstSeenAt: at('2019-05-01'), lastSeenAt: at('2019-05-11'), mediaType: 'image', mediaUrl: '/media/google/5.png', format: 'image', reach: 50n, reachLowerBound: 50n, reachUpperBound: 60n, mainCountry: 'DE', countryShares: [{ countryCode: 'DE', share: 1 }], remarketing: false, interest: false, advertiserId: G_DENTAL },
    ],
  });
}
