import { queryFromInfo } from '@pothos/plugin-prisma';
import type { GraphQLResolveInfo } from 'graphql';
import type { Context } from '../../context.js';
import { notFound } from '../../errors.js';
import { builder } from '../builder.js';
import { workspaceDb } from '../shared/workspace.js';
import { offsetOf, pageListRef, type RowPage } from '../shared/pagination.js';
import { brandtrackerId, folderId, listArgs, listFilter, type BrandtrackerListSortValue, type ListFilter } from './args.js';
import { BrandtrackerDetail, loadDetailExtras, withExtras } from './detail.js';
import { activeLink, loadLink, loadLinkPage } from './load.js';
import { findLinkPage } from './sql.js';
import { Brandtracker } from './types.js';

const BrandtrackerPage = pageListRef('BrandtrackerPage', Brandtracker, "A page of the workspace's active brandtrackers.");

async function listPage(
  context: Context,
  info: GraphQLResolveInfo,
  filter: ListFilter,
  args: { page?: number | null; limit?: number | null; sortBy?: BrandtrackerListSortValue | null },
) {
  const [{ workspace }, db] = await Promise.all([context.principal(), workspaceDb(context)]);
  const page = { page: args.page ?? 1, limit: args.limit ?? 25 };
  const found = await findLinkPage(db, workspace.id, filter, args.sortBy ?? undefined, { limit: page.limit, offset: offsetOf(page) });
  const loaded = await loadLinkPage(db, workspace.id, queryFromInfo({ context, info, path: ['data'] }), found, page);
  // The page type only passes its rows to the Brandtracker fields; links have integer ids, not RowPage's strings.
  return loaded as unknown as RowPage;
}

builder.queryFields((t) => ({
  brandtrackers: t.field({
    type: BrandtrackerPage,
    authScopes: { workspace: true },
    description: "The workspace's active brandtrackers (GET /v1/brandtrackers).",
    args: listArgs({ folders: true }),
    resolve: (_root, args, context, info) => listPage(context, info, listFilter(args), args),
  }),
  brandtrackerFolderBrandtrackers: t.field({
    type: BrandtrackerPage,
    authScopes: { workspace: true },
    description: 'The active brandtrackers of one folder (GET /v1/brandtrackers/folders/{folderId}/brandtrackers); 404 for a folder of another workspace.',
    args: { folderId: t.arg.int({ required: true, validate: folderId }), ...listArgs({ folders: false }) },
    resolve: async (_root, args, context, info) => {
      const [{ workspace }, db] = await Promise.all([context.principal(), workspaceDb(context)]);
      const folder = await db.brandtrackerFolder.findFirst({ where: { id: args.folderId, workspaceId: workspace.id }, select: { id: true } });
      if (!folder) throw notFound(`Folder ${args.folderId}`);
      return listPage(context, info, { ...listFilter(args), folderIds: [folder.id] }, args);
    },
  }),
  brandtracker: t.prismaField({
    type: BrandtrackerDetail,
    authScopes: { workspace: true },
    description: 'One active brandtracker of the workspace (GET /v1/brandtrackers/{brandtrackerId}); an inactive one is 404.',
    args: { brandtrackerId: t.arg.string({ required: true, validate: brandtrackerId }) },
    resolve: async (query, _root, args, context) => {
      const [{ workspace }, db] = await Promise.all([context.principal(), workspaceDb(context)]);
      const found = await activeLink(db, workspace.id, args.brandtrackerId);
      const [link, extras] = await Promise.all([loadLink(db, workspace.id, found.id, query), loadDetailExtras(context.prisma, found.pageId)]);
      return withExtras(link, extras);
    },
  }),
}));
