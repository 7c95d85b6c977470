import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { DECODED_SIDE, decodeImage, ImageRefused } from '../../src/data/images/decode.js';
import { fingerprint, hammingDistance, type Fingerprint } from '../../src/data/images/fingerprint.js';
import { DecodePool, DecoderBusy } from '../../src/data/images/pool.js';
import { hostileImages, jpegHeader } from '../products/image-hostile.js';

const fixture = (name: string) => readFileSync(path.join(import.meta.dirname, '../fixtures/jpeg', name));
const distance = (a: readonly number[], b: readonly number[]) => Math.sqrt(a.reduce((sum, value, i) => sum + (value - b[i]) ** 2, 0));

// Fingerprints of the fixtures as the earlier decoder (jpeg-js, full size, in JavaScript) gave them.
const PHASH = -3912743400584760010n;
const BEFORE: Record<string, Fingerprint> = {
  'base-420-restart.jpg': { phash: PHASH, features: [0.9055, 0.0145, -0.085, -0.134, -0.0971, -0.0879, 0.1299, -0.0209, 0.1139, 0.1017, -0.0166, 0.1376, 0.0949, 0.5019, 0.3543, 0.446] },
  'base-422-optimized.jpg': { phash: PHASH, features: [0.9054, 0.0165, -0.0848, -0.1348, -0.0981, -0.0877, 0.1295, -0.0209, 0.1137, 0.1013, -0.0166, 0.1376, 0.0949, 0.5028, 0.3544, 0.4463] },
  'progressive-420.jpg': { phash: PHASH, features: [0.9055, 0.0145, -0.085, -0.134, -0.0971, -0.0879, 0.1299, -0.0209, 0.1139, 0.1017, -0.0166, 0.1376, 0.0949, 0.5019, 0.3543, 0.446] },
  'progressive-grey.jpg': { phash: PHASH, features: [0.9052, 0.018, -0.0846, -0.1356, -0.099, -0.0873, 0.1296, -0.0209, 0.1137, 0.1009, -0.0165, 0.1376, 0.0946, 0.4108, 0.4108, 0.4108] },
};

describe('decodeImage (libvips)', () => {
  it('gives the fixtures the fingerprints the earlier decoder gave them; an arithmetic-coded JPEG, refused before, now reads as its baseline copy', async () => {
    for (const [name, before] of Object.entries(BEFORE)) {
      const now = fingerprint(await decodeImage(fixture(name)));
      expect(hammingDistance(now.phash, before.phash), name).toBeLessThanOrEqual(2);
      expect(distance(now.features, before.features), name).toBeLessThan(0.01);
    }
    const arithmetic = fingerprint(await decodeImage(fixture('arithmetic.jpg')));
    expect(distance(arithmetic.features, BEFORE['base-420-restart.jpg'].features)).toBeLessThan(0.01);
  });

  it(`reduces to at most ${DECODED_SIDE} pixels a side without enlarging, as 8-bit RGBA whatever the source (16-bit, CMYK, grey), transparency as white`, async () => {
    expect(await decodeImage(fixture('progressive-420.jpg'))).toMatchObject({ width: 121, height: 87 });
    const wide = await decodeImage(await sharp({ create: { width: 3000, height: 60, channels: 3, background: '#336699' } }).jpeg().toBuffer());
    expect([wide.width, wide.height, wide.data.length]).toEqual([DECODED_SIDE, 60, DECODED_SIDE * 60 * 4]);
    const red = { r: 220, g: 20, b: 20 };
    for (const source of [
      sharp({ create: { width: 300, height: 300, channels: 3, background: red } }).toColourspace('rgb16').png(),
      sharp({ create: { width: 300, height: 300, channels: 3, background: red } }).toColourspace('cmyk').jpeg({ quality: 95 }),
    ]) {
      const { data } = await decodeImage(await source.toBuffer());
      expect(Math.abs(data[0] - red.r) + Math.abs(data[1] - red.g) + Math.abs(data[2] - red.b)).toBeLessThan(40);
      expect(data[3]).toBe(255);
    }
    const grey = await decodeImage(fixture('progressive-grey.jpg'));
    expect(grey.data.length).toBe(grey.width * grey.height * 4);
    const clear = await decodeImage(await sharp({ create: { width: 40, height: 40, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } }).png().toBuffer());
    expect([...clear.data.subarray(0, 4)]).toEqual([255, 255, 255, 255]);
  });

  it('refuses an image over the pixel limit from its header, and every hostile image with an ImageRefused or decodes it small', async () => {
    await expect(decodeImage(jpegHeader(5000, 4000, 3, true))).rejects.toThrow(/at most 16000000 pixels \(it has 5000×4000\)/);
    for (const image of await hostileImages()) {
      const outcome = await decodeImage(image.bytes).then(
        (decoded) => Math.max(decoded.width, decoded.height),
        (error: unknown) => error,
      );
      if (image.expected.includes(200) && typeof outcome === 'number') expect(outcome, image.name).toBeLessThanOrEqual(DECODED_SIDE);
      else expect(outcome, image.name).toBeInstanceOf(ImageRefused);
    }
  });
});

describe('DecodePool', () => {
  /** A job that runs until `finish` is called, and says whether it started. */
  const job = () => {
    const state = { started: false, finish: () => {} };
    const work = () => new Promise<void>((resolve) => Object.assign(state, { started: true, finish: resolve }));
    return { state, work };
  };
  const settle = () => new Promise((resolve) => setImmediate(resolve));

  it('runs at most `slots` jobs at once, queues `waiting` more in arrival order and refuses the next', async () => {
    const pool = new DecodePool({ slots: 2, memoryBytes: 1000, waiting: 2 });
    const jobs = Array.from({ length: 4 }, job);
    const runs = jobs.map(({ work }) => pool.run(10, work));
    await settle();
    expect(jobs.map((j) => j.state.started)).toEqual([true, true, false, false]);
    await expect(pool.run(10, async () => {})).rejects.toBeInstanceOf(DecoderBusy);
    jobs[1].state.finish();
    await settle();
    expect(jobs.map((j) => j.state.started)).toEqual([true, true, true, false]);
    for (const j of jobs) j.state.finish();
    await settle();
    jobs[3].state.finish();
    await Promise.all(runs);
  });

  it('keeps the memory of the running jobs within the budget; a job over the whole budget runs alone; nothing overtakes a waiting job', async () => {
    const pool = new DecodePool({ slots: 4, memoryBytes: 100, waiting: 10 });
    const [big, second, huge, small] = [job(), job(), job(), job()];
    const runs = [pool.run(60, big.work), pool.run(60, second.work), pool.run(500, huge.work), pool.run(1, small.work)];
    await settle();
    expect([big, second, huge, small].map((j) => j.state.started)).toEqual([true, false, false, false]);
    big.state.finish();
    await settle();
    expect([second, huge, small].map((j) => j.state.started)).toEqual([true, false, false]);
    second.state.finish();
    await settle();
    expect([huge, small].map((j) => j.state.started)).toEqual([true, false]);
    huge.state.finish();
    await settle();
    expect(small.state.started).toBe(true);
    small.state.finish();
    await Promise.all(runs);
  });
});
