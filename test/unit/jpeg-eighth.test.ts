import { readFileSync } from 'node:fs';
import path from 'node:path';
import jpeg from 'jpeg-js';
import { describe, expect, it } from 'vitest';
import { decodeImage, MAX_PIXELS } from '../../src/data/images/decode.js';
import { drawDesign, encodeJpeg } from '../../src/data/images/draw.js';
import { fingerprint, FINGERPRINT_GRID, hammingDistance, type Rgba } from '../../src/data/images/fingerprint.js';
import { decodeJpegEighth } from '../../src/data/images/jpeg-eighth.js';
import { resample } from '../products/image-scenario.js';

const fixture = (name: string) => readFileSync(path.join(import.meta.dirname, '../fixtures/jpeg', name));
const luma = (data: Uint8Array, i: number) => 0.299 * data[i] + 0.587 * data[i + 1] + 0.114 * data[i + 2];

/** How far the eighth's luminance is from the mean luminance of each whole 8×8 block of the full decode: at worst, on average. */
function blockError(bytes: Uint8Array): { worst: number; mean: number } {
  const full = jpeg.decode(bytes, { useTArray: true, formatAsRGBA: true });
  const eighth = decodeJpegEighth(bytes, MAX_PIXELS)!;
  expect([eighth.width, eighth.height, eighth.extent]).toEqual([Math.ceil(full.width / 8), Math.ceil(full.height / 8), { width: full.width / 8, height: full.height / 8 }]);
  let [worst, sum, blocks] = [0, 0, 0];
  for (let by = 0; by < Math.floor(full.height / 8); by++) {
    for (let bx = 0; bx < Math.floor(full.width / 8); bx++) {
      let block = 0;
      for (let y = 0; y < 8; y++) for (let x = 0; x < 8; x++) block += luma(full.data, ((by * 8 + y) * full.width + bx * 8 + x) * 4);
      const error = Math.abs(block / 64 - luma(eighth.data, (by * eighth.width + bx) * 4));
      [worst, sum, blocks] = [Math.max(worst, error), sum + error, blocks + 1];
    }
  }
  return { worst, mean: sum / blocks };
}

describe('a JPEG read at one eighth (DC coefficients only)', () => {
  it('gives each 8×8 block its mean: baseline 4:4:4, 4:2:0 with restart markers, 4:2:2 with optimized tables, progressive colour and grey', () => {
    expect(blockError(fixture('progressive-grey.jpg')).worst).toBeLessThan(1);
    expect(blockError(encodeJpeg(resample(drawDesign(22, 512), 121, 87), 85)).worst).toBeLessThan(2);
    // Subsampled colour is read per 16×16 (4:2:0) or 16×8 (4:2:2) pixels: a block on a colour edge can clip differently.
    for (const name of ['base-420-restart.jpg', 'progressive-420.jpg', 'base-422-optimized.jpg']) {
      const error = blockError(fixture(name));
      expect(error.mean, name).toBeLessThan(1.5);
      expect(error.worst, name).toBeLessThan(10);
    }
  });

  it('leaves to the full decoder what it does not read (arithmetic coding), what is too large or broken, and what would be too small', () => {
    expect(decodeJpegEighth(fixture('arithmetic.jpg'), MAX_PIXELS)).toBeNull();
    expect(decodeJpegEighth(fixture('progressive-420.jpg'), 121 * 87 - 1)).toBeNull();
    const broken = Buffer.from(fixture('base-420-restart.jpg'));
    expect(decodeJpegEighth(broken.subarray(0, 400), MAX_PIXELS)).toBeNull();
    // A scan cut short and closed (its blocks would be read from nothing), and one whose frame claims 4000×4000 pixels.
    expect(decodeJpegEighth(Buffer.concat([broken.subarray(0, broken.length - 600), Buffer.from([0xff, 0xd9])]), MAX_PIXELS)).toBeNull();
    const frame = broken.indexOf(Buffer.from([0xff, 0xc0]));
    const huge = Buffer.from(broken);
    huge.writeUInt16BE(4000, frame + 5);
    huge.writeUInt16BE(4000, frame + 7);
    expect(decodeJpegEighth(huge, MAX_PIXELS)).toBeNull();
    expect(() => decodeImage(fixture('arithmetic.jpg'), { reduceTo: 4 })).toThrow(/could not be decoded/);
    const small: Rgba = decodeImage(fixture('progressive-420.jpg'), { reduceTo: 16 });
    expect([small.width, small.height]).toEqual([121, 87]);
  });

  it('refuses hostile files at once: a scan of no components, restart intervals read from nothing, a second frame, too many blocks per MCU', () => {
    const base = Buffer.from(fixture('base-420-restart.jpg'));
    const sos = base.indexOf(Buffer.from([0xff, 0xda]));
    const sof = base.indexOf(Buffer.from([0xff, 0xc0]));
    // Everything up to the first scan, then thousands of empty scans (no components): each would walk every MCU.
    const emptyScan = Buffer.from([0xff, 0xda, 0x00, 0x06, 0x00, 0x00, 0x3f, 0x00]);
    expect(decodeJpegEighth(Buffer.concat([base.subarray(0, sos), ...Array(20_000).fill(emptyScan), Buffer.from([0xff, 0xd9])]), MAX_PIXELS)).toBeNull();
    // The first scan's header, then nothing but restart markers: every interval would be decoded from padding.
    const header = base.subarray(sos, sos + 2 + base.readUInt16BE(sos + 2));
    const restarts = Buffer.from(Array.from({ length: 20_000 }, (_, i) => [0xff, 0xd0 + (i % 8)]).flat());
    expect(decodeJpegEighth(Buffer.concat([base.subarray(0, sos), header, restarts, Buffer.from([0xff, 0xd9])]), MAX_PIXELS)).toBeNull();
    // A second frame header, and a frame of 4×4 blocks per component (48 per MCU; JPEG allows 10).
    const frame = base.subarray(sof, sof + 2 + base.readUInt16BE(sof + 2));
    expect(decodeJpegEighth(Buffer.concat([base.subarray(0, sos), frame, base.subarray(sos)]), MAX_PIXELS)).toBeNull();
    const wide = Buffer.from(base);
    for (let i = 0; i < wide[sof + 9]; i++) wide[sof + 11 + i * 3] = 0x44;
    expect(decodeJpegEighth(wide, MAX_PIXELS)).toBeNull();
    // A file too thin to keep `minSide` pixels at one eighth is not read at all.
    expect(decodeJpegEighth(base, MAX_PIXELS, 1000)).toBeNull();
  });

  it("fingerprints a large JPEG as its full decode does, and only large ones are read reduced", () => {
    for (const size of [300, 512, 777]) {
      const bytes = encodeJpeg(resample(drawDesign(33, 512), size, size), 80);
      const reduced = decodeImage(bytes, { reduceTo: FINGERPRINT_GRID });
      expect(reduced.width).toBe(Math.ceil(size / 8));
      expect(hammingDistance(fingerprint(reduced).phash, fingerprint(decodeImage(bytes)).phash)).toBeLessThanOrEqual(4);
    }
    expect(decodeImage(encodeJpeg(drawDesign(33, 200)), { reduceTo: FINGERPRINT_GRID }).width).toBe(200);
  });
});
