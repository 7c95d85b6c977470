import type pg from 'pg';
import { Prisma } from '../../../generated/prisma/client.js';
import type { Hold } from '../../../metering/ledger.js';
import { rawRows, type SqlSource } from '../../shared/list.js';
import { inWorkspace } from '../../shared/workspace.js';
import type { ExportFormat, ExportState } from '../args.js';

// The `exports` table: every statement of the routes names the caller's workspace; the job's statements name the
// export's own.

const sql = Prisma.sql;

export type ExportRow = {
  id: string;
  workspaceId: string;
  credentialId: string;
  method: string;
  path: string;
  params: Record<string, unknown>;
  format: ExportFormat;
  baseUrl: string;
  state: ExportState;
  rowsWritten: number;
  totalRows: number | null;
  pricePerRow: number;
  priceHeld: number;
  priceCharged: number;
  holds: Hold[];
  fileName: string | null;
  fileBytes: number | null;
  etag: string | null;
  error: string | null;
  createdAt: Date;
  startedAt: Date | null;
  heartbeatAt: Date | null;
  finishedAt: Date | null;
  expiresAt: Date | null;
};

export const COLUMNS = sql`e."id", e."workspaceId"::text AS "workspaceId", e."credentialId"::text AS "credentialId", e."method", e."path", e."params",
  e."format", e."baseUrl", e."state", e."rowsWritten", e."totalRows", e."pricePerRow", e."priceHeld", e."priceCharged", e."holds", e."fileName",
  e."fileBytes"::float8 AS "fileBytes", e."etag", e."error", e."createdAt", e."startedAt", e."heartbeatAt", e."finishedAt", e."expiresAt"`;

/** The caller's export of that id, or null (another workspace's too). */
export async function exportOf(db: SqlSource, workspaceId: string, id: string): Promise<ExportRow | null> {
  const [row] = await rawRows<ExportRow>(db, sql`SELECT ${COLUMNS} FROM "exports" e WHERE e."id" = ${id}::uuid AND ${inWorkspace('e', workspaceId)}`);
  return row ?? null;
}

/** Changes an export of a workspace where `state` is one of `from`: the row after, or null when it was not in such a state. */
export async function moveExport(
  db: Pick<pg.Pool, 'query'>, row: Pick<ExportRow, 'id' | 'workspaceId'>, from: readonly ExportState[], set: Prisma.Sql,
): Promise<ExportRow | null> {
  const [moved] = await rawRows<ExportRow>(db, sql`
    UPDATE "exports" e SET ${set} WHERE e."id" = ${row.id}::uuid AND ${inWorkspace('e', row.workspaceId)} AND e."state" = ANY(${[...from]}::text[])
    RETURNING ${COLUMNS}`);
  return moved ?? null;
}
