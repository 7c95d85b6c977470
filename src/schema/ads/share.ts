import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { notFound } from '../../errors.js';
import { builder } from '../builder.js';
import { normaliseAdId } from './queries.js';

const sharePath = (slug: string) => `/share/ads/${slug}`;

const AdShare = builder.prismaObject('AdShare', {
  description: 'A public share link of an ad, stable per workspace and ad.',
  fields: (t) => ({
    adId: t.exposeString('adId'),
    id: t.exposeID('id'),
    slug: t.exposeString('slug'),
    shareUrl: t.string({ resolve: (share, _args, context) => `${context.publicBaseUrl}${sharePath(share.slug)}` }),
    sharePath: t.string({ resolve: (share) => sharePath(share.slug) }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

builder.mutationFields((t) => ({
  adShare: t.prismaField({
    type: AdShare,
    nullable: true,
    authScopes: { writer: true },
    description: 'Creates the share link of an ad, or returns the one the workspace already has (POST /v1/ads/{adId}/share).',
    args: { adId: t.arg.string({ required: true, validate: z.string().min(1).max(128) }) },
    resolve: async (query, _root, args, context) => {
      const { workspace } = await context.principal();
      const ad = await context.prisma.ad.findUnique({ where: { id: normaliseAdId(args.adId) }, select: { id: true } });
      if (!ad) throw notFound(`Ad "${args.adId}"`);
      const key = { workspaceId_adId: { workspaceId: workspace.id, adId: ad.id } };
      try {
        return await context.prisma.adShare.upsert({
          ...query,
          where: key,
          create: { workspaceId: workspace.id, adId: ad.id, slug: randomBytes(9).toString('base64url') },
          update: {},
        });
      } catch (error) {
        // Prisma's upsert reads, then inserts: a concurrent first share of the same ad can win the insert. Return that share.
        if ((error as { code?: unknown }).code === 'P2002') return context.prisma.adShare.findUniqueOrThrow({ ...query, where: key });
        throw error;
      }
    },
  }),
}));
