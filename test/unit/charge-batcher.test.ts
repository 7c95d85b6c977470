import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { ChargeBatcher } from '../../src/metering/charges.js';
import type { Due, Sql } from '../../src/metering/ledger.js';

/** A ledger connection whose statements finish when the test says so: every charge taken, or those given refused. */
function fakeLedger() {
  const sent: { workspaces: string[]; finish(refused?: number[]): void; fail(error: Error): void }[] = [];
  const db = {
    query(config: { values: unknown[] }) {
      const workspaces = config.values[0] as string[];
      return new Promise((resolve, reject) => {
        sent.push({
          workspaces,
          finish: (refused = []) =>
            resolve({ rows: workspaces.map((_, i) => ({ n: i + 1, recurring: 1, topup: 0, remaining: 100 - i })).filter((row) => !refused.includes(row.n - 1)) }),
          fail: reject,
        });
      });
    },
  } as unknown as Sql;
  return { db, sent };
}

/** An error as the server raises it, with its SQLSTATE. */
function statementError(message: string, code: string) {
  const error = new pg.DatabaseError(message, message.length, 'error');
  error.code = code;
  return error;
}

const due = (workspaceId: string): Due => ({ workspaceId, cost: 1, charge: { credentialId: 'c', requestId: `r-${workspaceId}`, field: 'Query.ads', rows: 1 } });
const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('ChargeBatcher', () => {
  it('sends a lone charge once the event loop turns, and the charges that come in while it is on its way together in one statement', async () => {
    const { db, sent } = fakeLedger();
    const batcher = new ChargeBatcher(db);
    const first = batcher.charge(due('a'));
    await tick();
    expect(sent.map((s) => s.workspaces)).toEqual([['a']]);
    const later = [batcher.charge(due('b')), batcher.charge(due('c')), batcher.charge(due('d'))];
    await tick();
    expect(sent).toHaveLength(1); // they wait for the statement on its way
    sent[0]!.finish();
    expect(await first).toMatchObject({ cost: 1, remaining: 100 });
    await tick();
    expect(sent.map((s) => s.workspaces)).toEqual([['a'], ['b', 'c', 'd']]);
    sent[1]!.finish();
    expect((await Promise.all(later)).map((s) => s?.remaining)).toEqual([100, 99, 98]); // each its own row of the answer
    const alone = batcher.charge(due('e')); // nothing on its way again: out on the next turn
    await tick();
    expect(sent.map((s) => s.workspaces)).toEqual([['a'], ['b', 'c', 'd'], ['e']]);
    sent[2]!.finish();
    await alone;
  });

  it('sends the charges of calls that finish in the same turn of the event loop together', async () => {
    const { db, sent } = fakeLedger();
    const batcher = new ChargeBatcher(db);
    const same = [batcher.charge(due('a')), batcher.charge(due('b'))];
    expect(sent).toHaveLength(0); // not before the I/O that was ready with them is handled
    await tick();
    expect(sent.map((s) => s.workspaces)).toEqual([['a', 'b']]);
    sent[0]!.finish();
    expect((await Promise.all(same)).map((s) => s?.remaining)).toEqual([100, 99]);
  });

  it('answers null for the charges the ledger refused, and the others with their rows', async () => {
    const { db, sent } = fakeLedger();
    const batcher = new ChargeBatcher(db);
    const batch = [batcher.charge(due('a')), batcher.charge(due('b')), batcher.charge(due('c'))];
    await tick();
    sent[0]!.finish([1]);
    expect((await Promise.all(batch)).map((s) => s?.remaining ?? null)).toEqual([100, null, 98]);
  });

  it('retries the charges of a statement the database refused one by one, so that one failure is not every call\'s', async () => {
    const { db, sent } = fakeLedger();
    const batcher = new ChargeBatcher(db);
    const first = batcher.charge(due('a'));
    await tick();
    const batch = [batcher.charge(due('b')), batcher.charge(due('c'))];
    sent[0]!.fail(statementError('deadlock detected', '40P01'));
    await expect(first).rejects.toThrow('deadlock detected'); // alone already: its error is the call's
    await tick();
    expect(sent.map((s) => s.workspaces)).toEqual([['a'], ['b', 'c']]);
    sent[1]!.fail(statementError('insert or update violates foreign key constraint', '23503'));
    await tick();
    expect(sent.map((s) => s.workspaces)).toEqual([['a'], ['b', 'c'], ['b']]); // one after another
    sent[2]!.finish();
    await tick();
    expect(sent.map((s) => s.workspaces)).toEqual([['a'], ['b', 'c'], ['b'], ['c']]);
    sent[3]!.fail(statementError('c failed', '22P02'));
    const [b, c] = await Promise.allSettled(batch);
    expect(b).toMatchObject({ status: 'fulfilled', value: { cost: 1 } });
    expect(c).toMatchObject({ status: 'rejected', reason: { message: 'c failed' } });
  });

  it('does not retry when the session failed: the statement may have committed before its answer was lost', async () => {
    for (const failure of [
      new Error('Connection terminated unexpectedly'),
      statementError('terminating connection due to administrator command', '57P01'),
      statementError('connection failure', '08006'),
    ]) {
      const { db, sent } = fakeLedger();
      const batcher = new ChargeBatcher(db);
      const first = batcher.charge(due('a'));
      await tick();
      const batch = [batcher.charge(due('b')), batcher.charge(due('c'))];
      sent[0]!.finish();
      await first;
      await tick();
      sent[1]!.fail(failure);
      const results = await Promise.allSettled(batch);
      expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
      await tick();
      expect(sent).toHaveLength(2); // nothing sent again
    }
  });
});
