import type { TestDatabase } from '../support/database.js';
import { brandtrackerScenario } from '../brandtrackers/scenario.js';

// The brandtrackers scenario (pages A "Nordic Glow" with nordicglow.com, B "Peak Fitness Store" with a fresh ad
// and a rank mover, C "Gamma Goods" with gammagoods.com; landing pages) plus two shops in Nordic Glow's category,
// so that it has similar shops.

export const SIMILAR_DOMAINS = ['glowlab.example', 'serumhouse.example'];

export async function taskScenario(db: TestDatabase): Promise<void> {
  await brandtrackerScenario(db);
  await db.prisma.shop.update({ where: { domain: 'nordicglow.com' }, data: { categoryIds: [7001] } });
  await db.prisma.shop.createMany({
    data: [
      { domain: SIMILAR_DOMAINS[0], name: 'Glow Lab', monthlyVisits: 40000, categories: ['Health & Beauty'], categoryIds: [7001] },
      { domain: SIMILAR_DOMAINS[1], name: 'Serum House', monthlyVisits: 900, categories: ['Health & Beauty', 'Home'], categoryIds: [7001, 7002] },
    ],
  });
}
