import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { parquetMetadata, parquetReadObjects } from 'hyparquet';
import { afterAll, describe, expect, it } from 'vitest';
import { ParquetFile, type ParquetColumn } from '../../src/schema/exports/service/parquet.js';

// The exports' Parquet writer on its own: what it writes is read back by hyparquet with the same values and types,
// across row groups, nulls in every kind, booleans past a byte, instants before 1970, multibyte text, more than 15
// columns (Thrift's long list header).

const zstd = zlib as unknown as { zstdCompressSync(input: Uint8Array): Uint8Array; zstdDecompressSync(input: Uint8Array): Uint8Array };
const dir = mkdtempSync(path.join(tmpdir(), 'parquet-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function readBack(file: string) {
  const bytes = readFileSync(file);
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  const rows = (await parquetReadObjects({ file: buffer, compressors: { ZSTD: (input) => zstd.zstdDecompressSync(input) } })) as Record<string, unknown>[];
  return { metadata: parquetMetadata(buffer), rows };
}

describe('ParquetFile', () => {
  it('writes typed optional columns over several row groups, read back with their values and nulls', async () => {
    const columns: ParquetColumn[] = [
      { name: 'id', kind: 'string' }, { name: 'count', kind: 'int' }, { name: 'share', kind: 'float' }, { name: 'active', kind: 'bool' }, { name: 'at', kind: 'timestamp' },
    ];
    const file = path.join(dir, 'typed.parquet');
    const writer = new ParquetFile(file, columns, { codec: 6, compress: (input) => zstd.zstdCompressSync(input) });
    const expected: Record<string, unknown>[] = [];
    for (let i = 0; i < 1_000; i++) {
      const row = {
        id: i % 7 === 0 ? null : `ad-${i}-ünïcödé-🙂`,
        count: i % 11 === 0 ? null : i * (i % 2 ? -1 : 1),
        share: i % 13 === 0 ? null : i / 3,
        active: i % 5 === 0 ? null : i % 3 === 0,
        at: i % 17 === 0 ? null : new Date(Date.UTC(1969, 11, 31) + i * 3_600_000 * 7),
      };
      expected.push(row);
      // Strings as bytes and as text, instants as milliseconds and as Dates: the writer takes both.
      writer.add(0, row.id !== null && i % 2 ? Buffer.from(row.id) : row.id);
      writer.add(1, row.count);
      writer.add(2, row.share);
      writer.add(3, row.active);
      writer.add(4, row.at && i % 2 ? row.at.getTime() : row.at);
      if (i % 300 === 299) await writer.flush();
    }
    await writer.finish();
    const { metadata, rows } = await readBack(file);
    expect(metadata.row_groups.length).toBe(4);
    expect(Number(metadata.num_rows)).toBe(1_000);
    const types = metadata.schema.slice(1).map((element) => `${element.name}:${element.type}${element.converted_type ? `/${element.converted_type}` : ''}:${element.repetition_type}`);
    expect(types).toEqual(['id:BYTE_ARRAY/UTF8:OPTIONAL', 'count:INT32:OPTIONAL', 'share:DOUBLE:OPTIONAL', 'active:BOOLEAN:OPTIONAL', 'at:INT64/TIMESTAMP_MILLIS:OPTIONAL']);
    expect(rows).toEqual(expected);
    const nulls = metadata.row_groups[0]!.columns.map((column) => Number(column.meta_data?.statistics?.null_count));
    expect(nulls).toEqual([0, 1, 2, 3, 4].map((c) => expected.slice(0, 300).filter((row) => Object.values(row)[c] === null).length));
  });

  it('writes many columns, an empty file, and JSON text as strings', async () => {
    const columns = Array.from({ length: 40 }, (_, i): ParquetColumn => ({ name: `c${i}`, kind: i % 2 ? 'int' : 'string' }));
    const file = path.join(dir, 'wide.parquet');
    const writer = new ParquetFile(file, columns, { codec: 6, compress: (input) => zstd.zstdCompressSync(input) });
    for (let row = 0; row < 3; row++) columns.forEach((column, i) => writer.add(i, column.kind === 'int' ? row * i : JSON.stringify({ row, i })));
    // A value the column cannot hold is refused, not written as another one.
    expect(() => writer.add(1, 2 ** 40)).toThrow(/no 32-bit integer/);
    expect(() => writer.add(1, 1.5)).toThrow(/no 32-bit integer/);
    await writer.finish();
    const { rows } = await readBack(file);
    expect(rows.length).toBe(3);
    expect(rows[2]!.c39).toBe(2 * 39);
    expect(JSON.parse(rows[1]!.c20 as string)).toEqual({ row: 1, i: 20 });

    const empty = path.join(dir, 'empty.parquet');
    const none = new ParquetFile(empty, columns, { codec: 6, compress: (input) => zstd.zstdCompressSync(input) });
    await none.finish();
    const read = await readBack(empty);
    expect(read.rows).toEqual([]);
    expect(read.metadata.schema.length).toBe(41);
  });

  it('compresses a row group while the next one is filled, and fails on a codec error or a file closed meanwhile', async () => {
    const columns: ParquetColumn[] = [{ name: 'n', kind: 'int' }, { name: 's', kind: 'string' }];
    // A codec that answers when the test says so: the pages it was given wait meanwhile.
    const waiting: (() => void)[] = [];
    const held = { codec: 6, compress: (input: Uint8Array) => new Promise<Uint8Array>((resolve) => waiting.push(() => resolve(zstd.zstdCompressSync(input)))) };
    const release = async () => {
      while (waiting.length) {
        waiting.shift()!();
        await new Promise((resolve) => setImmediate(resolve));
      }
    };
    const file = path.join(dir, 'overlapped.parquet');
    const writer = new ParquetFile(file, columns, held);
    for (let i = 0; i < 500; i++) {
      writer.add(0, i);
      writer.add(1, `row ${i}`);
      if (i % 100 !== 99) continue;
      // The first flush returns with its group's first page still being compressed; the next rows go into a new group.
      if (i === 99) {
        await writer.flush();
        expect(waiting.length).toBe(1);
        expect(writer.pendingRows).toBe(0);
        continue;
      }
      // A later flush waits for the group before it to be written.
      const flushed = writer.flush();
      await release();
      await flushed;
    }
    const finished = writer.finish();
    await release();
    await finished;
    const { metadata, rows } = await readBack(file);
    expect(metadata.row_groups.map((group) => Number(group.num_rows))).toEqual([100, 100, 100, 100, 100]);
    expect(rows).toEqual(Array.from({ length: 500 }, (_, i) => ({ n: i, s: `row ${i}` })));

    const failing = new ParquetFile(path.join(dir, 'failing.parquet'), columns, { codec: 6, compress: () => Promise.reject(new Error('codec down')) });
    failing.add(0, 1);
    failing.add(1, 'x');
    await failing.flush();
    await expect(failing.finish()).rejects.toThrow('codec down');
    failing.close();

    const later = { codec: 6, compress: (input: Uint8Array) => new Promise<Uint8Array>((resolve) => setTimeout(() => resolve(zstd.zstdCompressSync(input)), 2)) };
    const closed = new ParquetFile(path.join(dir, 'closed.parquet'), columns, later);
    closed.add(0, 1);
    closed.add(1, 'x');
    await closed.flush();
    // Stopped while its group is compressed: nothing is written to the descriptor once closed.
    closed.close();
    await expect(closed.finish()).rejects.toThrow(/closed before its row group was written/);
    expect(readFileSync(path.join(dir, 'closed.parquet')).length).toBe(4);
  });
});
