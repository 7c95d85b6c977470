import { Prisma, type Email } from '../../../generated/prisma/client.js';
import type { InlineRows } from '../../shared/list.js';
import { columns, coverage, jsonObject, jsonRowSet, reviver } from '../../shared/json-rows.js';

// Emails by id, for the email lists (POST /v1/emails/query, GET /v1/shops/{shopId}/emails): when the request selects
// no more than an email summary (the email, its classification's names and event, its shop's id, domain and name),
// one statement has PostgreSQL write the rows as JSON (src/schema/shared/json-rows.ts); any other selection is
// Prisma's. A test compares both paths row for row.

/** What the summary statement loads: the email's fields (its HTML excepted, as every read), and these relations. */
export const EMAIL_SUMMARY = {
  include: {
    promotionType: { select: { name: true } },
    category: { select: { name: true } },
    event: true,
    shop: { select: { id: true, domain: true, name: true } },
  },
} as const;

const covered = coverage('Email', EMAIL_SUMMARY);
const revive = reviver('Email', EMAIL_SUMMARY);
const { include } = EMAIL_SUMMARY;

const SUMMARY_ROWS = Prisma.raw(`
  SELECT ${columns('Email', 'e')},
    (SELECT ${jsonObject('EmailPromotionType', 'x', include.promotionType)} FROM "email_promotion_types" x WHERE x."id" = e."promotionTypeId") AS "promotionType",
    (SELECT ${jsonObject('EmailCategory', 'x', include.category)} FROM "email_categories" x WHERE x."id" = e."categoryId") AS "category",
    (SELECT ${jsonObject('EmailEvent', 'x')} FROM "email_events" x WHERE x."id" = e."eventId") AS "event",
    (SELECT ${jsonObject('Shop', 'x', include.shop)} FROM "shops" x WHERE x."id" = e."shopId") AS "shop"
  FROM "emails" e`);

/** The emails whose ids an int array expression gives, as one JSON text, and their parser. */
const { of: rowsOf, parse } = jsonRowSet<Email>(SUMMARY_ROWS, 'e."id"', revive);

/** The page's emails loaded in the statement that finds it (findPage, shared/list.ts), when `query` allows. */
const INLINE: InlineRows<Email> = { inline: (ids) => rowsOf(Prisma.sql`ARRAY(${ids})::int[]`), parse };
export const inlineEmails = (query: object): InlineRows<Email> | undefined => (covered(query) ? INLINE : undefined);

/** The emails of `ids` (in no particular order), loaded with `query`, Pothos's selection for them. */
export async function findEmails(prisma: Prisma.TransactionClient, ids: number[], query: object): Promise<Email[]> {
  if (!ids.length) return [];
  if (!covered(query)) return prisma.email.findMany({ where: { id: { in: ids } }, relationLoadStrategy: 'join', ...query });
  const [{ rows }] = await prisma.$queryRaw<{ rows: string }[]>`SELECT ${rowsOf(Prisma.sql`${ids}::int[]`)} AS "rows"`;
  return parse(rows);
}
