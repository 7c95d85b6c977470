import { z } from 'zod';
import { notFound } from '../../errors.js';
import { prepared } from '../../db/statements.js';
import { builder } from '../builder.js';
import { adIdArg } from './args.js';
import { normaliseAdId } from './queries.js';

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
      // A hot, fixed-shape read: plain SQL on the shared pool (Prisma's query planning was a quarter of its CPU), prepared.
      // The days come back as one JSON array, oldest first: one row to read instead of up to 365. Dates of years
      // 1-9999 come already written as `YYYY-MM-DD`; any other (never seen) as epoch milliseconds, made a Date here
      // so the Date scalar writes it as it writes every other one. No row: no such ad; a null array: no history.
      const { rows } = await context.pool.query<{ days: { date: string | number; reach: number }[] | null }>(prepared(
        `SELECT (SELECT json_agg(json_build_object(
                   'date', CASE WHEN d."date" BETWEEN DATE '0001-01-01' AND DATE '9999-12-31' THEN to_json(to_char(d."date", 'YYYY-MM-DD'))
                                ELSE to_json(extract(epoch FROM d."date")::float8 * 1000) END,
                   'reach', d."reach") ORDER BY d."date")
                 FROM (SELECT "date", "reach" FROM "ad_reach_days" WHERE "adId" = a."id" ORDER BY "date" DESC LIMIT $2) d) AS "days"
         FROM "ads" a
         WHERE a."id" = $1`,
        [normaliseAdId(args.adId), args.limit ?? 365],
      ));
      if (rows.length === 0) throw notFound(`Ad "${args.adId}"`);
      const days: { date: Date | string | number; reach: number }[] = rows[0]!.days ?? [];
      for (const day of days) if (typeof day.date === 'number') day.date = new Date(day.date);
      return days as { date: Date | string; reach: number }[];
    },
  }),
}));
