import type { TestDatabase } from '../support/database.js';

const day = (iso: string) => new Date(`${iso}T00:00:00.000Z`);

/**
 * A small market with known figures: two advertisers, four ads (one duplicate group of two), a
 * transcript, a hook, reach history and page history. Tests assert exact values against it.
 */
export async function adsScenario({ prisma }: TestDatabase): Promise<void> {
  await prisma.advertiser.createMany({
    data: [
      { id: '1000000000000001', name: 'Nordic Glow', logoUrl: '/media/pages/1000000000000001.png', facebookLikes: 12000, instagramFollowers: 8000, liveAdsCount: 2, reach30d: 6000n, totalReach: 8200n, countriesCount: 3 },
      { id: '1000000000000002', name: 'Peak Fitness Store', facebookLikes: 500, instagramFollowers: 90, liveAdsCount: 1, reach30d: 100000n, totalReach: 100000n, countriesCount: 1 },
    ],
  });
  const shop = await prisma.shop.create({ data: { domain: 'nordicglow.com', name: 'Nordic Glow', monthlyVisits: 42000, categories: ['Health & Beauty'] } });
  await prisma.advertiserShop.create({ data: { advertiserId: '1000000000000001', shopId: shop.id, isPrimary: true } });

  const common = { platform: 'facebook', callToAction: 'Shop now', gender: 'all', ageMin: 18, ageMax: 65 };
  await prisma.ad.createMany({
    data: [
      {
        ...common, id: 'facebook_9001', collationId: 'col_a', isGroupLead: true, status: 'active', mediaType: 'video',
        createdAt: day('2026-10-01'), firstSeenAt: day('2026-09-30'), lastSeenAt: day('2026-11-21'),
        thumbnailUrl: '/media/ads/facebook_9001-thumb.jpg', mediaUrl: '/media/ads/facebook_9001.mp4',
        title: 'Glow serum', body: 'Summer serum sale with free shipping', landingPageUrl: 'https://nordicglow.com/products/serum', landingPageDomain: 'nordicglow.com',
        reach: 5000n, aggregatedReach: 8000n, duplicates: 2, reachDelta1d: 100n, reachDelta7d: 700n, reachDelta30d: 3000n,
        targetedCountries: ['FR', 'DE', 'US'], mainCountry: 'FR', isEuAd: true, advertiserId: '1000000000000001',
        positionInPage: 1, currentRank: 1, rankDelta: 2, improvementPct: 66.7,
      },
      {
        ...common, id: 'facebook_9002', collationId: 'col_a', isGroupLead: false, status: 'active', mediaType: 'video',
        createdAt: day('2026-10-05'), firstSeenAt: day('2026-10-04'), lastSeenAt: day('2026-11-21'),
        thumbnailUrl: '/media/ads/facebook_9002-thumb.jpg', mediaUrl: null,
        title: 'Glow serum', body: 'Summer serum sale with free shipping', reach: 3000n, aggregatedReach: 8000n, duplicates: 2,
        targetedCountries: ['FR'], mainCountry: 'FR', isEuAd: true, advertiserId: '1000000000000001', positionInPage: 2, currentRank: 2,
      },
      {
        ...common, id: 'facebook_9003', collationId: 'col_b', status: 'inactive', mediaType: 'image',
        createdAt: day('2025-01-10'), firstSeenAt: day('2025-01-09'), lastSeenAt: day('2025-02-08'),
        thumbnailUrl: '/media/ads/facebook_9003-thumb.jpg', mediaUrl: 'https://scontent.fbcdn.net/v/facebook_9003.jpg',
        title: 'Winter', body: 'Winter jacket clearance', reach: 200n, aggregatedReach: 200n, duplicates: 1, isLowReach: true,
        targetedCountries: ['US'], advertiserId: '1000000000000001', positionInPage: 3,
      },
      {
        ...common, id: 'facebook_9004', collationId: 'col_c', status: 'active', mediaType: 'carousel', callToAction: 'Learn more',
        createdAt: day('2026-11-01'), firstSeenAt: day('2026-10-31'), lastSeenAt: day('2026-11-21'),
        thumbnailUrl: '/media/ads/facebook_9004-thumb.jpg', mediaUrl: '/media/ads/facebook_9004.jpg',
        title: 'Train', body: 'Summer training plan, free shipping on gear', reach: 100000n, aggregatedReach: 100000n, duplicates: 1,
        reachDelta1d: 5000n, reachDelta7d: 40000n, reachDelta30d: 100000n, hasPartnerBadge: true,
        targetedCountries: ['US', 'CA'], advertiserId: '1000000000000002', positionInPage: 1, currentRank: 1, rankDelta: 0,
      },
    ],
  });
  await prisma.adTranscript.create({
    data: { adId: 'facebook_9001', language: 'en', languageConfidence: 0.93, fullText: 'Meet the glow serum. Free shipping.', segments: [{ start: 0, end: 2.5, text: 'Meet the glow serum.' }, { start: 2.5, end: 4, text: 'Free shipping.' }] },
  });
  await prisma.adHook.create({ data: { adId: 'facebook_9001', text: 'Meet the glow serum.', source: 'transcript', sourceDescription: 'First spoken line of the video' } });
  await prisma.adReachDay.createMany({
    data: [
      { adId: 'facebook_9001', date: day('2026-11-19'), reach: 4800n, rank: 2 },
      { adId: 'facebook_9001', date: day('2026-11-20'), reach: 4900n, rank: 1 },
      { adId: 'facebook_9001', date: day('2026-11-21'), reach: 5000n, rank: 1 },
      { adId: 'facebook_9004', date: day('2026-11-21'), reach: 100000n, rank: 1 },
    ],
  });
  await prisma.advertiserMetricDay.createMany({
    data: [
      { advertiserId: '1000000000000001', date: day('2026-11-20'), facebookLikes: 11990, instagramFollowers: 7990, totalImpressions: 150n },
      { advertiserId: '1000000000000001', date: day('2026-11-21'), facebookLikes: 12000, instagramFollowers: 8000, totalImpressions: 200n },
    ],
  });
}
