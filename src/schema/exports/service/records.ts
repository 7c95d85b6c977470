import type { ItemLeafKind, RecordPlan } from '../../shared/json-rows.js';
import type { Column } from './writers.js';

// Items read as records (shared/json-rows.ts shapeRecord: a bulk read's typed leaves, a column each, one a row of a
// binary COPY) and written by the export's worker thread: an NDJSON line as JSON.stringify writes the item (the text
// PostgreSQL's shapeJsonText writes of the same row), or each leaf's value for CSV's and Parquet's columns (what
// JSON.parse of that line gives). A binary COPY's row is its int16 count of fields, then per field its int32 length
// (-1: NULL) and bytes, as PostgreSQL's *send functions write them: int4, int8 and float8 big-endian, bool one byte,
// text UTF-8, timestamptz microseconds since 2000-01-01 UTC as an int8.

/** Where `fill` writes a record's values: a column's value, or a string column's bytes (after `prefix`). */
export type ColumnSink = {
  add(column: number, value: unknown): void;
  addBytes(column: number, source: Uint8Array, start: number, end: number, prefix?: Uint8Array): void;
};

const EPOCH_2000_MS = Date.UTC(2000, 0, 1);
const TWO_32 = 4_294_967_296;

/** An int8 as a number when it is exact as one (|n| < 2^53), else null. */
function int8Number(bytes: Buffer, at: number): number | null {
  const high = bytes.readInt32BE(at);
  return high >= -0x200000 && high < 0x200000 ? high * TWO_32 + bytes.readUInt32BE(at + 4) : null;
}

const INFINITY_MICROS = 2n ** 63n - 1n;
const DAY_MS = 86_400_000;

/**
 * A timestamptz as its ISO text (microseconds dropped: floor, as to_char's MS and Date's parser), or null for ±infinity,
 * which the JSON text path writes as null (to_char of an infinite timestamp is NULL). Any finite one, even centuries
 * away, where its microseconds no longer fit a number exactly.
 */
function timestampIso(bytes: Buffer, at: number): string | null {
  const ms = timestampMs(bytes, at);
  return ms === null ? null : new Date(ms).toISOString();
}

/**
 * Whether the `length` bytes at `at` start with `prefix` (a stored URL of the server's own media: RecordPlan's media),
 * compared here: a few bytes, cheaper than a call into Buffer's compare.
 */
