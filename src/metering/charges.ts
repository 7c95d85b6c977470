import { chargeAll, type Due, type Settlement, type Sql } from './ledger.js';

type Waiting = Due & { resolve(settled: Settlement | null): void; reject(error: unknown): void };

/**
 * The charges of calls that skipped their hold (see meter.ts), sent to the ledger together: a charge goes out at
 * once when no other is on its way; those that come in meanwhile wait for it and then go out together, in one
 * statement (ledger.chargeAll). Under load, a workspace's concurrent calls then share one row lock and one commit
 * instead of queueing on the row one statement each. Every call's charge is still committed before its answer is
 * given, and refused calls are refused exactly as alone: a batch is one transaction, and should it fail (a
 * database error), each of its charges is retried alone, so one call's failure is not another's.
 */
export class ChargeBatcher {
  static readonly MAX_BATCH = 500;
  private waiting: Waiting[] = [];
  private sending = false;

  constructor(private readonly db: Sql) {}

  charge(due: Due): Promise<Settlement | null> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ ...due, resolve, reject });
      if (!this.sending) void this.send();
    });
  }

  private async send(): Promise<void> {
    this.sending = true;
    try {
      while (this.waiting.length > 0) {
        const batch = this.waiting.splice(0, ChargeBatcher.MAX_BATCH);
        try {
          const settled = await chargeAll(this.db, batch);
          batch.forEach((due, index) => due.resolve(settled[index]!));
        } catch (error) {
          if (batch.length === 1) batch[0]!.reject(error);
          else await Promise.all(batch.map((due) => chargeAll(this.db, [due]).then(([settled]) => due.resolve(settled!), due.reject)));
        }
      }
    } finally {
      this.sending = false;
    }
  }
}
