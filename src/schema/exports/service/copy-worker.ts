import { parentPort, workerData } from 'node:worker_threads';
import pg from 'pg';
import type { RecordPlan } from '../../shared/json-rows.js';
import type { ExportFormat } from '../args.js';
import { CopyOut, onlyField } from './copy-out.js';
import { RecordItems } from './records.js';
import { RowChunk, rowWriter, type Column } from './writers.js';

// The export's worker thread (started by service/copy.ts): it streams a bulk read's items (one a row, in the list's
// order: its JSON text, or the record of its values that this thread writes as JSON or as columns, records.ts) with
// one COPY … TO STDOUT in binary form (read off its socket: copy-out.ts), in the export's snapshot (imported: SET TRANSACTION SNAPSHOT), and writes them
// to the export's file, off the API's event loop. Every `chunkRows` rows written it reports them, and writes the next
// chunk (read and built meanwhile) only once the job answered: go on, or stop (a cancel, the server stopping). The
// COPY's socket is read only as fast as the file is written, so memory stays two chunks and a socket buffer.

export type CopyJob = {
  kind: 'export-copy';
  connectionString: string;
  /** pg_export_snapshot() of the job's snapshot transaction, open until this worker is done. */
  snapshot: string;
  /** The statement of the items (one a row), its parameters written in as literals (COPY takes none). */
  statement: string;
  /**
   * How to write a row when its columns are a record of the item's values (shared/json-rows.ts shapeRecord: the
   * worker writes the item, records.ts); null: its one column is the item's JSON text, written as it came.
   */
  record: RecordPlan | null;
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
  // A connection lost mid-COPY reaches the reader (CopyOut's handleError); unheard here it would end the thread.
  client.on('error', () => {});
  let writer: ReturnType<typeof rowWriter> | null = null;
  try {
    // Written synchronously: this thread has nothing else to do meanwhile, and an NDJSON chunk's bytes are then
    // written before the next chunk is built into the same memory (records.ts lines()).
    const file = (writer = rowWriter(job.format, job.finalPath, job.columns, { sync: true }));
    await client.connect();
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    await client.query(`SET TRANSACTION SNAPSHOT ${client.escapeLiteral(job.snapshot)}`);
    // One statement over the whole list: JIT compiling its expressions costs more than it saves (0.6 to 1.3 s at the
    // medium scale, for a per-row cost already low); a sort of addresses fits in 64 MB, one of whole records (the
    // market's ads, ExportRows.inMatches) spills to disk in one merge pass. No parallel workers: they sorted the
    // large scale's ads ~2 s sooner, but three backends at once took the API's requests' share of the cores (S2 during
    // the export: 1.43–1.65× idle with them, 1.16–1.42× without, rows/s within 5%), and a plan of one process keeps
    // the rows in the statement's order whatever its form.
    await client.query(`SET LOCAL jit = off`);
    await client.query(`SET LOCAL work_mem = '64MB'`);
    await client.query(`SET LOCAL max_parallel_workers_per_gather = 0`);
    const copy = client.query(new CopyOut(`COPY (${job.statement}) TO STDOUT (FORMAT binary)`));
    const items = job.record ? new RecordItems(job.record) : null;
    const leaves = items?.columnLeaves(job.columns) ?? [];
    // Parquet's writer takes strings as UTF-8 bytes and timestamps as instants: those leaves are not decoded into text.
    const raw = items && job.format === 'parquet' ? items.rawLeaves(job.columns) : undefined;
    // Each leaf's column in the file (-1: none), for Parquet's records written straight into its columns.
    const columnOf = new Int32Array(job.record?.leaves.length ?? 0).fill(-1);
    leaves.forEach((leaf, column) => (columnOf[leaf] = column));
    let pending: Buffer[] = [];
    // The job's answer to the last chunk written: awaited only before the next chunk is written, so that the next
    // chunk is read and built meanwhile (the round trip to the job's event loop does not stall the COPY).
    let answer: Promise<CopyAnswer> | null = null;
    /** A chunk's rows as the writer takes them: the items' NDJSON bytes, their text, or their columns' values. */
    const prepare = (chunk: Buffer[]): RowChunk => {
      const count = chunk.length;
      if (items && job.format === 'ndjson') {
        for (let i = 0; i < count; i++) items.write(chunk[i]!);
        return RowChunk.ofNdjson(items.lines(), count);
      }
      if (items && raw) return RowChunk.ofRecords(chunk, (record, sink) => items.fill(record, sink, columnOf, raw));
      if (items) {
        const values: unknown[][] = job.record!.leaves.map(() => new Array<unknown>(count));
        for (let i = 0; i < count; i++) items.values(chunk[i]!, values, i);
        return RowChunk.ofColumns(leaves.map((leaf) => values[leaf]!), count);
      }
      if (job.format === 'ndjson') {
        const parts: Buffer[] = new Array(count * 2);
        for (let i = 0; i < count; i++) {
          parts[2 * i] = onlyField(chunk[i]!);
          parts[2 * i + 1] = NEWLINE;
        }
        return RowChunk.ofNdjson(Buffer.concat(parts), count);
      }
      return RowChunk.ofLines(chunk.map((row) => onlyField(row).toString('utf8')).join('\n'), count);
    };
    // Builds the first chunk of the rows read (at most chunkRows) and, once the job said to go on after the last one,
    // writes it and reports it; false: the job said to stop (this chunk is not written).
    const flush = async (): Promise<boolean> => {
      const chunk = pending.length > job.chunkRows ? pending.slice(0, job.chunkRows) : pending;
      pending = chunk === pending ? [] : pending.slice(chunk.length);
      if (!chunk.length) return true;
      const prepared = prepare(chunk);
      if (answer && !(await answer).go) return false;
      await file.write(prepared);
      written += chunk.length;
      answer = ask({ kind: 'chunk', written });
      return true;
    };
    const push = (bytes: Buffer) => pending.push(bytes);
    let go = true;
    reading: while (await copy.read(push)) {
      while (pending.length >= job.chunkRows) if (!(go = await flush())) break reading;
    }
    while (go && pending.length) go = await flush();
    // (A let assigned in flush, which TypeScript's narrowing does not see.)
    const last = answer as Promise<CopyAnswer> | null;
    if (go && last) go = (await last).go;
    if (!go) {
      // The COPY is left unfinished: the connection is dropped with the thread (its transaction with it).
      await file.abort();
      port.postMessage({ kind: 'stopped', written } satisfies CopyReport);
      return;
    }
    if (!copy.ended) throw new Error('exports: the COPY ended without its trailer');
    await client.query('COMMIT');
    const size = await file.finish();
    port.postMessage({ kind: 'done', written, size } satisfies CopyReport);
  } catch (error) {
    await writer?.abort().catch(() => {});
    const failure = error as Error;
    port.postMessage({ kind: 'failed', written, message: failure.message, stack: failure.stack } satisfies CopyReport);
  }
}

// Started as the export's worker thread.
if (parentPort && (workerData as Partial<CopyJob> | null)?.kind === 'export-copy') {
  await run(workerData as CopyJob, parentPort);
  // The thread ends now, whatever the connection is doing (a stopped COPY's socket goes with it).
  process.exit(0);
}
