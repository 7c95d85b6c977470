import { notFound } from '../../errors.js';
import { builder } from '../builder.js';
import { adIdArg, normaliseAdId } from './args.js';
import { adShare } from './service/share.js';
import { AdShare } from './types.js';

builder.mutationFields((t) => ({
  adShare: t.prismaField({
    type: AdShare,
    nullable: true,
    authScopes: { writer: true },
    description: 'Creates the share link of an ad, or returns the one the workspace already has (POST /v1/ads/{adId}/share).',
    args: { adId: t.arg.string({ required: true, validate: adIdArg }) },
    resolve: async (query, _root, args, context) => {
      const share = await adShare(context, normaliseAdId(args.adId), query);
      if (!share) throw notFound(`Ad "${args.adId}"`);
      return share;
    },
  }),
}));