function startsWith(bytes: Buffer, at: number, length: number, prefix: Buffer): boolean {
  if (length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (bytes[at + i] !== prefix[i]) return false;
  return true;
}

/**
 * The elements of a one-dimensional text[] in binary form (array_send: dimensions, has-nulls flag, element type, each
 * dimension's length and lower bound, then each element's length, -1 for NULL, and bytes): `element(at, length)` for
 * each, in order. An empty array has no dimensions.
 */
function eachElement(bytes: Buffer, at: number, element: (at: number, length: number) => void): void {
  const dimensions = bytes.readInt32BE(at);
  if (dimensions === 0) return;
  if (dimensions !== 1) throw new Error(`exports: a text array of ${dimensions} dimensions, expected 1`);
  const count = bytes.readInt32BE(at + 12);
  let next = at + 20;
  for (let i = 0; i < count; i++) {
    const length = bytes.readInt32BE(next);
    next += 4;
    element(next, length);
    if (length > 0) next += length;
  }
}

/** A text[]'s elements, as JSON.parse gives them from its JSON text. */
function textsOf(bytes: Buffer, at: number): (string | null)[] {
  const texts: (string | null)[] = [];
  eachElement(bytes, at, (from, length) => texts.push(length < 0 ? null : bytes.toString('utf8', from, from + length)));
  return texts;
}

type ScalarKind = Exclude<ItemLeafKind, 'media' | 'texts'>;

/** A timestamptz as milliseconds since 1970 (microseconds dropped: floor), or null for ±infinity. */
function timestampMs(bytes: Buffer, at: number): number | null {
  const exact = int8Number(bytes, at);
  if (exact !== null) return Math.floor(exact / 1000) + EPOCH_2000_MS;
  const micros = bytes.readBigInt64BE(at);
  if (micros === INFINITY_MICROS || micros === -INFINITY_MICROS - 1n) return null;
  return Number(micros / 1000n - (micros % 1000n < 0n ? 1n : 0n)) + EPOCH_2000_MS;
}

/** A leaf's value as JSON text. */
function jsonOf(kind: ScalarKind, bytes: Buffer, at: number, length: number): string {
  switch (kind) {
    case 'text':
    case 'enum':
      return JSON.stringify(bytes.toString('utf8', at, at + length));
    case 'json':
      return bytes.toString('utf8', at, at + length);
    case 'int':
      return String(bytes.readInt32BE(at));
    case 'bigint':
      return String(int8Number(bytes, at) ?? bytes.readBigInt64BE(at));
    case 'float': {
      const value = bytes.readDoubleBE(at);
      return Number.isFinite(value) ? String(value) : 'null';
    }
    case 'bool':
      return bytes[at] ? 'true' : 'false';
    case 'iso':
      return JSON.stringify(timestampIso(bytes, at));
  }
}

/** How the worker writes the `media` leaves: the stored URLs that start with `own` are prefixed with `base`. */
type MediaPrefix = { own: Buffer; base: string; json: Buffer; bytes: Buffer };

/** A leaf's value as JSON.parse gives it from the JSON text. */
function valueOf(kind: ItemLeafKind, bytes: Buffer, at: number, length: number, media: MediaPrefix): unknown {
  switch (kind) {
    case 'media': {
      const stored = bytes.toString('utf8', at, at + length);
      return startsWith(bytes, at, length, media.own) ? media.base + stored : stored;
    }
    case 'texts':
      return textsOf(bytes, at);
    case 'text':
    case 'enum':
      return bytes.toString('utf8', at, at + length);
    case 'json':
      return JSON.parse(bytes.toString('utf8', at, at + length)) as unknown;
    case 'int':
      return bytes.readInt32BE(at);
    case 'bigint':
      return int8Number(bytes, at) ?? Number(bytes.readBigInt64BE(at));
    case 'float': {
      const value = bytes.readDoubleBE(at);
      return Number.isFinite(value) ? value : null;
    }
    case 'bool':
      return bytes[at] !== 0;
    case 'iso':
      return timestampIso(bytes, at);
  }
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const TRUE = Buffer.from('true');
const FALSE = Buffer.from('false');
const NULL = Buffer.from('null');
/** The escapes JSON.stringify writes as a backslash and one letter, by the byte escaped (0: written \u00XX). */
const SHORT_ESCAPES = (() => {
  const escapes = new Uint8Array(256);
  for (const [byte, letter] of [[0x08, 'b'], [0x09, 't'], [0x0a, 'n'], [0x0c, 'f'], [0x0d, 'r'], [QUOTE, '"'], [BACKSLASH, '\\']] as const) {
    escapes[byte] = letter.charCodeAt(0);
  }
  return escapes;
})();
const HEX = Buffer.from('0123456789abcdef');

/** Writes 0..99 as two ASCII digits at `at`; answers the position after them. */
function twoDigits(bytes: Buffer, at: number, n: number): number {
  bytes[at] = 48 + Math.floor(n / 10);
  bytes[at + 1] = 48 + (n % 10);
  return at + 2;
}

/** NDJSON lines written into one growing buffer (bytes, not strings: no string is made of what needs no escaping). */
class LineBuffer {
  bytes = Buffer.allocUnsafe(1 << 20);
  at = 0;

  room(size: number): void {
    if (this.at + size <= this.bytes.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.bytes.length * 2, this.at + size));
    this.bytes.copy(grown, 0, 0, this.at);
    this.bytes = grown;
  }

  put(source: Buffer): void {
    this.copy(source, 0, source.length);
  }

  /** Bytes of `source` (short runs copied here: cheaper than a call into Buffer's copy). */
  copy(source: Buffer, from: number, end: number): void {
    const length = end - from;
    this.room(length);
    if (length > 48) {
      this.at += source.copy(this.bytes, this.at, from, end);
      return;
    }
    const bytes = this.bytes;
    let at = this.at;
    for (let i = from; i < end; i++) bytes[at++] = source[i]!;
    this.at = at;
  }

  /** A safe integer's digits (|n| < 2^53), as String(n) writes them. */
  integer(n: number): void {
    this.room(17);
    const bytes = this.bytes;
    let at = this.at;
    if (n < 0) {
      bytes[at++] = 0x2d; // -
      n = -n;
    }
    let digits = 1;
    for (let power = 10; power <= n; power *= 10) digits++;
    for (let i = at + digits - 1; i >= at; i--) {
      const rest = Math.floor(n / 10);
      bytes[i] = 48 + (n - rest * 10);
      n = rest;
    }
    this.at = at + digits;
  }

  /** ASCII text (numbers, dates). */
  ascii(text: string): void {
    this.room(text.length);
    const bytes = this.bytes;
    let at = this.at;
    for (let i = 0; i < text.length; i++) bytes[at++] = text.charCodeAt(i);
    this.at = at;
  }

  /**
   * A timestamptz (int8 microseconds since 2000-01-01) as the JSON text of its toISOString (`"2024-03-05T06:07:08.123Z"`),
   * written digit by digit: no Date, no string. False for an instant before 2000 or from 2285 on (2^53 µs), which
   * the caller writes through timestampIso. The date from the day number by H. Hinnant's civil_from_days.
   */
  instant(source: Buffer, at: number): boolean {
    const high = source.readInt32BE(at);
    if (high < 0 || high >= 0x200000) return false;
    const ms = Math.floor((high * TWO_32 + source.readUInt32BE(at + 4)) / 1000) + EPOCH_2000_MS;
    const days = Math.floor(ms / DAY_MS);
    let rest = ms - days * DAY_MS;
    const z = days + 719_468;
    const era = Math.floor(z / 146_097);
    const doe = z - era * 146_097;
    const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
    const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
    const mp = Math.floor((5 * doy + 2) / 153);
    const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
    const month = mp < 10 ? mp + 3 : mp - 9;
    const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
    const hours = Math.floor(rest / 3_600_000);
    rest -= hours * 3_600_000;
    const minutes = Math.floor(rest / 60_000);
    rest -= minutes * 60_000;
    const seconds = Math.floor(rest / 1000);
    const millis = rest - seconds * 1000;
    this.room(26);
    const b = this.bytes;
    let i = this.at;
    b[i++] = QUOTE;
    i = twoDigits(b, i, Math.floor(year / 100));
    i = twoDigits(b, i, year % 100);
    b[i++] = 0x2d; // -
    i = twoDigits(b, i, month);
    b[i++] = 0x2d;
    i = twoDigits(b, i, day);
    b[i++] = 0x54; // T
    i = twoDigits(b, i, hours);
    b[i++] = 0x3a; // :
    i = twoDigits(b, i, minutes);
    b[i++] = 0x3a;
    i = twoDigits(b, i, seconds);
    b[i++] = 0x2e; // .
    b[i++] = 48 + Math.floor(millis / 100);
    i = twoDigits(b, i, millis % 100);
    b[i++] = 0x5a; // Z
    b[i++] = QUOTE;
    this.at = i;
    return true;
  }

  /**
   * A string's JSON text from its UTF-8 bytes, as JSON.stringify writes the string: its bytes between quotes, but for
   * those JSON escapes (a quote, a backslash, a control character: `\n` and the like, else `\u00XX`). The bytes are
   * valid UTF-8 (PostgreSQL's text), so no lone surrogate, the one other thing JSON.stringify escapes, can be among
   * them. `prefix`: bytes written first inside the quotes (the media base URL's JSON text, without quotes).
   */
  string(source: Buffer, from: number, length: number, prefix?: { json: Buffer }): void {
    const end = from + length;
    this.room(length + 2 + (prefix?.json.length ?? 0));
    this.bytes[this.at++] = QUOTE;
    if (prefix) this.at += prefix.json.copy(this.bytes, this.at);
    let run = from;
    for (let i = from; i < end; i++) {
      const byte = source[i]!;
      if (byte >= 0x20 && byte !== QUOTE && byte !== BACKSLASH) continue;
      this.copy(source, run, i);
      // An escape takes up to six bytes (\u00XX); the rest of the string and the closing quote still to come.
      this.room(6 + end - i);
      const bytes = this.bytes;
      bytes[this.at++] = BACKSLASH;
      const short = SHORT_ESCAPES[byte]!;
      if (short) bytes[this.at++] = short;
      else {
        // \u00XX, in lower-case hex as JSON.stringify writes it.
        bytes[this.at++] = 0x75; // u
        bytes[this.at++] = 48;
        bytes[this.at++] = 48;
        bytes[this.at++] = HEX[byte >> 4]!;
        bytes[this.at++] = HEX[byte & 15]!;
      }
      run = i + 1;
    }
    this.copy(source, run, end);
    this.room(1);
    this.bytes[this.at++] = QUOTE;
  }

  /** A string that needs no escaping (an enum's label) between quotes. */
  quoted(source: Buffer, from: number, length: number): void {
    this.room(length + 2);
    this.bytes[this.at++] = QUOTE;
    this.copy(source, from, from + length);
    this.bytes[this.at++] = QUOTE;
  }

  /** A text[] (its binary form at `at`) as a JSON array of strings, as to_json writes it. */
  texts(source: Buffer, at: number): void {
    this.room(1);
    this.bytes[this.at++] = 0x5b; // [
    let first = true;
    eachElement(source, at, (from, length) => {
      if (!first) {
        this.room(1);
        this.bytes[this.at++] = 0x2c; // ,
      }
      first = false;
      if (length < 0) this.put(NULL);
      else this.string(source, from, length);
    });
    this.room(1);
    this.bytes[this.at++] = 0x5d; // ]
  }

  /**
   * The lines written, a view of this buffer valid until the next write (the worker writes a chunk's lines to its file
   * before it builds the next: no copy a chunk, no 1.7 MB allocated and freed each time); the buffer is then empty.
   */
  take(): Buffer {
    const taken = this.bytes.subarray(0, this.at);
    this.at = 0;
    return taken;
  }
}

/** The leaves' kinds as small numbers, for write's switch (a jump, not a string compared with each case in turn). */
const KIND = { text: 0, enum: 1, media: 2, texts: 3, json: 4, int: 5, bigint: 6, bool: 7, iso: 8, float: 9 } as const satisfies Record<ItemLeafKind, number>;

/** The reader of one list's records (its plan), checked against each record's column count. */
export class RecordItems {
  private readonly kinds: ItemLeafKind[];
  private readonly codes: Uint8Array;
  private readonly omits: boolean[];
  /** Per leaf: its lead and key (written before a value), and its lead alone (an omitted NULL), as UTF-8. */
  private readonly named: Buffer[];
  private readonly leads: Buffer[];
  private readonly suffix: Buffer;
  private readonly media: MediaPrefix;
  private readonly out = new LineBuffer();

  constructor(private readonly plan: RecordPlan) {
    const { own, base } = plan.media;
    this.media = { own: Buffer.from(own, 'utf8'), base, json: Buffer.from(JSON.stringify(base).slice(1, -1), 'utf8'), bytes: Buffer.from(base, 'utf8') };
    this.kinds = plan.leaves.map((leaf) => leaf.kind);
    this.codes = Uint8Array.from(this.kinds, (kind) => KIND[kind]);
    this.omits = plan.leaves.map((leaf) => leaf.omit);
    this.named = plan.leaves.map((leaf) => Buffer.from(leaf.lead + leaf.name, 'utf8'));
    this.leads = plan.leaves.map((leaf) => Buffer.from(leaf.lead, 'utf8'));
    this.suffix = Buffer.from(`${plan.suffix}\n`, 'utf8');
  }

  /** Where the row's first field starts, once its count of fields is checked. */
  private start(bytes: Buffer): number {
    const count = bytes.readInt16BE(0);
    if (count !== this.kinds.length) throw new Error(`exports: a record of ${count} values, expected ${this.kinds.length}`);
    return 2;
  }

  /** Writes the item's JSON text and a newline (one NDJSON line); `lines()` takes what was written. */
  write(bytes: Buffer): void {
    let at = this.start(bytes);
    const { codes, omits, named, leads, out } = this;
    for (let i = 0; i < codes.length; i++) {
      const length = bytes.readInt32BE(at);
      at += 4;
      if (length < 0) {
        if (omits[i]) out.put(leads[i]!);
        else {
          out.put(named[i]!);
          out.put(NULL);
        }
        continue;
      }
      out.put(named[i]!);
      switch (codes[i]) {
        case KIND.text:
          out.string(bytes, at, length);
          break;
        case KIND.enum:
          out.quoted(bytes, at, length);
          break;
        case KIND.media:
          out.string(bytes, at, length, startsWith(bytes, at, length, this.media.own) ? this.media : undefined);
          break;
        case KIND.texts:
          out.texts(bytes, at);
          break;
        case KIND.json:
          out.copy(bytes, at, at + length);
          break;
        case KIND.int:
          out.integer(bytes.readInt32BE(at));
          break;
        case KIND.bigint: {
          const exact = int8Number(bytes, at);
          if (exact === null) out.ascii(jsonOf('bigint', bytes, at, length));
          else out.integer(exact);
          break;
        }
        case KIND.bool:
          out.put(bytes[at] ? TRUE : FALSE);
          break;
        case KIND.iso:
          if (!out.instant(bytes, at)) out.ascii(jsonOf('iso', bytes, at, length));
          break;
        default:
          out.ascii(jsonOf('float', bytes, at, length));
      }
      at += length;
    }
    out.put(this.suffix);
  }

  /** The NDJSON lines written since the last call: a view, valid until the next write (LineBuffer take). */
  lines(): Buffer {
    return this.out.take();
  }

  /** The item's JSON text (one NDJSON line, without its newline). */
  line(bytes: Buffer): string {
    this.write(bytes);
    return this.lines().toString('utf8').slice(0, -1);
  }

  /**
   * Where each column's value is among the leaves (a column is a leaf of the item: columns.ts columnsOf); a column
   * the records do not hold is an error, not an empty column.
   */
  columnLeaves(columns: Column[]): number[] {
    const at = new Map(this.plan.leaves.map((leaf, i) => [leaf.path.join('.'), i]));
    return columns.map((column) => {
      const index = at.get(column.path.join('.'));
      if (index === undefined) throw new Error(`exports: the bulk records hold no ${column.name}`);
      return index;
    });
  }

  /** The record's leaf values (as JSON.parse of its line gives them), into `values` (one array a leaf) at `row`. */
  values(bytes: Buffer, values: unknown[][], row: number): void {
    let at = this.start(bytes);
    const { kinds, media } = this;
    for (let i = 0; i < kinds.length; i++) {
      const length = bytes.readInt32BE(at);
      at += 4;
      values[i]![row] = length < 0 ? null : valueOf(kinds[i]!, bytes, at, length, media);
      if (length > 0) at += length;
    }
  }

  /**
   * The record's values into the columns of a file (`sink`, service/parquet.ts): leaf i goes to column `columnOf[i]`
   * (-1: no column). The `raw` leaves (rawLeaves) go as they travel, with no value made of them: a string's bytes are
   * copied from the COPY's chunk into the column (a media path's prefixed), a timestamp goes as its milliseconds.
   */
  fill(bytes: Buffer, sink: ColumnSink, columnOf: Int32Array, raw: readonly boolean[]): void {
    let at = this.start(bytes);
    const { kinds, media } = this;
    for (let i = 0; i < kinds.length; i++) {
      const length = bytes.readInt32BE(at);
      at += 4;
      const column = columnOf[i]!;
      if (column < 0) {
        if (length > 0) at += length;
        continue;
      }
      if (length < 0) {
        sink.add(column, null);
        continue;
      }
      const kind = kinds[i]!;
      if (raw[i] && kind === 'iso') sink.add(column, timestampMs(bytes, at));
      else if (raw[i] && (kind === 'text' || kind === 'enum' || kind === 'media')) {
        sink.addBytes(column, bytes, at, at + length, kind === 'media' && startsWith(bytes, at, length, media.own) ? media.bytes : undefined);
      } else sink.add(column, valueOf(kind, bytes, at, length, media));
      at += length;
    }
  }

  /** Which leaves `fill` may write raw for `columns` (columnLeaves' order): strings into string columns, timestamps into timestamp columns. */
  rawLeaves(columns: Column[]): boolean[] {
    const raw = this.kinds.map(() => false);
    this.columnLeaves(columns).forEach((leaf, i) => {
      const kind = this.kinds[leaf]!;
      const column = columns[i]!.kind;
      if ((column === 'string' && (kind === 'text' || kind === 'enum' || kind === 'media')) || (column === 'timestamp' && kind === 'iso')) raw[leaf] = true;
    });
    return raw;
  }
}
