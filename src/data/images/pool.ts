import { availableParallelism } from 'node:os';

// How many decodes run at once, and how much memory they may hold together. sharp runs each on a thread of libuv's
// pool (UV_THREADPOOL_SIZE, 4 by default), which DNS lookups and file reads share: decodes take at most one thread
// per core and always leave one free. A decode's memory is estimated from its header (decode.ts): a progressive JPEG
// or an interlaced PNG holds the whole image (coefficients or rows) until its last pass, anything else streams
// through in a few rows. A request that would wait behind too many others is refused (429, retry later) rather
// than queued without end.

export class DecoderBusy extends Error {}

export type PoolLimits = { slots: number; memoryBytes: number; waiting: number };

const threadpool = Number(process.env.UV_THREADPOOL_SIZE) || 4;
const slots = Math.max(1, Math.min(availableParallelism(), threadpool - 1));
export const DECODE_LIMITS: PoolLimits = { slots, memoryBytes: 160 * 1024 * 1024, waiting: 4 * slots };

export class DecodePool {
  private running = 0;
  private memory = 0;
  private readonly queue: { cost: number; start: () => void }[] = [];

  constructor(private readonly limits: PoolLimits) {}

  /** Runs `work` once a slot and `cost` bytes of the budget are free (an image costing more than the budget runs alone). */
  async run<T>(cost: number, work: () => Promise<T>): Promise<T> {
    const reserved = Math.min(cost, this.limits.memoryBytes);
    if (this.queue.length || !this.fits(reserved)) {
      if (this.queue.length >= this.limits.waiting) throw new DecoderBusy('too many images are waiting to be decoded');
      await new Promise<void>((start) => this.queue.push({ cost: reserved, start }));
    } else this.take(reserved);
    try {
      return await work();
    } finally {
      this.running--;
      this.memory -= reserved;
      this.next();
    }
  }

  private fits(cost: number): boolean {
    return this.running < this.limits.slots && this.memory + cost <= this.limits.memoryBytes;
  }

  private take(cost: number): void {
    this.running++;
    this.memory += cost;
  }

  /** Starts waiting decodes in arrival order while the first of them fits. */
  private next(): void {
    while (this.queue.length && this.fits(this.queue[0].cost)) {
      const { cost, start } = this.queue.shift()!;
      this.take(cost);
      start();
    }
  }
}
