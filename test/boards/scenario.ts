import type { TestDatabase } from '../support/database.js';
import { adsScenario } from '../ads/scenario.js';

// The ads scenario (ads facebook_9001..9004, advertisers 1000000000000001/2, the shop nordicglow.com) plus one of
// each other saveable thing: a second shop, two emails, a product and a landing page.

export const SHOP_PEAK = '5b0c1f7e-8a51-4d3e-9a55-1d2f3a4b5c6d';
export const PRODUCT = `${SHOP_PEAK}:7001`;
export const LANDING = 'https://nordicglow.com/products/serum';

export async function savingScenario(db: TestDatabase): Promise<{ shopGlow: string }> {
  await adsScenario(db);
  const { prisma } = db;
  const glow = await prisma.shop.findFirstOrThrow({ where: { domain: 'nordicglow.com' }, select: { id: true } });
  await prisma.shop.create({ data: { id: SHOP_PEAK, domain: 'peakfitness.store', name: 'Peak Fitness Store', monthlyVisits: 9000, categories: ['Sports'] } });
  const sent = new Date('2026-11-01T10:00:00.000Z');
  await prisma.email.createMany({
    data: [
      { id: 501, shopId: glow.id, fromAddress: 'news@nordicglow.com', sentAt: sent, campaignType: 'promotional', subject: 'Serum sale', body: 'Half price', bodyLength: 10 },
      { id: 502, shopId: SHOP_PEAK, fromAddress: 'hi@peakfitness.store', sentAt: sent, campaignType: 'newsletter', subject: 'Training plan', body: 'New plan', bodyLength: 8 },
    ],
  });
  await prisma.product.create({
    data: {
      id: PRODUCT, shopId: SHOP_PEAK, shopifyId: '7001', title: 'Kettlebell', handle: 'kettlebell', url: 'https://peakfitness.store/products/kettlebell',
      createdAt: sent, updatedAt: sent, currency: 'USD', price: '49.00', priceUsd: '49.00',
    },
  });
  await prisma.landingPage.create({ data: { url: LANDING, normalizedUrl: 'nordicglow.com/products/serum', domain: 'nordicglow.com', shopId: glow.id } });
  return { shopGlow: glow.id };
}
