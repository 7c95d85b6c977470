import { Prisma, type PrismaClient } from '../../generated/prisma/client.js';
import { WORKSPACE_TABLES } from '../../db/workspace-check.js';

// The one workspace filter. Workspace data (shares, brandtracker folders and links, boards, their items and
// shares, audit events, image searches, brandtracker quotas) is read and written only through a client scoped to
// the caller's workspace: every operation on those tables gets `workspaceId = <the caller's>` merged into its
// filter and its new rows. The request's plain client refuses those tables outright, so a read that forgets the
// filter fails, never leaks.
// Raw SQL on them states the filter with inWorkspace() on every mention of such a table, per statement: the
// database connections refuse a statement whose mention of a workspace table lacks `alias."workspaceId" = $n::uuid`
// (src/db/workspace-check.ts), and an INSERT must name the "workspaceId" column. A statement that spans workspaces
// on purpose (a migration) starts with acrossWorkspaces(reason); nothing else gets past.

export { WORKSPACE_TABLES };

/** Prisma models that belong to a workspace and must be read through the workspace filter. */
export const WORKSPACE_MODELS: ReadonlySet<string> = new Set([
  'AdShare', 'BrandtrackerFolder', 'BrandtrackerLink', 'Board', 'BoardItem', 'BoardShare', 'AuditEvent', 'ImageSearch',
  'BrandtrackerQuota', 'BrandtrackerQuotaOperation',
]);

/** `alias."workspaceId" = <id>`: the workspace filter of a raw statement (`FROM "boards" b WHERE ${inWorkspace('b', id)}`). */
export function inWorkspace(alias: string, workspaceId: string): Prisma.Sql {
  return Prisma.sql`${Prisma.raw(`${alias}."workspaceId"`)} = ${workspaceId}::uuid`;
}

type Args = Record<string, unknown> & { where?: unknown; data?: unknown; create?: unknown };

const UNIQUE_WHERE = new Set(['findUnique', 'findUniqueOrThrow', 'update', 'delete', 'upsert']);
const CREATES = new Set(['create', 'createMany', 'createManyAndReturn']);

/** The operation's arguments, limited to one workspace. */
function scoped(operation: string, args: Args, workspaceId: string): Args {
  const withWorkspace = (data: unknown) => (Array.isArray(data) ? data.map((row) => ({ ...row, workspaceId })) : { ...(data as object), workspaceId });
  if (CREATES.has(operation)) return { ...args, data: withWorkspace(args.data) };
  // A unique lookup keeps its unique key at the top level (Prisma accepts further filters beside it).
  const where = UNIQUE_WHERE.has(operation) ? { ...(args.where as object), workspaceId } : { AND: [args.where ?? {}, { workspaceId }] };
  return operation === 'upsert' ? { ...args, where, create: withWorkspace(args.create) } : { ...args, where };
}

/** A client whose operations on workspace tables are limited to `workspaceId`. */
export function scopeToWorkspace(base: PrismaClient, workspaceId: string): PrismaClient {
  return base.$extends({
    name: 'workspace-filter',
    query: {
      $allModels: {
        $allOperations({ model, operation, args, query }) {
          return query(WORKSPACE_MODELS.has(model) ? (scoped(operation, args as Args, workspaceId) as typeof args) : args);
        },
      },
    },
  }) as unknown as PrismaClient;
}

const bases = new WeakMap<PrismaClient, PrismaClient>();

/** The request's plain client: every operation on a workspace table throws (reach them through workspaceDb). */
export function refuseWorkspaceTables(base: PrismaClient): PrismaClient {
  const guarded = base.$extends({
    name: 'workspace-guard',
    query: {
      $allModels: {
        $allOperations({ model, operation, args, query }) {
          if (WORKSPACE_MODELS.has(model)) throw new Error(`${model}.${operation} outside the workspace filter: use workspaceDb(context)`);
          return query(args);
        },
      },
    },
  }) as unknown as PrismaClient;
  bases.set(guarded, base);
  return guarded;
}

/** The client of the request's workspace, made on first use and kept for the request (Pothos loads relations through it). */
export type WorkspaceScope = { client: PrismaClient | null; workspaceId: string | null };

export async function workspaceDb(context: {
  prisma: PrismaClient;
  principal(): Promise<{ workspace: { id: string } }>;
  workspaceScope: WorkspaceScope;
}): Promise<PrismaClient> {
  const { workspace } = await context.principal();
  const scope = context.workspaceScope;
  if (scope.client && scope.workspaceId === workspace.id) return scope.client;
  const base = bases.get(context.prisma) ?? context.prisma;
  scope.client = scopeToWorkspace(base, workspace.id);
  scope.workspaceId = workspace.id;
  return scope.client;
}
