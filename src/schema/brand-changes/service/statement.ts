import { Prisma } from '../../../generated/prisma/client.js';
import { rawRows, type SqlSource } from '../../shared/list.js';
import { inWorkspace } from '../../shared/workspace.js';

// The one statement of a brand's changes: who the brand is (a workspace's brandtracker: its Facebook page and shops,
// as `workspace_interests` defines them; an advertiser; a shop), then, for each section asked for, its count and its
// page (newest first), each read by an index (`sources`): the ads by their first and last day (so that ads loaded
// before events were recorded count too), the products by the day the store created them, the events of the page
// and shops that occurred in the window, and the domains new to the page (`newLandingPagesCte`). The page's items get
// their ad's or product's title by primary key; the answer is one JSON document.

const sql = Prisma.sql;

export const SECTIONS = [
  'adsStarted', 'adsStopped', 'copyChanges', 'hookChanges', 'landingPageChanges', 'newLandingPages', 'newProducts',
  'priceChanges', 'stockChanges', 'rankMoves', 'appsInstalled', 'appsRemoved',
] as const;
export type Section = (typeof SECTIONS)[number];

/** The event types each event section reads, and whose events they are (the page's or the shops'). */
const EVENT_SECTIONS = {
  copyChanges: { types: ['ad.copy_changed'], whose: 'advertiser' },
  hookChanges: { types: ['ad.copy_changed'], whose: 'advertiser' },
  landingPageChanges: { types: ['ad.landing_page_changed'], whose: 'advertiser' },
  rankMoves: { types: ['brandtracker.rank_changed'], whose: 'advertiser' },
  priceChanges: { types: ['product.price_changed'], whose: 'shop' },
  stockChanges: { types: ['product.out_of_stock', 'product.back_in_stock'], whose: 'shop' },
  appsInstalled: { types: ['shop.app_installed'], whose: 'shop' },
  appsRemoved: { types: ['shop.app_removed'], whose: 'shop' },
} as const satisfies Partial<Record<Section, { types: readonly string[]; whose: 'advertiser' | 'shop' }>>;

/**
 * The hook of a copy as the brand's ads show it: the opening line of the body (up to its first sentence end or line
 * break), as the hook of an ad without a transcript is read. `opening_line(text)` (migration 0041) is the SQL of it,
 * also in the predicate of the index of the copy changes that change the hook.
 */
const firstLine = (body: Prisma.Sql) => sql`opening_line(${body})`;
/** The hook of a copy change's copy before or after it. */
const hookOf = (side: 'before' | 'after') => firstLine(Prisma.raw(`e."data"->'${side}'->>'body'`));
/**
 * Whether a copy change changed the hook, as the predicate of the index of migration 0041 writes it: with the type
 * `'ad.copy_changed'` written as a literal beside it (`typeIs`), the planner proves a generic plan's rows are the
 * index's and counts them from it; with the type a parameter it cannot, and computes both hooks of every copy change.
 */
const HOOK_CHANGED = sql`${hookOf('before')} IS DISTINCT FROM ${hookOf('after')}`;

export type Subject =
  | { kind: 'brandtracker'; workspaceId: string; brandtrackerId: string }
  | { kind: 'advertiser'; advertiserId: string }
  | { kind: 'shop'; shopId: string };

export type Window = { from: Date; to: Date };

export type ChangesRequest = { subject: Subject; window: Window; sections: readonly Section[]; limit: number; offset: number };

/** A row of a section's page: what it is about, and the event's data where it comes from an event. */
export type FoundRow = {
  section: Section;
  /** An instant as PostgreSQL writes it in JSON (ISO 8601 with an offset). */
  at: string;
  eventId: string | null;
  adId: string | null;
  productId: string | null;
  shopId: string | null;
  domain: string | null;
  data: { before?: Record<string, unknown> | null; after?: Record<string, unknown> | null; [key: string]: unknown } | null;
  /** The item's ad's title, or the opening line of its body when it has none (null: no ad, or no longer stored). */
  adTitle: string | null;
  /** The item's product's title (null: no product, or no longer stored). */
  productTitle: string | null;
};

