import type { PrismaClient } from '../db/client.js';
import { scopeToWorkspace } from '../db/workspace-scope.js';

// The demo workspace tracks a handful of the market's brands, in two folders and at the root, so that every
// brandtracker and workspace analytics route answers with rows for a new user trying the README's calls.

const FOLDERS = [
  { name: 'Competitors', brands: 3 },
  { name: 'Inspiration', brands: 2 },
] as const;
const AT_ROOT = 1;

/** Tracks the loaded page brandtrackers with the most live ads; returns how many it tracked. */
export async function trackDemoBrands(prisma: PrismaClient, workspaceId: string): Promise<number> {
  const wanted = FOLDERS.reduce((sum, folder) => sum + folder.brands, AT_ROOT);
  const candidates = await prisma.$queryRaw<{ id: string }[]>`
    SELECT b."id" FROM "brandtrackers" b JOIN "advertisers" v ON v."id" = b."facebookPageId"
    WHERE b."isLoaded" ORDER BY v."liveAdsCount" DESC, b."id" LIMIT ${wanted}`;
  const db = scopeToWorkspace(prisma, workspaceId);
  let next = 0;
  for (const [index, folder] of FOLDERS.entries()) {
    const { id: folderId } = await db.brandtrackerFolder.create({ data: { workspaceId, name: folder.name, rank: index + 1 } });
    for (const brandtracker of candidates.slice(next, next + folder.brands)) {
      await db.brandtrackerLink.create({ data: { workspaceId, brandtrackerId: brandtracker.id, folderId } });
    }
    next += folder.brands;
  }
  for (const brandtracker of candidates.slice(next)) await db.brandtrackerLink.create({ data: { workspaceId, brandtrackerId: brandtracker.id } });
  return candidates.length;
}
