import type { TestDatabase } from '../support/database.js';
import { scenarioShops, SHOP_GLOW, SHOP_PEAK } from '../support/scenario-shops.js';

export { SHOP_GLOW, SHOP_PEAK };

const at = (iso: string) => new Date(iso.length === 10 ? `${iso}T00:00:00.000Z` : iso);

// The TikTok scenario: a hand-made market with known figures (it can share a database with the others).

/** TikTok profiles (P_*), items (T*): ids are 19 digits, above 2^53. */
export const P_GLOW = '7000000000000000001';
export const P_AVA = '6900000000000000002';
export const P_PEAK = '7100000000000000003';
export const T1 = '7412345678901234567';
export const T2 = '7412345678901234568';
export const T3 = '6812345678901234561';
export const T4 = '7312345678901234562';
export const T5 = '7512345678901234563';

/**
 *   T1  Glow Lab ad, active video, 2026-11-01, en, Beauty, #skincare #serum #fyp, US+GB, music Summer Nights, shop Glow Lab, 250000 views, ER 4.8
 *   T2  Glow Lab organic, active carousel, 2026-10-15, fr, Beauty, #skincare #routine, FR, pinned now, shop Glow Lab, 40000 views, ER 8
 *   T3  Ava organic, active video, 2026-09-01, en, Beauty, #grwm, US, "summer wedding", original sound, was pinned, no shop, 1200 views, ER 27.5
 *   T4  Peak ad, inactive image, 2025-09-01 to 2026-06-28 (300 days), de, Sports, #fitness #gym, DE+AT, shop Peak, 9000000 views, ER 1.11
 *   T5  Peak ad, active video, 2026-11-18, en, Sports, #running, CA, "summer", music Summer Nights, no shop, 500 views, ER 2
 */
