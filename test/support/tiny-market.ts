import { afterAll, beforeAll } from 'vitest';
import { createTestDatabase, type TestDatabase } from './database.js';
import { PREBUILT_MARKETS } from './templates.js';

/** The tiny synthetic market of seed 7 as of 2025-06-01, which several files read (a template built once per run). */
export const TINY_MARKET = PREBUILT_MARKETS[0]!;

/**
 * The tiny market of seed 42 as of 2025-06-01, which the synthetic market's own tests read (test/data/market-*.test.ts):
 * built by the first file that asks, copied by the others.
 */
export const TINY_MARKET_42 = { scale: 'tiny', seed: 42, asOf: new Date('2025-06-01T00:00:00Z') } as const;

/**
 * A fresh database holding the tiny synthetic market (seed 7, as of 2025-06-01) for the tests of one file, and the ids
 * of one model's rows in id order: the JSON loaders' tests compare their statements with Prisma on every row of it.
 * Read `db` and `ids` from a test or a later beforeAll.
 */
export function useTinyMarket(model: 'ad' | 'product'): { readonly db: TestDatabase; readonly ids: string[] } {
  const market = {} as { db: TestDatabase; ids: string[] };
  beforeAll(async () => {
    market.db = await createTestDatabase({ market: TINY_MARKET });
    const query = { select: { id: true }, orderBy: { id: 'asc' } } as const;
    const rows = model === 'ad' ? await market.db.prisma.ad.findMany(query) : await market.db.prisma.product.findMany(query);
    market.ids = rows.map((row) => row.id);
  });
  afterAll(async () => {
    await market.db?.dispose();
  });
  return market;
}

/** Rows in id order (text ids). */
export const byId = <T extends { id: string }>(rows: T[]) => [...rows].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
