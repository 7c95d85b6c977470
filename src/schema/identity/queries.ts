import { builder } from '../builder.js';
import { Me, WorkspaceResponse } from './types.js';
import { Usage } from './usage.js';

builder.queryFields((t) => ({
  me: t.field({
    type: Me,
    nullable: true,
    authScopes: { workspace: true },
    description: 'The credential, workspace and delegated user of the API key (GET /v1/me).',
    resolve: (_root, _args, context) => context.principal(),
  }),
  workspace: t.field({
    type: WorkspaceResponse,
    nullable: true,
    authScopes: { workspace: true },
    description: 'The workspace of the API key, with how the key authenticates (its credential, and the delegated user if any).',
    resolve: (_root, _args, context) => context.principal(),
  }),
  usage: t.field({
    type: Usage,
    nullable: true,
    authScopes: { workspace: true },
    description: 'Billing, included quota and credit balances. Reading it costs nothing.',
    resolve: async (_root, _args, context) => {
      const [principal, balance] = await Promise.all([context.principal(), context.meter.balance()]);
      return { principal, balance };
    },
  }),
}));
