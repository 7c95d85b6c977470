import { builder } from '../builder.js';
import { workspaceDb } from '../shared/workspace.js';
import { listFolders, type FolderRow } from './service.js';

// The workspace's brandtracker folders: listed in rank order with their active brandtrackers counted.

export const BrandtrackerFolder = builder.objectRef<FolderRow>('BrandtrackerFolder').implement({
  description: 'A workspace folder of brandtrackers; its id is the `folderIds` filter value.',
  fields: (t) => ({
    id: t.exposeInt('id'),
    name: t.exposeString('name'),
    rank: t.exposeInt('rank', { description: 'Position in the workspace, from 1.' }),
    brandtrackerCount: t.exposeInt('brandtrackerCount', { description: 'Active brandtrackers in the folder.' }),
  }),
});

builder.queryFields((t) => ({
  brandtrackerFolders: t.field({
    type: [BrandtrackerFolder],
    authScopes: { workspace: true },
    description: "The workspace's brandtracker folders in rank order (GET /v1/brandtrackers/folders).",
    resolve: async (_root, _args, context) => listFolders(await workspaceDb(context), (await context.principal()).workspace.id),
  }),
  workspaceFolders: t.field({
    type: [BrandtrackerFolder],
    authScopes: { workspace: true },
    description: 'The same listing as brandtrackerFolders (GET /v1/workspace/folders).',
    resolve: async (_root, _args, context) => listFolders(await workspaceDb(context), (await context.principal()).workspace.id),
  }),
}));
