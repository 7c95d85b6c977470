import { builder } from '../builder.js';
import { DAY_MS } from '../shared/time.js';
import { ApiInfo, Freshness, Health } from './types.js';

const API_NAME = 'Market Intelligence API';

builder.queryFields((t) => ({
  apiInfo: t.field({
    type: ApiInfo,
    nullable: true,
    authScopes: { public: true },
    description: 'API name, version and status (GET /v1).',
    resolve: () => ({ name: API_NAME, version: 'v1', status: 'ok' }),
  }),
  health: t.field({
    type: Health,
    nullable: true,
    authScopes: { public: true },
    resolve: (_root, _args, context) => ({
      status: 'ok',
      timestamp: new Date(),
      uptime: Math.round((Date.now() - context.startedAt.getTime()) / 1000),
    }),
  }),
  systemFreshness: t.field({
    type: Freshness,
    nullable: true,
    authScopes: { public: true },
    description: 'The global reach-history snapshot dates actually stored.',
    resolve: async (_root, _args, context) => {
      const [row] = await context.prisma.$queryRaw<{ ready: Date | null; scheduled: Date | null }[]>`
        SELECT max("date") FILTER (WHERE "reach" > 0) AS ready, max("date") AS scheduled FROM "ad_reach_days"`;
      const generatedAt = new Date();
      const today = Date.UTC(generatedAt.getUTCFullYear(), generatedAt.getUTCMonth(), generatedAt.getUTCDate());
      return {
        status: 'ok',
        data: {
          latestReadyDate: row.ready,
          latestScheduledDate: row.scheduled,
          dataFreshnessLagDays: row.ready ? Math.round((today - row.ready.getTime()) / DAY_MS) : null,
          generatedAt,
        },
      };
    },
  }),
}));
