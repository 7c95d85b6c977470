import { randomBytes } from 'node:crypto';
import type { Context } from '../../../context.js';
import type { AdShare, Prisma } from '../../../generated/prisma/client.js';
import { writeAudited } from '../../shared/audit.js';
import { workspaceDb } from '../../shared/workspace.js';

// The workspace's share link of an ad (POST /v1/ads/{adId}/share).

/**
 * The share link of the ad `adId` for the caller's workspace, created on first use, loaded with `query` (Pothos's
 * selection); null when there is no such ad.
 */
export async function adShare(context: Context, adId: string, query: { include?: Prisma.AdShareInclude; select?: Prisma.AdShareSelect }): Promise<AdShare | null> {
  const { workspace } = await context.principal();
  const ad = await context.prisma.ad.findUnique({ where: { id: adId }, select: { id: true } });
  if (!ad) return null;
  const db = await workspaceDb(context);
  const where = { workspaceId_adId: { workspaceId: workspace.id, adId: ad.id } };
  const existing = await db.adShare.findUnique({ ...query, where });
  if (existing) return existing;
  try {
    return await writeAudited(context, async (tx, audit) => {
      const share = await tx.adShare.create({ data: { workspaceId: workspace.id, adId: ad.id, slug: randomBytes(9).toString('base64url') } });
      await audit({ action: 'ad.share', entityType: 'ad_share', entityId: share.id, after: share });
      return tx.adShare.findUniqueOrThrow({ ...query, where: { id: share.id } });
    });
  } catch (error) {
    // A concurrent first share of the same ad won the insert (its transaction rolled back): return that share.
    if ((error as { code?: unknown }).code === 'P2002') return db.adShare.findUniqueOrThrow({ ...query, where });
    throw error;
  }
}
