import { z } from 'zod';
import { notFound } from '../../errors.js';
import { builder } from '../builder.js';
import { adIdArg, normaliseAdId } from './args.js';
import { adReachHistory } from './service/detail.js';

const ReachHistoryPoint = builder.objectRef<{ date: Date | string; reach: number }>('ReachHistoryPoint').implement({
  fields: (t) => ({ date: t.expose('date', { type: 'Date' }), reach: t.expose('reach', { type: 'SafeInt', description: 'Cumulative reach on that day.' }) }),
});

builder.queryFields((t) => ({
  adReachHistory: t.field({
    type: [ReachHistoryPoint],
    nullable: true,
    authScopes: { workspace: true },
    description: 'Daily reach of one ad, oldest first: the most recent `limit` days.',
    args: {
      adId: t.arg.string({ required: true, validate: adIdArg }),
      limit: t.arg.int({ defaultValue: 365, validate: z.number().int().min(1).max(365) }),
    },
    resolve: async (_root, args, context) => {
      const days = await adReachHistory(context.pool, normaliseAdId(args.adId), args.limit ?? 365);
      if (!days) throw notFound(`Ad "${args.adId}"`);
      return days;
    },
  }),
}));