export async function tiktokScenario(db: TestDatabase): Promise<void> {
  const { prisma } = db;
  await scenarioShops(db);
  await prisma.tikTokProfile.createMany({
    data: [
      { id: P_GLOW, handle: 'glowlab', name: 'Glow Lab', accountType: 'business', secUid: 'MS4wLjABAAAAglow', followers: 120000n, following: 12, totalTikToks: 2, newTikToks: 1, percentAds: 50, views: 290000n, likes: 13000n, pageCreation: at('2019-03-01'), shopId: SHOP_GLOW, bio: 'Official Glow Lab account', bioUrl: 'https://glowlab.co', avatarUrl: '/media/tiktok/avatars/glowlab.jpeg' },
      { id: P_AVA, handle: 'ava.skincare', name: 'Ava | skincare', accountType: 'creator', secUid: 'MS4wLjABAAAAava', followers: 5000n, following: 300, totalTikToks: 1, newTikToks: 0, percentAds: 0, views: 1200n, likes: 300n, pageCreation: at('2021-05-05') },
      { id: P_PEAK, handle: 'peak_fitness', name: 'Peak Fitness Store', accountType: 'business', secUid: 'MS4wLjABAAAApeak', followers: 900000n, following: 3, totalTikToks: 2, newTikToks: 1, percentAds: 100, views: 9000500n, likes: 90010n, pageCreation: at('2018-02-02'), shopId: SHOP_PEAK },
    ],
  });
  await prisma.tikTokMusic.createMany({
    data: [
      { id: '7200000000000000001', title: 'Summer Nights', author: 'Luna Vega' },
      { id: '7200000000000000002', title: 'original sound - ava.skincare', author: 'Ava | skincare' },
    ],
  });
  const video = (id: string) => ({ mediaType: 'video' as const, thumbnailUrl: `/media/tiktok/${id}-cover.jpg`, mediaUrl: `/media/tiktok/${id}.mp4`, videoUrl: `/media/tiktok/${id}.mp4`, durationSec: 21.5 });
  await prisma.tikTokItem.createMany({
    data: [
      {
        id: T1, type: 'ad', status: 'active', publishedAt: at('2026-11-01T10:00:00Z'), createdAt: at('2026-11-01T12:00:00Z'), updatedAt: at('2026-11-20T12:00:00Z'), indexedAt: at('2026-11-20T12:05:00Z'), lastSeenAt: at('2026-11-21'),
        ...video(T1), language: 'en', category: 'Beauty', hashtags: ['skincare', 'serum', 'fyp'], countries: ['US', 'GB'], description: 'Glow serum that actually works #skincare #serum #fyp',
        views: 250000n, likes: 10000n, comments: 500, shares: 1500, saves: 800, reposts: 40, engagementRate: 4.8, rank: 1, rankPercent: 50, relevanceScore: 0.61, deltaRank3d: 0, deltaRank7d: 1,
        profileId: P_GLOW, musicId: '7200000000000000001', shopId: SHOP_GLOW,
      },
      {
        id: T2, type: 'organic', status: 'active', isPinned: true, publishedAt: at('2026-10-15T08:00:00Z'), createdAt: at('2026-10-15T09:00:00Z'), updatedAt: at('2026-11-10T00:00:00Z'), indexedAt: at('2026-11-10T00:01:00Z'), lastSeenAt: at('2026-11-21'),
        mediaType: 'carousel', thumbnailUrl: `/media/tiktok/${T2}-1.jpg`, mediaUrl: `/media/tiktok/${T2}-1.jpg`, imageUrls: [1, 2, 3].map((n) => `/media/tiktok/${T2}-${n}.jpg`),
        language: 'fr', category: 'Beauty', hashtags: ['skincare', 'routine'], countries: ['FR'], description: 'Ma routine du soir #skincare #routine',
        views: 40000n, likes: 3000n, comments: 100, shares: 100, saves: 50, reposts: 2, engagementRate: 8, rank: 2, rankPercent: 100, relevanceScore: 0.55,
        profileId: P_GLOW, musicId: '7200000000000000001', shopId: SHOP_GLOW,
      },
      {
        id: T3, type: 'organic', status: 'active', publishedAt: at('2026-09-01T18:00:00Z'), createdAt: at('2026-09-02T00:00:00Z'), updatedAt: at('2026-11-01T00:00:00Z'), indexedAt: at('2026-11-01T00:02:00Z'), lastSeenAt: at('2026-11-21'),
        ...video(T3), language: 'en', category: 'Beauty', hashtags: ['grwm'], countries: ['US'], description: 'Get ready with me for a summer wedding #grwm',
        views: 1200n, likes: 300n, comments: 20, shares: 10, saves: 5, reposts: 0, engagementRate: 27.5, rank: 1, rankPercent: 100, relevanceScore: 0.7,
        profileId: P_AVA, musicId: '7200000000000000002',
      },
      {
        id: T4, type: 'ad', status: 'inactive', publishedAt: at('2025-09-01'), createdAt: at('2025-09-01T06:00:00Z'), updatedAt: at('2026-06-28'), indexedAt: at('2026-06-28T00:03:00Z'), lastSeenAt: at('2026-06-28'),
        mediaType: 'image', thumbnailUrl: `/media/tiktok/${T4}-1.jpg`, mediaUrl: `/media/tiktok/${T4}-1.jpg`, imageUrls: [`/media/tiktok/${T4}-1.jpg`],
        language: 'de', category: 'Sports', hashtags: ['fitness', 'gym'], countries: ['DE', 'AT'], description: 'Neue Hanteln im Sommer Sale #fitness #gym',
        views: 9000000n, likes: 90000n, comments: 900, shares: 9000, saves: 700, reposts: 100, engagementRate: 1.11, rank: 1, rankPercent: 50, relevanceScore: 0.4,
        profileId: P_PEAK, shopId: SHOP_PEAK,
      },
      {
        id: T5, type: 'ad', status: 'active', publishedAt: at('2026-11-18T07:00:00Z'), createdAt: at('2026-11-18T08:00:00Z'), updatedAt: at('2026-11-21'), indexedAt: at('2026-11-21T00:04:00Z'), lastSeenAt: at('2026-11-21'),
        ...video(T5), language: 'en', category: 'Sports', hashtags: ['running'], countries: ['CA'], description: 'Trail running shoes built for summer #running',
        views: 500n, likes: 10n, comments: 0, shares: 0, saves: 1, reposts: 0, engagementRate: 2, rank: 2, rankPercent: 100, relevanceScore: 0.2,
        profileId: P_PEAK, musicId: '7200000000000000001',
      },
    ],
  });
  await prisma.tikTokPin.createMany({
    data: [
      { itemId: T2, isCurrent: true, firstPinnedAt: at('2026-10-16'), lastPinnedAt: at('2026-10-20'), lastUnpinnedAt: at('2026-10-18') },
      { itemId: T3, isCurrent: false, firstPinnedAt: at('2026-09-05'), lastPinnedAt: at('2026-09-05'), lastUnpinnedAt: at('2026-10-01') },
    ],
  });
  await prisma.tikTokPageSnapshot.createMany({
    data: [
      { profileId: P_GLOW, date: at('2026-11-20'), recordedAt: at('2026-11-20T03:10:00Z'), adsCount: 1, organicCount: 1, totalTikToks: 2, dailyViews: 3000n, dailyLikes: 200n, dailyFollowers: 40 },
      { profileId: P_GLOW, date: at('2026-11-21'), recordedAt: at('2026-11-21T03:12:00Z'), adsCount: 1, organicCount: 1, totalTikToks: 2, dailyViews: 4100n, dailyLikes: 230n, dailyFollowers: 55 },
      { profileId: P_PEAK, date: at('2026-11-21'), recordedAt: at('2026-11-21T03:30:00Z'), adsCount: 1, organicCount: 0, totalTikToks: 2, dailyViews: 900n, dailyLikes: 12n, dailyFollowers: 80 },
    ],
  });
}
