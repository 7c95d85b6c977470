import type { PrismaClient } from '../generated/prisma/client.js';

// The Prisma side of the one workspace filter (src/schema/shared/workspace.ts tells the whole rule): a client whose
// every operation on a workspace table gets `workspaceId = <the caller's>` merged into its filter and its new rows.

/** Prisma models that belong to a workspace and must be read through the workspace filter. */
export const WORKSPACE_MODELS: ReadonlySet<string> = new Set([
  'AdShare', 'BrandtrackerFolder', 'BrandtrackerLink', 'Board', 'BoardItem', 'BoardShare', 'AuditEvent', 'ImageSearch',
  'BrandtrackerQuota', 'BrandtrackerQuotaOperation',
]);

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

/** The request's workspace client, made on first use and kept for the request (src/schema/shared/workspace.ts, workspaceDb). */
export type WorkspaceScope = { client: PrismaClient | null; workspaceId: string | null };
