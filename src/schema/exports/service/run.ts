import { mkdir, rm } from 'node:fs/promises';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import type { Principal } from '../../../auth/principal.js';
import { OMITTED } from '../../../db/client.js';
import { isEmbedded } from '../../../db/embedded.js';
import { acrossWorkspaces, WorkspaceCheckedClient } from '../../../db/workspace-check.js';
import { Prisma, PrismaClient } from '../../../generated/prisma/client.js';
import { chargeAll, settle, type Hold, type Sql } from '../../../metering/ledger.js';
import { exportRead, rawRows } from '../../shared/list.js';
import { rowsSelection, type RunServices } from '../../shared/market-lists.js';
import { inlineSql, runCopy } from './copy.js';
import { countList, exportList, readList } from './lists.js';
import { keepFile, localPath, removeFile } from './files.js';
import { CONTENT_TYPES, exportSettings, s3Settings } from './settings.js';
import { runningHere } from './signal.js';
import { COLUMNS, moveExport, type ExportRow } from './store.js';
import { columnsOf } from './columns.js';
import { rowWriter, type RowWriter } from './writers.js';

// The export job (run by src/jobs/exports.ts): one export, read from ONE snapshot and written as it is read.
// - Snapshot: a dedicated connection holds a REPEATABLE READ READ ONLY transaction for the whole run, and every
//   statement of the run goes to it: the list engine's (its server-side cursor: src/schema/shared/list.ts, export
//   mode) and the resolvers' loaders, Prisma's included (a Prisma client over that one connection). A sync or import
//   committed meanwhile is not seen. On the embedded database (PGlite, one backend) an open transaction holds the whole
//   database: every other statement waits until the export ends, so exports there are bounded (EXPORT_EMBEDDED_MAX_ROWS)
//   and report no progress while they run (nothing else can be written meanwhile).
// - Streaming: chunks of EXPORT_CHUNK_ROWS rows to `<id>.<ext>.part`, renamed to `<id>.<ext>` once complete; at most
//   two chunks in memory (the worker thread reads and builds the next one while the job answers the last one).
// - Credits: the creation held the price of the rows counted then; the run settles on the rows written (a row past the
//   hold, when the list grew before the run began, is charged without a hold); cancelled, it pays for the rows it wrote;
//   failed, nothing.
// - Interrupted (the process stops or dies): the export fails, never resumes; its partial file is deleted. A process
//   that stops says so at once; a dead one's export is failed by the sweep once its heartbeat is older than the lease.

const sql = Prisma.sql;

export type ExportJobServices = Omit<RunServices, 'prisma' | 'pool'> & { pool: pg.Pool; ledger: Sql };

const HEARTBEAT_MS = 1_000;

type Snapshot = { services: RunServices; end(commit: boolean): Promise<void> };

/** A connection holding a REPEATABLE READ READ ONLY transaction, with a pool and a Prisma client that only use it. */
async function openSnapshot(services: ExportJobServices): Promise<Snapshot> {
  const url = services.pool.options.connectionString;
  if (!url) throw new Error('exports: the pool has no connection string to open the snapshot connection with');
  const pool = new pg.Pool({ connectionString: url, max: 1, idleTimeoutMillis: 0, connectionTimeoutMillis: 60_000, Client: WorkspaceCheckedClient });
  pool.on('error', () => {});
  await pool.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
  // Typed as the server's client (src/db/client.ts makes its own the same way).
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool), omit: OMITTED }) as unknown as PrismaClient;
  return {
    services: { ...services, pool, prisma },
    async end(commit) {
      await pool.query(commit ? 'COMMIT' : 'ROLLBACK').catch(() => {});
      await prisma.$disconnect().catch(() => {});
      await pool.end().catch(() => {});
    },
  };
}

