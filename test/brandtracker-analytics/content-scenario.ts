import type { TestDatabase } from '../support/database.js';
import { brandtrackerScenario, PAGE_A } from '../brandtrackers/scenario.js';

// The brandtracker scenario plus three ads of page A (Nordic Glow) for the content routes: two partnership ads
// (creators P1 and P2), video lengths, transcripts (one shared with 9001), hooks, titles and copies shared with
// the existing ads, a subdomain landing page, rank trends, and a reach row of 9503 on 2026-11-20 (a snapshot day).
// Fresh ads are dated from now (windows), old ones on fixed days before the scenario's snapshot days.
//
// Page A's ads then: 9001 (video, active, EU, rising, reach 5000), 9002 (its duplicate), 9003 (image, inactive),
// 9501 (video, active, partner P1, falling, 2 days old), 9502 (image, inactive, EU, partner P2, stable),
// 9503 (video, active, rising, 10 days old, German transcript).

export const PARTNER_1 = '2000000000000001';
export const PARTNER_2 = '2000000000000002';
const DAY = 86_400_000;
const day = (iso: string) => new Date(`${iso}T00:00:00.000Z`);

export async function contentScenario(db: TestDatabase): Promise<void> {
  await brandtrackerScenario(db);
  const { prisma } = db;
  const now = Date.now();
  const common = { platform: 'facebook', advertiserId: PAGE_A, gender: 'all', callToAction: 'Shop now' };
  await prisma.ad.createMany({
    data: [
      {
        ...common, id: 'facebook_9501', collationId: 'col_p1', status: 'active', mediaType: 'video', createdAt: new Date(now - 2 * DAY), firstSeenAt: new Date(now - 2 * DAY),
        lastSeenAt: new Date(now), mediaUrl: '/media/ads/facebook_9501.mp4', thumbnailUrl: '/media/ads/facebook_9501-thumb.jpg',
        title: 'Glow serum', body: 'Creator glow routine', landingPageUrl: 'https://shop.nordicglow.com/creator', landingPageDomain: 'shop.nordicglow.com',
        reach: 900n, aggregatedReach: 900n, hasPartnerBadge: true, partnerPageId: PARTNER_1, partnerPageName: 'Creator One', videoDurationSec: 30, rankDelta: -1, targetedCountries: [],
      },
      {
        ...common, id: 'facebook_9502', collationId: 'col_p2', status: 'inactive', mediaType: 'image', createdAt: day('2026-06-01'), firstSeenAt: day('2026-06-01'),
        lastSeenAt: day('2026-07-01'), title: 'Winter', body: 'Winter jacket clearance', reach: 50n, aggregatedReach: 50n, isEuAd: true,
        hasPartnerBadge: true, partnerPageId: PARTNER_2, partnerPageName: 'Creator Two', rankDelta: 0, targetedCountries: ['DE'],
      },
      {
        ...common, id: 'facebook_9503', collationId: 'col_g', status: 'active', mediaType: 'video', createdAt: new Date(now - 10 * DAY), firstSeenAt: new Date(now - 10 * DAY),
        lastSeenAt: new Date(now), mediaUrl: '/media/ads/facebook_9503.mp4', body: 'Glow up', reach: 2000n, aggregatedReach: 2000n,
        videoDurationSec: 90, rankDelta: 5, targetedCountries: ['SE'],
      },
    ],
  });
  await prisma.adTranscript.createMany({
    data: [
      { adId: 'facebook_9501', language: 'en', languageConfidence: 0.9, fullText: 'Meet the glow serum. Free shipping.', segments: [] },
      { adId: 'facebook_9503', language: 'de', languageConfidence: 0.8, fullText: 'Hallo glow.', segments: [] },
    ],
  });
  await prisma.adHook.createMany({
    data: [
      { adId: 'facebook_9501', text: 'Creators love it.', source: 'transcript', sourceDescription: 'First spoken line of the video' },
      { adId: 'facebook_9503', text: 'Meet the glow serum.', source: 'transcript', sourceDescription: 'First spoken line of the video' },
    ],
  });
  await prisma.adReachDay.create({ data: { adId: 'facebook_9503', date: day('2026-11-20'), reach: 1900n } });
}
