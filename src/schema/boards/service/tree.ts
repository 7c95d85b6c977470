import { Prisma, type PrismaClient } from '../../../generated/prisma/client.js';
import { inWorkspace } from '../../shared/workspace.js';

// Board trees in SQL: a board and its descendants in one recursive statement (boards_parentBoardId_idx),
// never one query per level.

/** The ids of a board and all its descendants, the board first. */
export async function subtreeIds(db: PrismaClient, workspaceId: string, boardId: string): Promise<string[]> {
  const rows = await db.$queryRaw<{ id: string }[]>(Prisma.sql`
    WITH RECURSIVE tree AS (
      SELECT b."id", 0 AS depth FROM "boards" b WHERE b."id" = ${boardId} AND ${inWorkspace('b', workspaceId)}
      UNION ALL
      SELECT c."id", t.depth + 1 FROM "boards" c JOIN tree t ON c."parentBoardId" = t."id" WHERE ${inWorkspace('c', workspaceId)}
    )
    SELECT "id" FROM tree ORDER BY depth, "id"`);
  return rows.map((row) => row.id);
}

/** Serialises changes of a workspace's board trees until the transaction ends (moves check for cycles under it). */
export async function lockBoardTrees(tx: PrismaClient, workspaceId: string): Promise<void> {
  await tx.$queryRaw(Prisma.sql`SELECT 1 AS locked FROM pg_advisory_xact_lock(hashtext(${`boards:${workspaceId}`}))`);
}