/** Settles the holds on `cost` (in order), charging the rest without a hold: what the rows written cost. */
export async function settleHolds(ledger: Sql, row: Pick<ExportRow, 'id' | 'workspaceId' | 'credentialId' | 'holds'>, field: string, rows: number, cost: number): Promise<number> {
  let left = cost;
  let charged = 0;
  for (const hold of row.holds) {
    const take = Math.min(left, hold.recurring + hold.topup);
    const settled = await settle(ledger, hold, take, take > 0 ? { credentialId: row.credentialId, requestId: `export:${row.id}`, field, rows: charged === 0 ? rows : 0 } : null);
    left -= settled.cost;
    charged += settled.cost;
  }
  if (left > 0) {
    const [extra] = await chargeAll(ledger, [{ workspaceId: row.workspaceId, cost: left, charge: { credentialId: row.credentialId, requestId: `export:${row.id}`, field, rows: charged === 0 ? rows : 0 } }]);
    charged += extra?.cost ?? 0;
  }
  return charged;
}

async function claim(pool: pg.Pool, exportId: string): Promise<ExportRow | null> {
  const [row] = await rawRows<ExportRow>(pool, sql`${Prisma.raw(acrossWorkspaces('an export job claims its export by id'))}
    UPDATE "exports" e SET "state" = 'running', "startedAt" = now(), "heartbeatAt" = now()
    WHERE e."id" = ${exportId}::uuid AND e."state" = 'queued' RETURNING ${COLUMNS}`);
  return row ?? null;
}

const message = (error: unknown) => (error as { extensions?: { code?: string } }).extensions?.code
  ? (error as Error).message
  : 'internal error while writing the export';

