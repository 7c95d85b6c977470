import { builder } from '../builder.js';
import { systemFreshness } from './service.js';
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
    description: 'Liveness: the process answers, with its uptime in seconds. Touches nothing (GET /v1/ready checks the database and Redis).',
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
    resolve: (_root, _args, context) => systemFreshness(context),
  }),
}));
