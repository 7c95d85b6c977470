import type { AccessLevel, WorkspaceRole } from '../generated/prisma/client.js';

/** Who a request acts as: the credential, its workspace, and the delegated user when there is one. */
export type Principal = {
  credential: {
    id: string;
    name: string;
    description: string | null;
    accessLevel: AccessLevel;
    expiresAt: Date | null;
    createdAt: Date;
    lastUsedAt: Date | null;
  };
  workspace: { id: string; slug: string; name: string; createdAt: Date };
  delegatedUser: { id: string; fullName: string; avatarUrl: string | null; role: WorkspaceRole } | null;
};

const WRITER_ROLES: ReadonlySet<WorkspaceRole> = new Set(['owner', 'admin', 'member']);

/** Full-access keys act for the workspace itself; delegated keys act with their user's role. */
export function canWrite(principal: Principal): boolean {
  return principal.delegatedUser === null || WRITER_ROLES.has(principal.delegatedUser.role);
}
