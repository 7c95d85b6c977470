import { Prisma, type PrismaClient } from '../../../generated/prisma/client.js';
import { onDomain } from '../../shared/domains.js';

// The distinct landing pages of some pages' ads or of one shop domain's ads (GET /v1/ads/facets/landing-pages).

export type LandingPage = { url: string; usageCount: number; activeAdsCount: number };

const NORMALISED_URL = Prisma.raw(`rtrim(lower(split_part(split_part(a."landingPageUrl", '#', 1), '?', 1)), '/')`);

/**
 * The most used landing pages (lowercase, without query string or trailing slashes) of the ads of `scope`: the pages
 * `advertiserIds`, or the shop `host` and its subdomains; `limit + 1` rows at most, so the caller sees a truncation.
 */
export function adLandingPages(
  prisma: PrismaClient,
  scope: { host: string } | { advertiserIds: string[] },
  status: 'active' | 'inactive' | 'all',
  limit: number,
): Promise<LandingPage[]> {
  const where = 'host' in scope
    ? onDomain(Prisma.sql`a."landingPageDomain"`, scope.host)
    : Prisma.sql`a."advertiserId" = ANY(${scope.advertiserIds}::text[])`;
  const statusFilter = status === 'all' ? Prisma.empty : Prisma.sql`AND a."status" = ${status}::"AdStatus"`;
  return prisma.$queryRaw<LandingPage[]>`
        SELECT ${NORMALISED_URL} AS url, count(*)::int AS "usageCount", (count(*) FILTER (WHERE a."status" = 'active'))::int AS "activeAdsCount"
        FROM "ads" a
        WHERE a."landingPageUrl" IS NOT NULL AND ${where} ${statusFilter}
        GROUP BY 1
        ORDER BY "usageCount" DESC, url ASC
        LIMIT ${limit + 1}`;
}
