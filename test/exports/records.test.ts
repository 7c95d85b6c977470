import { describe, expect, it } from 'vitest';
import { leaf, shapeRecord, type ItemShape } from '../../src/schema/shared/json-rows.js';
import { RecordItems } from '../../src/schema/exports/service/records.js';

// The export's worker writes an item read as a record (shared/json-rows.ts shapeRecord) from its row of a binary COPY
// (the count of fields, then each field's length and bytes, as the *send functions write them): the NDJSON line is the
// item's JSON.stringify, NULLs as null or left out (omitNull), and the columns' values are what JSON.parse of it gives.

const SHAPE: ItemShape = [
  ['id', leaf('text', 'a."id"')],
  ['note', leaf('text', 'a."note"', true)],
  ['status', leaf('enum', 'a."status"')],
  ['at', leaf('iso', 'a."at"')],
  ['nested', [['count', leaf('int', 'a."count"')], ['big', leaf('bigint', 'a."big"')], ['inner', [['ratio', leaf('float', 'a."ratio"')]]], ['huge', leaf('bigint', 'a."huge"')]]],
  ['tags', leaf('json', 'to_json(a."tags")::text')],
  ['flag', leaf('bool', 'a."flag"')],
  ['last', leaf('text', 'a."last"', true)],
];

type Cell = { type: 'text' | 'int4' | 'int8' | 'float8' | 'bool' | 'timestamptz' | 'text[]'; value: unknown } | null;

/** A one-dimensional text[] in binary form (array_send; an empty array has no dimensions). */
function textArray(texts: (string | null)[]): Buffer {
  if (!texts.length) return Buffer.from([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 25]);
  const head = Buffer.alloc(20);
  head.writeInt32BE(1, 0);
  head.writeInt32BE(texts.includes(null) ? 1 : 0, 4);
  head.writeInt32BE(25, 8);
  head.writeInt32BE(texts.length, 12);
  head.writeInt32BE(1, 16);
  const parts = [head];
  for (const text of texts) {
    const length = Buffer.alloc(4);
    const bytes = text === null ? Buffer.alloc(0) : Buffer.from(text, 'utf8');
    length.writeInt32BE(text === null ? -1 : bytes.length);
    parts.push(length, bytes);
  }
  return Buffer.concat(parts);
}

/** A record as a row of a binary COPY: its int16 count of fields, then each field's int32 length and bytes. */
function record(cells: Cell[]): Buffer {
  const parts: Buffer[] = [Buffer.alloc(2)];
  parts[0]!.writeInt16BE(cells.length);
  for (const cell of cells) {
    const head = Buffer.alloc(4);
    let data: Buffer = Buffer.alloc(0);
    if (cell === null) head.writeInt32BE(-1, 0);
    else {
      switch (cell.type) {
        case 'text': data = Buffer.from(cell.value as string, 'utf8'); break;
        case 'int4': data = Buffer.alloc(4); data.writeInt32BE(cell.value as number); break;
        case 'int8': data = Buffer.alloc(8); data.writeBigInt64BE(BigInt(cell.value as string)); break;
        case 'float8': data = Buffer.alloc(8); data.writeDoubleBE(cell.value as number); break;
        case 'bool': data = Buffer.from([cell.value ? 1 : 0]); break;
        case 'timestamptz': data = Buffer.alloc(8); data.writeBigInt64BE(BigInt(cell.value as string)); break;
        case 'text[]': data = textArray(cell.value as (string | null)[]); break;
      }
      head.writeInt32BE(data.length, 0);
    }
    parts.push(head, data);
  }
  return Buffer.concat(parts);
}

// 2024-03-05T06:07:08.123456Z in microseconds since 2000-01-01 (the .456 dropped, as to_char's MS drops it).
const MICROS = String((Date.UTC(2024, 2, 5, 6, 7, 8, 123) - Date.UTC(2000, 0, 1)) * 1000 + 456);

