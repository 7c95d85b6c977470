import { closeSync, createWriteStream, fdatasync, openSync, writeSync } from 'node:fs';
import { open, rename, rm, stat } from 'node:fs/promises';
import zlib from 'node:zlib';
import type { ExportFormat } from '../args.js';
import { ParquetFile, type ParquetCodec, type ParquetKind } from './parquet.js';
import type { ColumnSink } from './records.js';

// The files of exports, written as the rows are read (a chunk at a time: memory stays flat whatever the size) to a
// temporary name (`<id>.<ext>.part`) that is renamed only once the file is complete, so a file named as done is whole.
// - ndjson: each row as REST returns it, one JSON object per line;
// - csv (RFC 4180, UTF-8, CRLF line ends, a header row): one column per leaf field of the item as REST selects it,
//   nested objects flattened with dots (`rank.currentRank`), lists (and JSON values) as JSON text, null as an empty field;
// - parquet: the same columns, typed from the GraphQL item type (Int → INT32, Float → DOUBLE, Boolean → BOOLEAN,
//   DateTime → INT64 TIMESTAMP_MILLIS, everything else → UTF-8 strings, lists as JSON text), every column nullable,
//   one row group per ROW_GROUP rows or ROW_GROUP_BYTES of values.

/** A column of a flat file: the path of a leaf field in the item, and how its values are typed. */
export type Column = { name: string; path: string[]; kind: 'int' | 'float' | 'bool' | 'timestamp' | 'string' | 'json' };

function valueAt(row: Record<string, unknown>, path: string[]): unknown {
  let value: unknown = row;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return null;
    value = (value as Record<string, unknown>)[key];
  }
  return value ?? null;
}

/** A CSV field (RFC 4180): quoted when it holds a comma, a quote, CR or LF (quotes doubled); null is empty. */
export function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  // Scalars come as the execution serialised them (a DateTime as its ISO text) or as a bulk read's values.
  const text = value instanceof Date ? value.toISOString() : typeof value === 'object' ? JSON.stringify(value) : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/**
 * A chunk of rows read, as REST shows them: objects (read through the route's resolvers), or the NDJSON text of
 * `length` items (a bulk read: one item a line), written as it is to an NDJSON file and parsed only for the flat formats.
 */
export class RowChunk {
  private constructor(
    readonly length: number, readonly lines: string | null, private objects: Record<string, unknown>[] | null, readonly bytes: Buffer | null = null,
    readonly columns: unknown[][] | null = null,
    readonly records: { rows: Buffer[]; fill: (record: Buffer, sink: ColumnSink) => void } | null = null,
  ) {}

  static ofRows(rows: Record<string, unknown>[]): RowChunk {
    return new RowChunk(rows.length, null, rows);
  }

  static ofLines(text: string, count: number): RowChunk {
    return new RowChunk(count, text, null);
  }

  /**
   * NDJSON bytes of `count` items, each line ended by a newline (the export's worker: COPY's bytes as they came, or a
   * view of its line buffer, which a synchronous writer has written before the buffer is written again).
   */
  static ofNdjson(bytes: Buffer, count: number): RowChunk {
    return new RowChunk(count, null, null, bytes);
  }

  /**
   * `count` rows as their columns' values (one array a column of the writer, in its order; a value as JSON.parse gives
   * it): the export's worker from the records it read (records.ts), for CSV without JSON in between.
   */
  static ofColumns(columns: unknown[][], count: number): RowChunk {
    return new RowChunk(count, null, null, null, columns);
  }

  /**
   * `records.length` rows as records (a bulk read's COPY rows), each written into a file's columns by `fill`: for
   * Parquet, whose columns take a string's bytes straight from the record (records.ts `fill`), no value in between.
   */
  static ofRecords(records: Buffer[], fill: (record: Buffer, sink: ColumnSink) => void): RowChunk {
    return new RowChunk(records.length, null, null, null, null, { rows: records, fill });
  }

  /** The rows as objects (a bulk chunk's lines parsed once). */
  rows(): Record<string, unknown>[] {
    if (this.columns || this.records) throw new Error('exports: a chunk of columns or records has no row objects');
    const lines = this.lines ?? this.bytes?.toString('utf8').trimEnd() ?? '';
    this.objects ??= this.length ? (JSON.parse(`[${lines.replaceAll('\n', ',')}]`) as Record<string, unknown>[]) : [];
    return this.objects;
  }
}

export type RowWriter = {
  /** The temporary file being written. */
  readonly partPath: string;
  write(chunk: RowChunk): Promise<void>;
  /** Completes the file and renames it to its final name: its size. */
  finish(): Promise<number>;
  /** Deletes what was written. */
  abort(): Promise<void>;
};

/** How much of a file is written between two of syncBehind's flushes. */
const SYNC_EVERY = 32 * 1024 * 1024;

