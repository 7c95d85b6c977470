import { randomBytes } from 'node:crypto';
import { notFound } from '../../errors.js';
import { builder } from '../builder.js';
import { writeAudited } from '../shared/audit.js';
import { workspaceDb } from '../shared/workspace.js';
import { adIdArg } from './args.js';
import { normaliseAdId } from './queries.js';
import { AdShare } from './types.js';

builder.mutationFields((t) => ({
  adShare: t.prismaField({
    type: AdShare,
    nullable: true,
    authScopes: { writer: true },
    description: 'Creates the share link of an ad, or returns the one the workspace already has (POST /v1/ads/{adId}/share).',
    args: { adId: t.arg.string({ required: true, validate: adIdArg }) },
    resolve: async (query, _root, args, context) => {
      const { workspace } = await context.principal();
      const ad = await context.prisma.ad.findUnique({ where: { id: normaliseAdId(args.adId) }, select: { id: true } });
      if (!ad) throw notFound(`Ad "${args.adId}"`);
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
    },
  }),
}));
