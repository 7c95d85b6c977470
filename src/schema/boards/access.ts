import { canWrite } from '../../auth/principal.js';
import type { Context } from '../../context.js';
import { apiError } from '../../errors.js';
import type { Board, Prisma } from '../../generated/prisma/client.js';
import type { BoardScope } from './enums.js';

// Who may see and change boards and saved items: one place for the scope rule (personal scope needs a delegated
// user), the visibility rule (a private board is seen by its creator and by full-access keys, which act for the
// workspace itself) and the capabilities shown on every board.

export type Actor = { workspaceId: string; userId: string | null; fullAccess: boolean; writer: boolean };

export async function actorOf(context: Context): Promise<Actor> {
  const principal = await context.principal();
  return {
    workspaceId: principal.workspace.id,
    userId: principal.delegatedUser?.id ?? null,
    fullAccess: principal.credential.accessLevel === 'full_access',
    writer: canWrite(principal),
  };
}

/** The owner of a scope's rows: null for the workspace, the delegated user for personal. */
export type ScopeKey = { scope: BoardScope; ownerUserId: string | null };

/** The caller's rows of a scope; personal scope without a delegated user is a 403 (full-access keys have no person). */
export function scopeKey(actor: Actor, scope: BoardScope): ScopeKey {
  if (scope === 'workspace') return { scope, ownerUserId: null };
  if (!actor.userId) throw apiError('forbidden', 'scope personal needs a delegated-user API key; a full_access key has no personal scope.');
  return { scope, ownerUserId: actor.userId };
}

/** Boards of one scope the caller may see. */
export function visibleBoards(actor: Actor, key: ScopeKey): Prisma.BoardWhereInput {
  const where: Prisma.BoardWhereInput = { scope: key.scope, ownerUserId: key.ownerUserId };
  if (key.scope === 'personal' || actor.fullAccess) return where;
  return { ...where, OR: [{ visibility: { not: 'private' } }, { createdByUserId: actor.userId }] };
}

/** Boards of any scope the caller may see (lookups by id). Its SQL form: service/items.ts `visibleBoardsAnyScopeSql`. */
export function visibleBoardsAnyScope(actor: Actor): Prisma.BoardWhereInput {
  const workspace = visibleBoards(actor, { scope: 'workspace', ownerUserId: null });
  return actor.userId ? { OR: [workspace, { scope: 'personal', ownerUserId: actor.userId }] } : workspace;
}

export type Capabilities = { canAddItems: boolean; canManage: boolean };

/** What the caller may do with a board it sees: writers manage it; items go only to an active board. */
export function capabilitiesOf(actor: Actor, board: Pick<Board, 'archivedAt'>): Capabilities {
  return { canManage: actor.writer, canAddItems: actor.writer && board.archivedAt === null };
}
