import type { TestDatabase } from '../support/database.js';
import { brandtrackerScenario, LP_SERUM, PAGE_A } from '../brandtrackers/scenario.js';

// The brandtracker scenario plus three ads of page A (Nordic Glow) with known lives and reach rows in November 2026,
// for the series routes (time-series, evolutions, timeline):
//   9301 stopped (11-10 … 11-15), non-EU, the serum copy and headline, reach rows with gaps (11-10, 11-12, 11-15);
//   9302 active since 11-18, EU, the gift copy, headline "Gift set", landing page LP_GIFT, reach from its first day;
//   9303 active since 11-01, EU, the gift copy, headline "Glow serum", no landing page, reach rows only from 11-19.
// With the ads scenario's 9001 (active since 09-30, reach rows 11-19 … 11-21), 9002 (active since 10-04, no media,
// not a group lead) and 9003 (stopped 2025-02-08).

export const LP_GIFT = '6b000000-0000-4000-8000-000000000003';
export const GIFT_URL = 'https://nordicglow.com/products/gift-set';
export const SERUM_URL = 'https://nordicglow.com/products/serum';
export const SERUM_COPY = 'Summer serum sale with free shipping';
export const GIFT_COPY = 'Holiday glow gift set';

const day = (iso: string) => new Date(`${iso}T00:00:00.000Z`);
const at = (iso: string) => new Date(`${iso}T09:30:00.000Z`);

export async function seriesScenario(db: TestDatabase): Promise<void> {
  await brandtrackerScenario(db);
  const { prisma } = db;
  await prisma.landingPage.create({ data: { id: LP_GIFT, url: GIFT_URL, normalizedUrl: 'nordicglow.com/products/gift-set', domain: 'nordicglow.com' } });
  const common = { platform: 'facebook', advertiserId: PAGE_A, callToAction: 'Shop now', gender: 'all', targetedCountries: ['FR'] };
  await prisma.ad.createMany({
    data: [
      {
        ...common, id: 'facebook_9301', collationId: 'col_s1', status: 'inactive', mediaType: 'image', createdAt: at('2026-11-10'), firstSeenAt: at('2026-11-10'),
        lastSeenAt: at('2026-11-15'), mediaUrl: '/media/ads/facebook_9301.jpg', title: 'Glow serum', body: SERUM_COPY,
        landingPageId: LP_SERUM, landingPageUrl: SERUM_URL, landingPageDomain: 'nordicglow.com', reach: 600n, aggregatedReach: 600n, isEuAd: false,
      },
      {
        ...common, id: 'facebook_9302', collationId: 'col_s2', status: 'active', mediaType: 'video', createdAt: at('2026-11-18'), firstSeenAt: at('2026-11-18'),
        lastSeenAt: at('2026-11-21'), mediaUrl: '/media/ads/facebook_9302.mp4', title: 'Gift set', body: GIFT_COPY,
        landingPageId: LP_GIFT, landingPageUrl: GIFT_URL, landingPageDomain: 'nordicglow.com', reach: 900n, aggregatedReach: 900n, isEuAd: true, hasPartnerBadge: true,
        partnerPageId: '1000000000000009', partnerPageName: 'Glow Creator',
      },
      {
        ...common, id: 'facebook_9303', collationId: 'col_s3', status: 'active', mediaType: 'image', createdAt: at('2026-11-01'), firstSeenAt: at('2026-11-01'),
        lastSeenAt: at('2026-11-21'), mediaUrl: '/media/ads/facebook_9303.jpg', title: 'Glow serum', body: GIFT_COPY,
        reach: 2500n, aggregatedReach: 2500n, isEuAd: true, duplicates: 3,
      },
    ],
  });
  const rows: [string, string, bigint][] = [
    ['facebook_9301', '2026-11-10', 100n], ['facebook_9301', '2026-11-12', 300n], ['facebook_9301', '2026-11-15', 600n],
    ['facebook_9302', '2026-11-18', 50n], ['facebook_9302', '2026-11-19', 150n], ['facebook_9302', '2026-11-20', 400n], ['facebook_9302', '2026-11-21', 900n],
    ['facebook_9303', '2026-11-19', 2000n], ['facebook_9303', '2026-11-20', 2100n], ['facebook_9303', '2026-11-21', 2500n],
  ];
  await prisma.adReachDay.createMany({ data: rows.map(([adId, date, reach]) => ({ adId, date: day(date), reach, rank: 1 })) });
}
