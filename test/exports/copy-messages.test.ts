import { PassThrough } from 'node:stream';
import type { Connection } from 'pg';
import { describe, expect, it } from 'vitest';
import { CopyOut, onlyField } from '../../src/schema/exports/service/copy-out.js';

// The export worker's COPY reader (service/copy-out.ts) on the protocol's bytes, split anywhere: the rows of a binary
// COPY, one a CopyData message (the header in the first, the trailer in the last), with a notice among them; the bytes
// from CopyDone or an ErrorResponse on go back to pg. test/exports/copy-out.test.ts reads real COPYs.

/** A protocol message: its code, its length, its payload. */
function message(code: string, payload: Buffer = Buffer.alloc(0)): Buffer {
  const head = Buffer.alloc(5);
  head[0] = code.charCodeAt(0);
  head.writeInt32BE(payload.length + 4, 1);
  return Buffer.concat([head, payload]);
}

/** A COPY row of one text column. */
function row(text: string): Buffer {
  const bytes = Buffer.from(text, 'utf8');
  const head = Buffer.alloc(6);
  head.writeInt16BE(1, 0);
  head.writeInt32BE(bytes.length, 2);
  return Buffer.concat([head, bytes]);
}

const HEADER = Buffer.concat([Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1'), Buffer.alloc(8)]);
const TRAILER = Buffer.from([0xff, 0xff]);

/** As the server sends a binary COPY of `lines`: CopyOutResponse, a row a message (a notice after the first), CopyDone. */
function copyMessages(lines: string[]): Buffer {
  const rows = lines.map(row);
  const data = rows.length
    ? [message('d', Buffer.concat([HEADER, rows[0]!])), message('N', Buffer.from('SNOTICE\0\0')), ...rows.slice(1).map((bytes) => message('d', bytes)), message('d', TRAILER)]
    : [message('d', Buffer.concat([HEADER, TRAILER]))];
  return Buffer.concat([message('H', Buffer.from([1, 0, 1, 0, 0])), ...data]);
}

const PGS = Buffer.concat([message('c'), message('C', Buffer.from('COPY 4\0')), message('Z', Buffer.from('I'))]);

/** A CopyOut on a socket of its own, pg's reader being `handed`; `lines` what it read, `reading` its reads to the end. */
function reader() {
  const socket = new PassThrough();
  const handed: Buffer[] = [];
  socket.on('data', (bytes: Buffer) => handed.push(bytes));
  const out = new CopyOut('COPY …');
  out.submit({ stream: socket, query() {} } as unknown as Connection);
  const lines: string[] = [];
  const reading = (async () => {
    while (await out.read((bytes) => lines.push(onlyField(bytes).toString('utf8')))) {}
  })();
  return { socket, handed, out, lines, reading };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('CopyOut', () => {
  const lines = ['{"id":"1"}', '', 'x'.repeat(300), '{"id":"4","body":"é"}'];
  const wire = Buffer.concat([copyMessages(lines), PGS]);

  it('reads every row whole at any split of the messages, and gives pg the bytes from CopyDone on', async () => {
    for (let at = 0; at <= wire.length; at++) {
      const { socket, handed, out, lines: read, reading } = reader();
      for (const part of [wire.subarray(0, at), wire.subarray(at)]) {
        socket.write(part);
        await tick();
      }
      await tick();
      expect(Buffer.concat(handed).equals(PGS), `split at ${at}: pg's bytes`).toBe(true);
      out.handleReadyForQuery();
      await reading;
      expect(read, `split at ${at}`).toEqual(lines);
      expect(out.ended).toBe(true);
    }
  });

  it('reads every row whole when the bytes come one at a time (a message head over five reads)', async () => {
    const { socket, handed, out, lines: read, reading } = reader();
    for (let at = 0; at < wire.length; at++) {
      socket.write(wire.subarray(at, at + 1));
      await tick();
    }
    await tick();
    expect(Buffer.concat(handed).equals(PGS)).toBe(true);
    out.handleReadyForQuery();
    await reading;
    expect(read).toEqual(lines);
  });

  it("gives pg an answer that is no COPY's (a query that returns no rows to copy)", async () => {
    const { socket, handed, out, lines: read, reading } = reader();
    const answer = Buffer.concat([message('I'), message('Z', Buffer.from('I'))]);
    socket.write(answer);
    await tick();
    expect(Buffer.concat(handed).equals(answer)).toBe(true);
    out.handleReadyForQuery();
    await reading;
    expect(read).toEqual([]);
    expect(out.ended).toBe(false);
  });

  it('reads a COPY of no rows (the header and the trailer in one message)', async () => {
    const { socket, handed, out, lines: read, reading } = reader();
    socket.write(Buffer.concat([copyMessages([]), PGS]));
    await tick();
    expect(Buffer.concat(handed).equals(PGS)).toBe(true);
    out.handleReadyForQuery();
    await reading;
    expect(read).toEqual([]);
    expect(out.ended).toBe(true);
  });

  it('gives pg an ErrorResponse, and fails with the error pg reports', async () => {
    const { socket, handed, out, lines: read, reading } = reader();
    const copy = copyMessages(lines);
    const error = message('E', Buffer.from('SERROR\0Mboom\0\0'));
    // The COPY cut before its trailer.
    socket.write(Buffer.concat([copy.subarray(0, copy.length - message('d', TRAILER).length), error]));
    await tick();
    expect(Buffer.concat(handed).equals(error)).toBe(true);
    out.handleError(new Error('boom'));
    await expect(reading).rejects.toThrow('boom');
    expect(read).toEqual(lines);
    expect(out.ended).toBe(false);
  });

  it('refuses a second read while one waits, and a message of a length below its own', async () => {
    const { socket, out, reading } = reader();
    await expect(out.read(() => {})).rejects.toThrow(/another is waiting/);
    const bad = Buffer.from([0x64, 0, 0, 0, 2]);
    socket.write(bad);
    await expect(reading).rejects.toThrow(/length 2/);
  });

  it('fails on bytes that are not a binary COPY, and on a row of another count of columns', async () => {
    const text = reader();
    text.socket.write(Buffer.concat([message('H', Buffer.from([0, 0, 1, 0, 0])), message('d', Buffer.from('1\tx\n'))]));
    await expect(text.reading).rejects.toThrow(/binary header/);
    const wide = Buffer.concat([row('a'), Buffer.from([0, 0, 0, 1, 0x62])]);
    wide.writeInt16BE(2, 0);
    expect(() => onlyField(wide)).toThrow(/2 columns, expected 1/);
  });
});
