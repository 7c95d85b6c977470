import DataLoader from 'dataloader';
import { Prisma } from '../../../generated/prisma/client.js';
import type { Context } from '../../../context.js';

// An advertiser's main landing pages: where its ads (one per duplicate group) lead, the most used first (ties:
// the larger reach, then the URL), at most three. Kept per page (migration 0024, refreshed with the ad groups by
// src/data/ad-groups.ts): one statement for every advertiser of a response, reading three rows each.

export type LandingPageUse = { landingPage: string; screenshotUrl: string | null };

async function mainLandingPagesOf(context: Context, ids: readonly string[]): Promise<LandingPageUse[][]> {
  const rows = await context.prisma.$queryRaw<(LandingPageUse & { advertiserId: string })[]>(Prisma.sql`
    SELECT "advertiserId", "landingPage", "screenshotUrl" FROM "advertiser_main_landing_pages"
    WHERE "advertiserId" = ANY(${[...ids]}::text[]) ORDER BY "advertiserId", "position"`);
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
