import { Prisma } from '../../../generated/prisma/client.js';
import { inWorkspace } from '../../shared/workspace.js';

// Which tracked brands an analytics call covers: the workspace's active brandtrackers, narrowed to the requested
// brandtrackers and folders. Every analytics statement starts from this (as the CTE `s`), so a brandtracker of
// another workspace never contributes a row. The per-brandtracker analytics narrow it to one brandtracker.

export type AnalyticsScope = { workspaceId: string; brandtrackerIds?: string[]; folderIds?: number[] };

/** The brandtracker an analytics row belongs to. */
export type BrandtrackerOfRow = { id: string; name: string; facebookPageId: string | null };

/** `SELECT "brandtrackerId", "name", "pageId"` of the brands in scope. */
export function scopeSelect(scope: AnalyticsScope): Prisma.Sql {
  const parts = [inWorkspace('l', scope.workspaceId), Prisma.sql`l."isActive"`];
  if (scope.brandtrackerIds?.length) parts.push(Prisma.sql`b."id" = ANY(${scope.brandtrackerIds}::uuid[])`);
  if (scope.folderIds?.length) parts.push(Prisma.sql`l."folderId" = ANY(${scope.folderIds}::int[])`);
  return Prisma.sql`
    SELECT b."id" AS "brandtrackerId", coalesce(l."name", b."name") AS "name", b."facebookPageId" AS "pageId"
    FROM "brandtracker_links" l JOIN "brandtrackers" b ON b."id" = l."brandtrackerId"
    WHERE ${Prisma.join(parts, ' AND ')}`;
}

/** The ads an analytics call reads, as `a` joined to the scope `s`: all ads of the brands' pages, or the EU ones. */
export function adsOfScope(options: { euOnly: boolean; window?: Prisma.Sql }): Prisma.Sql {
  const conditions = [Prisma.sql`a."advertiserId" = s."pageId"`];
  if (options.euOnly) conditions.push(Prisma.sql`a."isEuAd"`);
  if (options.window) conditions.push(options.window);
  return Prisma.sql`JOIN "ads" a ON ${Prisma.join(conditions, ' AND ')}`;
}

/**
 * `SELECT … AS total`: a column of the per-page counts (`n`, migration 0021) summed over the brands in scope, each
 * brand's row read by its key (a join could scan the counts of every page).
 */
export function countsTotal(column: Prisma.Sql, euOnly: boolean): Prisma.Sql {
  return Prisma.sql`SELECT coalesce(sum((SELECT ${column} FROM "advertiser_ad_counts" n WHERE n."advertiserId" = s."pageId" AND n."euOnly" = ${euOnly})), 0)::int AS total FROM s`;
}
