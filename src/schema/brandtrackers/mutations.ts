import { queryFromInfo } from '@pothos/plugin-prisma';
import { z } from 'zod';
import { notFound } from '../../errors.js';
import type { BrandtrackerLink } from '../../generated/prisma/client.js';
import { builder } from '../builder.js';
import { writeAudited, type Lock } from '../shared/audit.js';
import { workspaceDb } from '../shared/workspace.js';
import { brandtrackerId, displayName, facebookPageId, folderId } from './args.js';
import { activeLink, loadLink } from './load.js';
import { lockWorkspaceQuota, takeOperation } from './quota.js';
import { brandtrackerOfTarget, targetOf } from './targets.js';
import { BrandtrackerChange } from './types.js';

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

const CreateResult = builder.objectRef<{ data: BrandtrackerLink; created: boolean }>('BrandtrackerCreateResult').implement({
  fields: (t) => ({
    data: t.field({ type: BrandtrackerChange, resolve: (result) => result.data }),
    created: t.exposeBoolean('created', { description: 'True when this call created or reactivated the link; false when it was already active.' }),
  }),
});

const DeleteResult = builder.objectRef<{ id: string; deleted: boolean }>('BrandtrackerDeleteResult').implement({
  fields: (t) => ({ id: t.exposeID('id'), deleted: t.exposeBoolean('deleted') }),
});

builder.mutationFields((t) => ({
  brandtrackerCreate: t.field({
    type: CreateResult,
    authScopes: { writer: true },
    description:
      'Tracks a brand in the workspace (POST /v1/brandtrackers) by exactly one of facebookPageId, websiteId, shopId (alias of websiteId) or domain. ' +
      'Creates or reactivates the workspace link (one create/delete quota operation and one active slot); an already active link is returned unchanged with `created: false`.',
    args: {
      facebookPageId: t.arg.string({ validate: facebookPageId }),
      websiteId: t.arg.string({ validate: z.guid({ message: '{name} must be a UUID' }) }),
      shopId: t.arg.string({ description: 'Alias of websiteId.', validate: z.guid({ message: '{name} must be a UUID' }) }),
      domain: t.arg.string({ description: 'A shop domain or URL; protocol, path and a leading www. are ignored.', validate: z.string().trim().min(1).max(253) }),
      folderId: t.arg.int({ description: 'A folder of the workspace; omitted or null puts the brandtracker at the root.', validate: folderId }),
    },
    resolve: async (_root, args, context, info) => {
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
      const data = await loadLink(db, workspace.id, linkId, queryFromInfo({ context, info, path: ['data'] }));
      return { data, created };
    },
  }),
  brandtrackerUpdate: t.prismaField({
    type: BrandtrackerChange,
    authScopes: { writer: true },
    description: "Sets the workspace's display name of an active brandtracker (PATCH /v1/brandtrackers/{brandtrackerId}); the brand's own name is unchanged.",
    args: {
      brandtrackerId: t.arg.string({ required: true, validate: brandtrackerId }),
      name: t.arg.string({ required: true, validate: displayName }),
    },
    resolve: async (query, _root, args, context) => {
      const [{ workspace }, db] = await Promise.all([context.principal(), workspaceDb(context)]);
      const found = await activeLink(db, workspace.id, args.brandtrackerId);
      await writeAudited(context, async (tx, audit, lock) => {
        const before = await lockActive(lock, found.id, args.brandtrackerId);
        if (before.name === args.name) return;
        const after = await tx.brandtrackerLink.update({ where: { id: found.id }, data: { name: args.name } });
        await audit({ action: 'brandtracker.rename', entityType: 'brandtracker_link', entityId: found.id, before: linkState(before), after: linkState(after) });
      });
      return loadLink(db, workspace.id, found.id, query);
    },
  }),
  brandtrackerDelete: t.field({
    type: DeleteResult,
    authScopes: { writer: true },
    description: 'Stops tracking a brand (DELETE /v1/brandtrackers/{brandtrackerId}): the link turns inactive and keeps its name and folder for a later reactivation.',
    args: { brandtrackerId: t.arg.string({ required: true, validate: brandtrackerId }) },
    resolve: async (_root, args, context) => {
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
    },
  }),
}));
