import type { Readable } from 'node:stream';
import type { Connection, Submittable } from 'pg';

// A COPY … TO STDOUT (FORMAT binary), read by the export's worker thread straight off its connection's socket: each
// row's bytes as a view of what the socket read, copied only when its message was split between two reads. The
// protocol: the server answers CopyOutResponse ('H'), then one CopyData ('d') message a row ("messages sent from the
// backend will always correspond to single data rows": the first one also holds the binary header, the last one the
// trailer), then
// CopyDone ('c'), CommandComplete and ReadyForQuery. From CopyDone on (or an ErrorResponse, 'E', or any answer that is
// not a COPY's), the socket goes back to pg's own parser, which ends the query as any other. Notices and the like that
// come between the rows are skipped.

/** PGCOPY\n\377\r\n\0: a binary COPY's first bytes, then its flags and its header extension's length (int32 each). */
const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');
const HEADER_BYTES = SIGNATURE.length + 8;

/** The one value of a COPY row of one column (its int16 count of fields, then the field's int32 length and bytes). */
export function onlyField(row: Buffer): Buffer {
  const fields = row.readInt16BE(0);
  if (fields !== 1) throw new Error(`exports: a COPY row of ${fields} columns, expected 1`);
  const length = row.readInt32BE(2);
  if (length < 0) throw new Error('exports: an item written as NULL');
  if (6 + length !== row.length) throw new Error('exports: a COPY row longer or shorter than its one field');
  return row.subarray(6, 6 + length);
}

const COPY_DATA = 0x64; // d
/** What may come between the rows and is skipped: CopyOutResponse, NoticeResponse, ParameterStatus, NotificationResponse. */
const SKIPPED = new Set([0x48, 0x4e, 0x53, 0x41]); // H N S A
/** A message's code and its length (which counts itself). */
const HEAD_BYTES = 5;

/** pg's Connection as far as a submittable that takes over its socket sees it. */
type Socket = Readable & { listeners(event: 'data'): ((data: Buffer) => void)[] };

/**
 * One COPY … TO STDOUT (FORMAT binary) on a pg Client (`client.query(copy)`), read as the reader asks: `read(row)`
 * reads what the socket has (waiting for it if need be), hands each row completed to `row` (its int16 count of fields,
 * then each field's int32 length, -1 for NULL, and bytes), and answers whether more may come; false once the query is
 * over (its ReadyForQuery), an error if it failed. The socket is read only as fast as `read` is called. `ended` once
 * the trailer came (a COPY cut short has none).
 */
export class CopyOut implements Submittable {
  ended = false;
  private header = false;
  private socket: Socket | null = null;
  private pgData: ((data: Buffer) => void) | null = null;
  /** The head of a message split between reads (fewer than HEAD_BYTES bytes). */
  private head: Buffer | null = null;
  /** A CopyData's payload split between reads, and how many of its bytes are still to come. */
  private message: Buffer | null = null;
  private missing = 0;
  /** Bytes still to skip of a message that is not CopyData. */
  private skipping = 0;
  private over = false;
  private failure: Error | null = null;
  private waiting: { row: (bytes: Buffer) => void; resolve(more: boolean): void; reject(error: Error): void } | null = null;
  private readonly onReadable = () => this.pump();

  constructor(readonly text: string) {}

  submit(connection: Connection): Error | void {
    const socket = (connection as unknown as { stream: Socket }).stream;
    const [pgData, ...others] = socket.listeners('data');
    // (pg's Submittable contract: an error returned, which pg reports as the query's.)
    if (!pgData || others.length) return new Error('exports: the connection does not have the one reader a COPY takes over');
    this.socket = socket;
    this.pgData = pgData;
    socket.removeListener('data', pgData);
    socket.pause();
    socket.on('readable', this.onReadable);
    connection.query(this.text);
  }

