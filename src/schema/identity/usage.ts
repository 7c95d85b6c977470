import type { Principal } from '../../auth/principal.js';
import type { CreditAccount } from '../../generated/prisma/client.js';
import { builder } from '../builder.js';
import { AccessLevelEnum } from './types.js';

export type UsageSnapshot = { principal: Principal; account: CreditAccount | null };

type Quota = { limit: number; used: number; remaining: number };

function recurringQuota(account: CreditAccount | null): Quota {
  if (!account) return { limit: 0, used: 0, remaining: 0 };
  return { limit: account.recurringLimit, used: account.recurringUsed, remaining: Math.max(0, account.recurringLimit - account.recurringUsed) };
}

export function totalRemaining(account: CreditAccount | null): number {
  return recurringQuota(account).remaining + (account?.topupBalance ?? 0);
}

const QuotaRef = builder.objectRef<Quota>('CreditQuota').implement({
  fields: (t) => ({ limit: t.exposeInt('limit'), used: t.exposeInt('used'), remaining: t.exposeInt('remaining') }),
});

const TopupRef = builder.objectRef<{ balance: number }>('TopupCredits').implement({
  fields: (t) => ({ balance: t.exposeInt('balance') }),
});

const CreditsRef = builder.objectRef<CreditAccount | null>('Credits').implement({
  fields: (t) => ({
    balance: t.int({ deprecationReason: 'Use topup.balance.', resolve: (a) => a?.topupBalance ?? 0 }),
    recurring: t.field({ type: QuotaRef, resolve: recurringQuota }),
    topup: t.field({ type: TopupRef, resolve: (a) => ({ balance: a?.topupBalance ?? 0 }) }),
    totalRemaining: t.int({ description: 'Remaining recurring plus top-up credits.', resolve: totalRemaining }),
  }),
});

const BillingRef = builder.objectRef<CreditAccount | null>('Billing').implement({
  fields: (t) => ({
    configured: t.boolean({ resolve: (a) => a?.billingConfigured ?? false }),
    planCode: t.string({ nullable: true, resolve: (a) => (a?.billingConfigured ? a.planCode : null) }),
    currentPeriodStart: t.field({ type: 'DateTime', nullable: true, resolve: (a) => (a?.billingConfigured ? a.currentPeriodStart : null) }),
    currentPeriodEnd: t.field({ type: 'DateTime', nullable: true, resolve: (a) => (a?.billingConfigured ? a.currentPeriodEnd : null) }),
    updatedAt: t.field({ type: 'DateTime', nullable: true, resolve: (a) => (a?.billingConfigured ? a.updatedAt : null) }),
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
  description: "The workspace's billing, quota and credit balance, from its credit records.",
  fields: (t) => ({
    workspace: t.field({ type: UsageWorkspace, resolve: (u) => u.principal.workspace }),
    credential: t.field({ type: UsageCredential, resolve: (u) => u.principal.credential }),
    billing: t.field({ type: BillingRef, resolve: (u) => u.account }),
    includedQuota: t.field({
      type: QuotaRef,
      deprecationReason: 'Use credits.recurring and credits.totalRemaining.',
      resolve: (u) => recurringQuota(u.account),
    }),
    credits: t.field({ type: CreditsRef, resolve: (u) => u.account }),
  }),
});
