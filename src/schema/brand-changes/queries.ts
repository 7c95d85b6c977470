import { builder } from '../builder.js';
import { changesArgs, subjectArgs } from './args.js';
import { brandChanges, DEFAULT_DAYS, MAX_SPAN_DAYS } from './service.js';
import { BrandChangesRef } from './types.js';

const WINDOW = `Window: \`from\` (inclusive) to \`to\` (exclusive; a date includes its day), default the last ${DEFAULT_DAYS} days, at most ${MAX_SPAN_DAYS} days.`;
const SECTIONS_TEXT =
  'Sections: ads started and stopped (their first and last days), copy, hook and landing-page changes, new landing pages (domains first pointed to), new products (created in the window), price and stock changes, rank moves, apps installed and removed; each with its exact total and its newest `limit` items (page with `offset`).';
const FREE = 'Free, as the other per-brand analytics.';

builder.queryFields((t) => ({
  brandtrackerChanges: t.field({
    type: BrandChangesRef,
    authScopes: { workspace: true },
    description: `What changed for one of the workspace's brandtrackers between two dates (GET /v1/brandtrackers/{brandtrackerId}/changes): its Facebook page's ads and its shops' products and apps, from the recorded events and the stored ads and products. ${SECTIONS_TEXT} ${WINDOW} Another workspace's or a missing brandtracker is not_found alike. ${FREE}`,
    args: { ...subjectArgs.brandtracker(), ...changesArgs() },
    resolve: async (_root, args, context, info) => {
      const { workspace } = await context.principal();
      return brandChanges(context, info, { kind: 'brandtracker', workspaceId: workspace.id, brandtrackerId: args.brandtrackerId }, args);
    },
  }),
  advertiserChanges: t.field({
    type: BrandChangesRef,
    authScopes: { workspace: true },
    description: `What changed for an advertiser (a Facebook page) between two dates (GET /v1/advertisers/{advertiserId}/changes): its ads. ${SECTIONS_TEXT} Rank moves are recorded for the pages a brandtracker follows. ${WINDOW} ${FREE}`,
    args: { ...subjectArgs.advertiser(), ...changesArgs() },
    resolve: (_root, args, context, info) => brandChanges(context, info, { kind: 'advertiser', advertiserId: args.advertiserId }, args),
  }),
  shopChanges: t.field({
    type: BrandChangesRef,
    authScopes: { workspace: true },
    description: `What changed for a shop between two dates (GET /v1/shops/{shopId}/changes): its products (new, prices, stock) and its Shopify apps. ${WINDOW} ${FREE}`,
    args: { ...subjectArgs.shop(), ...changesArgs() },
    resolve: (_root, args, context, info) => brandChanges(context, info, { kind: 'shop', shopId: args.shopId }, args),
  }),
}));
