import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MARKET_TABLES, marketChecksums } from '../../src/data/market.js';
import { EMAIL_CATEGORIES, EMAIL_EVENTS, PROMOTION_TYPES } from '../../src/data/market/email-calendar.js';
import { EMAIL_SUMMARY, findEmails } from '../../src/schema/emails/service/load.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { sqlProbe, tableCounts } from '../support/sql.js';
import { TINY_MARKET_42 } from '../support/tiny-market.js';

const AS_OF = '2025-06-01T00:00:00Z';
const options = { scale: 'tiny' as const, seed: 42, asOf: new Date(AS_OF) };

let db: TestDatabase;
let counts: Record<string, number>;

const { offenders, one } = sqlProbe(() => db);

beforeAll(async () => {
  db = await createTestDatabase({ market: TINY_MARKET_42 });
  counts = await tableCounts(db, MARKET_TABLES);
});

afterAll(async () => {
  await db?.dispose();
});

describe('market emails (tiny)', () => {
  it('fills the email tables: the catalogues in full and the scale’s email count', () => {
    expect(counts.email_promotion_types).toBe(PROMOTION_TYPES.length);
    expect(counts.email_categories).toBe(EMAIL_CATEGORIES.length);
    expect(counts.email_events).toBe(EMAIL_EVENTS.length);
    expect(counts.emails).toBe(1000);
  });

  it('numbers the emails 1..N, and the next email inserted gets N + 1', async () => {
    const ids = await one<{ min: number; max: number; n: string }>(`SELECT min(id), max(id), count(DISTINCT id) AS n FROM emails`);
    expect(ids).toEqual({ min: 1, max: counts.emails, n: String(counts.emails) });
    const inserted = await one<{ id: number }>(
      `INSERT INTO emails ("fromAddress", "sentAt", "campaignType", subject, body, "bodyLength") VALUES ('a@b.c', now(), 'campaign', 's', 'b', 1) RETURNING id`,
    );
    expect(inserted.id).toBe(counts.emails + 1);
    await db.pool.query(`DELETE FROM emails WHERE id = $1`, [inserted.id]);
  });

  it('keeps bodyLength, dates, senders and the html consistent with each email', async () => {
    expect(await offenders(`SELECT id FROM emails WHERE "bodyLength" <> length(body) OR length(body) > 1500 OR length(html) > 4096`)).toEqual([]);
    expect(
      await offenders(
        `SELECT e.id FROM emails e LEFT JOIN shops s ON s.id = e."shopId"
         WHERE s.id IS NULL OR e."sentAt" > $1::timestamptz OR e."sentAt" < $1::timestamptz - interval '366 days' OR e."sentAt" < s."createdAt"
            OR e."fromAddress" NOT LIKE '%@' || s.domain OR e."fromName" <> s.name`,
        [AS_OF],
      ),
    ).toEqual([]);
    // The html renders the subject and the opening paragraph (escaped); the screenshot comes with the html.
    expect(
      await offenders(
        `SELECT id FROM emails WHERE html IS NOT NULL AND (
           position(replace(replace(subject, '&', '&amp;'), '"', '&quot;') IN html) = 0
           OR position(replace(replace(split_part(body, E'\\n\\n', 2), '&', '&amp;'), '"', '&quot;') IN html) = 0)
         OR (html IS NULL) <> ("screenshotUrl" IS NULL)`,
      ),
    ).toEqual([]);
    const html = await one<{ missing: number }>(`SELECT avg((html IS NULL)::int)::float8 AS missing FROM emails`);
    expect(html.missing).toBeGreaterThan(0.04);
    expect(html.missing).toBeLessThan(0.18);
    // Written in the shop's language wherever the copy exists in it.
    expect(
      await offenders(
        `SELECT e.id FROM emails e JOIN shops s ON s.id = e."shopId"
         WHERE s."defaultLanguage" IN ('en', 'fr', 'de', 'es', 'it', 'nl') AND e.language <> s."defaultLanguage"`,
      ),
    ).toEqual([]);
  });

  it('classifies every email with catalogue ids that resolve, events fitting the kind of email', async () => {
    expect(
      await offenders(
        `SELECT e.id FROM emails e
         LEFT JOIN email_promotion_types p ON p.id = e."promotionTypeId"
         LEFT JOIN email_categories c ON c.id = e."categoryId"
         LEFT JOIN email_events v ON v.id = e."eventId"
         WHERE p.id IS NULL OR c.id IS NULL OR (e."eventId" IS NOT NULL AND v.id IS NULL)
            OR e."campaignType" NOT IN ('campaign', 'automated')
            OR (v.category = 'lifecycle') <> (e."campaignType" = 'automated' AND v.id IS NOT NULL)
            OR (e."campaignType" = 'automated') <> (c.name IN ('welcome', 'abandoned-cart', 'back-in-stock', 'post-purchase', 'review-request', 'win-back', 'birthday'))`,
      ),
    ).toEqual([]);
    const nulls = await one<{ share: number }>(`SELECT avg(("eventId" IS NULL)::int)::float8 AS share FROM emails WHERE "campaignType" = 'campaign'`);
    expect(nulls.share).toBeGreaterThan(0.5);
  });

  it('sends event emails around the event’s date', async () => {
    const near = (event: string, from: string, to: string) =>
      offenders(
        `SELECT e.id, e."sentAt" FROM emails e JOIN email_events v ON v.id = e."eventId"
         WHERE v.name = $1 AND to_char(e."sentAt", 'MM-DD') NOT BETWEEN $2 AND $3`,
        [event, from, to],
      );
    expect(await near('Black Friday', '11-15', '12-02')).toEqual([]);
    expect(await near('Cyber Monday', '11-25', '12-05')).toEqual([]);
    expect(await near('Christmas', '11-29', '12-25')).toEqual([]);
    expect(await near("Valentine's Day", '01-30', '02-15')).toEqual([]);
    expect(await near('Halloween', '10-18', '11-01')).toEqual([]);
    const busy = await one<{ november: string; december: string; september: string }>(
      `SELECT count(*) FILTER (WHERE "sentAt" >= '2024-11-01' AND "sentAt" < '2024-12-01') AS november,
              count(*) FILTER (WHERE "sentAt" >= '2024-12-01' AND "sentAt" < '2025-01-01') AS december,
              count(*) FILTER (WHERE "sentAt" >= '2024-09-01' AND "sentAt" < '2024-10-01') AS september FROM emails`,
    );
    expect(Number(busy.november)).toBeGreaterThan(Number(busy.september));
    expect(Number(busy.december)).toBeGreaterThan(Number(busy.september));
    const bf = await one<{ n: string }>(`SELECT count(*) AS n FROM emails e JOIN email_events v ON v.id = e."eventId" WHERE v.name = 'Black Friday'`);
    expect(Number(bf.n)).toBeGreaterThan(5);
  });

  it('writes copy that matches the promotion: % for percent-off, the shop’s name or domain in the footer', async () => {
    expect(
      await offenders(
        `SELECT e.id, e.subject FROM emails e JOIN email_promotion_types p ON p.id = e."promotionTypeId"
         WHERE (p.name IN ('percent-off', 'bundle') AND position('%' IN e.subject || e.body) = 0)
            OR (p.name = 'dollar-off' AND e.body !~ '[0-9]')`,
      ),
    ).toEqual([]);
    expect(await offenders(`SELECT e.id FROM emails e JOIN shops s ON s.id = e."shopId" WHERE position(s.domain IN e.body) = 0`)).toEqual([]);
    const distinct = await one<{ subjects: string }>(`SELECT count(DISTINCT subject) AS subjects FROM emails`);
    expect(Number(distinct.subjects)).toBeGreaterThan(counts.emails / 3);
  });

  it('has a believable calendar: a minority of shops send, busier shops more, recent months and weekdays busier', async () => {
    const senders = await one<{ share: number; sending: number; silent: number }>(
      `SELECT avg((n > 0)::int)::float8 AS share,
              percentile_cont(0.5) WITHIN GROUP (ORDER BY "monthlyVisits") FILTER (WHERE n > 0) AS sending,
              percentile_cont(0.5) WITHIN GROUP (ORDER BY "monthlyVisits") FILTER (WHERE n = 0) AS silent
       FROM (SELECT s."monthlyVisits", count(e.id) AS n FROM shops s LEFT JOIN emails e ON e."shopId" = s.id GROUP BY s.id) t`,
    );
    expect(senders.share).toBeGreaterThan(0.02);
    expect(senders.share).toBeLessThan(0.2);
    expect(senders.sending).toBeGreaterThan(senders.silent);
    const halves = await one<{ early: string; late: string }>(
      `SELECT count(*) FILTER (WHERE "sentAt" < $1::timestamptz - interval '183 days') AS early,
              count(*) FILTER (WHERE "sentAt" >= $1::timestamptz - interval '183 days') AS late FROM emails`,
      [AS_OF],
    );
    expect(Number(halves.late)).toBeGreaterThan(Number(halves.early));
    const days = await one<{ weekend: number; weekday: number }>(
      `SELECT count(*) FILTER (WHERE extract(isodow FROM "sentAt") >= 6) / 2.0 AS weekend,
              count(*) FILTER (WHERE extract(isodow FROM "sentAt") < 6) / 5.0 AS weekday
       FROM emails WHERE "campaignType" = 'campaign' AND "eventId" IS NULL`,
    );
    expect(Number(days.weekend)).toBeLessThan(Number(days.weekday));
  });

  it('draws the same emails and brandtrackers whatever the slice size', () => {
    const tables = ['email_promotion_types', 'email_categories', 'email_events', 'emails', 'brandtrackers', 'brandtracker_websites'];
    const pick = (sums: Record<string, { rows: number; sha256: string }>) => tables.map((table) => [table, sums[table]]);
    expect(pick(marketChecksums({ ...options, batchSize: 97 }))).toEqual(pick(marketChecksums(options)));
  });
});

