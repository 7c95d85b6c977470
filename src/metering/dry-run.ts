import type { PrismaClient } from '../db/client.js';
import { creditBalance } from './balance.js';
import { priceOf, reserveFor } from './prices.js';

export type CostEstimate = {
  dryRun: true;
  /** Credits the call would hold before running (its maximum); it is charged only for rows returned. */
  reserve: number;
  remaining: number;
  affordable: boolean;
  fields: { field: string; reserve: number }[];
};

/** What a call would reserve, without running it or charging anything. */
export async function estimateCost(prisma: PrismaClient, workspaceId: string, calls: { field: string; args: Record<string, unknown> }[]): Promise<CostEstimate> {
  const fields = calls.map(({ field, args }) => {
    const price = priceOf(field);
    return { field, reserve: price ? reserveFor(price, args) : 0 };
  });
  const reserve = fields.reduce((total, f) => total + f.reserve, 0);
  const remaining = (await creditBalance(prisma, workspaceId)).totalRemaining;
  return { dryRun: true, reserve, remaining, affordable: remaining >= reserve, fields };
}