export type Found = {
  known: boolean; pages: string[]; shops: string[]; totals: Partial<Record<Section, number>>; rows: FoundRow[];
  /** What the brand's recorded events were when the statement read them (`REVISION`). */
  revision: string;
};

/** Who the brand is now, and its events' revision: what a kept answer is checked against (`brandRevision`). */
export type Revision = { known: boolean; pages: string[]; shops: string[]; revision: string };

function subjectCte(subject: Subject): Prisma.Sql {
  if (subject.kind === 'advertiser') {
    return sql`SELECT EXISTS (SELECT 1 FROM "advertisers" v WHERE v."id" = ${subject.advertiserId}) AS "known",
      ARRAY[${subject.advertiserId}]::text[] AS "pages", ARRAY[]::uuid[] AS "shops"`;
  }
  if (subject.kind === 'shop') {
    return sql`SELECT EXISTS (SELECT 1 FROM "shops" x WHERE x."id" = ${subject.shopId}::uuid) AS "known",
      ARRAY[]::text[] AS "pages", ARRAY[${subject.shopId}::uuid] AS "shops"`;
  }
  const { workspaceId, brandtrackerId } = subject;
  const interests = (kind: string) =>
    sql`SELECT DISTINCT w."key" FROM "workspace_interests" w WHERE w."workspaceId" = ${workspaceId}::uuid AND w."brandtrackerId" = ${brandtrackerId}::uuid AND w."kind" = ${kind} ORDER BY 1`;
  return sql`SELECT EXISTS (SELECT 1 FROM "brandtracker_links" l WHERE ${inWorkspace('l', workspaceId)} AND l."isActive" AND l."brandtrackerId" = ${brandtrackerId}::uuid) AS "known",
    ARRAY(${interests('advertiser')})::text[] AS "pages", ARRAY(${interests('shop')})::uuid[] AS "shops"`;
}

/**
 * The revision of the brand's recorded events (`s`: its pages and shops), in the snapshot of the statement that reads
 * it: the highest sequence number the dispatcher gave one of them (one entry of the index ("advertiserId", "seq") or
 * ("shopId", "seq") per page and shop, migration 0032), and how many still wait for one (the dispatcher's queue, empty
 * but for the last fraction of a second: the same indexes, whose entries without a number end each subject's range).
 * The dispatcher numbers events in the order their transactions committed, each number above every earlier one
 * (src/events/dispatch.ts), so an event of the brand committed after a statement read the revision either has a number
 * above its highest or waits and adds to the count: the revision read later is another. Last, the counters the
 * writers of market data raise with every change of the pages' ads and the shops' products (migration 0043,
 * src/data/brand-revisions.ts), for the changes that record no event (a product renamed, an ad's first day corrected,
 * an ad resumed or moved to another page): one primary key entry per page and shop.
 */
const REVISION = sql`concat_ws(':',
    (SELECT max(m."seq") FROM (
      SELECT (SELECT e."seq" FROM "market_events" e WHERE e."advertiserId" = p."id" AND e."advertiserId" IS NOT NULL AND e."seq" IS NOT NULL ORDER BY e."seq" DESC LIMIT 1) AS "seq"
      FROM unnest(s."pages") p("id")
      UNION ALL
      SELECT (SELECT e."seq" FROM "market_events" e WHERE e."shopId" = p."id" AND e."shopId" IS NOT NULL AND e."seq" IS NOT NULL ORDER BY e."seq" DESC LIMIT 1)
      FROM unnest(s."shops") p("id")) m),
    (SELECT sum(w."n") FROM (
      SELECT (SELECT count(*) FROM "market_events" e WHERE e."advertiserId" = p."id" AND e."advertiserId" IS NOT NULL AND e."seq" IS NULL) AS "n"
      FROM unnest(s."pages") p("id")
      UNION ALL
      SELECT (SELECT count(*) FROM "market_events" e WHERE e."shopId" = p."id" AND e."shopId" IS NOT NULL AND e."seq" IS NULL)
      FROM unnest(s."shops") p("id")) w),
    (SELECT string_agg(r."key" || '=' || r."revision", ',' ORDER BY r."key") FROM "brand_revisions" r
     WHERE r."key" = ANY(s."pages" || s."shops"::text[])))`;

