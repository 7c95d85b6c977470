import type { Metadata, SharpOptions } from 'sharp';
import type { Rgba } from './fingerprint.js';
import { DECODE_LIMITS, DecoderBusy, DecodePool } from './pool.js';

// Decoding of uploaded and fetched images by libvips (sharp), a native library built for hostile input. The header
// is read first: anything but a JPEG or PNG, or over MAX_PIXELS, is refused before a pixel is decoded. The pixels
// are then asked for at the size the fingerprint needs, at most DECODED_SIDE a side: a JPEG is read at a fraction of
// its size (shrink-on-load), a PNG row by row and reduced as it streams, so a full-size picture never exists in this
// process. Decodes run off the event loop, a few at a time within a memory budget (pool.ts).

export const MAX_PIXELS = 16_000_000;
/** The largest side of the pixels decodeImage returns (the fingerprint reduces them to 32×32). */
export const DECODED_SIDE = 128;
const DECODE_TIMEOUT_SECONDS = 5;
const MB = 1024 * 1024;
/** What a decode that streams holds at most (libvips' row buffers and the reduced picture), measured with margin. */
const STREAMED_BYTES = 24 * MB;
/** The most a progressive JPEG or interlaced PNG may hold decoded: 16 megapixels of 3 samples of 2 bytes. */
export const MAX_BUFFERED_BYTES = 96 * MB;

export type ImageFormat = 'jpeg' | 'png' | 'webp';

export class ImageRefused extends Error {}

type Sharp = (typeof import('sharp'))['default'];
let loaded: Promise<Sharp> | undefined;

/** libvips, loaded with the first image: a server that never decodes one does not hold it (~8 MB of RSS at rest). */
function libvips(): Promise<Sharp> {
  return (loaded ??= import('sharp').then(({ default: sharp }) => {
    sharp.cache(false);
    // One libvips thread per decode: the pool decides how many run at once.
    sharp.concurrency(1);
    return sharp;
  }));
}

const pool = new DecodePool(DECODE_LIMITS);

// failOn 'error': truncated or corrupt pixel data is refused; warnings (stray bytes between markers, common in
// files from cameras and editors) are not.
const INPUT: SharpOptions = { limitInputPixels: MAX_PIXELS, sequentialRead: true, failOn: 'error' };

export function sniffFormat(bytes: Uint8Array): ImageFormat | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.length >= 8 && [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((b, i) => bytes[i] === b)) return 'png';
  if (bytes.length >= 12 && String.fromCharCode(...bytes.subarray(0, 4)) === 'RIFF' && String.fromCharCode(...bytes.subarray(8, 12)) === 'WEBP') return 'webp';
  return null;
}

/** Bytes a decode must hold whole: a progressive JPEG every DCT coefficient (2 bytes a sample), an interlaced PNG every row. */
function bufferedBytes({ width = 0, height = 0, channels = 4, isProgressive, format, depth }: Metadata): number {
  if (!isProgressive) return 0;
  return width * height * channels * (format === 'jpeg' || depth === 'ushort' ? 2 : 1);
}

async function decode(sharp: Sharp, bytes: Buffer, format: 'jpeg' | 'png'): Promise<Rgba> {
  // The header alone (no pixel is decoded): the limit is checked here, to say so, and by libvips again below.
  const header = await sharp(bytes, { ...INPUT, limitInputPixels: false }).metadata();
  const { width = 0, height = 0 } = header;
  if (header.format !== format) throw new ImageRefused('the image must be a JPEG or PNG file');
  if (width < 1 || height < 1) throw new ImageRefused('the image has no pixels');
  if (width * height > MAX_PIXELS) throw new ImageRefused(`the image must have at most ${MAX_PIXELS} pixels (it has ${width}×${height})`);
  const buffered = bufferedBytes(header);
  if (buffered > MAX_BUFFERED_BYTES) {
    const kind = format === 'png' ? 'an interlaced PNG' : 'a progressive JPEG';
    throw new ImageRefused(`${kind} must decode within ${MAX_BUFFERED_BYTES / MB} MB (this one needs ${Math.ceil(buffered / MB)} MB): send a smaller image, or a ${format === 'png' ? 'non-interlaced PNG' : 'baseline JPEG'}`);
  }
  return pool.run(STREAMED_BYTES + buffered, async () => {
    const { data, info } = await sharp(bytes, INPUT)
      .timeout({ seconds: DECODE_TIMEOUT_SECONDS })
      .resize(Math.min(width, DECODED_SIDE), Math.min(height, DECODED_SIDE), { fit: 'fill' })
      // Transparent pixels read as white, as a product image on a page would show.
      .flatten({ background: '#ffffff' })
      .toColourspace('srgb')
      .ensureAlpha(1)
      .raw({ depth: 'uchar' })
      .toBuffer({ resolveWithObject: true });
    return { width: info.width, height: info.height, data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) };
  });
}

/**
 * RGBA pixels of a JPEG or PNG, reduced to at most DECODED_SIDE pixels a side (not enlarged); an ImageRefused (a
 * client error) for anything else or anything unreadable, a DecoderBusy when too many images wait to be decoded.
 */
export async function decodeImage(input: Uint8Array): Promise<Rgba> {
  const bytes = Buffer.from(input.buffer, input.byteOffset, input.byteLength);
  const format = sniffFormat(bytes);
  if (format === 'webp') throw new ImageRefused('WebP images are not accepted: send a JPEG or PNG');
  if (format === null) throw new ImageRefused('the image must be a JPEG or PNG file');
  const sharp = await libvips(); // outside the try: a library that cannot load is this server's fault, not the image's
  try {
    return await decode(sharp, bytes, format);
  } catch (error) {
    if (error instanceof ImageRefused || error instanceof DecoderBusy || !(error instanceof Error)) throw error;
    const reason = error.message.split('\n')[0].replace(/:\s*$/, '').slice(0, 120);
    throw new ImageRefused(`the ${format === 'png' ? 'PNG' : 'JPEG'} file could not be decoded (${reason})`);
  }
}

// The server's own media (src/plugins/use-media.ts) are drawn as pixels and encoded here, by libvips on libuv's
// threads with their own pool: a JPEG of 480 × 800 takes ~10 ms there against ~100 ms of a JavaScript encoder on
// the event loop, and a burst of media waits in its own queue, never in front of an image search's decodes.
const encodePool = new DecodePool(DECODE_LIMITS);

/** A drawn picture as JPEG (quality 85) or PNG bytes; a DecoderBusy when too many pictures wait to be encoded. */
export async function encodeImage(image: Rgba, format: 'jpeg' | 'png'): Promise<Buffer> {
  const sharp = await libvips();
  return encodePool.run(image.data.byteLength, () => {
    const pixels = sharp(image.data, { raw: { width: image.width, height: image.height, channels: 4 } });
    return (format === 'jpeg' ? pixels.flatten().jpeg({ quality: 85 }) : pixels.png()).toBuffer();
  });
}
