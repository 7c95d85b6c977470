import type { PrismaClient } from '../db/client.js';
import { KnownBalances } from './balances.js';
import { creditBalance } from './balance.js';

export type CreditHeaders = (workspaceId: string, headers: Map<string, string>) => Promise<void>;

/**
 * `X-Credits-Remaining` (and `X-Usage-Cost: 0`) for every authenticated answer, free routes included, so agents
 * can stop before the balance runs out. The figure is what this process last learnt from its own ledger
 * statements (every charge returns the pools' remainder); only when it knows nothing of the workspace from the last
 * KnownBalances.MAX_AGE_MS does it read the pools, once for all the calls waiting on that figure. A metered call's
 * own charge then writes its figures over these (src/metering/meter.ts). Nothing is written when metering is off.
 */
export function creditHeaders(prisma: PrismaClient, balances: KnownBalances | undefined, metering: boolean): CreditHeaders {
  const known = balances ?? new KnownBalances();
  const reading = new Map<string, Promise<number>>();
  const read = (workspaceId: string) => {
    let pending = reading.get(workspaceId);
    if (!pending) {
      pending = creditBalance(prisma, workspaceId).then(({ totalRemaining: remaining }) => {
        known.learn(workspaceId, remaining);
        return remaining;
      }).finally(() => reading.delete(workspaceId));
      reading.set(workspaceId, pending);
    }
    return pending;
  };
  return async (workspaceId, headers) => {
    if (!metering) return;
    let remaining = known.known(workspaceId);
    if (remaining === undefined) {
      try {
        remaining = await read(workspaceId);
      } catch {
        return; // the call itself reports a database that does not answer
      }
    }
    headers.set('X-Usage-Cost', '0');
    headers.set('X-Credits-Remaining', String(remaining));
  };
}
