import { randomUUID } from 'node:crypto';
import type { Context } from '../../context.js';
import { apiError, notFound, validationError } from '../../errors.js';
import { Prisma } from '../../generated/prisma/client.js';
import { creditBalance } from '../../metering/balance.js';
import { reserve, type Hold } from '../../metering/ledger.js';
import { writeAudited } from '../shared/audit.js';
import { findRowsPage, type PageRequest } from '../shared/list.js';
import type { RunServices } from '../shared/market-lists.js';
import { inWorkspace } from '../shared/workspace.js';
import { acrossWorkspaces } from '../../db/workspace-check.js';
import type { ExportFormat, ExportState } from './args.js';
import { countList, exportList, type ExportList } from './service/lists.js';
import { isEmbedded } from '../../db/embedded.js';
import { settleHolds } from './service/run.js';
import { readFileRange, removeFile } from './service/files.js';
import { exportSettings } from './service/settings.js';
import { cancelRunning, exportsQueued } from './service/signal.js';
import { COLUMNS, exportOf, moveExport, type ExportRow } from './service/store.js';

// A workspace's exports: create (the price counted and held first), list, read, cancel or delete. Every statement of
// the routes names the caller's workspace: another workspace's export is answered as a missing one. The job that
// writes the file is service/run.ts, worked by src/jobs/exports.ts; the file is served by rest/export-file.ts.

const sql = Prisma.sql;

export type ExportView = ExportRow & { progress: number | null; fileUrl: string | null };
export type ExportInput = { method: string; path: string; params: Record<string, unknown>; format: ExportFormat };
export type ExportEstimate = { dryRun: true; rows: number; pricePerRow: number; reserve: number; remaining: number; affordable: boolean; field: string };

export function viewOf(row: ExportRow, publicBaseUrl = ''): ExportView {
  const progress = row.state === 'done' ? 1 : row.totalRows ? Math.min(1, row.rowsWritten / row.totalRows) : row.totalRows === 0 ? 1 : null;
  return { ...row, progress, fileUrl: row.state === 'done' ? `${publicBaseUrl}/v1/exports/${row.id}/file` : null };
}

const runServices = (context: Context): RunServices => ({
  prisma: context.prisma, pool: context.pool, ledger: context.ledger, authenticate: context.authenticate,
  rateLimiter: context.rateLimiter, publicBaseUrl: context.publicBaseUrl, startedAt: context.startedAt,
});

/** The list, its rows now and their price; the embedded database's bound refused (`params`). */
async function priced(context: Context, input: ExportInput): Promise<{ target: ExportList; rows: number; price: number }> {
  const target = await exportList(input.method, input.path, input.params);
  const { workspace } = await context.principal();
  const rows = await countList(target, runServices(context), workspace, context.requestId);
  const { embeddedMaxRows } = exportSettings();
  if (rows > embeddedMaxRows && (await isEmbedded(context.pool))) {
    throw validationError([{
      argument: 'params',
      expected: [`params match ${rows.toLocaleString('en')} rows; the embedded database exports at most ${embeddedMaxRows.toLocaleString('en')} (EXPORT_EMBEDDED_MAX_ROWS): narrow the list, or run on PostgreSQL`],
    }]);
  }
  return { target, rows, price: rows * target.pricePerRow };
}

/** What an export would cost now (rows × the route's per-row price), without starting it or holding anything. */
export async function exportEstimate(context: Context, input: ExportInput): Promise<ExportEstimate> {
  const { target, rows, price } = await priced(context, input);
  const remaining = (await creditBalance(context.ledger, (await context.principal()).workspace.id)).totalRemaining;
  return { dryRun: true, rows, pricePerRow: target.pricePerRow, reserve: price, remaining, affordable: remaining >= price, field: target.list.route.field };
}

/** Queues an export: its price held (402 when the workspace cannot cover it), its job queued. */
export async function exportCreate(context: Context, input: ExportInput): Promise<ExportView> {
  const { target, rows, price } = await priced(context, input);
  const principal = await context.principal();
  let hold: Hold | null = null;
  if (price > 0) {
    hold = await reserve(context.ledger, principal.workspace.id, price);
    if (!hold) throw apiError('insufficient_credits', `This export costs ${price} credits (its rows × ${target.pricePerRow}) and the workspace has fewer left. Narrow it or top up; ?dryRun=true tells the price.`, { details: { required: price } });
  }
  const id = randomUUID();
  let row: ExportRow;
  try {
    row = await writeAudited(context, async (tx, audit) => {
      const [created] = await tx.$queryRaw<ExportRow[]>(sql`
        INSERT INTO "exports" ("id", "workspaceId", "credentialId", "method", "path", "params", "format", "baseUrl", "pricePerRow", "priceHeld", "totalRows", "holds")
        VALUES (${id}::uuid, ${principal.workspace.id}::uuid, ${principal.credential.id}::uuid, ${input.method}, ${input.path}, ${JSON.stringify(input.params)}::jsonb,
          ${input.format}, ${context.publicBaseUrl}, ${target.pricePerRow}, ${price}, ${rows}, ${JSON.stringify(hold ? [hold] : [])}::jsonb)
        RETURNING "id"`);
      const [found] = await tx.$queryRaw<ExportRow[]>(sql`SELECT ${COLUMNS} FROM "exports" e WHERE e."id" = ${created!.id}::uuid AND ${inWorkspace('e', principal.workspace.id)}`);
      await audit({ action: 'export.create', entityType: 'export', entityId: id, before: null, after: { method: input.method, path: input.path, params: input.params, format: input.format } });
      return found!;
    });
  } catch (error) {
    if (hold) await settleHolds(context.ledger, { id, workspaceId: principal.workspace.id, credentialId: principal.credential.id, holds: [hold] }, '', 0, 0);
    throw error;
  }
  // A replay of the same Idempotency-Key answers the first export: this call's hold goes back.
  if (row.id !== id && hold) await settleHolds(context.ledger, { id, workspaceId: principal.workspace.id, credentialId: principal.credential.id, holds: [hold] }, '', 0, 0);
  if (row.id === id) exportsQueued([id]);
  return viewOf(row, context.publicBaseUrl);
}

