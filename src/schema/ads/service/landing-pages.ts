import { Prisma, type PrismaClient } from '../../../generated/prisma/client.js';
import { onDomain } from '../../shared/domains.js';

// The distinct landing pages of some pages' ads or of one shop domain's ads (GET /v1/ads/facets/landing-pages), summed
// from the ads counted per page, domain and landing page (migration 0040), not from the ads themselves.

export type LandingPage = { url: string; usageCount: number; activeAdsCount: number };

/** Per status: the matching ads of a landing page, and the active ones among them. */
const COUNTS = {
  all: { usage: Prisma.raw('sum(c."ads")'), active: Prisma.raw('sum(c."activeAds")') },
  active: { usage: Prisma.raw('sum(c."activeAds")'), active: Prisma.raw('sum(c."activeAds")') },
  inactive: { usage: Prisma.raw('sum(c."inactiveAds")'), active: Prisma.raw('0') },
};

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
    ? onDomain(Prisma.sql`c."domain"`, scope.host)
    : Prisma.sql`c."advertiserId" = ANY(${scope.advertiserIds}::text[])`;
  const { usage, active } = COUNTS[status];
  return prisma.$queryRaw<LandingPage[]>`
        SELECT c."url", ${usage}::int AS "usageCount", ${active}::int AS "activeAdsCount"
        FROM "advertiser_landing_page_counts" c
        WHERE ${where}
        GROUP BY 1
        HAVING ${usage} > 0
        ORDER BY "usageCount" DESC, c."url" ASC
        LIMIT ${limit + 1}`;
}
