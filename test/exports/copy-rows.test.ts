import { describe, expect, it } from 'vitest';
import { CopyRows } from '../../src/schema/exports/service/copy-worker.js';

// The rows of a binary COPY of one text column, read from its bytes however the socket splits them.

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

  it('refuses a row of more than one column', () => {
    const wrong = Buffer.from(bytes);
    wrong.writeInt16BE(2, 19);
    expect(() => new CopyRows().feed(wrong, () => {})).toThrow(/2 columns/);
  });
});
