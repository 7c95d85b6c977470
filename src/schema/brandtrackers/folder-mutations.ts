import { z } from 'zod';
import { apiError } from '../../errors.js';
import { builder } from '../builder.js';
import { writeAudited, type Lock } from '../shared/audit.js';
import { folderId, folderName } from './args.js';
import { BrandtrackerFolder, loadFolder } from './folders.js';
import { lockWorkspaceQuota, takeOperation } from './quota.js';

// Folder writes. Names are unique in a workspace (409 conflict); a new folder takes the next rank. Deleting a
// folder moves its brandtrackers to the root, or deactivates them (one create/delete quota operation).

// The action's values have dashes, which GraphQL enum names cannot: it is a string checked against them.
const FOLDER_DELETE_ACTIONS = ['move-to-default', 'delete-brandtrackers'] as const;

const FolderDeleteResult = builder.objectRef<{ deleted: boolean; action: string; affectedCount: number }>('BrandtrackerFolderDeleteResult').implement({
  fields: (t) => ({
    deleted: t.exposeBoolean('deleted'),
    action: t.exposeString('action'),
    affectedCount: t.exposeInt('affectedCount', { description: 'Active brandtrackers moved to the root or deactivated.' }),
  }),
});

const nameTaken = (name: string) => apiError('conflict', `The workspace already has a folder named "${name}".`, { details: { field: 'name' } });
const isUniqueViolation = (error: unknown) => (error as { code?: unknown }).code === 'P2002';

/** The workspace's folder, locked for this write and read again, or 404. */
const folderOf = (lock: Lock, id: number) => lock.one('brandtrackerFolder', id, `Folder ${id}`);

builder.mutationFields((t) => ({
  brandtrackerFolderCreate: t.field({
    type: BrandtrackerFolder,
    authScopes: { writer: true },
    description: 'Creates a brandtracker folder with the next rank (POST /v1/brandtrackers/folders).',
    args: { name: t.arg.string({ required: true, validate: folderName }) },
    resolve: async (_root, args, context) => {
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
    },
  }),
  brandtrackerFolderRename: t.field({
    type: BrandtrackerFolder,
    authScopes: { writer: true },
    description: 'Renames a folder of the workspace (PATCH /v1/brandtrackers/folders/{folderId}).',
    args: { folderId: t.arg.int({ required: true, validate: folderId }), name: t.arg.string({ required: true, validate: folderName }) },
    resolve: async (_root, args, context) => {
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
    },
  }),
  brandtrackerFolderDelete: t.field({
    type: FolderDeleteResult,
    authScopes: { writer: true },
    description:
      'Deletes a folder (DELETE /v1/brandtrackers/folders/{folderId}); `confirm` must be true. move-to-default moves its active brandtrackers to the root; ' +
      'delete-brandtrackers deactivates them and takes one create/delete quota operation (nothing changes when the quota is used up).',
    args: {
      folderId: t.arg.int({ required: true, validate: folderId }),
      action: t.arg.string({ required: true, description: 'move-to-default or delete-brandtrackers.', validate: z.enum(FOLDER_DELETE_ACTIONS) }),
      confirm: t.arg.boolean({ description: 'Must be true.' }),
    },
    validate: z.looseObject({ confirm: z.boolean().nullish() }).refine((args) => args.confirm === true, { path: ['confirm'], message: '{name} must be true' }),
    resolve: async (_root, args, context) => {
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
    },
  }),
}));
