import type { Rgba } from './fingerprint.js';

// A JPEG read at one eighth of its size, from its DC coefficients alone: a block's DC coefficient is the mean of its
// 8×8 pixels, so the blocks' DCs are the picture box-filtered by 8, the reduction a fingerprint starts with anyway.
// No inverse DCT, no colour conversion of every pixel and no full-size buffers: the entropy-coded data is still
// read (baseline), but progressive files' AC scans are skipped unread. This is the DCT-domain downscaling of
// libjpeg's scale_denom = 8. Anything this reader does not handle (arithmetic coding, lossless, 12-bit samples,
// CMYK, a malformed stream) answers null, and the caller decodes the file fully instead.

type Huffman = { fast: Int32Array; maxCode: Int32Array; offset: Int32Array; values: Uint8Array };
type Component = { id: number; h: number; v: number; q: number; blocksX: number; blocksY: number; stride: number; dc: Int32Array; dcTable: number; pred: number };

const FAST_BITS = 9;

function huffmanTable(counts: Uint8Array, values: Uint8Array): Huffman {
  const fast = new Int32Array(1 << FAST_BITS).fill(-1);
  const maxCode = new Int32Array(18).fill(-1);
  const offset = new Int32Array(17);
  let code = 0;
  let k = 0;
  for (let length = 1; length <= 16; length++) {
    offset[length] = k - code;
    for (let i = 0; i < counts[length - 1]; i++, k++, code++) {
      if (length <= FAST_BITS) {
        const first = code << (FAST_BITS - length);
        fast.fill((length << 8) | values[k], first, first + (1 << (FAST_BITS - length)));
      }
    }
    maxCode[length] = code - 1;
    code <<= 1;
  }
  maxCode[17] = 0x7fffffff;
  return { fast, maxCode, offset, values };
}

class Bits {
  private acc = 0;
  private count = 0;
  /** Zero bits appended past the scan's data (at a marker or the end): consuming any means a truncated or corrupt scan. */
  private padding = 0;
  marker = false;
  constructor(private readonly data: Uint8Array, public pos: number) {}

  private fill() {
    while (this.count <= 24) {
      let byte = 0;
      if (!this.marker && this.pos < this.data.length && !(this.data[this.pos] === 0xff && this.data[this.pos + 1] !== 0)) {
        byte = this.data[this.pos];
        this.pos += byte === 0xff ? 2 : 1;
      } else {
        this.marker = true;
        this.padding += 8;
      }
      this.acc = (this.acc << 8) | byte;
      this.count += 8;
    }
  }

  /** Whether bits past the scan's data were read: the scan is truncated or corrupt. */
  get overrun(): boolean {
    return this.count < this.padding;
  }

  read(n: number): number {
    if (n === 0) return 0;
    if (this.count < n) this.fill();
    this.count -= n;
    return (this.acc >>> this.count) & ((1 << n) - 1);
  }

  /** A coefficient of `n` bits, sign-extended (JPEG's RECEIVE and EXTEND). */
  extend(n: number): number {
    const value = this.read(n);
    return n === 0 || value >= 1 << (n - 1) ? value : value - (1 << n) + 1;
  }

  decode(table: Huffman): number {
    if (this.count < 16) this.fill();
    const entry = table.fast[(this.acc >>> (this.count - FAST_BITS)) & ((1 << FAST_BITS) - 1)];
    if (entry >= 0) {
      this.count -= entry >> 8;
      return entry & 0xff;
    }
    for (let length = FAST_BITS + 1; length <= 16; length++) {
      const code = (this.acc >>> (this.count - length)) & ((1 << length) - 1);
      if (code <= table.maxCode[length]) {
        this.count -= length;
        return table.values[table.offset[length] + code];
      }
    }
    throw new Error('invalid Huffman code');
  }

  /**
   * Past a restart marker: the bits before it are padding. An interval that ran out of data, or a marker further
   * than the interval's last padding byte (at most a stuffed 0xFF 0x00 and one more byte), is a corrupt scan.
   */
  restart() {
    if (this.overrun) throw new Error('a restart interval ends before its blocks do');
    const limit = Math.min(this.data.length - 1, this.pos + 4);
    while (this.pos < limit && !(this.data[this.pos] === 0xff && this.data[this.pos + 1] >= 0xd0 && this.data[this.pos + 1] <= 0xd7)) this.pos++;
    if (!(this.data[this.pos] === 0xff && this.data[this.pos + 1] >= 0xd0 && this.data[this.pos + 1] <= 0xd7)) throw new Error('missing restart marker');
    this.acc = 0;
    this.count = 0;
    this.padding = 0;
    this.marker = false;
    this.pos += 2;
  }
}

