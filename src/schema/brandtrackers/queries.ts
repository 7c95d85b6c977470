import { queryFromInfo } from '@pothos/plugin-prisma';
import type { GraphQLResolveInfo } from 'graphql';
import type { Context } from '../../context.js';
import { builder } from '../builder.js';
import { brandtrackerId, folderId } from '../shared/ids.js';
import { pageListRef, type RowPage } from '../shared/list.js';
import { listArgs, listFilter } from './args.js';
import { BrandtrackerDetail } from './detail.js';
import { brandtrackerDetail, brandtrackerList, folderBrandtrackers } from './service.js';
import { Brandtracker } from './types.js';

const BrandtrackerPage = pageListRef('BrandtrackerPage', Brandtracker, "A page of the workspace's active brandtrackers.");

const select = (context: Context, info: GraphQLResolveInfo) => queryFromInfo({ context, info, path: ['data'] });
// The page type only passes its rows to the Brandtracker fields; links have integer ids, not RowPage's strings.
const asRowPage = (page: unknown) => page as RowPage;

builder.queryFields((t) => ({
  brandtrackers: t.field({
    type: BrandtrackerPage,
    authScopes: { workspace: true },
    description: "The workspace's active brandtrackers (GET /v1/brandtrackers).",
    args: listArgs({ folders: true }),
    resolve: async (_root, args, context, info) => asRowPage(await brandtrackerList(context, select(context, info), listFilter(args), args)),
  }),
  brandtrackerFolderBrandtrackers: t.field({
    type: BrandtrackerPage,
    authScopes: { workspace: true },
    description: 'The active brandtrackers of one folder (GET /v1/brandtrackers/folders/{folderId}/brandtrackers); 404 for a folder of another workspace.',
    args: { folderId: t.arg.int({ required: true, validate: folderId }), ...listArgs({ folders: false }) },
    resolve: async (_root, args, context, info) => asRowPage(await folderBrandtrackers(context, select(context, info), args.folderId, listFilter(args), args)),
  }),
  brandtracker: t.prismaField({
    type: BrandtrackerDetail,
    authScopes: { workspace: true },
    description: 'One active brandtracker of the workspace (GET /v1/brandtrackers/{brandtrackerId}); an inactive one is 404.',
    args: { brandtrackerId: t.arg.string({ required: true, validate: brandtrackerId }) },
    resolve: (query, _root, args, context) => brandtrackerDetail(context, args.brandtrackerId, query),
  }),
}));
