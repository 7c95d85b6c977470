import type { TestDatabase } from '../support/database.js';
import { adsScenario } from '../ads/scenario.js';

// The ads scenario (pages A "Nordic Glow" and B "Peak Fitness Store", ads 9001-9004) plus what brandtrackers
// need: both pages tracked globally, a third page C with a shop and no brandtracker yet, a fresh ad of B (first
// seen two hours ago, so the new-ad counts do not depend on the day the tests run), hooks shared by two ads of A,
// and landing pages with a technology.

export const PAGE_A = '1000000000000001';
export const PAGE_B = '1000000000000002';
export const PAGE_C = '1000000000000003';
export const BT_A = '4a1c0d2e-0000-4000-8000-00000000000a';
export const BT_B = '4a1c0d2e-0000-4000-8000-00000000000b';
export const LP_SERUM = '6b000000-0000-4000-8000-000000000001';
export const LP_DROP = '6b000000-0000-4000-8000-000000000002';
export const TECH = '7c000000-0000-4000-8000-000000000001';
export const GAMMA_DOMAIN = 'gammagoods.com';

const HOUR = 3_600_000;

export async function brandtrackerScenario(db: TestDatabase): Promise<void> {
  await adsScenario(db);
  const { prisma } = db;
  const now = Date.now();
  const nordic = await prisma.shop.findUniqueOrThrow({ where: { domain: 'nordicglow.com' } });
  await prisma.shop.update({ where: { id: nordic.id }, data: { trafficGrowth30d: 0.18, facebookHandle: 'nordicglow', instagramHandle: 'nordic.glow' } });
  await prisma.shopTrafficMonth.createMany({
    data: [
      { shopId: nordic.id, month: new Date('2026-09-01T00:00:00Z'), visits: 39000 },
      { shopId: nordic.id, month: new Date('2026-10-01T00:00:00Z'), visits: 42000 },
    ],
  });

  await prisma.advertiser.create({ data: { id: PAGE_C, name: 'Gamma Goods', logoUrl: '/media/pages/gamma.png', liveAdsCount: 1 } });
  const gamma = await prisma.shop.create({ data: { domain: GAMMA_DOMAIN, name: 'Gamma Goods', monthlyVisits: 9000, categories: [] } });
  await prisma.advertiserShop.create({ data: { advertiserId: PAGE_C, shopId: gamma.id, isPrimary: true, isMain: true, rank: 1 } });

  await prisma.technology.create({ data: { id: TECH, slug: 'shopify', name: 'Shopify', iconUrl: '/media/tech/shopify.png' } });
  await prisma.landingPage.createMany({
    data: [
      { id: LP_SERUM, url: 'https://nordicglow.com/products/serum', normalizedUrl: 'nordicglow.com/products/serum', domain: 'nordicglow.com', screenshotDesktopUrl: '/media/lp/serum-desktop.png' },
      { id: LP_DROP, url: 'https://peakfitness.example/drop', normalizedUrl: 'peakfitness.example/drop', domain: 'peakfitness.example' },
    ],
  });
  await prisma.landingPageTechnology.create({ data: { landingPageId: LP_SERUM, technologyId: TECH } });
  await prisma.ad.updateMany({ where: { id: { in: ['facebook_9001', 'facebook_9002'] } }, data: { landingPageId: LP_SERUM } });

  const fresh = new Date(now - 2 * HOUR);
  await prisma.ad.createMany({
    data: [
      {
        id: 'facebook_9101', collationId: 'col_d', status: 'active', mediaType: 'image', createdAt: fresh, firstSeenAt: fresh, lastSeenAt: new Date(now),
        mediaUrl: '/media/ads/facebook_9101.jpg', thumbnailUrl: '/media/ads/facebook_9101-thumb.jpg',
        body: 'Fresh drop today', reach: 700n, aggregatedReach: 700n, isEuAd: true, currentRank: 2, advertiserId: PAGE_B, landingPageId: LP_DROP,
        targetedCountries: ['DE'], mainCountry: 'DE',
      },
      {
        id: 'facebook_9201', collationId: 'col_e', status: 'active', mediaType: 'video', createdAt: new Date(now - 72 * HOUR), firstSeenAt: new Date(now - 72 * HOUR),
        lastSeenAt: new Date(now), body: 'Gamma everyday basics', reach: 300n, aggregatedReach: 300n, currentRank: 1, advertiserId: PAGE_C, targetedCountries: ['US'],
      },
    ],
  });
  await prisma.adHook.createMany({
    data: [
      { adId: 'facebook_9002', text: 'Meet the glow serum.', source: 'transcript', sourceDescription: 'First spoken line of the video' },
      { adId: 'facebook_9004', text: 'Train like a pro.', source: 'title', sourceDescription: 'Ad title' },
      { adId: 'facebook_9101', text: 'Drop day is here.', source: 'body', sourceDescription: 'First sentence of the copy' },
    ],
  });

  await prisma.brandtracker.create({
    data: {
      id: BT_A, targetType: 'page', facebookPageId: PAGE_A, name: 'Nordic Glow', avatarUrl: '/media/pages/1000000000000001.png',
      isLoaded: true, lastCrawledAt: new Date('2026-11-21T06:00:00Z'), createdAt: new Date('2025-06-01T00:00:00Z'),
      websites: { create: [{ shopId: nordic.id, position: 0 }] },
    },
  });
  await prisma.brandtracker.create({
    data: { id: BT_B, targetType: 'page', facebookPageId: PAGE_B, name: 'Peak Fitness Store', isLoaded: false, createdAt: new Date('2026-01-15T00:00:00Z') },
  });
}