/** The brand (known or not, its pages and shops) and its events' revision: one small statement, prepared. */
export async function brandRevision(db: SqlSource, subject: Subject): Promise<Revision> {
  const [row] = await rawRows<Revision>(db, sql`WITH s AS MATERIALIZED (${subjectCte(subject)})
    SELECT s."known", s."pages", s."shops"::text[] AS "shops", ${REVISION} AS "revision" FROM s`, { prepared: !('$queryRaw' in db) });
  return row;
}

/**
 * `e."type"` is one of `types`, written as literals (the types are the code's constants): a generic plan then knows
 * the type, as a partial index's predicate needs (HOOK_CHANGED).
 */
const typeIs = (types: readonly string[]) => Prisma.raw(types.length === 1 ? `e."type" = '${types[0]}'` : `e."type" IN (${types.map((type) => `'${type}'`).join(', ')})`);

/** `column` (an instant) is in the window: from inclusive, to exclusive. */
const inWindow = (column: Prisma.Sql, window: Window) => sql`${column} >= ${window.from} AND ${column} < ${window.to}`;

/** The market's events (not a workspace's) that occurred in the window. */
const eventsIn = (window: Window) => sql`${inWindow(sql`e."occurredAt"`, window)} AND e."workspaceId" IS NULL`;

/**
 * The domains new to the page in the window: those an ad started in it, or an ad's landing-page change in it, points
 * to, less those an ad of the page that started before the window points to (and did not move to in the window).
 * Read by the index ("advertiserId", "landingPageDomain", "firstSeenAt") of migration 0041: the page's domains one
 * after the other (a loose index scan: one entry per domain), each one's first ad started in the window, and whether
 * an ad of it started before the window (the first that did not move to it in the window answers).
 */
function newLandingPagesCte(window: Window): Prisma.Sql {
  const movedInWindow = (page: Prisma.Sql) => sql`e."advertiserId" = ${page} AND ${typeIs(['ad.landing_page_changed'])} AND ${eventsIn(window)}`;
  const ofPage = sql`a."advertiserId" = p."id"`;
  const next = (after: Prisma.Sql) => sql`SELECT a."landingPageDomain" FROM "ads" a WHERE ${ofPage} AND a."landingPageDomain" ${after} ORDER BY a."landingPageDomain" LIMIT 1`;
  return sql`nl AS MATERIALIZED (
    SELECT c."domain", min(c."at") AS "at" FROM (
      SELECT x."domain", x."at" FROM s, unnest(s."pages") p("id") CROSS JOIN LATERAL (
        WITH RECURSIVE domains("domain") AS (
          (${next(sql`IS NOT NULL`)})
          UNION ALL
          SELECT (${next(sql`> d."domain"`)}) FROM domains d WHERE d."domain" IS NOT NULL)
        SELECT d."domain", (SELECT a."firstSeenAt" FROM "ads" a WHERE ${ofPage} AND a."landingPageDomain" = d."domain"
            AND ${inWindow(sql`a."firstSeenAt"`, window)} ORDER BY a."firstSeenAt" LIMIT 1) AS "at"
        FROM domains d WHERE d."domain" IS NOT NULL) x
      WHERE x."at" IS NOT NULL
      UNION ALL
      SELECT e."data"->'after'->>'landingPageDomain', e."occurredAt" FROM s, unnest(s."pages") p("id"), "market_events" e
      WHERE ${movedInWindow(sql`p."id"`)} AND e."data"->'after'->>'landingPageDomain' IS NOT NULL
    ) c
    GROUP BY c."domain"
    HAVING NOT EXISTS (
      SELECT 1 FROM s, "ads" b
      WHERE b."advertiserId" = ANY(s."pages") AND b."landingPageDomain" = c."domain" AND b."firstSeenAt" < ${window.from}
        AND NOT EXISTS (SELECT 1 FROM "market_events" e WHERE e."adId" = b."id" AND ${movedInWindow(sql`b."advertiserId"`)} AND e."data"->'after'->>'landingPageDomain' = c."domain")))`;
}

