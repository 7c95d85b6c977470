import { apiError } from '../../../errors.js';
import { Prisma, type PrismaClient } from '../../../generated/prisma/client.js';
import { inWorkspace } from '../../shared/workspace.js';

// The figures of a tracked brand that come from the market, computed in SQL next to the rows that need them
// (the list sorts on them) and carried with the loaded links.

export type BrandtrackerFigures = {
  activeAds: number;
  newAdsLastDay: number;
  newAdsLast7Days: number;
  newAdsLast30Days: number;
  totalTraffic: number;
};

/**
 * Columns of the figures of the brandtracker `b` (a `brandtrackers` row in scope): its page's live ads (the page's
 * own count), the ads first seen in the last day, 7 and 30 days (from the ads-by-page-and-date index), and the
 * monthly visits of its websites.
 */
export const figureColumns = Prisma.sql`
  coalesce(v."liveAdsCount", 0) AS "activeAds",
  coalesce(n."newAdsLastDay", 0)::int AS "newAdsLastDay",
  coalesce(n."newAdsLast7Days", 0)::int AS "newAdsLast7Days",
  coalesce(n."newAdsLast30Days", 0)::int AS "newAdsLast30Days",
  coalesce(w."totalTraffic", 0)::bigint AS "totalTraffic"`;

export const figureJoins = Prisma.sql`
  LEFT JOIN "advertisers" v ON v."id" = b."facebookPageId"
  LEFT JOIN LATERAL (
    SELECT count(*) FILTER (WHERE a."firstSeenAt" >= now() - interval '1 day') AS "newAdsLastDay",
           count(*) FILTER (WHERE a."firstSeenAt" >= now() - interval '7 days') AS "newAdsLast7Days",
           count(*) AS "newAdsLast30Days"
    FROM "ads" a WHERE a."advertiserId" = b."facebookPageId" AND a."firstSeenAt" >= now() - interval '30 days'
  ) n ON TRUE
  LEFT JOIN LATERAL (
    SELECT sum(s."monthlyVisits") AS "totalTraffic"
    FROM "brandtracker_websites" bw JOIN "shops" s ON s."id" = bw."shopId" WHERE bw."brandtrackerId" = b."id"
  ) w ON TRUE`;

export type FigureRow = BrandtrackerFigures & { linkId: number };

const FIGURES = Symbol('figures');
type WithFigures = { [FIGURES]?: BrandtrackerFigures };

export function toFigures(row: { activeAds: number; newAdsLastDay: number; newAdsLast7Days: number; newAdsLast30Days: number; totalTraffic: bigint | number }): BrandtrackerFigures {
  return {
    activeAds: Number(row.activeAds),
    newAdsLastDay: row.newAdsLastDay,
    newAdsLast7Days: row.newAdsLast7Days,
    newAdsLast30Days: row.newAdsLast30Days,
    totalTraffic: Number(row.totalTraffic),
  };
}

/** Carries each loaded link's figures (by link id) to the fields that show them. */
export function withFigures<T extends { id: number }>(links: T[], figures: ReadonlyMap<number, BrandtrackerFigures>): T[] {
  for (const link of links) (link as WithFigures)[FIGURES] = figures.get(link.id);
  return links;
}

export function figuresOf(link: object): BrandtrackerFigures {
  const figures = (link as WithFigures)[FIGURES];
  if (!figures) throw apiError('internal_error', 'Brandtracker figures were not loaded with the link.');
  return figures;
}

/** The figures of the given links of the workspace. */
export async function loadFigures(prisma: PrismaClient, workspaceId: string, linkIds: number[]): Promise<Map<number, BrandtrackerFigures>> {
  if (!linkIds.length) return new Map();
  const rows = await prisma.$queryRaw<FigureRow[]>`
    SELECT l."id" AS "linkId", ${figureColumns}
    FROM "brandtracker_links" l JOIN "brandtrackers" b ON b."id" = l."brandtrackerId" ${figureJoins}
    WHERE ${inWorkspace('l', workspaceId)} AND l."id" = ANY(${linkIds}::int[])`;
  return new Map(rows.map((row) => [row.linkId, toFigures(row)]));
}
