import type { Context } from '../../../context.js';
import { notFound } from '../../../errors.js';
import type { BrandtrackerLink, PrismaClient } from '../../../generated/prisma/client.js';
import { writeAudited, type Lock } from '../../shared/audit.js';
import { lockWorkspaceQuota, takeOperation } from './quota.js';

// Bulk writes on workspace links (PATCH and DELETE /v1/brandtrackers/workspace-links), addressed by exactly one set
// of ids: public brandtracker ids or link ids. Ids that are unknown, inactive or of another workspace are reported as
// not found and left untouched.

export type LinksResult = { requestedCount: number; affectedCount: number; notFoundBrandtrackerIds: string[]; notFoundWorkspaceLinkIds: number[] };

export type Address = { brandtrackerIds?: string[] | null; workspaceLinkIds?: number[] | null };

/** The workspace's active links the address names, locked for this write, and the ids it names that are not among them. */
async function resolveAddress(tx: PrismaClient, lock: Lock, workspaceId: string, address: Address) {
  const brandtrackerIds = [...new Set((address.brandtrackerIds ?? []).map((id) => id.toLowerCase()))];
  const linkIds = [...new Set(address.workspaceLinkIds ?? [])];
  const listed = await tx.brandtrackerLink.findMany({
    where: { workspaceId, isActive: true, ...(brandtrackerIds.length ? { brandtrackerId: { in: brandtrackerIds } } : { id: { in: linkIds } }) },
    orderBy: { id: 'asc' },
    select: { id: true },
  });
  const links = (await lock.all('brandtrackerLink', listed.map((link) => link.id))).filter((link) => link.isActive);
  const foundBrandtrackers = new Set(links.map((link) => link.brandtrackerId));
  const foundLinks = new Set(links.map((link) => link.id));
  return {
    links,
    requestedCount: brandtrackerIds.length + linkIds.length,
    notFoundBrandtrackerIds: brandtrackerIds.filter((id) => !foundBrandtrackers.has(id)),
    notFoundWorkspaceLinkIds: linkIds.filter((id) => !foundLinks.has(id)),
  };
}

const state = (link: BrandtrackerLink) => ({ folderId: link.folderId, isActive: link.isActive });

/** Moves the addressed active links into one folder, or to the root (folderId null or omitted). */
export async function workspaceLinksMove(context: Context, args: Address & { folderId?: number | null }): Promise<LinksResult> {
  const { workspace } = await context.principal();
  return writeAudited(context, async (tx, audit, lock) => {
    if (args.folderId != null && !(await tx.brandtrackerFolder.findFirst({ where: { id: args.folderId, workspaceId: workspace.id }, select: { id: true } }))) {
      throw notFound(`Folder ${args.folderId}`);
    }
    const { links, ...report } = await resolveAddress(tx, lock, workspace.id, args);
    const destination = args.folderId ?? null;
    await tx.brandtrackerLink.updateMany({ where: { id: { in: links.map((link) => link.id) } }, data: { folderId: destination } });
    for (const link of links.filter((found) => found.folderId !== destination)) {
      await audit({ action: 'brandtracker.move', entityType: 'brandtracker_link', entityId: link.id, before: state(link), after: { ...state(link), folderId: destination } });
    }
    return { ...report, affectedCount: links.length };
  });
}

/** Deactivates the addressed active links: one create/delete quota operation. */
export async function workspaceLinksDelete(context: Context, args: Address): Promise<LinksResult> {
  const { workspace } = await context.principal();
  return writeAudited(context, async (tx, audit, lock) => {
    await lockWorkspaceQuota(tx, workspace.id);
    const { links, ...report } = await resolveAddress(tx, lock, workspace.id, args);
    await takeOperation(tx, workspace.id, { action: 'bulk-delete', slots: 0, affectedCount: links.length, requestId: context.requestId });
    await tx.brandtrackerLink.updateMany({ where: { id: { in: links.map((link) => link.id) } }, data: { isActive: false, removedAt: new Date() } });
    for (const link of links) {
      await audit({ action: 'brandtracker.delete', entityType: 'brandtracker_link', entityId: link.id, before: state(link), after: { ...state(link), isActive: false } });
    }
    return { ...report, affectedCount: links.length };
  });
}
