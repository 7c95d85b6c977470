import type { PrismaClient } from '../../generated/prisma/client.js';
import { pagePagination, offsetOf, type PagePagination, type PageRequest } from '../shared/pagination.js';
import { scopeToWorkspace } from '../shared/workspace.js';
import { targetIdOf } from './targets.js';

// What a share link shows, without a key: the board and a page of its items, read-only. The slug is the only
// credential, so it is looked up across workspaces; everything after it is read through the filter of the
// board's own workspace. A link answers only while its share exists and its board is public and not archived.

export type SharedBoardPage = {
  data: {
    board: { id: string; name: string; description: string | null; surface: string; createdAt: Date; updatedAt: Date };
    items: { id: string; type: string; targetId: string; note: string | null; createdAt: Date }[];
  };
  pagination: PagePagination;
};

export async function sharedBoardPage(base: PrismaClient, slug: string, page: PageRequest): Promise<SharedBoardPage | null> {
  const share = await base.boardShare.findUnique({ where: { slug }, include: { board: true } });
  if (!share || share.board.archivedAt !== null || share.board.visibility !== 'public') return null;
  const db = scopeToWorkspace(base, share.workspaceId);
  const where = { boardId: share.boardId };
  const [items, total] = await Promise.all([
    db.boardItem.findMany({ where, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], skip: offsetOf(page), take: page.limit }),
    db.boardItem.count({ where }),
  ]);
  const { id, name, description, surface, createdAt, updatedAt } = share.board;
  return {
    data: {
      board: { id, name, description, surface, createdAt, updatedAt },
      items: items.map((item) => ({ id: item.id, type: item.itemType, targetId: targetIdOf(item), note: item.note, createdAt: item.createdAt })),
    },
    pagination: pagePagination(page, total),
  };
}