type SyncBehind = {
  /** After a write: `size` bytes of the file written so far. */
  wrote(fd: number, size: number): void;
  /** Waits for the flush under way; throws the error of any earlier one. Before the file is closed. */
  settle(): Promise<void>;
};

/**
 * Flushes a file being written to disk as it grows: `wrote` starts an fdatasync once SYNC_EVERY more bytes were
 * written (one at a time, in the background). The sync that makes the finished file durable then has little left to
 * write: at the large scale it took ~3 s of a 21 s export, with the disk idle while the file was written. A flush's
 * error fails the file (at the next write, or at `settle`): once reported, Linux would not report it again to the
 * final sync, and the pages it could not write may be dropped.
 */
function syncBehind(): SyncBehind {
  let synced = 0;
  let pending: Promise<void> | null = null;
  let failed: Error | null = null;
  return {
    wrote(fd, size) {
      if (failed) throw failed;
      if (pending || fd < 0 || size - synced < SYNC_EVERY) return;
      pending = new Promise<void>((resolve) =>
        fdatasync(fd, (error) => {
          if (error) failed = error;
          else synced = size;
          pending = null;
          resolve();
        }),
      );
    },
    async settle() {
      await pending;
      if (failed) throw failed;
    },
  };
}

type TextFile = { put(text: string | Buffer): Promise<void>; end(): Promise<void> };

/**
 * A text file written through a stream, waiting for it to drain (flat memory); or, `sync` (the export's worker thread,
 * whose loop has nothing else to do), written at once: a buffer put is on disk's side when put resolves, so its
 * memory can be written again (records.ts LineBuffer).
 */
function textFile(partPath: string, sync: boolean): TextFile {
  // Opened here, so that its descriptor is known (syncBehind); the stream closes it.
  const fd = openSync(partPath, 'w');
  const synced = syncBehind();
  if (sync) {
    let size = 0;
    let open = true;
    return {
      async put(text) {
        const bytes = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
        for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done, bytes.length - done);
        size += bytes.length;
        synced.wrote(fd, size);
      },
      async end() {
        if (!open) return;
        open = false;
        try {
          await synced.settle();
        } finally {
          closeSync(fd);
        }
      },
    };
  }
  const stream = createWriteStream(partPath, { fd });
  let failed: Error | null = null;
  stream.on('error', (error) => (failed = error));
  return {
    async put(text) {
      if (failed) throw failed;
      const written = stream.write(text);
      synced.wrote(fd, stream.bytesWritten);
      if (!written) {
        await new Promise<void>((resolve, reject) => {
          const drained = () => {
            stream.off('error', reject);
            resolve();
          };
          stream.once('drain', drained);
          stream.once('error', reject);
        });
      }
    },
    async end() {
      // The flush under way first (the stream then closes the descriptor); its failure fails the file, closed either way.
      const settled = await synced.settle().then(() => null, (error: Error) => error);
      await new Promise<void>((resolve, reject) => { if (failed) return reject(failed); stream.end(() => (failed ? reject(failed) : resolve())); });
      if (settled) throw settled;
    },
  };
}

async function durable(partPath: string, finalPath: string): Promise<number> {
  const handle = await open(partPath, 'r+');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(partPath, finalPath);
  return (await stat(finalPath)).size;
}

/**
 * A Parquet row group's bounds: a group's columns are held in memory until it is written (its encoded values, then
 * its pages while they are compressed, as the next group is filled: two groups at most), so it ends at ROW_GROUP rows
 * or once its values take ROW_GROUP_BYTES, whichever comes first: the memory a group takes does not grow with the
 * items' size.
 */
const ROW_GROUP = 10_000;
const ROW_GROUP_BYTES = 2 * 1024 * 1024;

/** A file's writer; `sync`: its text written synchronously (in the export's worker thread, not on the API's loop). */
export function rowWriter(format: ExportFormat, finalPath: string, columns: Column[], { sync = false } = {}): RowWriter {
  const partPath = `${finalPath}.part`;
  const abort = async () => {
    await rm(partPath, { force: true });
  };
  if (format === 'parquet') return parquetWriter(partPath, finalPath, columns, abort);
  const file = textFile(partPath, sync);
  let header = format === 'csv';
  return {
    partPath,
    async write(chunk) {
      let text = '';
      if (header) {
        text += `${columns.map((column) => csvField(column.name)).join(',')}\r\n`;
        header = false;
      }
      if (format === 'ndjson' && chunk.bytes !== null) {
        if (chunk.length) await file.put(chunk.bytes);
        return;
      }
      if (format === 'ndjson' && chunk.lines !== null) {
        if (chunk.length) await file.put(`${chunk.lines}\n`);
        return;
      }
      if (chunk.columns) {
        if (format === 'ndjson') throw new Error('exports: an NDJSON chunk of columns');
        const values = chunk.columns;
        for (let row = 0; row < chunk.length; row++) text += `${values.map((column) => csvField(column[row])).join(',')}\r\n`;
        if (text) await file.put(text);
        return;
      }
      const rows = chunk.rows();
      if (format === 'ndjson') for (const row of rows) text += `${JSON.stringify(row)}\n`;
      else for (const row of rows) text += `${columns.map((column) => csvField(valueAt(row, column.path))).join(',')}\r\n`;
      if (text) await file.put(text);
    },
    async finish() {
      if (header) await file.put(`${columns.map((column) => csvField(column.name)).join(',')}\r\n`);
      await file.end();
      return durable(partPath, finalPath);
    },
    async abort() {
      await file.end().catch(() => {});
      await abort();
    },
  };
}

