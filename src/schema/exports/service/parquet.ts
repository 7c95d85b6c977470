import { closeSync, openSync, writeSync } from 'node:fs';

// A Parquet file written a row group at a time (the format: https://parquet.apache.org/docs/file-format/), the one
// shape exports need: flat, every column optional, one data page (v1) per column per row group, values PLAIN,
// definition levels bit-packed, pages compressed by the caller's codec (Zstandard). Each value is encoded into its
// column's buffer as it is added (no array of values, no dictionary, no statistics but the null count), so a row
// costs a few buffer writes, and a string given as bytes is copied as it came. Read back by hyparquet in the tests
// (test/exports/parquet.test.ts, api.test.ts); DuckDB read the files of the exports' bench (checked by hand).

/** How a column is stored: its physical type and annotation. */
export type ParquetKind = 'int' | 'float' | 'bool' | 'timestamp' | 'string';

export type ParquetColumn = { name: string; kind: ParquetKind };

/** Compresses a page's bytes; `codec` is its number in parquet.thrift's CompressionCodec. */
export type ParquetCodec = { codec: number; compress(input: Uint8Array): Uint8Array | Promise<Uint8Array> };

const TYPE = { bool: 0, int: 1, timestamp: 2, float: 5, string: 6 } as const; // parquet.thrift Type
const PLAIN = 0;
const RLE = 3;
const OPTIONAL = 1;
const CONVERTED = { string: 0, timestamp: 9 } as const; // UTF8, TIMESTAMP_MILLIS
const TWO_32 = 2 ** 32;

/** A growable byte buffer. */
class Bytes {
  buffer = Buffer.allocUnsafe(1024);
  length = 0;

  reserve(more: number): void {
    if (this.length + more <= this.buffer.length) return;
    let size = this.buffer.length * 2;
    while (size < this.length + more) size *= 2;
    const next = Buffer.allocUnsafe(size);
    this.buffer.copy(next, 0, 0, this.length);
    this.buffer = next;
  }

  byte(value: number): void {
    this.reserve(1);
    this.buffer[this.length++] = value;
  }

  /** An unsigned varint (ULEB128) of a whole number below 2^53. */
  varint(value: number): void {
    this.reserve(8);
    while (value >= 0x80) {
      this.buffer[this.length++] = (value % 0x80) | 0x80;
      value = Math.floor(value / 0x80);
    }
    this.buffer[this.length++] = value;
  }

  bytes(source: Uint8Array): void {
    this.reserve(source.length);
    this.buffer.set(source, this.length);
    this.length += source.length;
  }

  take(): Buffer {
    return this.buffer.subarray(0, this.length);
  }

  clear(): void {
    this.length = 0;
  }
}

/** One column of the row group being built: its values PLAIN-encoded, one definition bit a row (1: a value). */
class ColumnBuffer {
  readonly values = new Bytes();
  private defined = new Uint8Array(1024);
  private bits = 0; // pending PLAIN booleans, and how many
  private bitCount = 0;
  rows = 0;
  nulls = 0;

  constructor(readonly kind: ParquetKind) {}

  /** Adds the next row's value; one it cannot store is refused before anything of it is written. */
  add(value: unknown): void {
    const defined = value !== null && value !== undefined;
    if (defined) this.encode(value);
    this.next(defined);
  }

  /** A string value from `source`'s bytes `start`..`end`, after `prefix`'s when given. */
  addBytes(source: Uint8Array, start: number, end: number, prefix?: Uint8Array): void {
    this.byteArray(source, start, end, prefix);
    this.next(true);
  }

  /** Counts the row, a value (its definition bit set) or a null. */
  private next(defined: boolean): void {
    const row = this.rows++;
    if (row >> 3 >= this.defined.length) {
      const grown = new Uint8Array(this.defined.length * 2);
      grown.set(this.defined);
      this.defined = grown;
    }
    if (defined) this.defined[row >> 3]! |= 1 << (row & 7);
    else this.nulls++;
  }

