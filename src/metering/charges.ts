import pg from 'pg';
import { chargeAll, type Due, type Settlement, type Sql } from './ledger.js';

type Waiting = Due & { resolve(settled: Settlement | null): void; reject(error: unknown): void };

/**
 * The charges of calls that skipped their hold (see meter.ts), sent to the ledger together: a charge goes out when
 * the event loop has handled the I/O that was ready with it (setImmediate: no timer, so a lone call waits for
 * nothing), together with the charges of the calls that finished in that same turn; those that come in while a
 * statement is on its way wait for it and then go out together, in one statement (ledger.chargeAll). Under load, a
 * workspace's concurrent calls then share one row lock and one commit instead of queueing on the row one statement
 * each. Every call's charge is still committed before its answer is given. A batch is one
 * statement, one transaction: when the database refuses it with an error, nothing of it was kept, and each of its
 * charges is retried alone, one after another, so that one call's failure is not another's. When the session fails
 * instead (a lost connection, the server ending it), the batch may have committed before the answer was lost: its
 * calls fail, and are never charged twice.
 */
export class ChargeBatcher {
  static readonly MAX_BATCH = 500;
  private waiting: Waiting[] = [];
  private sending = false;
  private scheduled = false;

  constructor(private readonly db: Sql) {}

  charge(due: Due): Promise<Settlement | null> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ resolve, reject, ...due });
      if (this.sending || this.scheduled) return;
      this.scheduled = true;
      setImmediate(() => {
        this.scheduled = false;
        void this.send();
      });
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
          if (batch.length === 1 || !rolledBack(error)) {
            for (const due of batch) due.reject(error);
            continue;
          }
          for (const due of batch) await chargeAll(this.db, [due]).then(([settled]) => due.resolve(settled!), due.reject);
        }
      }
    } finally {
      this.sending = false;
    }
  }
}

/**
 * An error the server raised for the statement: its transaction was rolled back and the session lives on. Not a
 * lost connection (no SQLSTATE), nor SQLSTATE class 08 (connection exception) or 57P (the server ending the
 * session): then the statement may have committed before its answer was lost.
 */
function rolledBack(error: unknown): boolean {
  return error instanceof pg.DatabaseError && typeof error.code === 'string' && !/^(08|57P)/.test(error.code);
}
