import type { AccessLevel, ApiAccessStatus, PrismaClient, WorkspaceRole } from '../generated/prisma/client.js';

/** Everything authentication needs about a key, read in ONE statement. */
export type StoredCredential = {
  id: string;
  name: string;
  description: string | null;
  keyHash: Uint8Array;
  accessLevel: AccessLevel;
  expiresAt: Date | null;
  revokedAt: Date | null;
  deletedAt: Date | null;
  createdAt: Date;
  lastUsedAt: Date | null;
  workspace: { id: string; slug: string; name: string; createdAt: Date };
  access: ApiAccessStatus | null;
  delegatedUser: { id: string; fullName: string; avatarUrl: string | null; role: WorkspaceRole; revokedAt: Date | null } | null;
};

type Row = Omit<StoredCredential, 'workspace' | 'delegatedUser'> & {
  workspaceId: string; workspaceSlug: string; workspaceName: string; workspaceCreatedAt: Date;
  userId: string | null; userFullName: string | null; userAvatarUrl: string | null; userRole: WorkspaceRole | null; userRevokedAt: Date | null;
};

export async function findCredential(prisma: PrismaClient, keyPrefix: string): Promise<StoredCredential | null> {
  const [row] = await prisma.$queryRaw<Row[]>`
    SELECT c."id", c."name", c."description", c."keyHash", c."accessLevel"::text AS "accessLevel", c."expiresAt", c."revokedAt",
           c."deletedAt", c."createdAt", c."lastUsedAt",
           w."id"::text AS "workspaceId", w."slug" AS "workspaceSlug", w."name" AS "workspaceName", w."createdAt" AS "workspaceCreatedAt",
           x."status"::text AS "access",
           u."id"::text AS "userId", u."fullName" AS "userFullName", u."avatarUrl" AS "userAvatarUrl", u."role"::text AS "userRole",
           u."revokedAt" AS "userRevokedAt"
    FROM "credentials" c
    JOIN "workspaces" w ON w."id" = c."workspaceId"
    LEFT JOIN "workspace_api_access" x ON x."workspaceId" = w."id"
    LEFT JOIN "workspace_users" u ON u."id" = c."delegatedUserId"
    WHERE c."keyPrefix" = ${keyPrefix}`;
  if (!row) return null;
  return {
    id: String(row.id),
    name: row.name,
    description: row.description,
    keyHash: row.keyHash,
    accessLevel: row.accessLevel,
    expiresAt: row.expiresAt,
    revokedAt: row.revokedAt,
    deletedAt: row.deletedAt,
    createdAt: row.createdAt,
    lastUsedAt: row.lastUsedAt,
    workspace: { id: row.workspaceId, slug: row.workspaceSlug, name: row.workspaceName, createdAt: row.workspaceCreatedAt },
    access: row.access,
    delegatedUser: row.userId
      ? { id: row.userId, fullName: row.userFullName!, avatarUrl: row.userAvatarUrl, role: row.userRole!, revokedAt: row.userRevokedAt }
      : null,
  };
}
