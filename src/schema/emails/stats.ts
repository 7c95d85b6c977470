import { z } from 'zod';
import { notFound } from '../../errors.js';
import { builder } from '../builder.js';
import { findShopId } from '../shops/service.js';
import { shopEmailStats, type ShopEmailStats as Stats } from './service.js';

// GET /v1/shops/{shopId}/emails/stats: the last 90 days by day of week, and one month's calendar (UTC).

const Last90Days = builder.objectRef<Stats['last90Days']>('ShopEmailLast90Days').implement({
  fields: (t) => ({
    totalEmails: t.exposeInt('totalEmails'),
    avgEmailsPerWeek: t.exposeFloat('avgEmailsPerWeek', { description: 'totalEmails / (90 / 7), two decimals.' }),
    emailsByDayOfWeek: t.field({ type: 'JSON', description: 'Emails per UTC day of week, "0" (Sunday) to "6" (Saturday), every day present.', resolve: (s) => s.emailsByDayOfWeek }),
  }),
});

const Calendar = builder.objectRef<Stats['calendar']>('ShopEmailCalendar').implement({
  fields: (t) => ({
    month: t.exposeString('month', { description: 'YYYY-MM' }),
    totalEmails: t.exposeInt('totalEmails'),
    emailsByDate: t.field({ type: 'JSON', description: 'Emails per UTC date (YYYY-MM-DD); days without emails are left out.', resolve: (s) => s.emailsByDate }),
  }),
});

const ShopEmailStats = builder.objectRef<Stats>('ShopEmailStats').implement({
  fields: (t) => ({
    last90Days: t.field({ type: Last90Days, resolve: (s) => s.last90Days }),
    calendar: t.field({ type: Calendar, resolve: (s) => s.calendar }),
  }),
});

const MONTH = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, '{name} must be a month formatted as YYYY-MM');

builder.queryFields((t) => ({
  shopEmailStats: t.field({
    type: ShopEmailStats,
    nullable: true,
    authScopes: { workspace: true },
    description: "A shop's email frequency (GET /v1/shops/{shopId}/emails/stats): the trailing 90 days by day of week, and the calendar of `month` (UTC).",
    args: {
      shopId: t.arg.string({ required: true, validate: z.string().min(1).max(128) }),
      month: t.arg.string({ required: true, description: 'YYYY-MM', validate: MONTH }),
    },
    resolve: async (_root, args, context) => {
      const shopId = await findShopId(context.prisma, args.shopId);
      if (!shopId) throw notFound(`Shop "${args.shopId}"`);
      return shopEmailStats(context, shopId, args.month);
    },
  }),
}));
