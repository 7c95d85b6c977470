import type { Principal } from '../../auth/principal.js';
import type { CreditBalance, CreditQuota } from '../../metering/balance.js';
import { builder } from '../builder.js';
import { AccessLevelEnum } from './types.js';

// GET /v1/usage: the workspace's credits as the meter counts them (src/metering/balance.ts).

export type UsageSnapshot = { principal: Principal; balance: CreditBalance };

const QuotaRef = builder.objectRef<CreditQuota>('CreditQuota').implement({
  fields: (t) => ({ limit: t.exposeInt('limit'), used: t.exposeInt('used'), remaining: t.exposeInt('remaining') }),
});

const TopupRef = builder.objectRef<{ balance: number }>('TopupCredits').implement({
  fields: (t) => ({ balance: t.exposeInt('balance') }),
});

const CreditsRef = builder.objectRef<CreditBalance>('Credits').implement({
  fields: (t) => ({
    balance: t.int({ deprecationReason: 'Use topup.balance.', resolve: (b) => b.topup }),
    recurring: t.field({ type: QuotaRef, resolve: (b) => b.recurring }),
    topup: t.field({ type: TopupRef, resolve: (b) => ({ balance: b.topup }) }),
    totalRemaining: t.exposeInt('totalRemaining', { description: 'Remaining recurring plus top-up credits.' }),
  }),
});

const BillingRef = builder.objectRef<CreditBalance>('Billing').implement({
  fields: (t) => ({
    configured: t.boolean({ resolve: (b) => b.billing.configured }),
    planCode: t.string({ nullable: true, resolve: (b) => (b.billing.configured ? b.billing.planCode : null) }),
    currentPeriodStart: t.field({ type: 'DateTime', nullable: true, resolve: (b) => (b.billing.configured ? b.period.start : null) }),
    currentPeriodEnd: t.field({ type: 'DateTime', nullable: true, resolve: (b) => (b.billing.configured ? b.period.end : null) }),
    updatedAt: t.field({ type: 'DateTime', nullable: true, resolve: (b) => (b.billing.configured ? b.billing.updatedAt : null) }),
  }),
});

const UsageWorkspace = builder.objectRef<Principal['workspace']>('UsageWorkspace').implement({
  fields: (t) => ({ id: t.exposeID('id'), slug: t.exposeString('slug'), name: t.exposeString('name') }),
});

const UsageCredential = builder.objectRef<Principal['credential']>('UsageCredential').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    accessLevel: t.expose('accessLevel', { type: AccessLevelEnum }),
    lastUsedAt: t.expose('lastUsedAt', { type: 'DateTime', nullable: true }),
  }),
});

export const Usage = builder.objectRef<UsageSnapshot>('Usage').implement({
  description: "The workspace's billing, quota and credit balance, from its credit records. A recurring period that has ended counts as rolled over to the one that holds now, as the next charge rolls it.",
  fields: (t) => ({
    workspace: t.field({ type: UsageWorkspace, resolve: (u) => u.principal.workspace }),
    credential: t.field({ type: UsageCredential, resolve: (u) => u.principal.credential }),
    billing: t.field({ type: BillingRef, resolve: (u) => u.balance }),
    includedQuota: t.field({
      type: QuotaRef,
      deprecationReason: 'Use credits.recurring and credits.totalRemaining.',
      resolve: (u) => u.balance.recurring,
    }),
    credits: t.field({ type: CreditsRef, resolve: (u) => u.balance }),
  }),
});
