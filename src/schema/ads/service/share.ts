import { randomBytes } from 'node:crypto';
import type { Context } from '../../../context.js';
import type { AdShare, Prisma, PrismaClient } from '../../../generated/prisma/client.js';
import { writeAudited } from '../../shared/audit.js';
import { mediaUrl } from '../../shared/media-url.js';
import { workspaceDb } from '../../shared/workspace.js';
import { lastSeenAt } from '../types.js';

// The workspace's share link of an ad (POST /v1/ads/{adId}/share), and what it shows at GET /share/ads/{slug}.

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

// What a share link shows, without a key: the ad as the Ad Library shows it (its creative, copy, advertiser and
// dates), read-only. The slug is the only credential, so it is looked up across workspaces; the ad is market data.

export type SharedAdPage = {
  data: {
    ad: {
      id: string;
      platform: string;
      status: string;
      media: { type: string; thumbnailUrl: string | null; mediaUrl: string | null };
      content: { title: string | null; body: string | null; callToAction: string | null; landingPageUrl: string | null; landingPageDomain: string | null };
      advertiser: { id: string; name: string };
      firstSeenAt: Date;
      lastSeenAt: Date | null;
    };
    sharedAt: Date;
  };
};

export async function sharedAdPage(base: PrismaClient, slug: string, publicBaseUrl: string): Promise<SharedAdPage | null> {
  const share = await base.adShare.findUnique({ where: { slug }, include: { ad: { include: { advertiser: { select: { id: true, name: true } } } } } });
  if (!share) return null;
  const { ad } = share;
  return {
    data: {
      ad: {
        id: ad.id,
        platform: ad.platform,
        status: ad.status,
        media: { type: ad.mediaType, thumbnailUrl: mediaUrl(ad.thumbnailUrl, publicBaseUrl), mediaUrl: mediaUrl(ad.mediaUrl, publicBaseUrl) },
        content: { title: ad.title, body: ad.body, callToAction: ad.callToAction, landingPageUrl: ad.landingPageUrl, landingPageDomain: ad.landingPageDomain },
        advertiser: ad.advertiser,
        firstSeenAt: ad.firstSeenAt,
        lastSeenAt: lastSeenAt(ad),
      },
      sharedAt: share.createdAt,
    },
  };
}
