// A small seeded PRNG (sfc32, seeded through splitmix32) and the samplers the synthetic market needs.
// Everything generated from one seed is reproducible; nothing here reads the clock or Math.random.

function splitmix32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x9e3779b9) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
}

/** FNV-1a: turns a label into a 32-bit number, to derive independent streams from one seed. */
function hashLabel(label: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < label.length; i++) hash = Math.imul(hash ^ label.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

const HEX = '0123456789abcdef';

/** `[item, weight]` pairs with their running sums, for `Rng.weightedFrom`. */
export type CumulativeWeights<T> = { items: T[]; sums: Float64Array; total: number };

export function cumulativeWeights<T>(entries: readonly (readonly [T, number])[]): CumulativeWeights<T> {
  if (entries.length === 0) throw new Error('cumulativeWeights of an empty list');
  const sums = new Float64Array(entries.length);
  let total = 0;
  entries.forEach(([, weight], i) => (sums[i] = total += weight));
  return { items: entries.map(([item]) => item), sums, total };
}

export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;
  readonly seed: number;

  constructor(seed: number) {
    this.seed = seed >>> 0;
    const init = splitmix32(this.seed);
    this.a = init();
    this.b = init();
    this.c = init();
    this.d = init();
    for (let i = 0; i < 12; i++) this.uint32();
  }

  /** An independent stream for one concern, so adding draws in one place does not shift the others. */
  fork(label: string): Rng {
    return new Rng((this.seed ^ hashLabel(label)) + Math.imul(hashLabel(label), 31));
  }

  uint32(): number {
    const t = (((this.a + this.b) >>> 0) + this.d) >>> 0;
    this.d = (this.d + 1) >>> 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) >>> 0;
    this.c = ((this.c << 21) | (this.c >>> 11)) >>> 0;
    this.c = (this.c + t) >>> 0;
    return t;
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.uint32() / 4294967296;
  }

  /** Uniform float in [min, max). */
  float(min: number, max: number): number {
    return min + (max - min) * this.next();
  }

  /** Uniform integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[Math.floor(this.next() * items.length)];
  }

  /** Picks from `[item, weight]` pairs; weights need not sum to 1. */
  weighted<T>(entries: readonly (readonly [T, number])[]): T {
    let total = 0;
    for (const [, weight] of entries) total += weight;
    let r = this.next() * total;
    for (const [item, weight] of entries) {
      r -= weight;
      if (r < 0) return item;
    }
    return entries[entries.length - 1][0];
  }

  /** Like `weighted`, for a long list prepared once with `cumulativeWeights`: a binary search instead of a scan. */
  weightedFrom<T>(table: CumulativeWeights<T>): T {
    const r = this.next() * table.total;
    const { sums } = table;
    let low = 0;
    let high = sums.length - 1;
    // The first entry whose running sum exceeds r (the scan in `weighted` stops at the same entry).
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (sums[mid] > r) high = mid;
      else low = mid + 1;
    }
    return table.items[low];
  }

  /** `count` distinct items drawn by weight, in draw order. */
  weightedSample<T>(entries: readonly (readonly [T, number])[], count: number): T[] {
    const pool = entries.slice();
    const out: T[] = [];
    while (out.length < count && pool.length > 0) {
      let total = 0;
      for (const [, weight] of pool) total += weight;
      let r = this.next() * total;
      let index = pool.length - 1;
      for (let i = 0; i < pool.length; i++) {
        r -= pool[i][1];
        if (r < 0) {
          index = i;
          break;
        }
      }
      out.push(pool[index][0]);
      pool.splice(index, 1);
    }
    return out;
  }

  /** Fisher–Yates, in place; returns the same array. */
  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [items[i], items[j]] = [items[j], items[i]];
    }
    return items;
  }

  /** Standard normal (Box–Muller). */
  normal(): number {
    const u = 1 - this.next();
    const v = this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  /** Log-normal with the given median; `sigma` is the standard deviation of its logarithm. */
  logNormal(median: number, sigma: number): number {
    return median * Math.exp(sigma * this.normal());
  }

  /** Pareto with scale `min` and shape `alpha` (smaller alpha = heavier tail). */
  pareto(min: number, alpha: number): number {
    return min / Math.pow(1 - this.next(), 1 / alpha);
  }

  /** A numeric string of exactly `length` digits, without a leading zero. */
  digits(length: number): string {
    let out = String(this.int(1, 9));
    for (let i = 1; i < length; i++) out += String(this.int(0, 9));
    return out;
  }

  hex(length: number): string {
    let out = '';
    for (let i = 0; i < length; i++) out += HEX[this.uint32() & 15];
    return out;
  }

  /** A random (version 4, RFC 4122 variant) UUID drawn from this stream. */
  uuid(): string {
    const h = this.hex(32).split('');
    h[12] = '4';
    h[16] = HEX[8 + (this.uint32() & 3)];
    const s = h.join('');
    return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
  }
}
