import type { Email } from '../../generated/prisma/client.js';
import type { Context } from '../../context.js';
import { findPage, type PageOf, type PageRequest } from '../shared/list.js';
import { avgEmailsPerWeek } from './figures.js';
import { LAST_90_DAYS } from './service/frequency.js';
import { EXPORTED_EMAILS } from './service/export.js';
import { findEmails, inlineEmails } from './service/load.js';
import { emailList, type EmailFilter, type EmailSort } from './service/search.js';

// The emails domain's public face and the home of its SQL: the emails list (its engine in service/search.ts, its rows
// in service/load.ts, the frequency filter in service/frequency.ts), one email, its HTML, a shop's email stats.

export { EMAIL_SUMMARY } from './service/load.js';
export type { EmailFilter, EmailSearch, EmailSort, EmailSortValue } from './service/search.js';

export type EmailPage = PageOf<Email>;
export type ShopEmailAnalytics = { emails90d: number; lastEmailAt: Date | null };
export type ShopEmailStats = {
  last90Days: { totalEmails: number; avgEmailsPerWeek: number; emailsByDayOfWeek: Record<string, number> };
  calendar: { month: string; totalEmails: number; emailsByDate: Record<string, number> };
};

/** A page of the emails list (POST /v1/emails/query, GET /v1/shops/{shopId}/emails), its rows loaded with `select`. */
export async function searchEmails(context: Context, filter: EmailFilter, sort: EmailSort, page: PageRequest, select: object): Promise<EmailPage> {
  // A keyword search brings its page's rows in the statement that finds it; any other page loads them by id.
  return findPage(context.pool, {
    ...emailList(filter, sort),
    page,
    rows: { inline: inlineEmails(select), load: (ids) => findEmails(context.prisma, ids.map(Number), select), idOf: (row) => String(row.id), exported: EXPORTED_EMAILS },
  });
}

/** One email (GET /v1/emails/{emailId}) loaded with `query`, Pothos's selection, or null. */
export function emailDetail(context: Context, id: number, query: object) {
  return context.prisma.email.findUnique({ where: { id }, relationLoadStrategy: 'join', ...query });
}

/** An email's captured HTML (GET /v1/emails/{emailId}/html), or null when there is no such email. */
export function emailHtml(context: Context, id: number) {
  return context.prisma.email.findUnique({ where: { id }, select: { id: true, html: true } });
}

/** The email detail's shop analytics: its emails of the last 90 days and its last email. */
export async function shopEmailAnalytics(context: Context, shopId: string): Promise<ShopEmailAnalytics> {
  const [row] = await context.prisma.$queryRaw<ShopEmailAnalytics[]>`
          SELECT count(*) FILTER (WHERE "sentAt" >= now() - interval '90 days')::int AS "emails90d", max("sentAt") AS "lastEmailAt"
          FROM "emails" WHERE "shopId" = ${shopId}::uuid`;
  return row;
}

/** A shop's email frequency (GET /v1/shops/{shopId}/emails/stats): the trailing 90 days by day of week, `month`'s calendar (UTC). */
export async function shopEmailStats(context: Context, shopId: string, month: string): Promise<ShopEmailStats> {
  const start = new Date(`${month}-01T00:00:00.000Z`);
  const end = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
  const [weekdays, dates] = await Promise.all([
    context.prisma.$queryRaw<{ day: number; n: number }[]>`
          SELECT extract(dow FROM "sentAt" AT TIME ZONE 'UTC')::int AS day, count(*)::int AS n
          FROM "emails" WHERE "shopId" = ${shopId}::uuid AND "sentAt" >= ${LAST_90_DAYS} GROUP BY 1`,
    context.prisma.$queryRaw<{ date: string; n: number }[]>`
          SELECT to_char("sentAt" AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS date, count(*)::int AS n
          FROM "emails" WHERE "shopId" = ${shopId}::uuid AND "sentAt" >= ${start} AND "sentAt" < ${end} GROUP BY 1 ORDER BY 1`,
  ]);
  const byDay = Object.fromEntries([0, 1, 2, 3, 4, 5, 6].map((day) => [String(day), weekdays.find((row) => row.day === day)?.n ?? 0]));
  const total90 = weekdays.reduce((sum, row) => sum + row.n, 0);
  return {
    last90Days: { totalEmails: total90, avgEmailsPerWeek: avgEmailsPerWeek(total90), emailsByDayOfWeek: byDay },
    calendar: { month, totalEmails: dates.reduce((sum, row) => sum + row.n, 0), emailsByDate: Object.fromEntries(dates.map((row) => [row.date, row.n])) },
  };
}
