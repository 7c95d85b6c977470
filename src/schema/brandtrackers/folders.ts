import type { PrismaClient } from '../../generated/prisma/client.js';
import { builder } from '../builder.js';
import { workspaceDb } from '../shared/workspace.js';

// The workspace's brandtracker folders: listed in rank order with their active brandtrackers counted.

export type FolderRow = { id: number; name: string; rank: number; brandtrackerCount: number };

export const BrandtrackerFolder = builder.objectRef<FolderRow>('BrandtrackerFolder').implement({
  description: 'A workspace folder of brandtrackers; its id is the `folderIds` filter value.',
  fields: (t) => ({
    id: t.exposeInt('id'),
    name: t.exposeString('name'),
    rank: t.exposeInt('rank', { description: 'Position in the workspace, from 1.' }),
    brandtrackerCount: t.exposeInt('brandtrackerCount', { description: 'Active brandtrackers in the folder.' }),
  }),
});

const folderSelect = { id: true, name: true, rank: true, _count: { select: { links: { where: { isActive: true } } } } } as const;

type Selected = { id: number; name: string; rank: number; _count: { links: number } };
const toRow = (folder: Selected): FolderRow => ({ id: folder.id, name: folder.name, rank: folder.rank, brandtrackerCount: folder._count.links });

export async function listFolders(prisma: PrismaClient, workspaceId: string): Promise<FolderRow[]> {
  const folders = await prisma.brandtrackerFolder.findMany({ where: { workspaceId }, orderBy: [{ rank: 'asc' }, { name: 'asc' }, { id: 'asc' }], select: folderSelect });
  return folders.map(toRow);
}

export async function loadFolder(prisma: Pick<PrismaClient, 'brandtrackerFolder'>, workspaceId: string, id: number): Promise<FolderRow | null> {
  const folder = await prisma.brandtrackerFolder.findFirst({ where: { id, workspaceId }, select: folderSelect });
  return folder ? toRow(folder) : null;
}

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