  read(row: (bytes: Buffer) => void): Promise<boolean> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.over) return Promise.resolve(false);
    if (this.waiting) return Promise.reject(new Error('exports: a COPY read while another is waiting'));
    return new Promise((resolve, reject) => {
      this.waiting = { row, resolve, reject };
      this.pump();
    });
  }

  /** Reads one chunk of the socket for the waiting reader, if both are there. */
  private pump(): void {
    const waiting = this.waiting;
    if (!waiting || !this.socket) return;
    const chunk = this.socket.read() as Buffer | null;
    if (chunk === null) return;
    let rest: Buffer | null;
    try {
      rest = this.parse(chunk, waiting.row);
    } catch (error) {
      this.waiting = null;
      this.failure = error as Error;
      return waiting.reject(this.failure);
    }
    // Past CopyDone (or an error), the rest is pg's: the reader waits for the query's end.
    if (rest) return this.detach(rest);
    this.waiting = null;
    waiting.resolve(true);
  }

  /** Reads the messages of `chunk`; answers the bytes from CopyDone (or an ErrorResponse, or any other answer) on, once one came. */
  private parse(chunk: Buffer, row: (bytes: Buffer) => void): Buffer | null {
    let at = 0;
    const end = chunk.length;
    while (at < end) {
      if (this.missing) {
        const n = Math.min(this.missing, end - at);
        chunk.copy(this.message!, this.message!.length - this.missing, at, at + n);
        this.missing -= n;
        at += n;
        if (!this.missing) {
          const message = this.message!;
          this.message = null;
          this.data(message, 0, message.length, row);
        }
        continue;
      }
      if (this.skipping) {
        const n = Math.min(this.skipping, end - at);
        this.skipping -= n;
        at += n;
        continue;
      }
      let source = chunk;
      let from = at;
      if (this.head || end - at < HEAD_BYTES) {
        const head = this.head ? Buffer.concat([this.head, chunk.subarray(at, at + HEAD_BYTES - this.head.length)]) : chunk.subarray(at);
        if (head.length < HEAD_BYTES) {
          this.head = Buffer.from(head);
          return null;
        }
        const taken = HEAD_BYTES - (this.head?.length ?? 0);
        this.head = null;
        source = head;
        from = 0;
        // The message's own bytes start after its head, in this chunk.
        at += taken;
      } else at += HEAD_BYTES;
      const code = source[from]!;
      const length = source.readInt32BE(from + 1) - 4;
      if (length < 0) throw new Error(`exports: a protocol message of length ${length + 4}`);
      if (SKIPPED.has(code)) {
        this.skipping = length;
        continue;
      }
      // CopyDone, an ErrorResponse, or anything else (an answer that is no COPY's): pg's to read, from its head on.
      if (code !== COPY_DATA) return Buffer.concat([source.subarray(from, from + HEAD_BYTES), chunk.subarray(at)]);
      if (end - at >= length) {
        this.data(chunk, at, at + length, row);
        at += length;
      } else {
        this.message = Buffer.allocUnsafe(length);
        this.missing = length;
      }
    }
    return null;
  }

  /** A CopyData's payload, `bytes[start..end)`: a row, after the header in the first one; or the trailer. */
  private data(bytes: Buffer, start: number, end: number, row: (bytes: Buffer) => void): void {
    if (!this.header) {
      if (end - start < HEADER_BYTES || bytes.compare(SIGNATURE, 0, SIGNATURE.length, start, start + SIGNATURE.length) !== 0) {
        throw new Error('exports: the COPY did not start with the binary header');
      }
      start += HEADER_BYTES + bytes.readInt32BE(start + SIGNATURE.length + 4);
      this.header = true;
      if (start >= end) return;
    }
    if (this.ended) throw new Error('exports: a COPY row after its trailer');
    if (end - start === 2 && bytes.readInt16BE(start) === -1) this.ended = true;
    else row(bytes.subarray(start, end));
  }

  /** Gives the socket back to pg, with the bytes it has not read. */
  private detach(rest: Buffer): void {
    const socket = this.socket!;
    socket.removeListener('readable', this.onReadable);
    socket.on('data', this.pgData!);
    this.pgData!(rest);
    this.socket = null;
    // As pg reads it: flowing again (after this tick: pg's handler may have been paused by what it just read).
    process.nextTick(() => socket.resume());
  }

  handleError(error: Error): void {
    this.failure = error;
    this.over = true;
    if (this.socket) {
      // The connection failed under the COPY (pg reports it here): nothing more is read of it.
      this.socket.removeListener('readable', this.onReadable);
      this.socket = null;
    }
    const waiting = this.waiting;
    this.waiting = null;
    waiting?.reject(error);
  }

  handleCommandComplete(): void {}

  handleReadyForQuery(): void {
    if (this.failure) return;
    this.over = true;
    const waiting = this.waiting;
    this.waiting = null;
    waiting?.resolve(false);
  }
}
