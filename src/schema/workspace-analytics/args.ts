import { z } from 'zod';
import { brandtrackerId, folderId } from '../shared/ids.js';
import { builder } from '../builder.js';
import { SortOrder } from '../shared/enums.js';
import { pageArgs } from '../shared/list.js';
import type { AnalyticsScope } from './service.js';

// The arguments every workspace analytics route shares: the page, which brands, EU-only, and the order.

export const ANALYTICS_LIMITS = { defaultLimit: 20, maxLimit: 100 };

export function scopeArgs() {
  return builder.args((t) => ({
    ...pageArgs(ANALYTICS_LIMITS),
    brandtrackerIds: t.stringList({ description: 'Only these brandtrackers (repeated or comma-separated public ids).', validate: z.array(brandtrackerId).max(100) }),
    folderIds: t.intList({ description: 'Only the brandtrackers of these folders (repeated or comma-separated).', validate: z.array(folderId).max(100) }),
    euOnly: t.boolean({ defaultValue: false, description: 'Only ads flagged as EU ads.' }),
  }));
}

export function orderArg() {
  return builder.args((t) => ({ order: t.field({ type: SortOrder, defaultValue: 'desc' }) }));
}

type ScopeArgValues = { brandtrackerIds?: string[] | null; folderIds?: number[] | null };

export function scopeOf(workspaceId: string, args: ScopeArgValues): AnalyticsScope {
  return { workspaceId, brandtrackerIds: args.brandtrackerIds ?? undefined, folderIds: args.folderIds ?? undefined };
}

export function pageOf(args: { page?: number | null; limit?: number | null }) {
  return { page: args.page ?? 1, limit: args.limit ?? ANALYTICS_LIMITS.defaultLimit };
}
