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

/** The side of the luminance block the hash is computed on: an image needs no more pixels than this on a side. */
export const FINGERPRINT_GRID = 32;
const N = FINGERPRINT_GRID;
const COS = Array.from({ length: N }, (_, k) => Array.from({ length: N }, (_, n) => Math.cos((Math.PI * (2 * n + 1) * k) / (2 * N))));
const ZIGZAG = [[0, 1], [1, 0], [2, 0], [1, 1], [0, 2], [0, 3], [1, 2], [2, 1], [3, 0], [4, 0], [3, 1], [2, 2], [1, 3]] as const;
const COLOUR_WEIGHT = 0.6;

/** An axis of `size` pixels cut into N cells: the cells each pixel overlaps (from first[p]), and by how much of a cell. */
function axis(size: number): { first: Int32Array; cell: Int32Array; share: Float64Array } {
  const first = new Int32Array(size + 1);
  const [cell, share]: number[][] = [[], []];
  for (let p = 0; p < size; p++) {
    first[p] = cell.length;
    const [from, to] = [(p * N) / size, ((p + 1) * N) / size];
    for (let c = Math.floor(from); c < to && c < N; c++) {
      cell.push(c);
      share.push(Math.min(to, c + 1) - Math.max(from, c));
    }
  }
  first[size] = cell.length;
  return { first, cell: Int32Array.from(cell), share: Float64Array.from(share) };
}

/** Box-filter reduction to N×N: each cell averages the source pixels it covers, weighted by how much of them it covers. */
function reduce(image: Rgba): { luma: Float64Array; rgb: [number, number, number] } {
  const { width, height, data } = image;
  const sums = new Float64Array(N * N * 3);
  const row = new Float64Array(N * 3);
  const xs = axis(width);
  const ys = axis(height);
  for (let y = 0; y < height; y++) {
    row.fill(0);
    for (let x = 0, i = y * width * 4; x < width; x++, i += 4) {
      let r = data[i];
      let g = data[i + 1];
      let b = data[i + 2];
      if (data[i + 3] !== 255) {
        // Transparent pixels read as white, as a product image on a page would show.
        const a = data[i + 3] / 255;
        r = r * a + 255 * (1 - a);
        g = g * a + 255 * (1 - a);
        b = b * a + 255 * (1 - a);
      }
      for (let k = xs.first[x]; k < xs.first[x + 1]; k++) {
        const o = xs.cell[k] * 3;
        const w = xs.share[k];
        row[o] += w * r;
        row[o + 1] += w * g;
        row[o + 2] += w * b;
      }
    }
    for (let k = ys.first[y]; k < ys.first[y + 1]; k++) {
      const o = ys.cell[k] * N * 3;
      const w = ys.share[k];
      for (let j = 0; j < N * 3; j++) sums[o + j] += w * row[j];
    }
  }
  const luma = new Float64Array(N * N);
  const rgb: [number, number, number] = [0, 0, 0];
  for (let c = 0; c < N * N; c++) {
    const [r, g, b] = [sums[c * 3], sums[c * 3 + 1], sums[c * 3 + 2]];
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
