import jpeg from 'jpeg-js';
import { deflateSync } from 'node:zlib';
import type { Rgba } from './fingerprint.js';

// Small deterministic pictures for demo and seed data: a design number draws the same image at any size, so the
// server draws it on request (GET /media/..., src/plugins/use-media.ts) and the generator fingerprints it without
// storing pixels. A design is a pastel background with three to five coloured shapes.

type Shape = { kind: 'ellipse' | 'rect' | 'triangle' | 'ring' | 'stripes'; x: number; y: number; w: number; h: number; cos: number; sin: number; rgb: [number, number, number] };

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function hsl(h: number, s: number, l: number): [number, number, number] {
  const f = (n: number) => {
    const k = (n + h * 12) % 12;
    return Math.round(255 * (l - s * Math.min(l, 1 - l) * Math.max(-1, Math.min(k - 3, 9 - k, 1))));
  };
  return [f(0), f(8), f(4)];
}

const KINDS: Shape['kind'][] = ['ellipse', 'rect', 'triangle', 'ring', 'stripes'];

function designOf(design: number): { background: [number, number, number]; shapes: Shape[] } {
  const random = mulberry32(design * 2_654_435_761);
  const background = hsl(random(), 0.35, 0.86 + random() * 0.1);
  const shapes = Array.from({ length: 3 + Math.floor(random() * 3) }, (): Shape => {
    const kind = KINDS[Math.floor(random() * KINDS.length)];
    const [x, y, w, h, angle] = [0.15 + random() * 0.7, 0.15 + random() * 0.7, 0.12 + random() * 0.35, 0.12 + random() * 0.35, random() * Math.PI];
    return { kind, x, y, w, h, cos: Math.cos(angle), sin: Math.sin(angle), rgb: hsl(random(), 0.55 + random() * 0.4, 0.25 + random() * 0.4) };
  });
  return { background, shapes };
}

function covers(shape: Shape, px: number, py: number): boolean {
  const { cos, sin } = shape;
  const dx = px - shape.x;
  const dy = py - shape.y;
  const u = (dx * cos + dy * sin) / shape.w;
  const v = (-dx * sin + dy * cos) / shape.h;
  switch (shape.kind) {
    case 'ellipse':
      return u * u + v * v <= 1;
    case 'ring': {
      const r = u * u + v * v;
      return r <= 1 && r >= 0.45;
    }
    case 'rect':
      return Math.abs(u) <= 1 && Math.abs(v) <= 0.7;
    case 'triangle':
      return v <= 1 && v >= -1 && Math.abs(u) <= (1 - v) / 2;
    case 'stripes':
      return Math.abs(u) <= 1.2 && Math.abs(v) <= 1.2 && Math.floor((u + 1.2) * 3) % 2 === 0;
  }
}

/** A design number (FNV-1a of the key, 31 bits): the same key draws the same picture. */
export function designOfKey(key: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  return (hash >>> 0) & 0x7fffffff;
}

/** The design's picture, `width` × `height` pixels (square unless `height` is given; other shapes stretch it). */
export function drawDesign(design: number, width: number, height = width): Rgba {
  const { background, shapes } = designOf(design);
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let rgb = background;
      for (const shape of shapes) if (covers(shape, (x + 0.5) / width, (y + 0.5) / height)) rgb = shape.rgb;
      const i = (y * width + x) * 4;
      data[i] = rgb[0];
      data[i + 1] = rgb[1];
      data[i + 2] = rgb[2];
      data[i + 3] = 255;
    }
  }
  return { width, height, data };
}

export function encodeJpeg(image: Rgba, quality = 85): Buffer {
  return jpeg.encode({ width: image.width, height: image.height, data: image.data }, quality).data;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, body: Buffer): Buffer {
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), body]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(body.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

/** An 8-bit RGBA PNG (no filtering: the pictures are flat colours, which deflate well as they are). */
export function encodePng(image: Rgba): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(image.width, 0);
  header.writeUInt32BE(image.height, 4);
  header.set([8, 6, 0, 0, 0], 8);
  const stride = image.width * 4;
  const rows = Buffer.alloc((stride + 1) * image.height);
  for (let y = 0; y < image.height; y++) rows.set(image.data.subarray(y * stride, (y + 1) * stride), y * (stride + 1) + 1);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), pngChunk('IHDR', header), pngChunk('IDAT', deflateSync(rows)), pngChunk('IEND', Buffer.alloc(0))]);
}

/** Where the server serves a product design (src/plugins/use-media.ts). */
export const productImagePath = (design: number) => `/media/products/${design}.jpg`;

/** The size the server draws designs at, and the size the generator fingerprints them at (a reduction of the same picture). */
export const SERVED_SIZE = 512;
export const FINGERPRINT_SIZE = 64;