/** The next marker's position from `pos` (entropy-coded bytes never hold 0xFF followed by anything but 0 or a restart). */
function nextMarker(data: Uint8Array, pos: number): number {
  while (pos + 1 < data.length && !(data[pos] === 0xff && data[pos + 1] !== 0 && data[pos + 1] !== 0xff && (data[pos + 1] < 0xd0 || data[pos + 1] > 0xd7))) pos++;
  return pos;
}

type Frame = { width: number; height: number; progressive: boolean; components: Component[]; maxH: number; maxV: number; mcusX: number; mcusY: number };

/** The frame header's image, its blocks allocated; null for what this reader leaves to jpeg-js, or more than `maxPixels`. */
function readFrame(data: Uint8Array, at: number, progressive: boolean, maxPixels: number, minSide: number): Frame | null {
  if (data[at] !== 8) return null;
  const height = (data[at + 1] << 8) | data[at + 2];
  const width = (data[at + 3] << 8) | data[at + 4];
  const count = data[at + 5];
  if (width < 1 || height < 1 || width * height > maxPixels || (count !== 1 && count !== 3)) return null;
  // Thinner than the caller can use at one eighth: left to jpeg-js before anything is allocated.
  if (Math.ceil(Math.min(width, height) / 8) < minSide) return null;
  const components: Component[] = [];
  for (let i = 0; i < count; i++) {
    const o = at + 6 + i * 3;
    const h = data[o + 1] >> 4;
    const v = data[o + 1] & 15;
    if (h < 1 || h > 4 || v < 1 || v > 4) return null;
    components.push({ id: data[o], h, v, q: data[o + 2] & 3, blocksX: 0, blocksY: 0, stride: 0, dc: new Int32Array(0), dcTable: 0, pred: 0 });
  }
  // JPEG allows at most 10 blocks per MCU; more would multiply the blocks allocated and read per MCU.
  if (components.reduce((sum, c) => sum + c.h * c.v, 0) > 10 || new Set(components.map((c) => c.id)).size !== count) return null;
  const maxH = Math.max(...components.map((c) => c.h));
  const maxV = Math.max(...components.map((c) => c.v));
  const mcusX = Math.ceil(width / (8 * maxH));
  const mcusY = Math.ceil(height / (8 * maxV));
  for (const c of components) {
    c.blocksX = Math.ceil(Math.ceil((width * c.h) / maxH) / 8);
    c.blocksY = Math.ceil(Math.ceil((height * c.v) / maxV) / 8);
    c.stride = mcusX * c.h;
    c.dc = new Int32Array(c.stride * mcusY * c.v);
  }
  return { width, height, progressive, components, maxH, maxV, mcusX, mcusY };
}

/** One scan's DC coefficients into the frame's components; the position after the scan. */
function readScan(data: Uint8Array, at: number, frame: Frame, dcTables: Huffman[], acTables: Huffman[], restartInterval: number): number {
  const count = data[at];
  if (count < 1 || count > frame.components.length) throw new Error('invalid scan component count');
  const scan: { c: Component; ac: Huffman }[] = [];
  for (let i = 0; i < count; i++) {
    const c = frame.components.find((component) => component.id === data[at + 1 + i * 2]);
    if (!c || scan.some((entry) => entry.c === c)) throw new Error('unknown or repeated component');
    c.dcTable = data[at + 2 + i * 2] >> 4;
    c.pred = 0;
    scan.push({ c, ac: acTables[data[at + 2 + i * 2] & 15] });
  }
  const o = at + 1 + count * 2;
  const [spectralStart, approximation] = [data[o], data[o + 2]];
  const [high, low] = [approximation >> 4, approximation & 15];
  const start = o + 3;
  // A progressive file's AC scans refine what the DCs already give: skip them unread.
  if (frame.progressive && spectralStart !== 0) return nextMarker(data, start);
  const bits = new Bits(data, start);
  const block = (c: Component, ac: Huffman, index: number) => {
    if (bits.overrun) throw new Error('the scan ends before its blocks do');
    if (frame.progressive && high !== 0) {
      c.dc[index] |= bits.read(1) << low;
      return;
    }
    const t = bits.decode(dcTables[c.dcTable]);
    c.pred += bits.extend(t);
    c.dc[index] = c.pred << low;
    if (frame.progressive) return;
    for (let k = 1; k < 64; ) {
      const rs = bits.decode(ac);
      const s = rs & 15;
      const r = rs >> 4;
      if (s === 0) {
        if (r < 15) break;
        k += 16;
        continue;
      }
      bits.read(s);
      k += r + 1;
    }
  };
  const single = scan.length === 1 ? scan[0] : null;
  const units = single ? single.c.blocksX * single.c.blocksY : frame.mcusX * frame.mcusY;
  // Every block reads at least one bit: a scan announcing more blocks than the rest of the file has bits is corrupt.
  const blocks = single ? units : units * scan.reduce((sum, { c }) => sum + c.h * c.v, 0);
  if (blocks > (data.length - start) * 8) throw new Error('the scan has fewer bits than blocks');
  for (let unit = 0; unit < units; unit++) {
    if (restartInterval && unit > 0 && unit % restartInterval === 0) {
      bits.restart();
      for (const { c } of scan) c.pred = 0;
    }
    if (single) {
      const { c, ac } = single;
      block(c, ac, Math.floor(unit / c.blocksX) * c.stride + (unit % c.blocksX));
      continue;
    }
    const mx = unit % frame.mcusX;
    const my = Math.floor(unit / frame.mcusX);
    for (const { c, ac } of scan) {
      for (let y = 0; y < c.v; y++) for (let x = 0; x < c.h; x++) block(c, ac, (my * c.v + y) * c.stride + mx * c.h + x);
    }
  }
  if (bits.overrun) throw new Error('the scan ends before its blocks do');
  return nextMarker(data, bits.pos);
}