/** Runs one export (a queued one; any other is left alone). Never throws for the export's own failure: it is recorded. */
export async function runExport(
  services: ExportJobServices,
  exportId: string,
  // `inSnapshot` runs once the snapshot is taken and counted, before the first row is read (tests: a write meanwhile).
  options: { signal?: AbortSignal; onError?: (error: unknown) => void; inSnapshot?: () => Promise<void> } = {},
): Promise<void> {
  const { pool, ledger } = services;
  const row = await claim(pool, exportId);
  if (!row) return;
  const settings = exportSettings();
  const [workspace] = await rawRows<Principal['workspace']>(pool, sql`SELECT w."id"::text AS "id", w."slug", w."name", w."createdAt" FROM "workspaces" w WHERE w."id" = ${row.workspaceId}::uuid`);
  let snapshot: Snapshot | null = null;
  let writer: RowWriter | null = null;
  let written = 0;
  let size = 0;
  let field = '';
  // Where the finished file was kept, once it was: deleted again if the export then fails.
  let kept: string | null = null;
  // A cancel made in this process reaches the job here, without the database (service/signal.ts).
  const here = runningHere(row.id, row.workspaceId);
  try {
    if (!workspace) throw new Error('the workspace is gone');
    // A store that is not configured right fails the export now, not after its whole file is written.
    s3Settings();
    const target = await exportList(row.method, row.path, row.params);
    field = target.list.route.field;
    const embedded = await isEmbedded(pool);
    snapshot = await openSnapshot({ ...services, publicBaseUrl: row.baseUrl });
    const requestId = `export:${row.id}`;
    const total = await countList(target, snapshot.services, workspace, requestId);
    if (embedded && total > settings.embeddedMaxRows) {
      throw Object.assign(new Error(`the list has ${total} rows; the embedded database exports at most ${settings.embeddedMaxRows} (EXPORT_EMBEDDED_MAX_ROWS)`), { extensions: { code: 'validation_error' } });
    }
    if (!embedded) await pool.query(`UPDATE "exports" e SET "totalRows" = $2, "heartbeatAt" = now() WHERE e."id" = $1 AND e."workspaceId" = $3::uuid`, [row.id, total, row.workspaceId]);
    await options.inSnapshot?.();
    const { schema, document } = await rowsSelection(target.list);
    await mkdir(settings.dir, { recursive: true });
    const columns = columnsOf(schema, document, target.list.field.name);
    // On PostgreSQL a list read in bulk is streamed by a worker thread (one COPY in the snapshot, exported to it); the
    // first run of the route then reads no row and leaves the statement. Any other list is read chunk by chunk here.
    const state = exportRead('rows', settings.chunkRows, { baseUrl: snapshot.services.publicBaseUrl, stream: !embedded });
    const first = await readList(target, snapshot.services, workspace, state, requestId);
    // The first chunk is followed by a heartbeat (a cancel made as it started is seen then), the others every second.
    let beat = 0;
    let stopped: 'cancelled' | 'interrupted' | null = null;
    const stop = () => {
      if (options.signal?.aborted) stopped = 'interrupted';
      else if (here.flag.cancelled) stopped = 'cancelled';
      return stopped !== null;
    };
    const heartbeat = async () => {
      beat = Date.now();
      const { rowCount } = await pool.query(
        `UPDATE "exports" e SET "rowsWritten" = $2, "heartbeatAt" = now() WHERE e."id" = $1 AND e."workspaceId" = $3::uuid AND e."state" = 'running'`,
        [row.id, written, row.workspaceId],
      );
      // Heartbeat of a held credit: the stale-hold sweep leaves a running export's holds alone.
      for (const hold of row.holds) await ledger.query(`UPDATE "credit_reservations" SET "createdAt" = now() WHERE "id" = $1`, [hold.id]);
      if (!rowCount) stopped = 'cancelled';
    };
    if (state.statement) {
      const url = services.pool.options.connectionString!;
      const [exported] = await rawRows<{ snapshot: string }>(snapshot.services.pool, sql`SELECT pg_export_snapshot() AS snapshot`);
      // The heartbeat runs beside the worker (one at a time); its failure stops the worker and fails the export.
      let beating: Promise<void> | null = null;
      let beatFailed: unknown = null;
      const outcome = await runCopy(
        { kind: 'export-copy', connectionString: url, snapshot: exported!.snapshot, statement: inlineSql(state.statement), record: state.record, format: row.format, finalPath: localPath(row), columns, chunkRows: settings.chunkRows },
        {
          onChunk(count) {
            written = count;
            if (beatFailed || stopped || stop()) return false;
            if (!beating && Date.now() - beat >= HEARTBEAT_MS) {
              beating = heartbeat().catch((error: unknown) => void (beatFailed = error)).finally(() => (beating = null));
            }
            return true;
          },
        },
      ).catch((error: unknown) => {
        written = (error as { written?: number }).written ?? written;
        throw error;
      });
      await beating;
      // Cancelled, stopped or failed beside a worker that had already renamed its finished file: the file goes.
      if (outcome.kind === 'done' && (beatFailed || stopped)) await rm(localPath(row), { force: true });
      if (beatFailed) throw beatFailed;
      written = outcome.written;
      if (outcome.kind === 'done') size = outcome.size;
      else stopped ??= 'interrupted';
    } else {
      writer = rowWriter(row.format, localPath(row), columns);
      let rows = first;
      for (;;) {
        await writer.write(rows);
        written += rows.length;
        if (stop()) break;
        if (!embedded && Date.now() - beat >= HEARTBEAT_MS) {
          await heartbeat();
          if (stopped) break;
        }
        if (state.done) break;
        rows = await readList(target, snapshot.services, workspace, state, requestId);
      }
    }
    await snapshot.end(true);
    snapshot = null;
    if (stopped) {
      await writer?.abort();
      writer = null;
      if (stopped === 'interrupted') throw Object.assign(new Error('interrupted: the server stopped while the export ran; create it again'), { extensions: { code: 'service_unavailable' } });
      await cancelled(ledger, pool, row, field, written);
      return;
    }
    if (writer) size = await writer.finish();
    writer = null;
    // Kept where the files are kept (EXPORT_DIR, or uploaded to the S3 store): its location is the row's fileName.
    const location = await keepFile(row, size, CONTENT_TYPES[row.format]).catch(async (error: unknown) => {
      await rm(localPath(row), { force: true });
      throw error;
    });
    kept = location;
    const charged = await settleHolds(ledger, row, field, written, written * row.pricePerRow);
    const done = await moveExport(pool, row, ['running'], sql`"state" = 'done', "rowsWritten" = ${written}, "totalRows" = ${written},
      "priceCharged" = ${charged}, "fileName" = ${location}, "fileBytes" = ${size}, "etag" = ${`"${row.id}-${size}"`},
      "finishedAt" = now(), "expiresAt" = now() + ${`${settings.ttlMs} milliseconds`}::interval, "heartbeatAt" = now()`);
    if (!done) {
      // Cancelled while it finished: the file goes, the rows written are paid (charged above).
      kept = null;
      await removeFile(location).catch((error: unknown) => options.onError?.(error));
      await moveExport(pool, row, ['cancelled'], sql`"rowsWritten" = ${written}, "priceCharged" = ${charged}, "finishedAt" = now()`);
    }
  } catch (error) {
    if (!(error as { extensions?: unknown }).extensions) options.onError?.(error);
    await snapshot?.end(false);
    await writer?.abort();
    await rm(`${localPath(row)}.part`, { force: true });
    // A file not yet kept is not the export's (a worker may have finished it before the failure).
    if (kept) await removeFile(kept).catch(() => undefined);
    else await rm(localPath(row), { force: true });
    await settleHolds(ledger, row, field, 0, 0).catch(() => 0);
    await moveExport(pool, row, ['running'], sql`"state" = 'failed', "error" = ${message(error)}, "rowsWritten" = ${written}, "finishedAt" = now()`);
  } finally {
    here.done();
  }
}