  /** A BYTE_ARRAY value: its length, then `prefix`'s bytes and `source`'s `start`..`end`. */
  private byteArray(source: Uint8Array, start: number, end: number, prefix?: Uint8Array): void {
    const out = this.values;
    const before = prefix?.length ?? 0;
    const length = before + end - start;
    out.reserve(4 + length);
    const bytes = out.buffer;
    let at = out.length;
    bytes[at++] = length & 0xff;
    bytes[at++] = (length >>> 8) & 0xff;
    bytes[at++] = (length >>> 16) & 0xff;
    bytes[at++] = length >>> 24;
    if (prefix) {
      bytes.set(prefix, at);
      at += before;
    }
    // A short string byte by byte, a long one by Buffer's copy: neither makes a view of the source (a subarray a
    // string was ~5% of a Parquet export's time).
    if (end - start <= 64) for (let i = start; i < end; i++) bytes[at++] = source[i]!;
    else at += Buffer.prototype.copy.call(source, bytes, at, start, end);
    out.length = at;
  }

  private encode(value: unknown): void {
    const out = this.values;
    switch (this.kind) {
      case 'int': {
        const n = Number(value);
        if (!Number.isInteger(n) || n < -0x80000000 || n > 0x7fffffff) throw new Error(`exports: ${String(value)} is no 32-bit integer`);
        out.reserve(4);
        out.buffer.writeInt32LE(n, out.length);
        out.length += 4;
        return;
      }
      case 'float':
        out.reserve(8);
        out.buffer.writeDoubleLE(Number(value), out.length);
        out.length += 8;
        return;
      case 'timestamp': {
        const ms = typeof value === 'number' ? value : new Date(value as string | Date).getTime();
        if (!Number.isSafeInteger(ms)) throw new Error(`exports: ${String(value)} is no instant`);
        const high = Math.floor(ms / TWO_32);
        out.reserve(8);
        out.buffer.writeUInt32LE(ms - high * TWO_32, out.length);
        out.buffer.writeInt32LE(high, out.length + 4);
        out.length += 8;
        return;
      }
      case 'bool':
        if (value) this.bits |= 1 << this.bitCount;
        if (++this.bitCount === 8) {
          out.byte(this.bits);
          this.bits = this.bitCount = 0;
        }
        return;
      default: {
        if (value instanceof Uint8Array) return this.byteArray(value, 0, value.length);
        const text = typeof value === 'string' ? value : JSON.stringify(value);
        const length = Buffer.byteLength(text);
        out.reserve(4 + length);
        out.buffer.writeUInt32LE(length, out.length);
        out.buffer.write(text, out.length + 4, length, 'utf8');
        out.length += 4 + length;
      }
    }
  }

  /** The bytes its values take so far (a row group's bound). */
  get size(): number {
    return this.values.length;
  }

  /** The page's uncompressed bytes: the definition levels (length-prefixed, one bit-packed run), then the values. */
  page(): Buffer {
    if (this.bitCount) {
      this.values.byte(this.bits);
      this.bits = this.bitCount = 0;
    }
    const groups = Math.ceil(this.rows / 8);
    const levels = new Bytes();
    levels.varint(groups * 2 + 1); // a bit-packed run of `groups` groups of 8 levels, bit width 1
    levels.bytes(this.defined.subarray(0, groups));
    const page = Buffer.allocUnsafe(4 + levels.length + this.values.length);
    page.writeUInt32LE(levels.length, 0);
    levels.take().copy(page, 4);
    this.values.take().copy(page, 4 + levels.length);
    return page;
  }

  clear(): void {
    this.values.clear();
    this.defined.fill(0, 0, Math.ceil(this.rows / 8));
    this.rows = this.nulls = 0;
  }
}

/** Thrift's compact protocol, as much of it as Parquet's page headers and footer take. */
class Thrift extends Bytes {
  private last = 0;
  private readonly outer: number[] = [];

  private field(id: number, type: number): void {
    const delta = id - this.last;
    if (delta > 0 && delta <= 15) this.byte((delta << 4) | type);
    else {
      this.byte(type);
      this.varint(zigzag(id));
    }
    this.last = id;
  }

  i32(id: number, value: number): this {
    this.field(id, 5);
    this.varint(zigzag(value));
    return this;
  }

  i64(id: number, value: number): this {
    this.field(id, 6);
    this.varint(zigzag(value));
    return this;
  }

