import { parentPort, workerData } from 'node:worker_threads';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import type { ExportFormat } from '../args.js';
import { RowChunk, rowWriter, type Column } from './writers.js';

// The export's worker thread (started by service/copy.ts): it streams a bulk read's items (one JSON text a row, in the
// list's order) with one COPY … TO STDOUT in binary form, in the export's snapshot (imported: SET TRANSACTION SNAPSHOT),
// and writes them to the export's file, off the API's event loop. Every `chunkRows` rows written it reports them and
// waits for the job's answer: go on, or stop (a cancel, the server stopping). The COPY's socket is read only as fast
// as the file is written (the stream's backpressure), so memory stays one chunk and a socket buffer.

export type CopyJob = {
  kind: 'export-copy';
  connectionString: string;
  /** pg_export_snapshot() of the job's snapshot transaction, open until this worker is done. */
  snapshot: string;
  /** The statement of the items (a column `line`), its parameters written in as literals (COPY takes none). */
  statement: string;
  format: ExportFormat;
  finalPath: string;
  columns: Column[];
  chunkRows: number;
};

export type CopyReport =
  | { kind: 'chunk'; written: number }
  | { kind: 'done'; written: number; size: number }
  | { kind: 'stopped'; written: number }
  | { kind: 'failed'; written: number; message: string; stack?: string };

export type CopyAnswer = { go: boolean };

const NEWLINE = Buffer.from('\n');
/** PGCOPY\n\377\r\n\0, then the flags and the header extension's length (int32 each). */
const SIGNATURE_BYTES = 11;

/**
 * The rows of a binary COPY of one text column, fed its bytes as they come (any split): each row's bytes, without
 * decoding. `ended` once the trailer is read.
 */
export class CopyRows {
  private rest: Buffer = Buffer.alloc(0);
  private header = false;
  ended = false;

  feed(data: Buffer, row: (bytes: Buffer) => void): void {
    let buffer = this.rest.length ? Buffer.concat([this.rest, data]) : data;
    let at = 0;
    if (!this.header) {
      if (buffer.length < SIGNATURE_BYTES + 8) {
        this.rest = buffer;
        return;
      }
      const extension = buffer.readInt32BE(SIGNATURE_BYTES + 4);
      if (buffer.length < SIGNATURE_BYTES + 8 + extension) {
        this.rest = buffer;
        return;
      }
      at = SIGNATURE_BYTES + 8 + extension;
      this.header = true;
    }
    while (buffer.length - at >= 2) {
      const fields = buffer.readInt16BE(at);
      if (fields === -1) {
        this.ended = true;
        at += 2;
        break;
      }
      if (fields !== 1) throw new Error(`exports: a COPY row of ${fields} columns, expected 1`);
      if (buffer.length - at < 6) break;
      const length = buffer.readInt32BE(at + 2);
      if (length < 0) throw new Error('exports: an item written as NULL');
      if (buffer.length - at < 6 + length) break;
      row(buffer.subarray(at + 6, at + 6 + length));
      at += 6 + length;
    }
    buffer = buffer.subarray(at);
    // A leftover is copied, so that the chunk it came from is not held.
    this.rest = buffer.length ? Buffer.from(buffer) : Buffer.alloc(0);
  }
}

async function run(job: CopyJob, port: NonNullable<typeof parentPort>): Promise<void> {
  let written = 0;
  const answers: ((answer: CopyAnswer) => void)[] = [];
  port.on('message', (answer: CopyAnswer) => answers.shift()?.(answer));
  const ask = (report: CopyReport) =>
    new Promise<CopyAnswer>((resolve) => {
      answers.push(resolve);
      port.postMessage(report);
    });
  // A database that does not answer fails the export instead of holding its snapshot open.
  const client = new pg.Client({ connectionString: job.connectionString, application_name: 'export-worker', connectionTimeoutMillis: 10_000 });
  const writer = rowWriter(job.format, job.finalPath, job.columns);
  try {
    await client.connect();
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    await client.query(`SET TRANSACTION SNAPSHOT ${client.escapeLiteral(job.snapshot)}`);
    const stream = client.query(copyTo(`COPY (${job.statement}) TO STDOUT (FORMAT binary)`));
    const rows = new CopyRows();
    let pending: Buffer[] = [];
    // Writes the first chunk of the rows read (at most chunkRows), and asks whether to go on.
    const flush = async (): Promise<boolean> => {
      const chunk = pending.length > job.chunkRows ? pending.slice(0, job.chunkRows) : pending;
      pending = chunk === pending ? [] : pending.slice(chunk.length);
      const count = chunk.length;
      if (!count) return true;
      if (job.format === 'ndjson') {
        const parts: Buffer[] = new Array(count * 2);
        for (let i = 0; i < count; i++) {
          parts[2 * i] = chunk[i]!;
          parts[2 * i + 1] = NEWLINE;
        }
        await writer.write(RowChunk.ofNdjson(Buffer.concat(parts), count));
      } else {
        await writer.write(RowChunk.ofLines(chunk.map((bytes) => bytes.toString('utf8')).join('\n'), count));
      }
      written += count;
      return (await ask({ kind: 'chunk', written })).go;
    };
    const push = (bytes: Buffer) => pending.push(bytes);
    let go = true;
    reading: for await (const data of stream as AsyncIterable<Buffer>) {
      rows.feed(data, push);
      while (pending.length >= job.chunkRows) if (!(go = await flush())) break reading;
    }
    while (go && pending.length) go = await flush();
    if (!go) {
      // The COPY is left unfinished: the connection is dropped with the thread (its transaction with it).
      stream.destroy();
      await writer.abort();
      port.postMessage({ kind: 'stopped', written } satisfies CopyReport);
      return;
    }
    if (!rows.ended) throw new Error('exports: the COPY ended without its trailer');
    await client.query('COMMIT');
    const size = await writer.finish();
    port.postMessage({ kind: 'done', written, size } satisfies CopyReport);
  } catch (error) {
    await writer.abort().catch(() => {});
    const failure = error as Error;
    port.postMessage({ kind: 'failed', written, message: failure.message, stack: failure.stack } satisfies CopyReport);
  }
}

// Started as the export's worker thread (not imported elsewhere, as the tests of CopyRows do).
if (parentPort && (workerData as Partial<CopyJob> | null)?.kind === 'export-copy') {
  await run(workerData as CopyJob, parentPort);
  // The thread ends now, whatever the connection is doing (a stopped COPY's socket goes with it).
  process.exit(0);
}