/** The blocks' means as pixels; the picture ends inside the last ones (`extent`) unless its sides are multiples of 8. */
function pixelsOf(frame: Frame, quant: Int32Array): Rgba {
  const width = Math.ceil(frame.width / 8);
  const height = Math.ceil(frame.height / 8);
  const data = new Uint8Array(width * height * 4);
  const sample = (c: Component, x: number, y: number) =>
    (c.dc[Math.floor((y * c.v) / frame.maxV) * c.stride + Math.floor((x * c.h) / frame.maxH)] * quant[c.q]) / 8 + 128;
  const clamp = (value: number) => (value < 0 ? 0 : value > 255 ? 255 : Math.round(value));
  const [first, second, third] = frame.components;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      const luma = sample(first, x, y);
      if (!second) {
        data[i] = data[i + 1] = data[i + 2] = clamp(luma);
      } else {
        // YCbCr to RGB as jpeg-js converts (JFIF), which transforms every three-component file.
        const cb = sample(second, x, y) - 128;
        const cr = sample(third, x, y) - 128;
        data[i] = clamp(luma + 1.402 * cr);
        data[i + 1] = clamp(luma - 0.3441363 * cb - 0.71413636 * cr);
        data[i + 2] = clamp(luma + 1.772 * cb);
      }
      data[i + 3] = 255;
    }
  }
  return { width, height, data, extent: { width: frame.width / 8, height: frame.height / 8 } };
}

/** Scans read at most: a progressive file has about a dozen. */
const MAX_SCANS = 64;

/**
 * The JPEG at one eighth of its width and height, or null when this reader cannot read it, it has more than
 * `maxPixels`, or a side of fewer than `minSide` pixels at one eighth. Hostile input costs at most a few operations
 * per byte: one frame, at most MAX_SCANS scans, no scan with more blocks than bits, no restart interval read past
 * its data.
 */
export function decodeJpegEighth(data: Uint8Array, maxPixels: number, minSide = 1): Rgba | null {
  const quant = new Int32Array(4);
  const dcTables: Huffman[] = [];
  const acTables: Huffman[] = [];
  let frame: Frame | null = null;
  let restartInterval = 0;
  let scans = 0;
  let ended = false;
  try {
    for (let pos = 2; pos + 1 < data.length; ) {
      if (data[pos] !== 0xff) return null;
      const marker = data[pos + 1];
      if (marker === 0xff || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
        pos += marker === 0xff ? 1 : 2;
        continue;
      }
      if (marker === 0xd9) {
        ended = true;
        break;
      }
      const length = (data[pos + 2] << 8) | data[pos + 3];
      const body = pos + 4;
      const end = pos + 2 + length;
      if (marker === 0xc4) {
        for (let o = body; o < end; ) {
          const counts = data.subarray(o + 1, o + 17);
          const total = counts.reduce((sum, n) => sum + n, 0);
          (data[o] >> 4 ? acTables : dcTables)[data[o] & 15] = huffmanTable(counts, data.subarray(o + 17, o + 17 + total));
          o += 17 + total;
        }
      } else if (marker === 0xdb) {
        for (let o = body; o < end; ) {
          const sixteen = data[o] >> 4;
          quant[data[o] & 3] = sixteen ? (data[o + 1] << 8) | data[o + 2] : data[o + 1];
          o += 1 + 64 * (sixteen ? 2 : 1);
        }
      } else if (marker === 0xdd) {
        restartInterval = (data[body] << 8) | data[body + 1];
      } else if (marker === 0xc0 || marker === 0xc1 || marker === 0xc2) {
        if (frame) return null;
        frame = readFrame(data, body, marker === 0xc2, maxPixels, minSide);
        if (!frame) return null;
      } else if (marker >= 0xc3 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        return null;
      } else if (marker === 0xda) {
        if (!frame || scans >= MAX_SCANS) return null;
        pos = readScan(data, body, frame, dcTables, acTables, restartInterval);
        scans++;
        continue;
      }
      pos = end;
    }
  } catch {
    return null;
  }
  return frame && scans && ended ? pixelsOf(frame, quant) : null;
}
