import { builder } from '../builder.js';
import { listRef, pageArgs, pageRequest } from '../shared/list.js';
import { ExportFormatEnum, ExportMethodEnum, exportId, exportParams, exportPath, LIST_LIMITS } from './args.js';
import { exportDetail, exportEstimate, exportPage } from './service.js';
import { ExportEstimateRef, ExportRef } from './types.js';

const ExportPage = listRef('ExportPage', ExportRef, { style: 'page', description: "A page of the workspace's exports, newest first." });

export const EXPORT_PARAMS =
  "The route's arguments as one JSON object: a GET list's query-string parameters, a POST list's body. Read and checked as the route reads them: " +
  "a bad value is the route's own validation_error, named `params.<parameter>`; a parameter the route does not have, and the paging ones (page, " +
  'limit, offset, cursor), are refused.';
export const EXPORT_PATH = 'The list route as called: `/v1/ads/query`, `/v1/shops`, `/v1/brandtrackers/{brandtrackerId}/ads` with its id, `/v1/events`.';

/** What an export asks for (`exportCreate` and `exportEstimate` take the same): the route, its params, the format. */
export const exportRequestArgs = () =>
  builder.args((t) => ({
    method: t.field({ type: ExportMethodEnum, required: true }),
    path: t.string({ required: true, description: EXPORT_PATH, validate: exportPath }),
    params: t.field({ type: 'JSON', description: EXPORT_PARAMS, validate: exportParams }),
    format: t.field({ type: ExportFormatEnum, required: true }),
  }));

type ExportRequestArgs = { method: typeof ExportMethodEnum.$inferType; path: string; params?: unknown; format: typeof ExportFormatEnum.$inferType };

/** The request the service takes, from those arguments. */
export const exportRequest = (args: ExportRequestArgs) => ({ method: args.method, path: args.path, params: (args.params ?? {}) as Record<string, unknown>, format: args.format });

builder.queryFields((t) => ({
  exports: t.field({
    type: ExportPage,
    authScopes: { workspace: true },
    description: "The workspace's exports, newest first (GET /v1/exports).",
    args: { ...pageArgs(LIST_LIMITS) },
    resolve: (_root, args, context) => exportPage(context, pageRequest(args, LIST_LIMITS.defaultLimit)),
  }),
  export: t.field({
    type: ExportRef,
    authScopes: { workspace: true },
    description: 'One export of the workspace: its state, rows written, progress and price (GET /v1/exports/{exportId}).',
    args: { exportId: t.arg.string({ required: true, validate: exportId }) },
    resolve: (_root, args, context) => exportDetail(context, args.exportId),
  }),
  exportEstimate: t.field({
    type: ExportEstimateRef,
    authScopes: { workspace: true },
    description: "What an export would cost now: the list's rows × the route's per-row price, counted as the export would count them (POST /v1/exports?dryRun=true).",
    args: exportRequestArgs(),
    resolve: (_root, args, context) => exportEstimate(context, exportRequest(args)),
  }),
}));
