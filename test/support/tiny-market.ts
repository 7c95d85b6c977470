import { afterAll, beforeAll } from 'vitest';
import { seedMarket } from '../../src/data/market.js';
import { createTestDatabase, type TestDatabase } from './database.js';

/**
 * A fresh database holding the tiny synthetic market (seed 7, as of 2025-06-01) for the tests of one file: the JSON
 * loaders' tests compare their statements with Prisma on every row of it. Read `db` from a test or a later beforeAll.
 */
export function useTinyMarket(): { readonly db: TestDatabase } {
  const market = {} as { db: TestDatabase };
  beforeAll(async () => {
    market.db = await createTestDatabase();
    await seedMarket(market.db.pool, { scale: 'tiny', seed: 7, asOf: new Date('2025-06-01T00:00:00Z') });
  }, 120_000);
  afterAll(async () => {
    await market.db?.dispose();
  });
  return market;
}

/** Rows in id order (text ids). */
export const byId = <T extends { id: string }>(rows: T[]) => [...rows].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
