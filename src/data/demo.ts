import type pg from 'pg';
import { createKey, createWorkspace } from '../auth/admin.js';
import type { PrismaClient } from '../db/client.js';
import { saveDemoItems } from './demo-boards.js';
import { trackDemoBrands } from './demo-brandtrackers.js';
import { seedMarket, type SeedProgress } from './market.js';

export const DEMO_SLUG = 'demo';

/**
 * First start: load the tiny synthetic market and create the demo workspace with a full-access key.
 * Returns the key only when it was created now (it is shown once and stored only hashed).
 */
export async function ensureDemo(
  prisma: PrismaClient,
  pool: pg.Pool,
  log: (line: string) => void,
  onProgress?: (event: SeedProgress) => void,
): Promise<string | null> {
  if (!(await prisma.ad.findFirst({ select: { id: true } }))) {
    log('loading the demo market (scale tiny)…');
    const { counts, ms } = await seedMarket(pool, { scale: 'tiny', onProgress });
    log(`demo market loaded in ${(ms / 1000).toFixed(1)} s: ${Object.entries(counts).map(([table, n]) => `${n} ${table}`).join(', ')}`);
  }
  if (await prisma.workspace.findUnique({ where: { slug: DEMO_SLUG } })) return null;
  const { workspaceId } = await createWorkspace(prisma, { slug: DEMO_SLUG, name: 'Demo workspace', plan: 'demo' });
  log(`the demo workspace tracks ${await trackDemoBrands(prisma, workspaceId)} brands`);
  log(`the demo workspace has ${await saveDemoItems(prisma, workspaceId)} saved items on its boards and favorites`);
  const { apiKey } = await createKey(prisma, { workspace: DEMO_SLUG, name: 'Demo key', description: 'Created on first start' });
  return apiKey;
}
