import { describe, expect, it } from 'vitest';
import { untilNextTick } from '../../src/data/demo-ticks.js';

describe("the demo market's daily tick", () => {
  it('falls due at the next 00:05 UTC', () => {
    const at = (iso: string) => untilNextTick(new Date(iso)) / 60_000;
    expect(at('2026-11-29T00:00:00Z')).toBe(5);
    expect(at('2026-11-29T00:05:00Z')).toBe(24 * 60);
    expect(at('2026-11-29T12:00:00Z')).toBe(12 * 60 + 5);
    expect(at('2026-12-31T23:59:00Z')).toBe(6);
  });
});
