import type { Readable } from 'node:stream';
import type { Connection, Submittable } from 'pg';

// A COPY … TO STDOUT (FORMAT binary) of one column, read by the export's worker thread straight off its connection's
// socket: each row's bytes as a view of the socket's chunk, with no copy but of a row split between two reads. The
// protocol: the server answers CopyOutResponse ('H'), then one CopyData ('d') message a row (the first one also holds
// the file's header, the last one only its trailer), then CopyDone ('c'), CommandComplete and ReadyForQuery. From
// CopyDone on (or an ErrorResponse, 'E'), the socket goes back to pg's own parser, which ends the query as any other.
// Notices and the like that come between are skipped.

/** PGCOPY\n\377\r\n\0, then the flags and the header extension's length (int32 each). */
const SIGNATURE_BYTES = 11;

/**
 * The rows of a binary COPY of one column (an item's JSON text, or its record), fed its bytes as they come (any
 * split): each row's bytes, without decoding. `ended` once the trailer is read.
 */
export class CopyRows {
  private rest: Buffer = Buffer.alloc(0);
  private header = false;
  ended = false;

  /** The bytes `data[start..end)`: `row` is called with each row completed by them. */
  feed(data: Buffer, row: (bytes: Buffer) => void, start = 0, end = data.length): void {
    let buffer = data;
    let at = start;
    if (this.rest.length) {
      buffer = Buffer.concat([this.rest, data.subarray(start, end)]);
      at = 0;
      end = buffer.length;
    }
    if (!this.header) {
      if (end - at < SIGNATURE_BYTES + 8) return this.keep(buffer, at, end);
      const extension = buffer.readInt32BE(at + SIGNATURE_BYTES + 4);
      if (end - at < SIGNATURE_BYTES + 8 + extension) return this.keep(buffer, at, end);
      at += SIGNATURE_BYTES + 8 + extension;
      this.header = true;
    }
    while (end - at >= 2) {
      const fields = buffer.readInt16BE(at);
      if (fields === -1) {
        this.ended = true;
        at += 2;
        break;
      }
      if (fields !== 1) throw new Error(`exports: a COPY row of ${fields} columns, expected 1`);
      if (end - at < 6) break;
      const length = buffer.readInt32BE(at + 2);
      if (length < 0) throw new Error('exports: an item written as NULL');
      if (end - at < 6 + length) break;
      row(buffer.subarray(at + 6, at + 6 + length));
      at += 6 + length;
    }
    this.keep(buffer, at, end);
  }

  /** A leftover is copied, so that the chunk it came from is not held. */
  private keep(buffer: Buffer, at: number, end: number): void {
    this.rest = at < end ? Buffer.from(buffer.subarray(at, end)) : Buffer.alloc(0);
  }
}

const COPY_DATA = 0x64; // d
const COPY_DONE = 0x63; // c
const ERROR_RESPONSE = 0x45; // E
/** A message's code and its length (which counts itself). */
const HEAD_BYTES = 5;

/** pg's Connection as far as a submittable that takes over its socket sees it. */
type Socket = Readable & { listeners(event: 'data'): ((data: Buffer) => void)[] };

/**
 * One COPY … TO STDOUT (FORMAT binary) on a pg Client (`client.query(copy)`), read as the reader asks: `read(row)`
 * reads what the socket has (waiting for it if need be), hands each row completed to `row`, and answers whether more
 * may come; false once the query is over (its ReadyForQuery), an error if it failed. The socket is read only as fast
 * as `read` is called.
 */
export class CopyOut implements Submittable {
  readonly rows = new CopyRows();
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

  submit(connection: Connection): void {
    const socket = (connection as unknown as { stream: Socket }).stream;
    const [pgData, ...others] = socket.listeners('data');
    if (!pgData || others.length) throw new Error('exports: the connection does not have the one reader a COPY takes over');
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

  /** Reads the messages of `chunk`; answers the bytes from CopyDone or an ErrorResponse on, once one came. */
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
          this.rows.feed(message, row);
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
      if (code === COPY_DONE || code === ERROR_RESPONSE) return Buffer.concat([source.subarray(from, from + HEAD_BYTES), chunk.subarray(at)]);
      if (code !== COPY_DATA) {
        this.skipping = length;
        continue;
      }
      if (end - at >= length) {
        this.rows.feed(chunk, row, at, at + length);
        at += length;
      } else {
        this.message = Buffer.allocUnsafe(length);
        this.missing = length;
      }
    }
    return null;
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
