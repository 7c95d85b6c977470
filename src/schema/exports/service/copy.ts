import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import pg from 'pg';
import { WorkspaceFilterError, workspaceFilterRefusal } from '../../../db/workspace-check.js';
import type { Prisma } from '../../../generated/prisma/client.js';
import type { CopyAnswer, CopyJob, CopyReport } from './copy-worker.js';

// A bulk read streamed by the export's worker thread (service/copy-worker.ts): the job keeps its snapshot open and
// answers the worker after each chunk (go on or stop), so its heartbeat, cancel and credits stay where they were while
// the rows' bytes never pass through the API's event loop.

const { prepareValue } = createRequire(import.meta.url)('pg/lib/utils.js') as { prepareValue(value: unknown): string | Buffer | null };

/**
 * A statement with its parameters written in as literals (COPY takes no parameters). Each value as pg sends it (text,
 * its type left to PostgreSQL), so the literal, untyped as the parameter was, is read as the parameter would be; a
 * Date as its UTC instant (`…Z`), as Prisma's adapter sends one, not pg's local time. The workspace filter
 * (db/workspace-check.ts) checks the statement first, in its parameterised form: the worker's own connection is not
 * one of the checked pools', and once inlined a workspace condition no longer has the `$n` the filter looks for.
 */
export function inlineSql(statement: Prisma.Sql): string {
  const refusal = workspaceFilterRefusal(statement.text);
  if (refusal !== null) throw new WorkspaceFilterError(`Refused by the workspace filter: ${refusal}`);
  let text = statement.strings[0] ?? '';
  statement.values.forEach((value, i) => {
    const prepared = value instanceof Date ? value.toISOString() : prepareValue(value);
    if (Buffer.isBuffer(prepared)) throw new Error('exports: a bytea parameter cannot be written into a COPY');
    text += `${prepared === null ? 'NULL' : pg.escapeLiteral(prepared)}${statement.strings[i + 1] ?? ''}`;
  });
  return text;
}

export type CopyRun = {
  /** Called after each chunk written (the rows written so far): false stops the worker. */
  onChunk(written: number): boolean;
};

export type CopyOutcome = { kind: 'done'; written: number; size: number } | { kind: 'stopped'; written: number };

// The worker's module: the built .js beside this one, or the source under tsx (tests, `tsx` runs).
const workerUrl = new URL(`./copy-worker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url);

/** Runs one copy job in a worker thread; a failure of the worker is thrown here, with the rows it had written. */
export function runCopy(job: CopyJob, run: CopyRun): Promise<CopyOutcome> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(workerUrl, {
      workerData: job,
      execArgv: workerUrl.pathname.endsWith('.ts') ? ['--import', 'tsx'] : [],
      // Its heap: two chunks of items and, for Parquet, a row group's columns (~25 MB live at most for the ads). V8
      // grows a heap up to its limit before it collects in earnest, and what it holds is the server's RSS: a Parquet
      // export's heap peaked 120 MB above its live data with 128 MB here (measured at the medium scale). A young
      // generation of 8 MB: since Parquet's records go straight into its columns (records.ts fill), a chunk leaves
      // little garbage; at the large scale 4 or 12 MB changed neither speed nor RSS beyond noise, 24 MB held ~15 MB more.
      resourceLimits: { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 8 },
    });
    let settled = false;
    const finish = (outcome: CopyOutcome | Error) => {
      if (settled) return;
      settled = true;
      if (outcome instanceof Error) reject(outcome);
      else resolve(outcome);
    };
    worker.on('message', (report: CopyReport) => {
      switch (report.kind) {
        case 'chunk':
          worker.postMessage({ go: run.onChunk(report.written) } satisfies CopyAnswer);
          return;
        case 'failed':
          return finish(Object.assign(new Error(report.message), { stack: report.stack, written: report.written }));
        default:
          return finish(report);
      }
    });
    worker.on('error', (error) => finish(error));
    worker.on('exit', (code) => finish(new Error(`exports: the export's worker thread exited (${code}) before it finished`)));
  });
}
