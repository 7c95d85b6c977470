import { builder } from '../builder.js';
import { Usage } from '../identity/service.js';
import { workspaceDb } from '../shared/workspace.js';
import { quotaState, type QuotaState } from './service.js';

// The plan's brandtracker quotas as GET /v1/usage shows them (service/quota.ts counts and takes them).

const QuotaCounter = builder.objectRef<QuotaState['active']>('BrandtrackerSlotQuota').implement({
  fields: (t) => ({ limit: t.exposeInt('limit'), used: t.exposeInt('used'), remaining: t.exposeInt('remaining') }),
});

const OperationsQuota = builder.objectRef<QuotaState['operations']>('BrandtrackerOperationQuota').implement({
  fields: (t) => ({
    limit: t.exposeInt('limit'),
    used: t.exposeInt('used'),
    remaining: t.exposeInt('remaining'),
    periodStart: t.expose('periodStart', { type: 'DateTime' }),
    periodEnd: t.expose('periodEnd', { type: 'DateTime' }),
  }),
});

const BrandtrackerQuotaRef = builder.objectRef<QuotaState>('BrandtrackerQuota').implement({
  description: "The plan's brandtracker limits and their use.",
  fields: (t) => ({
    activeBrandtrackers: t.field({ type: QuotaCounter, description: 'Active brandtracker slots.', resolve: (q) => q.active }),
    createDeleteOperations: t.field({
      type: OperationsQuota,
      description: 'Creates, reactivations, bulk deletes and folder deletes with their brandtrackers, this calendar month (UTC).',
      resolve: (q) => q.operations,
    }),
  }),
});

builder.objectField(Usage, 'brandtrackers', (t) =>
  t.field({
    type: BrandtrackerQuotaRef,
    description: "The workspace plan's brandtracker quotas (additive to the usage response).",
    resolve: async (usage, _args, context) => quotaState(await workspaceDb(context), usage.principal.workspace.id),
  }),
);
