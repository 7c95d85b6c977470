import DataLoader from 'dataloader';
import { Prisma } from '../../generated/prisma/client.js';
import type { Context } from '../../context.js';

// An advertiser's main landing pages: where its ads (one per duplicate group) lead, the most used first (ties:
// the larger reach), at most three. One statement for every advertiser of a response, whatever their number.

export type LandingPageUse = { landingPage: string; screenshotUrl: string | null };

const MAIN_LANDING_PAGES = 3;

async function mainLandingPagesOf(context: Context, ids: readonly string[]): Promise<LandingPageUse[][]> {
  // Counted per landing-page row first, then each used row looked up by key (LATERAL): a join would read every landing page.
  const rows = await context.prisma.$queryRaw<(LandingPageUse & { advertiserId: string })[]>(Prisma.sql`
    WITH used AS (
      SELECT a."advertiserId", a."landingPageId", count(*) AS ads, sum(a."reach") AS reach FROM "ads" a
      WHERE a."advertiserId" = ANY(${[...ids]}::text[]) AND a."isGroupLead" AND a."landingPageId" IS NOT NULL
      GROUP BY 1, 2)
    SELECT "advertiserId", "landingPage", "screenshotUrl" FROM (
      SELECT u."advertiserId", lp."normalizedUrl" AS "landingPage", max(lp."screenshotDesktopUrl") AS "screenshotUrl",
        row_number() OVER (PARTITION BY u."advertiserId" ORDER BY sum(u.ads) DESC, sum(u.reach) DESC, lp."normalizedUrl") AS n
      FROM used u CROSS JOIN LATERAL (SELECT p."normalizedUrl", p."screenshotDesktopUrl" FROM "landing_pages" p WHERE p."id" = u."landingPageId" LIMIT 1) lp
      GROUP BY 1, 2) ranked
    WHERE n <= ${MAIN_LANDING_PAGES} ORDER BY "advertiserId", n`);
  const byAdvertiser = new Map<string, LandingPageUse[]>();
  for (const { advertiserId, ...use } of rows) byAdvertiser.set(advertiserId, [...(byAdvertiser.get(advertiserId) ?? []), use]);
  return ids.map((id) => byAdvertiser.get(id) ?? []);
}

const loaders = new WeakMap<Context, DataLoader<string, LandingPageUse[]>>();

/** The request's loader: every advertiser of a response is answered by one batched statement. */
export function mainLandingPages(context: Context): DataLoader<string, LandingPageUse[]> {
  let loader = loaders.get(context);
  if (!loader) {
    loader = new DataLoader((ids) => mainLandingPagesOf(context, ids));
    loaders.set(context, loader);
  }
  return loader;
}
