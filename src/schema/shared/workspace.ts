import { Prisma, type PrismaClient } from '../../generated/prisma/client.js';
import { WORKSPACE_TABLES } from '../../db/workspace-check.js';
import { scopeToWorkspace, WORKSPACE_MODELS, type WorkspaceScope } from '../../db/workspace-scope.js';

// The one workspace filter. Workspace data (shares, brandtracker folders and links, boards, their items and
// shares, audit events, image searches, brandtracker quotas) is read and written only through a client scoped to
// the caller's workspace: every operation on those tables gets `workspaceId = <the caller's>` merged into its
// filter and its new rows. The request's plain client refuses those tables outright, so a read that forgets the
// filter fails, never leaks.
// Raw SQL on them states the filter with inWorkspace() on every mention of such a table, per statement: the
// database connections refuse a statement whose mention of a workspace table lacks `alias."workspaceId" = $n::uuid`
// (src/db/workspace-check.ts), and an INSERT must name the "workspaceId" column. A statement that spans workspaces
// on purpose (a migration) starts with acrossWorkspaces(reason); nothing else gets past.

export { scopeToWorkspace, WORKSPACE_MODELS, WORKSPACE_TABLES, type WorkspaceScope };

/** `alias."workspaceId" = <id>`: the workspace filter of a raw statement (`FROM "boards" b WHERE ${inWorkspace('b', id)}`). */
export function inWorkspace(alias: string, workspaceId: string): Prisma.Sql {
  return Prisma.sql`${Prisma.raw(`${alias}."workspaceId"`)} = ${workspaceId}::uuid`;
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