/** A section's count, and its rows up to the end of the asked page (`last`), newest first, with their order's tie-breaker (`key`). */
type Source = { count: Prisma.Sql; page: (last: number) => Prisma.Sql };

const AT_KEY = sql`ORDER BY "at" DESC, "key" DESC`;
const NO = { eventId: sql`NULL::bigint`, adId: sql`NULL::text`, productId: sql`NULL::text`, shopId: sql`NULL::text`, domain: sql`NULL::text`, data: sql`NULL::jsonb` };
const columns = (at: Prisma.Sql, key: Prisma.Sql, rest: Partial<typeof NO>) => {
  const c = { ...NO, ...rest };
  return sql`${at} AS "at", ${key} AS "key", ${c.eventId} AS "eventId", ${c.adId} AS "adId", ${c.productId} AS "productId", ${c.shopId} AS "shopId", ${c.domain} AS "domain", ${c.data} AS "data"`;
};

/**
 * Each section's count and rows, read by an index, the brand's rows of the window only, one page or shop at a time
 * (a lateral cut to `last` rows each, newest first; the pages' rows then merged in the full order, "at" and "key"):
 * the ads by ("advertiserId", "firstSeenAt") and, the inactive ones, by ("advertiserId", "lastSeenAt", "id"); the
 * products by ("shopId", "createdAt"); the events by ("advertiserId" or "shopId", "type", "occurredAt"), the copy
 * changes that changed the hook by their own index (migrations 0036, 0041). Where the index gives the time's order
 * but not the tie-breaker's, the cut takes the rows tied with its last (FETCH FIRST … WITH TIES): sorting on the
 * tie-breaker would read every row of the window in a generic plan. Where it gives both (`tieBreak`), or neither
 * (two event types), the cut is a plain LIMIT (a top-N sort, bounded).
 */
function sources(window: Window): Record<Section, Source> {
  const read = (subjects: 'pages' | 'shops', where: Prisma.Sql, at: Prisma.Sql, select: Prisma.Sql, from: Prisma.Sql, tieBreak?: Prisma.Sql): Source => ({
    count: sql`SELECT count(*) FROM s, unnest(s.${Prisma.raw(`"${subjects}"`)}) p("id"), ${from} WHERE ${where}`,
    page: (last) => sql`SELECT x.* FROM s, unnest(s.${Prisma.raw(`"${subjects}"`)}) p("id") CROSS JOIN LATERAL (
        SELECT ${select} FROM ${from} WHERE ${where}
        ${tieBreak ? sql`ORDER BY ${at} DESC, ${tieBreak} DESC LIMIT ${last}` : sql`ORDER BY ${at} DESC FETCH FIRST ${last} ROWS WITH TIES`}) x`,
  });
  const event = (section: keyof typeof EVENT_SECTIONS): Source => {
    const { types, whose } = EVENT_SECTIONS[section];
    const subject = whose === 'advertiser' ? sql`e."advertiserId" = p."id" AND e."advertiserId" IS NOT NULL` : sql`e."shopId" = p."id" AND e."shopId" IS NOT NULL`;
    const hook = section === 'hookChanges';
    const data = hook
      ? sql`jsonb_build_object('before', jsonb_build_object('hook', ${hookOf('before')}), 'after', jsonb_build_object('hook', ${hookOf('after')}))`
      : sql`e."data"`;
    return read(whose === 'advertiser' ? 'pages' : 'shops', sql`${subject} AND ${typeIs(types)} AND ${eventsIn(window)}${hook ? sql` AND ${HOOK_CHANGED}` : Prisma.empty}`,
      sql`e."occurredAt"`,
      columns(sql`e."occurredAt"`, sql`lpad(e."id"::text, 20, '0')`, { eventId: sql`e."id"`, adId: sql`e."adId"`, productId: sql`e."productId"`, shopId: sql`e."shopId"::text`, data }),
      sql`"market_events" e`, types.length > 1 ? sql`e."id"` : undefined);
  };
  return {
    adsStarted: read('pages', sql`a."advertiserId" = p."id" AND ${inWindow(sql`a."firstSeenAt"`, window)}`, sql`a."firstSeenAt"`,
      columns(sql`a."firstSeenAt"`, sql`a."id"`, { adId: sql`a."id"` }), sql`"ads" a`),
    adsStopped: read('pages', sql`a."advertiserId" = p."id" AND a."status" = 'inactive' AND ${inWindow(sql`a."lastSeenAt"`, window)}`, sql`a."lastSeenAt"`,
      columns(sql`a."lastSeenAt"`, sql`a."id"`, { adId: sql`a."id"` }), sql`"ads" a`, sql`a."id"`),
    newProducts: read('shops', sql`x."shopId" = p."id" AND ${inWindow(sql`x."createdAt"`, window)}`, sql`x."createdAt"`,
      columns(sql`x."createdAt"`, sql`x."id"`, { productId: sql`x."id"`, shopId: sql`x."shopId"::text` }), sql`"products" x`),
    newLandingPages: {
      count: sql`SELECT count(*) FROM nl`,
      page: (last) => sql`SELECT ${columns(sql`n."at"`, sql`n."domain"`, { domain: sql`n."domain"` })} FROM nl n ${AT_KEY} LIMIT ${last}`,
    },
    copyChanges: event('copyChanges'),
    hookChanges: event('hookChanges'),
    landingPageChanges: event('landingPageChanges'),
    rankMoves: event('rankMoves'),
    priceChanges: event('priceChanges'),
    stockChanges: event('stockChanges'),
    appsInstalled: event('appsInstalled'),
    appsRemoved: event('appsRemoved'),
  };
}

