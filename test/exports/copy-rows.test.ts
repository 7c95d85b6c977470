import { PassThrough } from 'node:stream';
import type { Connection } from 'pg';
import { describe, expect, it } from 'vitest';
import { CopyOut, CopyRows } from '../../src/schema/exports/service/copy-out.js';

// The rows of a binary COPY of one text column, read from its bytes however the socket splits them; and the protocol's
// messages around them (service/copy-out.ts), split anywhere (test/exports/copy-out.test.ts reads real COPYs).

function binaryCopy(lines: string[]): Buffer {
  const header = Buffer.concat([Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1'), Buffer.alloc(8)]);
  const rows = lines.map((line) => {
    const text = Buffer.from(line, 'utf8');
    const head = Buffer.alloc(6);
    head.writeInt16BE(1, 0);
    head.writeInt32BE(text.length, 2);
    return Buffer.concat([head, text]);
  });
  return Buffer.concat([header, ...rows, Buffer.from([0xff, 0xff])]);
}

describe('CopyRows', () => {
  const lines = ['{"id":"1","title":"été \\"quoted\\""}', '{}', '{"id":"3","body":"a\\nb"}'];
  const bytes = binaryCopy(lines);

  it('reads every row whole, and the end, at any split of the bytes', () => {
    for (let at = 0; at <= bytes.length; at++) {
      const rows = new CopyRows();
      const read: string[] = [];
      const push = (row: Buffer) => read.push(row.toString('utf8'));
      rows.feed(bytes.subarray(0, at), push);
      expect(rows.ended).toBe(at === bytes.length);
      rows.feed(bytes.subarray(at), push);
      expect(read, `split at ${at}`).toEqual(lines);
      expect(rows.ended).toBe(true);
    }
  });

  it('reads the part of a buffer it is given, at any split into two parts', () => {
    const framed = Buffer.concat([Buffer.from('before'), bytes, Buffer.from('after')]);
    const start = 'before'.length;
    for (let at = start; at <= start + bytes.length; at += 7) {
      const rows = new CopyRows();
      const read: string[] = [];
      const push = (row: Buffer) => read.push(row.toString('utf8'));
      rows.feed(framed, push, start, at);
      rows.feed(framed, push, at, start + bytes.length);
      expect(read, `split at ${at}`).toEqual(lines);
      expect(rows.ended).toBe(true);
    }
  });

  it('refuses a row of more than one column', () => {
    const wrong = Buffer.from(bytes);
    wrong.writeInt16BE(2, 19);
    expect(() => new CopyRows().feed(wrong, () => {})).toThrow(/2 columns/);
  });
});

/** A protocol message: its code, its length, its payload. */
function message(code: string, payload: Buffer = Buffer.alloc(0)): Buffer {
  const head = Buffer.alloc(5);
  head[0] = code.charCodeAt(0);
  head.writeInt32BE(payload.length + 4, 1);
  return Buffer.concat([head, payload]);
}

describe('CopyOut', () => {
  const lines = ['{"id":"1"}', '', 'x'.repeat(300), '{"id":"4","body":"é"}'];
  const copy = binaryCopy(lines);
  // As the server sends a binary COPY: CopyOutResponse, the header with the first row, a row a message (a notice among
  // them), the trailer, CopyDone; then what is pg's: CommandComplete, ReadyForQuery.
  const rowStarts = [19, 19 + 6 + 10, 19 + 12 + 10, 19 + 18 + 310, copy.length - 2, copy.length];
  const data = rowStarts.slice(1).map((end, i) => message('d', copy.subarray(i ? rowStarts[i] : 0, end)));
  const ours = Buffer.concat([message('H', Buffer.from([1, 0, 1, 0, 1])), data[0]!, data[1]!, message('N', Buffer.from('SNOTICE\0\0')), ...data.slice(2)]);
  const pgs = Buffer.concat([message('c'), message('C', Buffer.from('COPY 4\0')), message('Z', Buffer.from('I'))]);
  const wire = Buffer.concat([ours, pgs]);

  it('reads the rows at any split of the messages, and gives pg the bytes from CopyDone on', async () => {
    for (let at = 0; at <= wire.length; at++) {
      const socket = new PassThrough();
      const handed: Buffer[] = [];
      socket.on('data', (bytes: Buffer) => handed.push(bytes));
      const out = new CopyOut('COPY …');
      out.submit({ stream: socket, query() {} } as unknown as Connection);
      const read: string[] = [];
      const reading = (async () => {
        while (await out.read((row) => read.push(row.toString('utf8')))) {}
      })();
      for (const part of [wire.subarray(0, at), wire.subarray(at)]) {
        socket.write(part);
        await new Promise((resolve) => setImmediate(resolve));
      }
      await new Promise((resolve) => setImmediate(resolve));
      expect(Buffer.concat(handed).equals(pgs), `split at ${at}: pg's bytes`).toBe(true);
      out.handleReadyForQuery();
      await reading;
      expect(read, `split at ${at}`).toEqual(lines);
      expect(out.rows.ended).toBe(true);
    }
  });

  it("gives pg an ErrorResponse, and fails with the error pg reports", async () => {
    const socket = new PassThrough();
    const handed: Buffer[] = [];
    socket.on('data', (bytes: Buffer) => handed.push(bytes));
    const out = new CopyOut('COPY …');
    out.submit({ stream: socket, query() {} } as unknown as Connection);
    const error = message('E', Buffer.from('SERROR\0Mboom\0\0'));
    socket.write(Buffer.concat([ours.subarray(0, ours.length - data.at(-1)!.length), error]));
    const read: string[] = [];
    const reading = (async () => {
      while (await out.read((row) => read.push(row.toString('utf8')))) {}
    })();
    await new Promise((resolve) => setImmediate(resolve));
    expect(Buffer.concat(handed).equals(error)).toBe(true);
    out.handleError(new Error('boom'));
    await expect(reading).rejects.toThrow('boom');
    expect(read).toEqual(lines);
    expect(out.rows.ended).toBe(false);
  });
});
