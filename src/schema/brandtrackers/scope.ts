import { Prisma } from '../../generated/prisma/client.js';

/** The workspace's links, active or not, as `l` (brandtracker_links). */
export function workspaceLinks(workspaceId: string): Prisma.Sql {
  return Prisma.sql`l."workspaceId" = ${workspaceId}::uuid`;
}

/** The workspace's active links, as `l` (brandtracker_links). */
export function activeLinks(workspaceId: string): Prisma.Sql {
  return Prisma.sql`${workspaceLinks(workspaceId)} AND l."isActive"`;
}