/**
 * The brand (known or not), each section's count and its page of items with their titles, in one statement of one
 * row: a JSON document (one parse, not one per column of every item).
 */
export async function findChanges(db: SqlSource, request: ChangesRequest): Promise<Found> {
  const ctes = [sql`s AS MATERIALIZED (${subjectCte(request.subject)})`];
  if (request.sections.includes('newLandingPages')) ctes.push(newLandingPagesCte(request.window));
  const section = sources(request.window);
  const last = request.offset + request.limit;
  const totals = request.sections.length
    ? sql`json_build_object(${Prisma.join(request.sections.map((name) => sql`${name}::text, (${section[name].count})`), ', ')})`
    : sql`'{}'::json`;
  const pages = request.sections.map((name) => sql`SELECT ${name}::text AS "section", q.* FROM (SELECT * FROM (${section[name].page(last)}) q ${AT_KEY} LIMIT ${request.limit} OFFSET ${request.offset}) q`);
  const items = pages.length
    ? sql`(SELECT coalesce(json_agg(json_build_object('section', r."section", 'at', r."at", 'eventId', r."eventId"::text, 'adId', r."adId", 'productId', r."productId",
          'shopId', r."shopId", 'domain', r."domain", 'data', r."data", 'adTitle', coalesce(nullif(btrim(ad."title"), ''), ${firstLine(sql`ad."body"`)}), 'productTitle', pr."title")
          ORDER BY r."section", r."at" DESC, r."key" DESC), '[]'::json)
        FROM (${Prisma.join(pages, ' UNION ALL ')}) r
        LEFT JOIN "ads" ad ON ad."id" = r."adId" LEFT JOIN "products" pr ON pr."id" = r."productId")`
    : sql`'[]'::json`;
  // Every section of a subject (the default) is one text per subject kind: prepared, it is planned once per
  // connection (planning it takes longer than running it). Other selections of sections run unprepared, so that they
  // do not fill the connections with statements.
  const prepared = request.sections.length === SECTIONS.length && !('$queryRaw' in db);
  const [row] = await rawRows<{ found: Found }>(db, sql`WITH ${Prisma.join(ctes, ', ')}
    SELECT json_build_object('known', s."known", 'pages', s."pages", 'shops', s."shops", 'totals', ${totals}, 'rows', ${items}, 'revision', ${REVISION}) AS "found" FROM s`, { prepared });
  return row.found;
}
