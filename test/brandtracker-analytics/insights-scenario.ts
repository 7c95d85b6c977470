import type { TestDatabase } from '../support/database.js';
import { brandtrackerScenario, LP_SERUM, PAGE_A } from '../brandtrackers/scenario.js';

// The brandtracker scenario plus what the per-brandtracker lists read:
// - rank movers: page B's fresh ad 9101 (rank 2) climbed 1 place over 7 days and 3 over 14 and 30, with its daily
//   ranks on three snapshot days; page B's 9004 held its rank;
// - a fifth ad of page A, 9005 (active non-EU image, first seen 2026-11-01, reach 50, not ranked);
// - landing pages: 9002 links a www./query/fragment variant of 9001's serum page (one normalized group), 9003 and
//   9005 the winter page;
// - partners (creator pages): 9001 and 9003 with P1 (named "Glow Creator Old" on the older ad), 9002 and 9005 with P2;
// - EU demography of 9001 (FR and DE) and 9005 (IT).

const day = (iso: string) => new Date(`${iso}T00:00:00.000Z`);
export const P1 = '2000000000000001';
export const P2 = '2000000000000002';
export const LP_SERUM_VARIANT = '6b000000-0000-4000-8000-0000000000a1';
export const LP_WINTER = '6b000000-0000-4000-8000-0000000000a2';

export async function insightsScenario(db: TestDatabase): Promise<void> {
  await brandtrackerScenario(db);
  const { prisma } = db;
  await prisma.ad.update({ where: { id: 'facebook_9101' }, data: { rankDelta7d: 1, rankDelta14d: 3, rankDelta30d: 3 } });
  await prisma.ad.update({ where: { id: 'facebook_9004' }, data: { rankDelta7d: 0, rankDelta14d: 0 } });
  await prisma.adReachDay.createMany({
    data: [
      { adId: 'facebook_9101', date: day('2026-11-08'), reach: 100n, rank: 5 },
      { adId: 'facebook_9101', date: day('2026-11-15'), reach: 400n, rank: 3 },
      { adId: 'facebook_9101', date: day('2026-11-21'), reach: 700n, rank: 2 },
    ],
  });

  await prisma.landingPage.createMany({
    data: [
      { id: LP_SERUM_VARIANT, url: 'https://www.NordicGlow.com/products/serum/?utm_source=fb#reviews', normalizedUrl: 'nordicglow.com/products/serum', domain: 'nordicglow.com' },
      { id: LP_WINTER, url: 'https://nordicglow.com/pages/winter/?ref=1', normalizedUrl: 'nordicglow.com/pages/winter', domain: 'nordicglow.com', screenshotMobileUrl: '/media/lp/winter-mobile.png' },
    ],
  });
  await prisma.ad.create({
    data: {
      id: 'facebook_9005', collationId: 'col_f', status: 'active', mediaType: 'image', createdAt: day('2026-11-01'), firstSeenAt: day('2026-11-01'), lastSeenAt: day('2026-11-21'),
      mediaUrl: '/media/ads/facebook_9005.jpg', thumbnailUrl: '/media/ads/facebook_9005-thumb.jpg', body: 'Winter is coming',
      reach: 50n, aggregatedReach: 50n, advertiserId: PAGE_A, landingPageId: LP_WINTER, partnerPageId: P2, partnerPageName: 'Skin Coach', hasPartnerBadge: true,
      targetedCountries: ['IT'],
    },
  });
  const partner = (id: string, pageId: string, name: string, landingPageId: string) =>
    prisma.ad.update({ where: { id }, data: { partnerPageId: pageId, partnerPageName: name, hasPartnerBadge: true, landingPageId } });
  await partner('facebook_9001', P1, 'Glow Creator', LP_SERUM);
  await partner('facebook_9003', P1, 'Glow Creator Old', LP_WINTER);
  await partner('facebook_9002', P2, 'Skin Coach', LP_SERUM_VARIANT);

  await prisma.adDemography.createMany({
    data: [
      { adId: 'facebook_9001', country: 'FR', ageRange: '18-24', gender: 'female', reach: 1000n },
      { adId: 'facebook_9001', country: 'FR', ageRange: '25-34', gender: 'male', reach: 500n },
      { adId: 'facebook_9001', country: 'DE', ageRange: '18-24', gender: 'female', reach: 300n },
      { adId: 'facebook_9005', country: 'IT', ageRange: '35-44', gender: 'unknown', reach: 50n },
    ],
  });
}
