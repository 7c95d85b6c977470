import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import type { Rgba } from './fingerprint.js';
import { decodeJpegEighth } from './jpeg-eighth.js';

// Decoding of uploaded and fetched images, in pure JavaScript (jpeg-js, pngjs), with bounds on what an image may
// cost: at most MAX_PIXELS pixels, checked from the header before the pixels are decoded where the format allows.

export const MAX_PIXELS = 16_000_000;
export type ImageFormat = 'jpeg' | 'png' | 'webp';

export class ImageRefused extends Error {}

export function sniffFormat(bytes: Uint8Array): ImageFormat | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.length >= 8 && [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((b, i) => bytes[i] === b)) return 'png';
  if (bytes.length >= 12 && String.fromCharCode(...bytes.subarray(0, 4)) === 'RIFF' && String.fromCharCode(...bytes.subarray(8, 12)) === 'WEBP') return 'webp';
  return null;
}

function decodePng(bytes: Buffer): Rgba {
  // IHDR: width and height are the first fields of the first chunk, at bytes 16..23.
  const width = bytes.readUInt32BE(16);
  const height = bytes.readUInt32BE(20);
  if (width * height > MAX_PIXELS) throw new ImageRefused(`the image must have at most ${MAX_PIXELS} pixels`);
  const png = PNG.sync.read(bytes);
  return { width: png.width, height: png.height, data: png.data };
}

/**
 * RGBA pixels of a JPEG or PNG; an ImageRefused (a client error) for anything else or anything unreadable.
 * With `reduceTo`, a JPEG whose sides keep at least that many pixels at one eighth of its size is read at that size
 * (jpeg-eighth.ts), which costs a fraction of a full decode.
 */
export function decodeImage(input: Uint8Array, { reduceTo }: { reduceTo?: number } = {}): Rgba {
  const bytes = Buffer.from(input.buffer, input.byteOffset, input.byteLength);
  const format = sniffFormat(bytes);
  if (format === 'webp') throw new ImageRefused('WebP images cannot be decoded by this server yet: send a JPEG or PNG');
  if (format === null) throw new ImageRefused('the image must be a JPEG or PNG file');
  try {
    if (format === 'png') return decodePng(bytes);
    const eighth = reduceTo ? decodeJpegEighth(bytes, MAX_PIXELS, reduceTo) : null;
    if (eighth && Math.min(eighth.width, eighth.height) >= reduceTo!) return eighth;
    const image = jpeg.decode(bytes, { useTArray: true, formatAsRGBA: true, maxResolutionInMP: MAX_PIXELS / 1_000_000, maxMemoryUsageInMB: 256 });
    return { width: image.width, height: image.height, data: image.data };
  } catch (error) {
    if (error instanceof ImageRefused) throw error;
    throw new ImageRefused(`the ${format === 'png' ? 'PNG' : 'JPEG'} file could not be decoded (${(error as Error).message.slice(0, 120)})`);
  }
}
