import { builder } from '../builder.js';
import { DAY_MS } from '../shared/time.js';

const API_NAME = 'Market Intelligence API';

const ApiInfo = builder.objectRef<{ name: string; version: string; status: string }>('ApiInfo').implement({
  fields: (t) => ({ name: t.exposeString('name'), version: t.exposeString('version'), status: t.exposeString('status') }),
});

const Health = builder.objectRef<{ status: string; timestamp: Date; uptime: number }>('Health').implement({
  fields: (t) => ({
    status: t.exposeString('status'),
    timestamp: t.expose('timestamp', { type: 'DateTime' }),
    uptime: t.exposeFloat('uptime', { description: 'Process uptime in seconds.' }),
  }),
});

type FreshnessData = { latestReadyDate: Date | null; latestScheduledDate: Date | null; dataFreshnessLagDays: number | null; generatedAt: Date };

const FreshnessDataRef = builder.objectRef<FreshnessData>('FreshnessData').implement({
  fields: (t) => ({
    latestReadyDate: t.expose('latestReadyDate', { type: 'Date', nullable: true, description: 'Latest snapshot date with usable reach rows.' }),
    latestScheduledDate: t.expose('latestScheduledDate', { type: 'Date', nullable: true, description: 'Latest snapshot date present in reach history, ready or not.' }),
    dataFreshnessLagDays: t.exposeInt('dataFreshnessLagDays', { nullable: true, description: 'Whole UTC days between today and latestReadyDate.' }),
    generatedAt: t.expose('generatedAt', { type: 'DateTime' }),
  }),
});

const Freshness = builder.objectRef<{ status: string; data: FreshnessData }>('Freshness').implement({
  fields: (t) => ({ status: t.exposeString('status'), data: t.expose('data', { type: FreshnessDataRef }) }),
});


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
