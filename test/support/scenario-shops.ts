import type { TestDatabase } from './database.js';

export const SHOP_GLOW = '5a0e0000-0000-4000-8000-000000000001';
export const SHOP_PEAK = '5a0e0000-0000-4000-8000-000000000002';

/** The two shops the TikTok and Google Ads scenarios link to (created once, whichever scenario runs first). */
export async function scenarioShops({ prisma }: TestDatabase) {
  const rows = [
    { id: SHOP_GLOW, domain: 'glowlab.co', name: 'Glow Lab', monthlyVisits: 42000, categories: ['Health & Beauty'], categoryIds: [469], countryCode: 'US', trafficGrowth30d: 0.18, productsCount: 64 },
    { id: SHOP_PEAK, domain: 'peakfitness.shop', name: 'Peak Fitness Store', monthlyVisits: 9000, categories: ['Sporting Goods'], categoryIds: [988], countryCode: 'DE', trafficGrowth30d: -0.05, productsCount: 210 },
  ];
  for (const row of rows) await prisma.shop.upsert({ where: { id: row.id }, create: row, update: {} });
}
