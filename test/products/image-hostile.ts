import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { drawDesign, encodeJpeg } from '../../src/data/images/draw.js';

// Images built to hurt a decoder: headers declaring far more pixels than the file holds, decompression bombs,
// truncated and corrupt files, and the legitimate but expensive kinds (CMYK, progressive, 16-bit, interlaced).
// `expected` is the status an image search answers: 200 (decoded and searched) or 400 (refused, naming the image).

export type HostileImage = { name: string; bytes: Buffer; expected: number[]; pattern?: RegExp };

const SOI = [0xff, 0xd8];
const EOI = [0xff, 0xd9];
const segment = (marker: number, body: number[]) => [0xff, marker, (body.length + 2) >> 8, (body.length + 2) & 0xff, ...body];
const quantTable = segment(0xdb, [0, ...Array<number>(64).fill(1)]);
const frame = (width: number, height: number, components: number) =>
  segment(0xc0, [8, height >> 8, height & 0xff, width >> 8, width & 0xff, components, ...Array.from({ length: components }, (_, i) => [i + 1, 0x11, 0]).flat()]);
// One Huffman table of one code (DC and AC class 0), so a scan header can refer to it.
const huffmanTables = [...segment(0xc4, [0x00, 1, ...Array<number>(15).fill(0), 0]), ...segment(0xc4, [0x10, 1, ...Array<number>(15).fill(0), 0])];
const scanHeader = (components: number) => segment(0xda, [components, ...Array.from({ length: components }, (_, i) => [i + 1, 0x00]).flat(), 0, 63, 0]);

/** A JPEG header declaring width × height of `components` channels (4: CMYK), without scan data (or with an empty scan). */
export function jpegHeader(width: number, height: number, components = 4, emptyScan = false): Buffer {
  return Buffer.from([...SOI, ...quantTable, ...frame(width, height, components), ...huffmanTables, ...(emptyScan ? scanHeader(components) : []), ...EOI]);
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

/** A PNG declaring width × height (8-bit RGBA) whose pixel data is `idat` (a zlib stream), or garbage after the header. */
export function pngHeader(width: number, height: number, idat: Buffer, garbage = false): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 6, 0, 0, 0], 8);
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const rest = garbage ? idat : Buffer.concat([chunk('IDAT', idat), chunk('IEND', Buffer.alloc(0))]);
  return Buffer.concat([signature, chunk('IHDR', header), rest]);
}

const blank = (width: number, height: number, channels: 3 | 4) =>
  sharp({ create: { width, height, channels, background: channels === 4 ? { r: 0, g: 0, b: 0, alpha: 0 } : { r: 200, g: 60, b: 90 } } });

/** A CMYK JPEG of 4000×4000 (converted to CMYK small, then enlarged in CMYK: converting 16 megapixels takes seconds). */
async function cmyk4000(progressive: boolean): Promise<Buffer> {
  const small = await blank(64, 64, 3).toColourspace('cmyk').jpeg().toBuffer();
  return sharp(small).pipelineColourspace('cmyk').resize(4000, 4000, { kernel: 'nearest' }).toColourspace('cmyk').jpeg({ quality: 80, progressive }).toBuffer();
}

/** The hostile set; every file fits the 1 MiB upload limit. */
export async function hostileImages(): Promise<HostileImage[]> {
  const picture = encodeJpeg(drawDesign(22, 512), 85);
  const picturePng = await sharp(picture).png().toBuffer();
  const undecodable = /could not be decoded/;
  return [
    { name: 'cmyk-header.jpg', bytes: jpegHeader(4000, 4000), expected: [400], pattern: undecodable },
    // An empty scan: libjpeg reads it as a grey picture.
    { name: 'cmyk-header-empty-scan.jpg', bytes: jpegHeader(4000, 4000, 4, true), expected: [200] },
    { name: 'header-over-limit.jpg', bytes: jpegHeader(5000, 4000, 3, true), expected: [400], pattern: /at most 16000000 pixels/ },
    { name: 'cmyk-4000.jpg', bytes: await cmyk4000(false), expected: [200] },
    // Decoded whole (every coefficient, every row): within the buffered limit they are decoded, past it refused.
    { name: 'cmyk-progressive-4000.jpg', bytes: await cmyk4000(true), expected: [400], pattern: /progressive JPEG must decode within 96 MB \(this one needs 123 MB\)/ },
    { name: 'progressive-444-4000.jpg', bytes: await blank(4000, 4000, 3).jpeg({ progressive: true, chromaSubsampling: '4:4:4' }).toBuffer(), expected: [200] },
    { name: 'progressive-3000.jpg', bytes: await blank(3000, 3000, 3).jpeg({ progressive: true }).toBuffer(), expected: [200] },
    { name: 'png16-zeros-4000.png', bytes: await blank(4000, 4000, 4).toColourspace('rgb16').png({ compressionLevel: 6 }).toBuffer(), expected: [200] },
    { name: 'png16-interlaced-4000.png', bytes: await blank(4000, 4000, 4).toColourspace('rgb16').png({ compressionLevel: 6, progressive: true }).toBuffer(), expected: [400], pattern: /interlaced PNG must decode within 96 MB/ },
    { name: 'png16-interlaced-rgb-4000.png', bytes: await blank(4000, 4000, 3).toColourspace('rgb16').png({ compressionLevel: 6, progressive: true }).toBuffer(), expected: [200] },
    { name: 'png-100000.png', bytes: pngHeader(100_000, 100_000, deflateSync(Buffer.alloc(4 << 20), { level: 9 })), expected: [400], pattern: /at most 16000000 pixels/ },
    { name: 'png-garbage-after-header.png', bytes: pngHeader(512, 512, Buffer.alloc(20_000, 0x5a), true), expected: [400], pattern: undecodable },
    { name: 'truncated.jpg', bytes: picture.subarray(0, picture.length >> 1), expected: [400], pattern: undecodable },
    { name: 'truncated.png', bytes: picturePng.subarray(0, picturePng.length >> 1), expected: [400], pattern: undecodable },
    // Entropy-coded garbage after a valid header: libjpeg reads it as (corrupt) pixel data, which it may or may not call an error.
    { name: 'jpeg-garbage-after-header.jpg', bytes: Buffer.concat([picture.subarray(0, 700), Buffer.alloc(20_000, 0x5a)]), expected: [200, 400] },
    { name: 'zero-size.jpg', bytes: jpegHeader(0, 0, 3, true), expected: [400] },
    { name: 'zero-size.png', bytes: pngHeader(0, 0, deflateSync(Buffer.alloc(0))), expected: [400] },
    { name: 'empty-file', bytes: Buffer.alloc(0), expected: [400] },
  ];
}