describe('RecordItems', () => {
  const { plan, columns } = shapeRecord(SHAPE, 'http://api.test');
  const items = new RecordItems(plan);

  it('selects the leaves as columns, each cast to its kind (an enum as it is)', () => {
    expect(columns.sql).toContain('(a."id")::text AS c0, (a."note")::text AS c1, (a."status") AS c2, (a."at")::timestamptz AS c3, (a."count")::int4 AS c4, (a."big")::int8 AS c5');
  });

  it('writes the line as JSON.stringify writes the item, and the values as JSON.parse reads it', () => {
    const full = record([
      { type: 'text', value: 'ad "1"\n\u{1F600}' }, { type: 'text', value: 'a note' }, { type: 'text', value: 'active' }, { type: 'timestamptz', value: MICROS },
      { type: 'int4', value: -42 }, { type: 'int8', value: '9007199254740991' }, { type: 'float8', value: 0.1 + 0.2 }, { type: 'int8', value: '-9223372036854775808' },
      { type: 'text', value: '["FR","DE"]' }, { type: 'bool', value: true }, { type: 'text', value: 'end' },
    ]);
    const expected = {
      id: 'ad "1"\n\u{1F600}', note: 'a note', status: 'active', at: '2024-03-05T06:07:08.123Z',
      nested: { count: -42, big: 9007199254740991, inner: { ratio: 0.1 + 0.2 }, huge: -9223372036854775808 }, tags: ['FR', 'DE'], flag: true, last: 'end',
    };
    const line = items.line(full);
    expect(JSON.parse(line)).toEqual(expected);
    expect(line).toContain('"huge":-9223372036854775808}');
    expect(line).toBe(JSON.stringify(expected).replace('-9223372036854776000', '-9223372036854775808'));
    const values = plan.leaves.map(() => [] as unknown[]);
    items.values(full, values, 0);
    expect(values.map((column) => column[0])).toEqual(['ad "1"\n\u{1F600}', 'a note', 'active', '2024-03-05T06:07:08.123Z', -42, 9007199254740991, 0.1 + 0.2, -9223372036854775808, ['FR', 'DE'], true, 'end']);
  });

  it('writes a timestamp centuries away exactly, and ±infinity as null (as to_char gives the JSON text path)', () => {
    const at = (micros: bigint) => {
      const cells: Cell[] = [{ type: 'text', value: 'x' }, null, { type: 'text', value: 'active' }, { type: 'timestamptz', value: String(micros) }, null, null, null, null, { type: 'text', value: '[]' }, { type: 'bool', value: false }, null];
      return (JSON.parse(items.line(record(cells))) as { at: unknown }).at;
    };
    const micros = (iso: string) => (BigInt(Date.parse(iso)) - BigInt(Date.UTC(2000, 0, 1))) * 1000n;
    expect(at(micros('2400-01-02T03:04:05.678Z') + 999n)).toBe('2400-01-02T03:04:05.678Z');
    expect(at(micros('1600-01-02T03:04:05.678Z') + 999n)).toBe('1600-01-02T03:04:05.678Z');
    expect(at(2n ** 63n - 1n)).toBeNull();
    expect(at(-(2n ** 63n))).toBeNull();
  });

  it("writes every instant as toISOString writes it, digit by digit from 2000 to 2285 and through a Date around them", () => {
    const at = (micros: bigint) => {
      const cells: Cell[] = [{ type: 'text', value: 'x' }, null, { type: 'text', value: 'active' }, { type: 'timestamptz', value: String(micros) }, null, null, null, null, { type: 'text', value: '[]' }, { type: 'bool', value: false }, null];
      return (JSON.parse(items.line(record(cells))) as { at: unknown }).at;
    };
    const EPOCH = BigInt(Date.UTC(2000, 0, 1));
    const iso = (micros: bigint) => new Date(Number((micros - (((micros % 1000n) + 1000n) % 1000n)) / 1000n + EPOCH)).toISOString();
    const micros = (text: string) => (BigInt(Date.parse(text)) - EPOCH) * 1000n;
    const edges = [
      0n, 999n, 1000n, -1n, -1000n, -1001n, 2n ** 53n - 1n, 2n ** 53n, 2n ** 53n + 12_345n,
      ...['2000-02-29T23:59:59.999Z', '2000-03-01T00:00:00.000Z', '2004-02-29T12:00:00.000Z', '2099-12-31T23:59:59.999Z', '2100-02-28T23:59:59.999Z',
        '2100-03-01T00:00:00.000Z', '2026-11-30T09:05:07.089Z', '2200-01-01T00:00:00.000Z', '2285-06-01T00:00:00.000Z', '1999-12-31T23:59:59.999Z'].map(micros),
    ];
    // Random instants across the digit-by-digit range (a seeded walk, so a failure repeats), each with its sub-millisecond part.
    let seed = 7;
    const next = () => (seed = (seed * 48_271) % 2_147_483_647);
    const random = Array.from({ length: 20_000 }, () => (BigInt(next()) * BigInt(next())) % 2n ** 53n);
    for (const value of [...edges, ...random]) expect(at(value), String(value)).toBe(iso(value));
  });

  it('escapes a string as JSON.stringify does: every control character, quotes and backslashes; the rest as it is', () => {
    const texts = [
      Array.from({ length: 0x80 }, (_, code) => String.fromCharCode(code)).join(''),
      'plain', '', '"', '\\', 'a\u0000b', 'line 1\r\nline 2\ttab \u007f \u2028 \u2029 é 中文 \u{1F600}', '\u001f\u0001'.repeat(40),
      `${'x'.repeat(100)}"${'y'.repeat(100)}`,
    ];
    for (const text of texts) {
      const cells: Cell[] = [{ type: 'text', value: text }, { type: 'text', value: text }, { type: 'text', value: 'active' }, null, null, null, null, null, { type: 'text', value: '[]' }, { type: 'bool', value: false }, null];
      const line = items.line(record(cells));
      expect(line).toBe(JSON.stringify({ id: text, note: text, status: 'active', at: null, nested: { count: null, big: null, inner: { ratio: null }, huge: null }, tags: [], flag: false }));
    }
  });

  it('writes integers as String writes them, from int4 and int8 (an int8 past 2^53 by its exact digits)', () => {
    const ints = [0, 1, -1, 9, 10, 99, 100, 2147483647, -2147483648, 1000000, -1000000];
    const bigs = [
      '0', '-1', '10', '4294967296', '9007199254740991', '-9007199254740991', '1000000000000000', '9999999999999999', '9223372036854775807', '-9223372036854775808',
      '9007199254740992', '-9007199254740992',
    ];
    for (let i = 0; i < bigs.length; i++) {
      const cells: Cell[] = [{ type: 'text', value: 'x' }, null, { type: 'text', value: 'active' }, null, { type: 'int4', value: ints[i % ints.length] }, { type: 'int8', value: bigs[i] }, null, null, { type: 'text', value: '[]' }, { type: 'bool', value: true }, null];
      const line = items.line(record(cells));
      expect(line).toContain(`"nested":{"count":${ints[i % ints.length]},"big":${bigs[i]},`);
    }
  });

  it('writes NULL as null, and leaves an omitNull key out (first, middle or last of its object)', () => {
    const empty = record([{ type: 'text', value: 'x' }, null, { type: 'text', value: 'paused' }, null, null, null, null, null, { type: 'text', value: '[]' }, { type: 'bool', value: false }, null]);
    const line = items.line(empty);
    expect(line).toBe('{"id":"x","status":"paused","at":null,"nested":{"count":null,"big":null,"inner":{"ratio":null},"huge":null},"tags":[],"flag":false}');
  });

  it('maps the columns of a flat file to the leaves, and refuses one the records do not hold', () => {
    expect(items.columnLeaves([{ name: 'nested.inner.ratio', path: ['nested', 'inner', 'ratio'], kind: 'float' }, { name: 'id', path: ['id'], kind: 'string' }])).toEqual([6, 0]);
    expect(() => items.columnLeaves([{ name: 'nested.other', path: ['nested', 'other'], kind: 'int' }])).toThrow(/no nested\.other/);
  });

  it('refuses a record of another count of values', () => {
    expect(() => items.line(record([{ type: 'text', value: 'x' }]))).toThrow(/1 values, expected 11/);
  });

  it('refuses an omitNull key that opens its object', () => {
    expect(() => shapeRecord([['a', leaf('text', 'x', true)]], 'http://api.test')).toThrow(/first key/);
  });

  describe('media URLs and text arrays, sent as stored', () => {
    const shape: ItemShape = [['id', leaf('text', 'a."id"')], ['media', [['url', leaf('media', 'a."url"')], ['logo', leaf('media', 'a."logo"')]]], ['countries', leaf('texts', 'a."countries"')]];
    const built = shapeRecord(shape, 'http://api.test:8080/"q"');
    const own = new RecordItems(built.plan);
    const item = (url: string | null, logo: string | null, countries: (string | null)[] | null) =>
      record([{ type: 'text', value: 'x' }, url === null ? null : { type: 'text', value: url }, logo === null ? null : { type: 'text', value: logo }, countries === null ? null : { type: 'text[]', value: countries }]);

    it('selects the stored columns, cast (no concatenation, no to_json per row)', () => {
      expect(built.columns.sql).toBe('(a."id")::text AS c0, (a."url")::text AS c1, (a."logo")::text AS c2, (a."countries")::text[] AS c3');
    });

    it("prefixes the server's own media paths with the base, keeps other URLs, writes the arrays as to_json does", () => {
      const cases: [string | null, string | null, (string | null)[] | null][] = [
        ['/media/ads/1.jpg', 'https://cdn.example/logo.png', ['FR', 'DE']],
        ['/mediax/not-ours.jpg', '/media/p/"quoted"\\n.png', []],
        [null, '/media', ['a "b"', null, '\u{1F600}\n']],
        ['/media/', null, null],
      ];
      for (const [url, logo, countries] of cases) {
        const bytes = item(url, logo, countries);
        const expected = { id: 'x', media: { url: url?.startsWith('/media/') ? `http://api.test:8080/"q"${url}` : url, logo: logo?.startsWith('/media/') ? `http://api.test:8080/"q"${logo}` : logo }, countries };
        expect(own.line(bytes)).toBe(JSON.stringify(expected));
        const values = built.plan.leaves.map(() => [] as unknown[]);
        own.values(bytes, values, 0);
        expect(values.map((column) => column[0])).toEqual(['x', expected.media.url, expected.media.logo, countries]);
      }
    });

    it("writes a Parquet file's leaves raw: strings as their UTF-8 bytes (own media prefixed), timestamps as milliseconds", () => {
      const rawShape: ItemShape = [['id', leaf('text', 'a."id"')], ['url', leaf('media', 'a."url"')], ['at', leaf('iso', 'a."at"')], ['count', leaf('int', 'a."count"')]];
      const rawPlan = shapeRecord(rawShape, 'http://api.test').plan;
      const rawItems = new RecordItems(rawPlan);
      const columns = [
        { name: 'id', path: ['id'], kind: 'string' as const }, { name: 'url', path: ['url'], kind: 'string' as const },
        { name: 'at', path: ['at'], kind: 'timestamp' as const }, { name: 'count', path: ['count'], kind: 'int' as const },
      ];
      const raw = rawItems.rawLeaves(columns);
      expect(raw).toEqual([true, true, true, false]);
      // A leaf written into a column of another kind (a string into JSON) is read as JSON.parse gives it.
      expect(rawItems.rawLeaves([{ ...columns[0]!, kind: 'json' }, ...columns.slice(1)])).toEqual([false, true, true, false]);
      // Written into a file's columns (`fill`): each leaf to its column, a raw string as its bytes (own media prefixed).
      const columnOf = new Int32Array(rawPlan.leaves.length).fill(-1);
      rawItems.columnLeaves(columns).forEach((leaf, column) => (columnOf[leaf] = column));
      const read = (url: string, micros: bigint) => {
        const row: unknown[] = [];
        const sink = {
          add: (column: number, value: unknown) => (row[column] = value),
          addBytes: (column: number, source: Uint8Array, start: number, end: number, prefix?: Uint8Array) =>
            (row[column] = Buffer.concat([prefix ?? Buffer.alloc(0), source.subarray(start, end)])),
        };
        rawItems.fill(record([{ type: 'text', value: 'ad ✓' }, { type: 'text', value: url }, { type: 'timestamptz', value: String(micros) }, { type: 'int4', value: 7 }]), sink, columnOf, raw);
        return row;
      };
      const [id, url, at, count] = read('/media/a.png', BigInt(MICROS));
      expect(Buffer.isBuffer(id) && id.toString('utf8')).toBe('ad ✓');
      expect(Buffer.isBuffer(url) && url.toString('utf8')).toBe('http://api.test/media/a.png');
      expect(at).toBe(Date.UTC(2024, 2, 5, 6, 7, 8, 123));
      expect(count).toBe(7);
      expect((read('https://cdn.example/x.png', -1n)[1] as Buffer).toString('utf8')).toBe('https://cdn.example/x.png');
      expect(read('x', -1n)[2]).toBe(Date.UTC(1999, 11, 31, 23, 59, 59, 999));
      expect(read('x', 2n ** 63n - 1n)[2]).toBeNull();
      const far = (BigInt(Date.UTC(2400, 0, 2, 3, 4, 5, 678)) - BigInt(Date.UTC(2000, 0, 1))) * 1000n + 999n;
      expect(read('x', far)[2]).toBe(Date.UTC(2400, 0, 2, 3, 4, 5, 678));
    });

    it('refuses an array of more than one dimension', () => {
      const cells = record([{ type: 'text', value: 'x' }, null, null, { type: 'text[]', value: ['a'] }]);
      // The array's dimensions (the last value's first four bytes) set to 2.
      cells.writeInt32BE(2, cells.length - textArray(['a']).length);
      expect(() => own.line(cells)).toThrow(/2 dimensions/);
    });
  });
});