  bool(id: number, value: boolean): this {
    this.field(id, value ? 1 : 2);
    return this;
  }

  string(id: number, value: string): this {
    this.field(id, 8);
    this.text(value);
    return this;
  }

  private text(value: string): void {
    const bytes = Buffer.from(value, 'utf8');
    this.varint(bytes.length);
    this.bytes(bytes);
  }

  /** The end of the outermost struct (a page header's, the footer's). */
  end(): this {
    this.byte(0);
    return this;
  }

  /** A struct field: `write` writes its fields. */
  struct(id: number, write: (thrift: this) => void): this {
    this.field(id, 12);
    return this.nested(write);
  }

  private nested(write: (thrift: this) => void): this {
    this.outer.push(this.last);
    this.last = 0;
    write(this);
    this.byte(0);
    this.last = this.outer.pop()!;
    return this;
  }

  private list(id: number, type: number, size: number): void {
    this.field(id, 9);
    if (size < 15) this.byte((size << 4) | type);
    else {
      this.byte(0xf0 | type);
      this.varint(size);
    }
  }

  i32s(id: number, values: readonly number[]): this {
    this.list(id, 5, values.length);
    for (const value of values) this.varint(zigzag(value));
    return this;
  }

  strings(id: number, values: readonly string[]): this {
    this.list(id, 8, values.length);
    for (const value of values) this.text(value);
    return this;
  }

  structs<T>(id: number, items: readonly T[], write: (thrift: this, item: T) => void): this {
    this.list(id, 12, items.length);
    for (const item of items) this.nested((thrift) => write(thrift, item));
    return this;
  }
}

const zigzag = (value: number) => (value >= 0 ? value * 2 : -value * 2 - 1);

type ChunkMeta = { column: number; offset: number; values: number; nulls: number; compressed: number; uncompressed: number };
type GroupMeta = { rows: number; offset: number; bytes: number; compressed: number; chunks: ChunkMeta[] };

/** A Parquet file being written: add rows (a value a column), `flush` a row group, `finish` writes the footer. */
export class ParquetFile {
  private fd: number;
  private offset = 0;
  private rows = 0;
  private readonly groups: GroupMeta[] = [];
  private readonly buffers: ColumnBuffer[];
  /** The row group being compressed and written (flush), and its failure. */
  private writing: Promise<void> = Promise.resolve();
  private failure: Error | null = null;

  constructor(path: string, private readonly columns: readonly ParquetColumn[], private readonly codec: ParquetCodec) {
    // Opened here, closed by finish() or close(), once: fd is -1 after, so that a second close cannot close a
    // descriptor the process has since given to another file or socket.
    this.fd = openSync(path, 'w');
    this.buffers = columns.map((column) => new ColumnBuffer(column.kind));
    this.write(Buffer.from('PAR1'));
  }

  /** The open file's descriptor (-1 once closed). */
  get descriptor(): number {
    return this.fd;
  }

  /** Bytes written to the file so far. */
  get size(): number {
    return this.offset;
  }

  /** Rows in the row group being built. */
  get pendingRows(): number {
    return this.buffers[0]?.rows ?? 0;
  }

  /** Bytes of values in the row group being built. */
  get pendingBytes(): number {
    let bytes = 0;
    for (const buffer of this.buffers) bytes += buffer.size;
    return bytes;
  }

  /** Adds a value to column `column` of the row being built (every column once a row, in order). */
  add(column: number, value: unknown): void {
    this.buffers[column]!.add(value);
  }

  /** Adds a string to column `column` from `source`'s bytes `start`..`end`, after `prefix`'s (copied, not held). */
  addBytes(column: number, source: Uint8Array, start: number, end: number, prefix?: Uint8Array): void {
    this.buffers[column]!.addBytes(source, start, end, prefix);
  }

