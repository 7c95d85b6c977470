import { describe, expect, it } from 'vitest';
import { marketChecksums, SCALES } from '../../src/data/market.js';
import { makeAdvertisers, pageWeightCap } from '../../src/data/market/advertisers.js';
import { seedProgressPrinter } from '../../src/data/market/progress.js';
import { Rng } from '../../src/data/random.js';

// The synthetic market's generation and its progress output, without a database (test/data/market.test.ts loads it).

describe('planMarket', () => {
  it('generates the first slices of the medium market identically without loading it', () => {
    // Planning medium draws its 60,000 pages and 100,000 shops with their profiles and catalogues up front.
    const medium = { scale: 'medium' as const, seed: 42, asOf: new Date('2025-06-01T00:00:00Z'), slices: 2 };
    const first = marketChecksums(medium);
    expect(first.shops.rows).toBe(100_000);
    expect(first.ads.rows).toBeGreaterThanOrEqual(5000);
    expect(first.ads.rows).toBeLessThan(6000);
    expect(marketChecksums(medium)).toEqual(first);
    // Two plans of medium: ~40 s of one core on a quiet machine, past 120 s on one shared with a seed and other suites.
  }, 300_000);

  it('gives the biggest pages a heavier tail as the market grows (a brand with thousands of ads at medium), small unchanged', () => {
    const biggest = (pages: number, ads: number) => Math.max(...makeAdvertisers(new Rng(42).fork('advertisers'), pages, ads).map((page) => page.adCount));
    expect(pageWeightCap(600)).toBe(400);
    expect(pageWeightCap(SCALES.small.advertisers)).toBe(400);
    expect(biggest(SCALES.small.advertisers, SCALES.small.ads)).toBeLessThan(400);
    expect(biggest(SCALES.medium.advertisers, SCALES.medium.ads)).toBeGreaterThanOrEqual(2000);
  });
});

describe('seed progress output', () => {
  const capture = (isTTY: boolean) => {
    let clock = 0;
    const out: string[] = [];
    const printer = seedProgressPrinter({ isTTY, columns: 200, write: (text: string) => out.push(text) }, () => clock);
    return { out, printer, tick: (ms: number) => (clock += ms) };
  };

  it('prints plain lines off a terminal: on completion and at most every few seconds', () => {
    const { out, printer, tick } = capture(false);
    tick(1000);
    printer.onProgress({ table: 'ads', done: 5000, total: 300_000 });
    tick(1000);
    printer.onProgress({ table: 'ads', done: 10_000, total: 300_000 });
    expect(out).toEqual([]);
    tick(5000);
    printer.onProgress({ table: 'ad_reach_days', done: 10_000, total: 5_800_000, estimated: true });
    printer.onProgress({ table: 'ads', done: 15_000, total: 300_000 });
    expect(out).toEqual([expect.stringMatching(/^ {2}ads +\[#?-+\] +5% {2}15,000\/300,000 {2}2,143 rows\/s\n$/)]);
    printer.onProgress({ table: 'ads', done: 300_000, total: 300_000 });
    printer.onProgress({ table: 'ad_reach_days', done: 5_811_975, total: 5_811_975 });
    printer.finish();
    expect(out.slice(1)).toEqual([
      expect.stringMatching(/^ {2}ads +\[#{20}\] 100% {2}300,000\/300,000 /),
      expect.stringMatching(/^ {2}ad_reach_days +\[#{20}\] 100% {2}5,811,975\/5,811,975 /),
    ]);
  });

  it('redraws one line per table in place on a terminal, marking estimated totals', () => {
    const { out, printer, tick } = capture(true);
    printer.onProgress({ table: 'ads', done: 5000, total: 10_000 });
    tick(50);
    printer.onProgress({ table: 'ad_reach_days', done: 10_000, total: 200_000, estimated: true });
    tick(100);
    printer.onProgress({ table: 'ads', done: 10_000, total: 10_000 });
    printer.finish();
    expect(out[0]).toMatch(/^\x1b\[2K {2}ads +\[#{10}-{10}\] {2}50% {2}5,000\/10,000 /);
    const last = out.at(-1)!;
    expect(last.startsWith('\x1b[2F')).toBe(true);
    expect(last.split('\n').filter(Boolean)).toEqual([
      expect.stringMatching(/ads +\[#{20}\] 100% {2}10,000\/10,000/),
      expect.stringMatching(/ad_reach_days +\[#-{19}\] {3}5% {2}10,000\/~200,000/),
    ]);
  });
});