describe('market brandtrackers (tiny)', () => {
  it('tracks about 5% of the pages, the big ones first, and about 1% of the shops', async () => {
    const pages = await one<{ tracked: string; all: string; trackedReach: number; otherReach: number }>(
      `SELECT count(b.id) AS tracked, count(*) AS all,
              avg(a."totalReach") FILTER (WHERE b.id IS NOT NULL)::float8 AS "trackedReach",
              avg(a."totalReach") FILTER (WHERE b.id IS NULL)::float8 AS "otherReach"
       FROM advertisers a LEFT JOIN brandtrackers b ON b."facebookPageId" = a.id AND b."targetType" = 'page'`,
    );
    expect(Number(pages.tracked) / Number(pages.all)).toBeGreaterThan(0.03);
    expect(Number(pages.tracked) / Number(pages.all)).toBeLessThan(0.07);
    expect(pages.trackedReach).toBeGreaterThan(pages.otherReach);
    const shops = await one<{ n: string }>(`SELECT count(*) AS n FROM brandtrackers WHERE "targetType" = 'shop'`);
    expect(Number(shops.n)).toBe(Math.round(counts.shops * 0.01));
    expect(counts.brandtracker_websites).toBeGreaterThan(0);
  });

  it('points each brandtracker at its page or shop', async () => {
    expect(
      await offenders(
        `SELECT b.id FROM brandtrackers b LEFT JOIN advertisers a ON a.id = b."facebookPageId"
         WHERE ("facebookPageId" IS NOT NULL AND a.id IS NULL)
            OR b."targetType" NOT IN ('page', 'shop')
            OR (b."targetType" = 'page' AND (b."facebookPageId" IS NULL OR b."websiteId" IS NOT NULL OR b.name <> a.name))
            OR (b."targetType" = 'shop' AND b."websiteId" IS NULL)`,
      ),
    ).toEqual([]);
    const unique = await one<{ n: string; pages: string }>(`SELECT count("facebookPageId") AS n, count(DISTINCT "facebookPageId") AS pages FROM brandtrackers`);
    expect(unique.n).toBe(unique.pages);
    // A shop brandtracker's page is the shop's primary page.
    expect(
      await offenders(
        `SELECT b.id FROM brandtrackers b WHERE b."targetType" = 'shop' AND b."facebookPageId" IS NOT NULL
           AND NOT EXISTS (SELECT 1 FROM advertiser_shops l WHERE l."advertiserId" = b."facebookPageId" AND l."shopId" = b."websiteId" AND l."isPrimary")`,
      ),
    ).toEqual([]);
  });

  it('lists a page brandtracker’s linked shops (primary first) and a shop brandtracker’s shop as its websites', async () => {
    expect(
      await offenders(
        `SELECT b.id FROM brandtrackers b WHERE b."targetType" = 'page' AND EXISTS (
           (SELECT "shopId" FROM advertiser_shops WHERE "advertiserId" = b."facebookPageId"
            EXCEPT SELECT "shopId" FROM brandtracker_websites WHERE "brandtrackerId" = b.id)
           UNION ALL
           (SELECT "shopId" FROM brandtracker_websites WHERE "brandtrackerId" = b.id
            EXCEPT SELECT "shopId" FROM advertiser_shops WHERE "advertiserId" = b."facebookPageId"))`,
      ),
    ).toEqual([]);
    expect(
      await offenders(
        `SELECT w."brandtrackerId" FROM brandtracker_websites w JOIN brandtrackers b ON b.id = w."brandtrackerId"
         LEFT JOIN advertiser_shops l ON l."advertiserId" = b."facebookPageId" AND l."shopId" = w."shopId"
         WHERE b."targetType" = 'page' AND (w.position = 0) <> coalesce(l."isPrimary", false)`,
      ),
    ).toEqual([]);
    expect(
      await offenders(
        `SELECT b.id FROM brandtrackers b WHERE b."targetType" = 'shop' AND
           (SELECT array_agg(w."shopId"::text || ':' || w.position) FROM brandtracker_websites w WHERE w."brandtrackerId" = b.id) <> ARRAY[b."websiteId"::text || ':0']`,
      ),
    ).toEqual([]);
    expect(await offenders(`SELECT "brandtrackerId" FROM brandtracker_websites GROUP BY "brandtrackerId", position HAVING count(*) > 1`)).toEqual([]);
  });

  it('orders the dates: created, then crawled within the last day (when loaded), updated no earlier than created', async () => {
    expect(
      await offenders(
        `SELECT id FROM brandtrackers
         WHERE "createdAt" > $1::timestamptz OR "updatedAt" < "createdAt" OR "updatedAt" > $1::timestamptz
            OR ("isLoaded" AND ("lastCrawledAt" IS NULL OR "lastCrawledAt" < $1::timestamptz - interval '1 day'
                                OR "lastCrawledAt" > $1::timestamptz OR "lastCrawledAt" < "createdAt"))`,
        [AS_OF],
      ),
    ).toEqual([]);
    const loaded = await one<{ share: number }>(`SELECT avg("isLoaded"::int)::float8 AS share FROM brandtrackers`);
    expect(loaded.share).toBeGreaterThan(0.8);
  });
});