/**
 * Parquet pages compressed with Zstandard at level 1 by Node's zlib (native): faster than Snappy in JavaScript and a
 * third smaller; read by hyparquet (the tests) and DuckDB (checked by hand). One compression stream a file, each
 * page its own frame (ZSTD_e_end): zstdCompressSync makes a context a call that only a garbage collection frees, and
 * at ~4,600 pages an export that was ~35 MB of the server's RSS (a loop of 5,500 such calls alone: 425 MB; one
 * stream: 85 MB).
 */
const { createZstdCompress, constants: { ZSTD_c_compressionLevel, ZSTD_e_end } } = zlib as unknown as {
  // Node ≥ 22.15 (package.json's engines), not yet in the @types/node this project has.
  createZstdCompress(options: { params: Record<number, number> }): import('node:stream').Transform & { flush(kind: number, callback: (error?: Error | null) => void): void; close(): void };
  constants: { ZSTD_c_compressionLevel: number; ZSTD_e_end: number };
};

function zstdPages(): ParquetCodec & { close(): void } {
  const stream = createZstdCompress({ params: { [ZSTD_c_compressionLevel]: 1 } });
  const out: Buffer[] = [];
  let failed: Error | null = null;
  stream.on('data', (chunk: Buffer) => out.push(chunk));
  stream.on('error', (error: Error) => (failed = error));
  return {
    codec: 6,
    compress: (input) =>
      new Promise((resolve, reject) => {
        stream.write(input);
        stream.flush(ZSTD_e_end, (error?: Error | null) => {
          if (error ?? failed) return reject(error ?? failed);
          const frame = Buffer.concat(out);
          out.length = 0;
          resolve(frame);
        });
      }),
    close: () => stream.close(),
  };
}

/** How each kind of column is stored: JSON values as their text, in a string column. */
const PARQUET_KINDS = { int: 'int', float: 'float', bool: 'bool', timestamp: 'timestamp', string: 'string', json: 'string' } as const satisfies Record<Column['kind'], ParquetKind>;

/**
 * A Parquet file of the columns (service/parquet.ts). A value is taken as it comes: a string column's UTF-8 bytes as
 * a bulk read's records send them (records.ts `raw`), a timestamp as milliseconds since 1970, a Date or its text; a
 * JSON column's value is written as its JSON text.
 */
function parquetWriter(partPath: string, finalPath: string, columns: Column[], remove: () => Promise<void>): RowWriter {
  const zstd = zstdPages();
  let file: ParquetFile;
  try {
    file = new ParquetFile(partPath, columns.map((column) => ({ name: column.name, kind: PARQUET_KINDS[column.kind] })), zstd);
  } catch (error) {
    zstd.close();
    throw error;
  }
  const synced = syncBehind();
  const flush = async () => {
    await file.flush();
    synced.wrote(file.descriptor, file.size);
  };
  const json = columns.map((column) => column.kind === 'json');
  const add = (i: number, value: unknown) => file.add(i, json[i] && value !== null && value !== undefined ? JSON.stringify(value) : value);
  const sink: ColumnSink = { add, addBytes: (i, source, start, end, prefix) => file.addBytes(i, source, start, end, prefix) };
  const full = () => file.pendingRows >= ROW_GROUP || file.pendingBytes >= ROW_GROUP_BYTES;
  // The bytes are summed over the columns every 64 rows (a row's values are far smaller than the bound).
  const due = (row: number) => ((row & 63) === 63 ? full() : file.pendingRows >= ROW_GROUP);
  return {
    partPath,
    async write(chunk) {
      if (chunk.records) {
        const { rows, fill } = chunk.records;
        for (let row = 0; row < rows.length; row++) {
          fill(rows[row]!, sink);
          if (due(row)) await flush();
        }
      } else {
        for (const row of chunk.rows()) {
          columns.forEach((column, i) => add(i, valueAt(row, column.path)));
          if (full()) await flush();
        }
      }
      if (full()) await flush();
    },
    async finish() {
      await synced.settle();
      await file.finish();
      zstd.close();
      return durable(partPath, finalPath);
    },
    async abort() {
      await synced.settle().catch(() => {});
      zstd.close();
      file.close();
      await remove();
    },
  };
}
