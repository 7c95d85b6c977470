import type { Context } from '../../../context.js';
import { apiError } from '../../../errors.js';
import type { PrismaClient } from '../../../generated/prisma/client.js';
import { writeAudited, type Lock } from '../../shared/audit.js';
import { lockWorkspaceQuota, takeOperation } from './quota.js';

// The workspace's brandtracker folders: listed in rank order with their active brandtrackers counted, and written.
// Names are unique in a workspace (409 conflict); a new folder takes the next rank. Deleting a folder moves its
// brandtrackers to the root, or deactivates them (one create/delete quota operation).

export type FolderRow = { id: number; name: string; rank: number; brandtrackerCount: number };

const folderSelect = { id: true, name: true, rank: true, _count: { select: { links: { where: { isActive: true } } } } } as const;

type Selected = { id: number; name: string; rank: number; _count: { links: number } };
const toRow = (folder: Selected): FolderRow => ({ id: folder.id, name: folder.name, rank: folder.rank, brandtrackerCount: folder._count.links });

export async function listFolders(prisma: PrismaClient, workspaceId: string): Promise<FolderRow[]> {
  const folders = await prisma.brandtrackerFolder.findMany({ where: { workspaceId }, orderBy: [{ rank: 'asc' }, { name: 'asc' }, { id: 'asc' }], select: folderSelect });
  return folders.map(toRow);
}

async function loadFolder(prisma: Pick<PrismaClient, 'brandtrackerFolder'>, workspaceId: string, id: number): Promise<FolderRow | null> {
  const folder = await prisma.brandtrackerFolder.findFirst({ where: { id, workspaceId }, select: folderSelect });
  return folder ? toRow(folder) : null;
}

const nameTaken = (name: string) => apiError('conflict', `The workspace already has a folder named "${name}".`, { details: { field: 'name' } });
const isUniqueViolation = (error: unknown) => (error as { code?: unknown }).code === 'P2002';

/** The workspace's folder, locked for this write and read again, or 404. */
const folderOf = (lock: Lock, id: number) => lock.one('brandtrackerFolder', id, `Folder ${id}`);

export async function folderCreate(context: Context, args: { name: string }): Promise<FolderRow> {
  const { workspace } = await context.principal();
  try {
    return await writeAudited(context, async (tx, audit) => {
      await lockWorkspaceQuota(tx, workspace.id);
      const { _max } = await tx.brandtrackerFolder.aggregate({ where: { workspaceId: workspace.id }, _max: { rank: true } });
      const folder = await tx.brandtrackerFolder.create({ data: { workspaceId: workspace.id, name: args.name, rank: (_max.rank ?? 0) + 1 } });
      await audit({ action: 'brandtracker_folder.create', entityType: 'brandtracker_folder', entityId: folder.id, before: null, after: folder });
      return { id: folder.id, name: folder.name, rank: folder.rank, brandtrackerCount: 0 };
    });
  } catch (error) {
    throw isUniqueViolation(error) ? nameTaken(args.name) : error;
  }
}

export async function folderRename(context: Context, args: { folderId: number; name: string }): Promise<FolderRow> {
  const { workspace } = await context.principal();
  try {
    return await writeAudited(context, async (tx, audit, lock) => {
      const before = await folderOf(lock, args.folderId);
      if (before.name !== args.name) {
        const after = await tx.brandtrackerFolder.update({ where: { id: before.id }, data: { name: args.name } });
        await audit({ action: 'brandtracker_folder.rename', entityType: 'brandtracker_folder', entityId: before.id, before, after });
      }
      return (await loadFolder(tx, workspace.id, before.id))!;
    });
  } catch (error) {
    throw isUniqueViolation(error) ? nameTaken(args.name) : error;
  }
}

export async function folderDelete(context: Context, args: { folderId: number; action: string }) {
  const { workspace } = await context.principal();
  return writeAudited(context, async (tx, audit, lock) => {
    await lockWorkspaceQuota(tx, workspace.id);
    const folder = await folderOf(lock, args.folderId);
    const listed = await tx.brandtrackerLink.findMany({ where: { workspaceId: workspace.id, folderId: folder.id, isActive: true }, orderBy: { id: 'asc' }, select: { id: true } });
    const links = (await lock.all('brandtrackerLink', listed.map((link) => link.id))).filter((link) => link.isActive && link.folderId === folder.id);
    const removing = args.action === 'delete-brandtrackers';
    if (removing) await takeOperation(tx, workspace.id, { action: 'folder-delete', slots: 0, affectedCount: links.length, requestId: context.requestId });
    const now = new Date();
    await tx.brandtrackerLink.updateMany({
      where: { id: { in: links.map((link) => link.id) } },
      data: removing ? { isActive: false, removedAt: now, folderId: null } : { folderId: null },
    });
    await tx.brandtrackerFolder.delete({ where: { id: folder.id } });
    await audit({ action: 'brandtracker_folder.delete', entityType: 'brandtracker_folder', entityId: folder.id, before: folder, after: null });
    for (const link of links) {
      await audit({
        action: removing ? 'brandtracker.delete' : 'brandtracker.move',
        entityType: 'brandtracker_link',
        entityId: link.id,
        before: { folderId: link.folderId, isActive: true },
        after: removing ? { folderId: null, isActive: false } : { folderId: null, isActive: true },
      });
    }
    return { deleted: true, action: args.action, affectedCount: links.length };
  });
}