// The email lists load a page by one JSON statement when the request selects no more than a summary
// (src/schema/emails/service/load.ts): it must give exactly what Prisma gives, value for value and type for type, on every
// email of the synthetic market (nulls, events, shops, long bodies), and leave any other selection to Prisma.
describe('findEmails (tiny market)', () => {
  const byId = <T extends { id: number }>(rows: T[]) => [...rows].sort((a, b) => a.id - b.id);

  it('loads every email exactly as Prisma does, with its classification and shop', async () => {
    const ids = (await db.prisma.email.findMany({ select: { id: true } })).map((email) => email.id);
    expect(ids).toHaveLength(1000);
    const expected = await db.prisma.email.findMany({ where: { id: { in: ids } }, ...EMAIL_SUMMARY });
    const found = await findEmails(db.prisma, ids, EMAIL_SUMMARY);
    expect(byId(found)).toEqual(byId(expected));
    expect(expected.some((email) => email.event && email.shop && email.promotionType)).toBe(true);
    expect(expected.some((email) => !email.event)).toBe(true);
    expect('html' in found[0]).toBe(false);
  });

  it('leaves a selection it does not hold to Prisma (a whole shop, the HTML)', async () => {
    const [{ id }] = await db.prisma.email.findMany({ where: { shopId: { not: null } }, select: { id: true }, take: 1 });
    const wholeShop = (await findEmails(db.prisma, [id], { include: { shop: true } })) as unknown as { shop: Record<string, unknown> }[];
    expect(Object.keys(wholeShop[0].shop)).toContain('monthlyVisits');
    const withHtml = (await findEmails(db.prisma, [id], { select: { id: true, html: true } })) as unknown as Record<string, unknown>[];
    expect(Object.keys(withHtml[0])).toEqual(['id', 'html']);
  });
});
