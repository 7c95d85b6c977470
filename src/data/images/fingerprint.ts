import { createHash } from 'node:crypto';

// Visual fingerprints of images, computed in-process from the pixels (no model, nothing downloaded):
//
// - a 64-bit DCT perceptual hash (pHash, as described by Zauner, "Implementation and Benchmarking of Perceptual
//   Image Hash Functions", 2010, and implemented by the ImageHash library): the image reduced to 32×32 luminance,
//   its 2-D DCT-II, the 8×8 lowest frequencies, one bit per coefficient above their median. Resizing, re-encoding,
//   mild colour or contrast changes and small crops move few bits; unrelated images differ in about 32.
// - a 16-dimensional feature vector for nearest-neighbour search in PostgreSQL's `cube` (GiST, `<->`): 13 of the
//   same DCT's lowest AC frequencies (zigzag order) normalised by the block's energy, and the mean colour.
//
// What it finds: copies of an image (resized, re-encoded, slightly cropped or recoloured). What it does not: the
// same object photographed differently, rotated or mirrored, or heavily cropped.

/** Pixels, 8-bit RGBA, row-major. */
export type Rgba = { width: number; height: number; data: Uint8Array };
export type Fingerprint = { phash: bigint; features: number[] };

const N = 32;
const COS = Array.from({ length: N }, (_, k) => Array.from({ length: N }, (_, n) => Math.cos((Math.PI * (2 * n + 1) * k) / (2 * N))));
const ZIGZAG = [[0, 1], [1, 0], [2, 0], [1, 1], [0, 2], [0, 3], [1, 2], [2, 1], [3, 0], [4, 0], [3, 1], [2, 2], [1, 3]] as const;
const COLOUR_WEIGHT = 0.6;

/** Box-filter reduction to N×N: each cell averages every source pixel it covers (with fractional edges). */
function reduce(image: Rgba): { luma: Float64Array; rgb: [number, number, number] } {
  const { width, height, data } = image;
  const sums = new Float64Array(N * N * 4);
  const sx = width / N;
  const sy = height / N;
  for (let y = 0; y < height; y++) {
    const cy = Math.min(N - 1, Math.floor(y / sy));
    for (let x = 0; x < width; x++) {
      const cx = Math.min(N - 1, Math.floor(x / sx));
      const i = (y * width + x) * 4;
      const a = data[i + 3] / 255;
      // Transparent pixels read as white, as a product image on a page would show.
      const r = data[i] * a + 255 * (1 - a);
      const g = data[i + 1] * a + 255 * (1 - a);
      const b = data[i + 2] * a + 255 * (1 - a);
      const o = (cy * N + cx) * 4;
      sums[o] += r;
      sums[o + 1] += g;
      sums[o + 2] += b;
      sums[o + 3] += 1;
    }
  }
  const luma = new Float64Array(N * N);
  const rgb: [number, number, number] = [0, 0, 0];
  for (let c = 0; c < N * N; c++) {
    const n = Math.max(1, sums[c * 4 + 3]);
    const r = sums[c * 4] / n;
    const g = sums[c * 4 + 1] / n;
    const b = sums[c * 4 + 2] / n;
    luma[c] = 0.299 * r + 0.587 * g + 0.114 * b;
    rgb[0] += r / (N * N);
    rgb[1] += g / (N * N);
    rgb[2] += b / (N * N);
  }
  return { luma, rgb };
}

/** The 8×8 lowest frequencies of the 2-D DCT-II of an N×N block (separable: rows, then columns). */
function lowFrequencies(luma: Float64Array): Float64Array {
  const rows = new Float64Array(N * 8);
  for (let y = 0; y < N; y++) {
    for (let u = 0; u < 8; u++) {
      let s = 0;
      for (let x = 0; x < N; x++) s += luma[y * N + x] * COS[u][x];
      rows[y * 8 + u] = s;
    }
  }
  const out = new Float64Array(64);
  for (let v = 0; v < 8; v++) {
    for (let u = 0; u < 8; u++) {
      let s = 0;
      for (let y = 0; y < N; y++) s += rows[y * 8 + u] * COS[v][y];
      out[v * 8 + u] = s;
    }
  }
  return out;
}

export function fingerprint(image: Rgba): Fingerprint {
  if (image.width < 1 || image.height < 1) throw new Error('an image needs at least one pixel');
  const { luma, rgb } = reduce(image);
  const dct = lowFrequencies(luma);
  const sorted = Array.from(dct.subarray(1)).sort((a, b) => a - b);
  const median = (sorted[31] + sorted[32]) / 2;
  let phash = 0n;
  for (let i = 0; i < 64; i++) phash = (phash << 1n) | (dct[i] > median ? 1n : 0n);
  let energy = 0;
  for (let i = 1; i < 64; i++) energy += dct[i] * dct[i];
  const norm = Math.sqrt(energy) || 1;
  const features = [
    ...ZIGZAG.map(([v, u]) => dct[v * 8 + u] / norm),
    ...rgb.map((channel) => (COLOUR_WEIGHT * channel) / 255),
  ].map((value) => Math.round(value * 10_000) / 10_000);
  return { phash: BigInt.asIntN(64, phash), features };
}

/** Bits that differ between two hashes (0 = the same image, about 32 = unrelated). */
export function hammingDistance(a: bigint, b: bigint): number {
  let x = BigInt.asUintN(64, a ^ b);
  let count = 0;
  while (x) {
    x &= x - 1n;
    count++;
  }
  return count;
}

/** `(f1, f2, …)`: a cube literal, for bulk loads. */
export const cubeLiteral = (features: readonly number[]) => `(${features.join(', ')})`;

/** The fingerprint's own id (64 bits of a SHA-256 of it): the same picture gets the same id wherever it is seen. */
export function fingerprintId({ phash, features }: Fingerprint): bigint {
  return createHash('sha256').update(`${phash}:${features.join(',')}`).digest().readBigInt64BE(0);
}
