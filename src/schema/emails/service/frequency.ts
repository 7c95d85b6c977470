import { Prisma } from '../../../generated/prisma/client.js';
import type { Range } from '../../shared/ranges.js';
import { avgEmailsPerWeek } from '../figures.js';

// A shop's email frequency as GET /v1/shops/{shopId}/emails/stats reports it (last90Days), and the emails list's
// filter on its average per week (POST /v1/emails/query min/maxAvgEmailsPerWeek).

const sql = Prisma.sql;

/** The start of the stats' trailing 90 days. */
export const LAST_90_DAYS = sql`now() - interval '90 days'`;

/** The fewest emails of the 90 days whose average passes `test`, from a guess near it (the average grows with the count). */
function fewest(test: (avg: number) => boolean, guess: number): number {
  let emails = Math.max(0, Math.floor(guess));
  while (emails > 0 && test(avgEmailsPerWeek(emails - 1))) emails--;
  while (!test(avgEmailsPerWeek(emails))) emails++;
  return emails;
}

/** Bounds on avgEmailsPerWeek as bounds on the count of the 90 days, so the list compares whole counts. */
function countBounds(avg: Range<number>): { min: number; max: number | null } {
  const { min: low, max: high } = avg;
  const perEmail = 7 / 90;
  return {
    min: low == null ? 0 : fewest((a) => a >= low, low / perEmail),
    max: high == null ? null : fewest((a) => a > high, high / perEmail) - 1,
  };
}

/**
 * Emails whose shop's avgEmailsPerWeek is within `avg` (an email without a shop counts no emails, as minShopEmails90d
 * does). The shops' counts come from one pass over the 90 days' emails (an index-only scan), grouped by shop, never
 * from a count per email; a range that admits 0 is the complement of the shops above it.
 */
export function avgEmailsPerWeekCondition(avg: Range<number>): Prisma.Sql | null {
  const { min, max } = countBounds(avg);
  const senders = sql`SELECT x."shopId" FROM "emails" x WHERE x."sentAt" >= ${LAST_90_DAYS} AND x."shopId" IS NOT NULL GROUP BY x."shopId"`;
  if (min > 0) return sql`e."shopId" IN (${senders} HAVING count(*) >= ${min}${max === null ? Prisma.empty : sql` AND count(*) <= ${max}`})`;
  if (max !== null) return sql`(e."shopId" IS NULL OR e."shopId" NOT IN (${senders} HAVING count(*) > ${max}))`;
  return null;
}
