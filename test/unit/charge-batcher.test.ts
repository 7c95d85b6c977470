import { describe, expect, it } from 'vitest';
import { ChargeBatcher } from '../../src/metering/charges.js';
import type { Due, Sql } from '../../src/metering/ledger.js';

/** A ledger connection whose statements finish when the test says so; each answers every charge as taken. */
function fakeLedger() {
  const sent: { workspaces: string[]; finish(): void; fail(error: Error): void }[] = [];
  const db = {
    query(config: { values: unknown[] }) {
      const workspaces = config.values[0] as string[];
      return new Promise((resolve, reject) => {
        sent.push({
          workspaces,
          finish: () => resolve({ rows: workspaces.map((_, i) => ({ n: i + 1, recurring: 1, topup: 0, remaining: 100 - i })) }),
          fail: reject,
        });
      });
    },
  } as unknown as Sql;
  return { db, sent };
}

const due = (workspaceId: string): Due => ({ workspaceId, cost: 1, charge: { credentialId: 'c', requestId: `r-${workspaceId}`, field: 'Query.ads', rows: 1 } });
const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('ChargeBatcher', () => {
  it('sends a lone charge at once, and the charges that come in while it is on its way together in one statement', async () => {
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
    const alone = batcher.charge(due('e')); // nothing on its way again: straight out
    await tick();
    expect(sent.map((s) => s.workspaces)).toEqual([['a'], ['b', 'c', 'd'], ['e']]);
    sent[2]!.finish();
    await alone;
  });

  it('retries each charge of a failed statement alone, so that one failure is not every call\'s', async () => {
    const { db, sent } = fakeLedger();
    const batcher = new ChargeBatcher(db);
    const first = batcher.charge(due('a'));
    await tick();
    const batch = [batcher.charge(due('b')), batcher.charge(due('c'))];
    sent[0]!.fail(new Error('connection lost'));
    await expect(first).rejects.toThrow('connection lost'); // alone already: its error is the call's
    await tick();
    expect(sent.map((s) => s.workspaces)).toEqual([['a'], ['b', 'c']]);
    sent[1]!.fail(new Error('deadlock'));
    await tick();
    expect(sent.map((s) => s.workspaces)).toEqual([['a'], ['b', 'c'], ['b'], ['c']]);
    sent[2]!.finish();
    sent[3]!.fail(new Error('c failed'));
    const [b, c] = await Promise.allSettled(batch);
    expect(b).toMatchObject({ status: 'fulfilled', value: { cost: 1 } });
    expect(c).toMatchObject({ status: 'rejected', reason: new Error('c failed') });
  });
});