export async function exportDetail(context: Context, id: string): Promise<ExportView> {
  const found = await exportOf(context.pool, (await context.principal()).workspace.id, id);
  if (!found) throw notFound('The export');
  return viewOf(found, context.publicBaseUrl);
}

/** A page of the workspace's exports, newest first. */
export async function exportPage(context: Context, page: PageRequest) {
  const { id } = (await context.principal()).workspace;
  const found = await findRowsPage<ExportRow>(context.pool, {
    select: COLUMNS,
    from: sql`FROM "exports" e WHERE ${inWorkspace('e', id)}`,
    order: [{ key: sql`e."createdAt"`, direction: 'DESC' }, { key: sql`e."id"`, direction: 'DESC' }],
    page,
  });
  return { ...found, data: found.data.map((row) => viewOf(row, context.publicBaseUrl)) };
}

/**
 * Cancels a queued or running export, or deletes a finished one's file (state cancelled either way). A queued one
 * costs nothing; a running one stops at its next chunk and pays for the rows it wrote (its job settles). Failed,
 * cancelled and expired exports are answered as they are.
 */
export async function exportCancel(context: Context, id: string): Promise<ExportView> {
  const workspaceId = (await context.principal()).workspace.id;
  // Its job, when it runs in this process, stops at its next chunk (on the embedded database, before the statements
  // below can run: the job holds the database); it then records the cancel and what the rows written cost.
  const signalled = cancelRunning(id, workspaceId);
  const row = await writeAudited(context, async (tx, audit) => {
    const [before] = await tx.$queryRaw<ExportRow[]>(sql`SELECT ${COLUMNS} FROM "exports" e WHERE e."id" = ${id}::uuid AND ${inWorkspace('e', workspaceId)} FOR UPDATE`);
    if (!before) throw notFound('The export');
    if (signalled && before.state === 'cancelled') {
      // The job stopped on this call's signal and recorded the cancel: the call's audit is still its own.
      await audit({ action: 'export.cancel', entityType: 'export', entityId: id, before: { state: 'running' }, after: { state: 'cancelled' } });
      return before;
    }
    if (!(['queued', 'running', 'done'] as ExportState[]).includes(before.state)) return before;
    const [after] = await tx.$queryRaw<ExportRow[]>(sql`
      UPDATE "exports" e SET "state" = 'cancelled', "fileName" = NULL,
        "finishedAt" = CASE WHEN e."state" = 'running' THEN e."finishedAt" ELSE coalesce(e."finishedAt", now()) END
      WHERE e."id" = ${id}::uuid AND ${inWorkspace('e', workspaceId)} RETURNING ${COLUMNS}`);
    await audit({ action: before.state === 'done' ? 'export.file_delete' : 'export.cancel', entityType: 'export', entityId: id, before: { state: before.state }, after: { state: 'cancelled' } });
    return { ...after!, priorState: before.state, priorFile: before.fileName } as ExportRow & { priorState?: ExportState; priorFile?: string | null };
  });
  const { priorState: prior, priorFile, ...view } = row as ExportRow & { priorState?: ExportState; priorFile?: string | null };
  if (prior === 'queued') await settleHolds(context.ledger, view, '', 0, 0);
  // The export is cancelled (committed): a file the store cannot delete now is left to it (a lifecycle rule), not an error.
  if (prior === 'done') await removeFile(priorFile ?? null).catch(() => undefined);
  return viewOf(view, context.publicBaseUrl);
}

/**
 * A finished export's file for the file route: its row (size, ETag, format) and a reader of its bytes; `read` null
 * while it is not done (queued, running, failed, cancelled, expired); null for a missing one or another workspace's.
 */
export async function exportFile(db: Context['pool'], workspaceId: string, id: string): Promise<{ row: ExportRow; read: ((start: number, end: number) => Promise<ReadableStream<Uint8Array>>) | null } | null> {
  const row = await exportOf(db, workspaceId, id);
  if (!row) return null;
  const location = row.state === 'done' ? row.fileName : null;
  return { row, read: location ? (start, end) => readFileRange(location, start, end) : null };
}

export { runExport, sweepExports, type ExportJobServices } from './service/run.js';
export { cancelSignalled, onExportsQueued } from './service/signal.js';
export { CONTENT_TYPES, EXTENSIONS, exportSettings } from './service/settings.js';
export { FileGone } from './service/files.js';
export { moveExport };

/** Whether any export needs a worker (queued, running, or a file to expire): the job queue starts for them. */
export async function exportsPending(pool: Context['pool']): Promise<boolean> {
  const { rows } = await pool.query<{ pending: boolean }>(`${acrossWorkspaces('the job queue looks for exports to work')}
    SELECT EXISTS (SELECT 1 FROM "exports" e WHERE e."state" IN ('queued', 'running', 'done')) AS pending`);
  return rows[0]?.pending ?? false;
}
