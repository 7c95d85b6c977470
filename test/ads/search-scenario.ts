import type { TestDatabase } from '../support/database.js';

// The search scenario: one advertiser and SEARCH_ADS group-lead ads whose copy says how often it uses the
// common word ("summer" once or twice), with distinct reach, and a few carrying rarer words. Tests lower the
// search bounds (searchBounds) so that a few dozen ads reach them.

export const SEARCH_ADS = 60;

/** Ad n (1-based): reach n * 100; "summer" in every ad but each 5th, twice in each 3rd; "winter" in 1..5; "aurora" in 7 and 8. */
export function searchAd(n: number) {
  const summer = n % 5 === 0 ? 0 : n % 3 === 0 ? 2 : 1;
  const words = [...Array(summer).fill('summer'), ...(n <= 5 ? ['winter'] : []), ...(n === 7 || n === 8 ? ['aurora'] : []), `item${n}`];
  return { id: `facebook_${String(n).padStart(4, '0')}`, reach: n * 100, summer, body: words.join(' '), firstSeenAt: new Date(Date.UTC(2026, 0, 1 + ((n * 7) % 60))) };
}

export async function searchScenario({ prisma }: TestDatabase): Promise<void> {
  await prisma.advertiser.create({ data: { id: '2000000000000001', name: 'Search Market' } });
  const ads = Array.from({ length: SEARCH_ADS }, (_, i) => searchAd(i + 1));
  await prisma.ad.createMany({
    data: ads.map((ad) => ({
      id: ad.id, collationId: `col_${ad.id}`, isGroupLead: true, status: 'active', mediaType: 'image', platform: 'facebook',
      createdAt: ad.firstSeenAt, firstSeenAt: ad.firstSeenAt, lastSeenAt: ad.firstSeenAt, title: 'Ad', body: ad.body,
      reach: BigInt(ad.reach), advertiserId: '2000000000000001',
    })),
  });
}
