import { z } from 'zod';
import { builder } from '../builder.js';
import { folderId } from '../shared/ids.js';
import { folderName } from './args.js';
import { BrandtrackerFolder } from './folders.js';
import { folderCreate, folderDelete, folderRename } from './service.js';

// Folder writes (service/folders.ts). Names are unique in a workspace (409 conflict); a new folder takes the next
// rank. Deleting a folder moves its brandtrackers to the root, or deactivates them (one create/delete quota operation).

// The action's values have dashes, which GraphQL enum names cannot: it is a string checked against them.
const FOLDER_DELETE_ACTIONS = ['move-to-default', 'delete-brandtrackers'] as const;

const FolderDeleteResult = builder.objectRef<{ deleted: boolean; action: string; affectedCount: number }>('BrandtrackerFolderDeleteResult').implement({
  fields: (t) => ({
    deleted: t.exposeBoolean('deleted'),
    action: t.exposeString('action'),
    affectedCount: t.exposeInt('affectedCount', { description: 'Active brandtrackers moved to the root or deactivated.' }),
  }),
});

builder.mutationFields((t) => ({
  brandtrackerFolderCreate: t.field({
    type: BrandtrackerFolder,
    authScopes: { writer: true },
    description: 'Creates a brandtracker folder with the next rank (POST /v1/brandtrackers/folders).',
    args: { name: t.arg.string({ required: true, validate: folderName }) },
    resolve: (_root, args, context) => folderCreate(context, args),
  }),
  brandtrackerFolderRename: t.field({
    type: BrandtrackerFolder,
    authScopes: { writer: true },
    description: 'Renames a folder of the workspace (PATCH /v1/brandtrackers/folders/{folderId}).',
    args: { folderId: t.arg.int({ required: true, validate: folderId }), name: t.arg.string({ required: true, validate: folderName }) },
    resolve: (_root, args, context) => folderRename(context, args),
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
    resolve: (_root, args, context) => folderDelete(context, args),
  }),
}));