  /**
   * Ends the row group built so far (nothing when it is empty). Its pages are taken from the columns at once, which
   * are then free for the next group's rows, and are compressed and written in the background (the codec works off
   * this thread), one group after another: flush waits for the group before it to be written, so one is in flight.
   */
  async flush(): Promise<void> {
    await this.writing;
    if (this.failure) throw this.failure;
    const rows = this.pendingRows;
    if (!rows) return;
    const pages = this.buffers.map((buffer) => {
      const taken = { page: buffer.page(), nulls: buffer.nulls };
      buffer.clear();
      return taken;
    });
    // A failure is kept for the next flush or finish (an unawaited rejection would end the thread).
    this.writing = this.writeGroup(rows, pages).catch((error: unknown) => void (this.failure = error as Error));
  }

  private async writeGroup(rows: number, pages: { page: Buffer; nulls: number }[]): Promise<void> {
    const group: GroupMeta = { rows, offset: this.offset, bytes: 0, compressed: 0, chunks: [] };
    for (const [column, { page, nulls }] of pages.entries()) {
      const compressed = await this.codec.compress(page);
      const header = new Thrift()
        .i32(1, 0) // DATA_PAGE
        .i32(2, page.length)
        .i32(3, compressed.length)
        .struct(5, (data) => data.i32(1, rows).i32(2, PLAIN).i32(3, RLE).i32(4, RLE))
        .end()
        .take();
      const offset = this.offset;
      this.write(header);
      this.write(compressed);
      const chunk = { column, offset, values: rows, nulls, compressed: header.length + compressed.length, uncompressed: header.length + page.length };
      group.chunks.push(chunk);
      group.bytes += chunk.uncompressed;
      group.compressed += chunk.compressed;
    }
    this.groups.push(group);
    this.rows += rows;
  }

  /** Writes the last row group and the footer, and closes the file (the caller syncs it). */
  async finish(): Promise<void> {
    await this.flush();
    await this.writing;
    if (this.failure) throw this.failure;
    const footer = new Thrift()
      .i32(1, 1)
      .structs(2, [null, ...this.columns], (element, column) => {
        if (column === null) element.string(4, 'schema').i32(5, this.columns.length);
        else {
          element.i32(1, TYPE[column.kind]).i32(3, OPTIONAL).string(4, column.name);
          if (column.kind === 'string') element.i32(6, CONVERTED.string).struct(10, (logical) => logical.struct(1, () => {}));
          if (column.kind === 'timestamp') {
            element.i32(6, CONVERTED.timestamp).struct(10, (logical) => logical.struct(8, (timestamp) => timestamp.bool(1, true).struct(2, (unit) => unit.struct(1, () => {}))));
          }
        }
      })
      .i64(3, this.rows)
      .structs(4, this.groups, (group, meta) =>
        group
          .structs(1, meta.chunks, (chunk, c) =>
            chunk.i64(2, c.offset).struct(3, (data) =>
              data
                .i32(1, TYPE[this.columns[c.column]!.kind])
                .i32s(2, [PLAIN, RLE])
                .strings(3, [this.columns[c.column]!.name])
                .i32(4, this.codec.codec)
                .i64(5, c.values)
                .i64(6, c.uncompressed)
                .i64(7, c.compressed)
                .i64(9, c.offset)
                .struct(12, (statistics) => statistics.i64(3, c.nulls)),
            ),
          )
          .i64(2, meta.bytes)
          .i64(3, meta.rows)
          .i64(5, meta.offset)
          .i64(6, meta.compressed),
      )
      .string(6, 'market-intelligence-api exports')
      .end()
      .take();
    const tail = Buffer.allocUnsafe(8);
    tail.writeUInt32LE(footer.length, 0);
    tail.write('PAR1', 4, 'latin1');
    this.write(footer);
    this.write(tail);
    this.close();
  }

  /** Closes the file (without its footer, unless finish() wrote it: the caller deletes an unfinished one). */
  close(): void {
    if (this.fd < 0) return;
    const fd = this.fd;
    this.fd = -1;
    closeSync(fd);
  }

  private write(bytes: Uint8Array): void {
    // Closed (an export stopped) while a row group was being compressed: its descriptor may be another file's by now.
    if (this.fd < 0) throw new Error('exports: the Parquet file was closed before its row group was written');
    let done = 0;
    while (done < bytes.length) done += writeSync(this.fd, bytes, done, bytes.length - done);
    this.offset += bytes.length;
  }
}
