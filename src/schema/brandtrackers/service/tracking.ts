import type { Context } from '../../../context.js';
import { notFound } from '../../../errors.js';
import type { BrandtrackerLink } from '../../../generated/prisma/client.js';
import { writeAudited, type Lock } from '../../shared/audit.js';
import { workspaceDb } from '../../shared/workspace.js';
import { activeLink, loadLink } from './links.js';
import { lockWorkspaceQuota, takeOperation } from './quota.js';
import { brandtrackerOfTarget, targetOf, type TargetArgs } from './targets.js';

// The state machine of a workspace link: none or inactive → active (create or reactivate, one quota operation and
// one slot), active → active (rename), active → inactive (delete; the link keeps its name and folder).

const linkState = (link: Pick<BrandtrackerLink, 'brandtrackerId' | 'name' | 'folderId' | 'isActive' | 'addedAt' | 'removedAt'>) => ({
  brandtrackerId: link.brandtrackerId, name: link.name, folderId: link.folderId, isActive: link.isActive, addedAt: link.addedAt, removedAt: link.removedAt,
});

const isUniqueViolation = (error: unknown) => (error as { code?: unknown }).code === 'P2002';

/** Retries once a write that lost the insert of a shared row (a global brandtracker first tracked by two workspaces at once). */
async function retryOnceOnUniqueViolation<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) return write();
    throw error;
  }
}

/** The workspace's link, locked for this write and read again: 404 when it is no longer active. */
async function lockActive(lock: Lock, linkId: number, brandtrackerId: string): Promise<BrandtrackerLink> {
  const link = await lock.one('brandtrackerLink', linkId);
  if (!link?.isActive) throw notFound(`Brandtracker "${brandtrackerId}"`);
  return link;
}

/** Tracks a target in the workspace; `select` is what the answer's `data` selects. */
export async function brandtrackerCreate(context: Context, args: TargetArgs & { folderId?: number | null }, select: object) {
  const target = targetOf(args);
  const [{ workspace }, db] = await Promise.all([context.principal(), workspaceDb(context)]);
  // One transaction from the quota check to the link: a refused or failed create leaves no global brandtracker behind.
  const { linkId, created } = await retryOnceOnUniqueViolation(() => writeAudited(context, async (tx, audit) => {
    await lockWorkspaceQuota(tx, workspace.id);
    if (args.folderId != null && !(await tx.brandtrackerFolder.findFirst({ where: { id: args.folderId, workspaceId: workspace.id }, select: { id: true } }))) {
      throw notFound(`Folder ${args.folderId}`);
    }
    const id = await brandtrackerOfTarget(tx, target);
    const before = await tx.brandtrackerLink.findUnique({ where: { workspaceId_brandtrackerId: { workspaceId: workspace.id, brandtrackerId: id } } });
    if (before?.isActive) return { linkId: before.id, created: false };
    await takeOperation(tx, workspace.id, { action: before ? 'reactivate' : 'create', slots: 1, affectedCount: 1, requestId: context.requestId });
    const data = { isActive: true, removedAt: null, addedAt: new Date(), ...(args.folderId != null ? { folderId: args.folderId } : {}) };
    const after = before
      ? await tx.brandtrackerLink.update({ where: { id: before.id }, data })
      : await tx.brandtrackerLink.create({ data: { ...data, workspaceId: workspace.id, brandtrackerId: id } });
    await audit({
      action: before ? 'brandtracker.reactivate' : 'brandtracker.create', entityType: 'brandtracker_link', entityId: after.id,
      before: before ? linkState(before) : null, after: linkState(after),
    });
    return { linkId: after.id, created: true };
  }));
  const data = await loadLink(db, workspace.id, linkId, select);
  return { data, created };
}

/** Renames an active link; `query` is what the answer selects. */
export async function brandtrackerUpdate(context: Context, args: { brandtrackerId: string; name: string }, query: object) {
  const [{ workspace }, db] = await Promise.all([context.principal(), workspaceDb(context)]);
  const found = await activeLink(db, workspace.id, args.brandtrackerId);
  await writeAudited(context, async (tx, audit, lock) => {
    const before = await lockActive(lock, found.id, args.brandtrackerId);
    if (before.name === args.name) return;
    const after = await tx.brandtrackerLink.update({ where: { id: found.id }, data: { name: args.name } });
    await audit({ action: 'brandtracker.rename', entityType: 'brandtracker_link', entityId: found.id, before: linkState(before), after: linkState(after) });
  });
  return loadLink(db, workspace.id, found.id, query);
}

export async function brandtrackerDelete(context: Context, args: { brandtrackerId: string }) {
  const { workspace } = await context.principal();
  // The link is read inside the write: a keyed retry of a delete that committed reaches writeAudited first and is
  // handed its result, not a 404 for the link it deactivated. A concurrent delete of the same brandtracker waits
  // for this one, then finds the link inactive: 404, as a second delete.
  await writeAudited(context, async (tx, audit, lock) => {
    const found = await activeLink(tx, workspace.id, args.brandtrackerId);
    const before = await lockActive(lock, found.id, args.brandtrackerId);
    const after = await tx.brandtrackerLink.update({ where: { id: found.id }, data: { isActive: false, removedAt: new Date() } });
    await audit({ action: 'brandtracker.delete', entityType: 'brandtracker_link', entityId: found.id, before: linkState(before), after: linkState(after) });
  });
  return { id: args.brandtrackerId, deleted: true };
}
