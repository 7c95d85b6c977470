import { describe, expect, it } from 'vitest';
import { KnownBalances } from '../../src/metering/balances.js';

describe('KnownBalances', () => {
  it('lets a call skip its hold only when the workspace could pay it a hundred times, on a recent figure', () => {
    let now = 0;
    const balances = new KnownBalances(() => now);
    expect(balances.covers('w', 1)).toBe(false); // nothing known
    balances.learn('w', 2_500);
    expect(balances.covers('w', 25)).toBe(true);
    expect(balances.covers('w', 26)).toBe(false);
    expect(balances.covers('w', 0)).toBe(true); // a call that can cost nothing still needs its headroom of one
    now += KnownBalances.MAX_AGE_MS + 1;
    expect(balances.covers('w', 1)).toBe(false); // too old to trust
    balances.learn('w', 100);
    expect(balances.covers('w', 1)).toBe(true);
    balances.forget('w');
    expect(balances.covers('w', 1)).toBe(false);
  });
});
