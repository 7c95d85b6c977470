import type { Context } from '../../context.js';
import { builder } from '../builder.js';
import type { GroupSort } from './aggregates.js';
import { orderArg, pageOf, scopeArgs, scopeOf } from './args.js';
import { storedGroupPage, type StoredGroupKind } from './stored-groups.js';
import { rowPageRef, WorkspaceAdCopyRow, WorkspaceHookRow, WorkspaceLandingPageRow } from './types.js';

// GET /v1/workspace/hooks, /ad-copies and /landing-pages: what the tracked brands' ads use, one row per brand and
// hook, copy or landing page, over all their ads (groups precomputed per page: stored-groups.ts). One credit per
// returned row.

export const HookSort = builder.enumType('WorkspaceHookSort', { values: ['usageCount', 'longestRunning', 'totalImpressions', 'firstUsedAt', 'lastUsedAt'] as const });
export const AdCopySort = builder.enumType('WorkspaceAdCopySort', { values: ['usageCount', 'longestRunning'] as const });
const LandingPageSort = builder.enumType('WorkspaceLandingPageSort', { values: ['usageCount', 'longestRunning', 'totalImpressions'] as const });

const HookPage = rowPageRef('WorkspaceHookPage', WorkspaceHookRow, "Hooks of the workspace's brandtrackers.");
const AdCopyPage = rowPageRef('WorkspaceAdCopyPage', WorkspaceAdCopyRow, "Ad copies of the workspace's brandtrackers.");
const LandingPagePage = rowPageRef('WorkspaceLandingPagePage', WorkspaceLandingPageRow, "Landing pages of the workspace's brandtrackers.");

type Args = { page?: number | null; limit?: number | null; brandtrackerIds?: string[] | null; folderIds?: number[] | null; euOnly?: boolean | null; order?: 'asc' | 'desc' | null; sortBy?: GroupSort | null };

async function groups(context: Context, kind: StoredGroupKind, args: Args) {
  const { workspace } = await context.principal();
  return storedGroupPage(context.pool, {
    scope: scopeOf(workspace.id, args),
    kind,
    euOnly: args.euOnly ?? false,
    sort: args.sortBy ?? 'usageCount',
    order: args.order ?? 'desc',
    page: pageOf(args),
  });
}

builder.queryFields((t) => ({
  workspaceHooks: t.field({
    type: HookPage,
    authScopes: { workspace: true },
    description: "Hooks across the workspace's active brandtrackers (GET /v1/workspace/hooks). One credit per returned row.",
    args: { ...scopeArgs(), ...orderArg(), sortBy: t.arg({ type: HookSort, defaultValue: 'usageCount' }) },
    resolve: (_root, args, context) => groups(context, 'hook', args),
  }),
  workspaceAdCopies: t.field({
    type: AdCopyPage,
    authScopes: { workspace: true },
    description: "Ad copies across the workspace's active brandtrackers (GET /v1/workspace/ad-copies). One credit per returned row.",
    args: { ...scopeArgs(), ...orderArg(), sortBy: t.arg({ type: AdCopySort, defaultValue: 'usageCount' }) },
    resolve: (_root, args, context) => groups(context, 'adCopy', args),
  }),
  workspaceLandingPages: t.field({
    type: LandingPagePage,
    authScopes: { workspace: true },
    description: "Landing pages across the workspace's active brandtrackers (GET /v1/workspace/landing-pages). One credit per returned row.",
    args: { ...scopeArgs(), ...orderArg(), sortBy: t.arg({ type: LandingPageSort, defaultValue: 'usageCount' }) },
    resolve: (_root, args, context) => groups(context, 'landingPage', args),
  }),
}));