/**
 * A running export cancelled by DELETE: it pays for the rows it wrote. Its row is cancelled already (the DELETE
 * committed: the heartbeat saw it), or still running (a DELETE of this process signalled the job and waits for the
 * database: the embedded one's, held by the job until now).
 */
async function cancelled(ledger: Sql, pool: pg.Pool, row: ExportRow, field: string, written: number): Promise<void> {
  const charged = await settleHolds(ledger, row, field, written, written * row.pricePerRow);
  await moveExport(pool, row, ['running', 'cancelled'], sql`"state" = 'cancelled', "fileName" = NULL, "rowsWritten" = ${written}, "priceCharged" = ${charged}, "finishedAt" = now()`);
}

/**
 * The periodic sweep: running exports whose heartbeat is older than the lease (their process died) fail, their holds
 * released and partial files deleted; finished files past their expiry are deleted (state `expired`). Returns the
 * queued exports (for their jobs to be queued again).
 */
export async function sweepExports(pool: pg.Pool, ledger: Sql): Promise<{ failed: number; expired: number; queued: string[] }> {
  const settings = exportSettings();
  const dead = await rawRows<ExportRow>(pool, sql`${Prisma.raw(acrossWorkspaces('the export sweep fails exports whose process died'))}
    UPDATE "exports" e SET "state" = 'failed', "finishedAt" = now(),
      "error" = 'interrupted: the process running the export stopped; create it again'
    WHERE e."state" = 'running' AND e."heartbeatAt" < now() - ${`${settings.leaseMs} milliseconds`}::interval RETURNING ${COLUMNS}`);
  for (const row of dead) {
    await settleHolds(ledger, row, '', 0, 0).catch(() => 0);
    await rm(`${localPath(row)}.part`, { force: true });
  }
  // The locations are read before the rows forget them (an UPDATE returns the new row).
  const expiring = await rawRows<{ id: string; fileName: string | null }>(pool, sql`${Prisma.raw(acrossWorkspaces('the export sweep finds expired files'))}
    SELECT e."id"::text AS "id", e."fileName" FROM "exports" e WHERE e."state" = 'done' AND e."expiresAt" < now()`);
  const gone = expiring.length ? await rawRows<{ id: string }>(pool, sql`${Prisma.raw(acrossWorkspaces('the export sweep deletes expired files'))}
    UPDATE "exports" e SET "state" = 'expired', "fileName" = NULL WHERE e."id" = ANY(${expiring.map((row) => row.id)}::uuid[]) AND e."state" = 'done' RETURNING e."id"::text AS "id"`) : [];
  const expired = new Set(gone.map((row) => row.id));
  for (const row of expiring) if (expired.has(row.id)) await removeFile(row.fileName).catch(() => undefined);
  const queued = await rawRows<{ id: string }>(pool, sql`${Prisma.raw(acrossWorkspaces('the export sweep finds queued exports'))}
    SELECT e."id"::text AS "id" FROM "exports" e WHERE e."state" = 'queued' ORDER BY e."createdAt"`);
  return { failed: dead.length, expired: gone.length, queued: queued.map((q) => q.id) };
}

export type { Hold };
