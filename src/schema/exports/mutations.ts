import { builder } from '../builder.js';
import { exportId } from './args.js';
import { exportRequest, exportRequestArgs } from './queries.js';
import { exportCancel, exportCreate } from './service.js';
import { ExportRef } from './types.js';

builder.mutationFields((t) => ({
  exportCreate: t.field({
    type: ExportRef,
    authScopes: { writer: true },
    description:
      "Exports a market list route's whole result as a file (POST /v1/exports): ads, advertisers, shops, products, emails, TikTok, Google, a " +
      "brandtracker's ads and the event feed (GET /v1/events), as ndjson, csv or parquet. Its price (the rows × the route's per-row price, what walking its pages costs) is held now " +
      '(insufficient_credits when the workspace cannot cover it; ?dryRun=true tells it) and settled on the rows written. A job reads one consistent ' +
      'snapshot and writes the file; follow it with GET /v1/exports/{exportId}.',
    args: exportRequestArgs(),
    resolve: (_root, args, context) => exportCreate(context, exportRequest(args)),
  }),
  exportCancel: t.field({
    type: ExportRef,
    authScopes: { writer: true },
    description:
      'Cancels a queued or running export (DELETE /v1/exports/{exportId}): a running one stops at its next chunk and pays for the rows it wrote; ' +
      "a finished one's file is deleted. Either way its state becomes cancelled.",
    args: { exportId: t.arg.string({ required: true, validate: exportId }) },
    resolve: (_root, args, context) => exportCancel(context, args.exportId),
  }),
}));
