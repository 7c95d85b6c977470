import type { TestDatabase } from '../support/database.js';
import { brandtrackerScenario, LP_DROP, LP_SERUM, PAGE_A } from '../brandtrackers/scenario.js';

// The brandtracker scenario plus test batches of Nordic Glow (page A, brandtracker BT_A):
// - 2026-11-01: 23 ads (96001..96023), reach 1000 + 100 i, active for i <= 12, EU when i % 3 = 0, partnership ads
//   of creator PARTNER for i <= 2, linking to shop.nordicglow.com for i <= 5, targeting DE for i <= 10 (else US),
//   copy about sunscreen for i <= 4, landing page LP_SERUM for i <= 5 and LP_DROP for i = 6..8: a batch truncated to 20 ads;
// - 2026-10-10: 97001 (active, EU, reach 900), 97002 and 97003 (stopped): a winner; 97004 (not a group lead) and
//   97005 (no media) are not testing ads;
// - two days ago: 98001 (active) and 98002 (stopped): too recent to be a winner;
// - reach days: 96013 and 97002 ran on 2026-11-20; 97001 and 96003 have EU reach rows from 2026-11-15.

export const PARTNER = '2000000000000009';
export const BATCH_BIG = '2026-11-01';
export const BATCH_WINNER = '2026-10-10';

const at = (iso: string) => new Date(iso);

export async function testingScenario(db: TestDatabase): Promise<void> {
  await brandtrackerScenario(db);
  const { prisma } = db;
  const base = { platform: 'facebook', advertiserId: PAGE_A, gender: 'all', callToAction: 'Shop now', lastSeenAt: at('2026-11-21T00:00:00Z') };
  const big = Array.from({ length: 23 }, (_, index) => {
    const i = index + 1;
    const id = `facebook_${96000 + i}`;
    const domain = i <= 5 ? 'shop.nordicglow.com' : 'nordicglow.com';
    const firstSeenAt = at(`2026-11-01T${String(i % 24).padStart(2, '0')}:00:00Z`);
    return {
      ...base, id, collationId: `col_${id}`, status: i <= 12 ? ('active' as const) : ('inactive' as const), mediaType: i % 2 ? ('video' as const) : ('image' as const),
      createdAt: firstSeenAt, firstSeenAt, lastSeenAt: i <= 12 ? at('2026-11-21T00:00:00Z') : at('2026-11-05T00:00:00Z'),
      mediaUrl: `https://cdn.example.com/ads/${id}.jpg`, thumbnailUrl: `https://cdn.example.com/ads/${id}-thumb.jpg`,
      body: i <= 4 ? `Sunscreen launch ${i}` : `Batch copy ${i}`, landingPageUrl: `https://${domain}/p/${i}`, landingPageDomain: domain,
      reach: BigInt(1000 + 100 * i), aggregatedReach: BigInt(1000 + 100 * i), isEuAd: i % 3 === 0,
      landingPageId: i <= 5 ? LP_SERUM : i <= 8 ? LP_DROP : null, hasPartnerBadge: i <= 2, partnerPageId: i <= 2 ? PARTNER : null, targetedCountries: i <= 10 ? ['DE'] : ['US'],
    };
  });
  const winner = (id: number, status: 'active' | 'inactive', reach: number, extra: object = {}) => ({
    ...base, id: `facebook_${id}`, collationId: `col_${id}`, status, mediaType: 'image' as const,
    createdAt: at(`${BATCH_WINNER}T08:00:00Z`), firstSeenAt: at(`${BATCH_WINNER}T08:00:00Z`), lastSeenAt: status === 'active' ? at('2026-11-21T00:00:00Z') : at('2026-10-14T00:00:00Z'),
    mediaUrl: `https://cdn.example.com/ads/${id}.jpg`, body: `Winner test ${id}`, reach: BigInt(reach), aggregatedReach: BigInt(reach), targetedCountries: ['FR'], ...extra,
  });
  const recent = new Date(Date.now() - 2 * 86_400_000);
  await prisma.ad.createMany({
    data: [
      ...big,
      winner(97001, 'active', 900, { isEuAd: true }),
      winner(97002, 'inactive', 400),
      winner(97003, 'inactive', 100),
      winner(97004, 'active', 5000, { isGroupLead: false, collationId: 'col_97001' }),
      winner(97005, 'active', 5000, { mediaUrl: null }),
      { ...winner(98001, 'active', 50), createdAt: recent, firstSeenAt: recent },
      { ...winner(98002, 'inactive', 40), createdAt: recent, firstSeenAt: recent, lastSeenAt: recent },
    ],
  });
  const day = (iso: string) => at(`${iso}T00:00:00Z`);
  await prisma.adReachDay.createMany({
    data: [
      { adId: 'facebook_96013', date: day('2026-11-20'), reach: 2300n, rank: 3 },
      { adId: 'facebook_97002', date: day('2026-11-20'), reach: 400n, rank: 4 },
      { adId: 'facebook_97001', date: day('2026-11-15'), reach: 500n, rank: 2 },
      { adId: 'facebook_97001', date: day('2026-11-16'), reach: 600n, rank: 2 },
      { adId: 'facebook_97001', date: day('2026-11-18'), reach: 900n, rank: 2 },
      { adId: 'facebook_96003', date: day('2026-11-16'), reach: 100n, rank: 5 },
      { adId: 'facebook_96003', date: day('2026-11-17'), reach: 250n, rank: 5 },
    ],
  });
}
