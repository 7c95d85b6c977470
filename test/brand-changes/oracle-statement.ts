import { Prisma } from '../../src/generated/prisma/client.js';
import { rawRows, type SqlSource } from '../../src/schema/shared/list.js';
import { inWorkspace } from '../../src/schema/shared/workspace.js';
import { SECTIONS, type ChangesRequest, type Section, type Subject, type Window } from '../../src/schema/brand-changes/service/statement.js';

// The brand diff's statement as it was before migration 0041, kept as the oracle of test/brand-changes/statement.test.ts
// (its SQL frozen; the request's types are the service's).
//
// The one statement of a brand's changes: who the brand is (a workspace's brandtracker: its Facebook page and shops,
// as `workspace_interests` defines them; an advertiser; a shop), then, for each section asked for, its rows in the
// window, their count and the page of them (newest first). The sources:
//   - adsStarted, adsStopped: the page's ads by their first and last day (`ads`: ("advertiserId", "firstSeenAt") and
//     ("advertiserId", "status")), so that ads loaded before events were recorded count too;
//   - newProducts: the shops' products by the day the store created them (("shopId", "createdAt"));
//   - every other section: the events of the page and shops that occurred in the window (`market_events`, by the
//     ("advertiserId", "occurredAt") and ("shopId", "occurredAt") indexes of migration 0036);
//   - newLandingPages: the domains the window's started ads and landing-page changes point to, less those an ad of
//     the page that started before the window points to (and did not move to in the window).
// Nothing is read beyond the brand's own rows in the window, and the page of each section is cut in SQL; the page's
// items get their ad's or product's title by primary key.

const sql = Prisma.sql;

/** The event types each event section reads, and the section an event of a type belongs to. */
const EVENT_SECTIONS: Partial<Record<Section, { types: string[]; of: 'advertiser' | 'shop' }>> = {
  copyChanges: { types: ['ad.copy_changed'], of: 'advertiser' },
  hookChanges: { types: ['ad.copy_changed'], of: 'advertiser' },
  landingPageChanges: { types: ['ad.landing_page_changed'], of: 'advertiser' },
  newLandingPages: { types: ['ad.landing_page_changed'], of: 'advertiser' },
  rankMoves: { types: ['brandtracker.rank_changed'], of: 'advertiser' },
  priceChanges: { types: ['product.price_changed'], of: 'shop' },
  stockChanges: { types: ['product.out_of_stock', 'product.back_in_stock'], of: 'shop' },
  appsInstalled: { types: ['shop.app_installed'], of: 'shop' },
  appsRemoved: { types: ['shop.app_removed'], of: 'shop' },
};
const SECTION_OF_TYPE = sql`CASE e."type" WHEN 'ad.copy_changed' THEN 'copyChanges' WHEN 'ad.landing_page_changed' THEN 'landingPageChanges'
  WHEN 'brandtracker.rank_changed' THEN 'rankMoves' WHEN 'product.price_changed' THEN 'priceChanges'
  WHEN 'product.out_of_stock' THEN 'stockChanges' WHEN 'product.back_in_stock' THEN 'stockChanges'
  WHEN 'shop.app_installed' THEN 'appsInstalled' WHEN 'shop.app_removed' THEN 'appsRemoved' END`;

/**
 * The hook of a copy as the brand's ads show it: the opening line of the body (up to its first sentence end or line
 * break), as the hook of an ad without a transcript is read.
 */
const OPENING_LINE = '^\\s*([^\\n.!?]*[.!?]?)';
const firstLine = (body: Prisma.Sql) => sql`nullif(btrim(substring(coalesce(${body}, '') from ${OPENING_LINE}::text)), '')`;
const opening = (side: 'before' | 'after') => firstLine(sql`e."data"->${Prisma.raw(`'${side}'`)}->>'body'`);

/** A row of a section's page: what it is about, and the event's data where it comes from an event. */
export type FoundRow = {
  section: Section;
  at: Date;
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

export type Found = { known: boolean; pages: string[]; shops: string[]; totals: Partial<Record<Section, number>>; rows: FoundRow[] };

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
    sql`SELECT DISTINCT w."key" FROM "workspace_interests" w WHERE w."workspaceId" = ${workspaceId}::uuid AND w."brandtrackerId" = ${brandtrackerId}::uuid AND w."kind" = ${kind}`;
  return sql`SELECT EXISTS (SELECT 1 FROM "brandtracker_links" l WHERE ${inWorkspace('l', workspaceId)} AND l."isActive" AND l."brandtrackerId" = ${brandtrackerId}::uuid) AS "known",
    ARRAY(${interests('advertiser')})::text[] AS "pages", ARRAY(${interests('shop')})::uuid[] AS "shops"`;
}

/** The events of the page (`pages`) and shops (`shops`) of the given types in the window. */
function eventsCte(window: Window, pageTypes: string[], shopTypes: string[]): Prisma.Sql {
  const hook = (side: 'before' | 'after') => sql`CASE WHEN e."type" = 'ad.copy_changed' THEN ${opening(side)} END`;
  const columns = sql`e."id", e."type", e."occurredAt", e."adId", e."productId", e."shopId", e."data", ${hook('before')} AS "hookBefore", ${hook('after')} AS "hookAfter"`;
  const inWindow = sql`e."occurredAt" >= ${window.from} AND e."occurredAt" < ${window.to} AND e."workspaceId" IS NULL`;
  const branches: Prisma.Sql[] = [];
  if (pageTypes.length) {
    branches.push(sql`SELECT ${columns} FROM s, "market_events" e
      WHERE e."advertiserId" = ANY(s."pages") AND e."advertiserId" IS NOT NULL AND ${inWindow} AND e."type" = ANY(${pageTypes}::text[])`);
  }
  if (shopTypes.length) {
    branches.push(sql`SELECT ${columns} FROM s, "market_events" e
      WHERE e."shopId" = ANY(s."shops") AND e."shopId" IS NOT NULL AND ${inWindow} AND e."type" = ANY(${shopTypes}::text[])`);
  }
  return sql`ev AS MATERIALIZED (${Prisma.join(branches, ' UNION ALL ')})`;
}

const ROW = (section: Prisma.Sql, at: Prisma.Sql, key: Prisma.Sql, rest: { eventId?: Prisma.Sql; adId?: Prisma.Sql; productId?: Prisma.Sql; shopId?: Prisma.Sql; domain?: Prisma.Sql; data?: Prisma.Sql }) =>
  sql`SELECT ${section} AS "section", ${at} AS "at", ${key} AS "key", ${rest.eventId ?? sql`NULL::text`} AS "eventId", ${rest.adId ?? sql`NULL::text`} AS "adId",
    ${rest.productId ?? sql`NULL::text`} AS "productId", ${rest.shopId ?? sql`NULL::text`} AS "shopId", ${rest.domain ?? sql`NULL::text`} AS "domain",
    ${rest.data ?? sql`NULL::jsonb`} AS "data"`;

/** The rows of each section asked for, one SELECT each (UNION ALL). */
function sectionRows(request: ChangesRequest): Prisma.Sql[] {
  const { window, sections } = request;
  const wants = new Set(sections);
  const branches: Prisma.Sql[] = [];
  const inWindow = (column: Prisma.Sql) => sql`${column} >= ${window.from} AND ${column} < ${window.to}`;
  if (wants.has('adsStarted')) {
    branches.push(sql`${ROW(sql`'adsStarted'`, sql`a."firstSeenAt"`, sql`a."id"`, { adId: sql`a."id"` })}
      FROM s, "ads" a WHERE a."advertiserId" = ANY(s."pages") AND ${inWindow(sql`a."firstSeenAt"`)}`);
  }
  if (wants.has('adsStopped')) {
    branches.push(sql`${ROW(sql`'adsStopped'`, sql`a."lastSeenAt"`, sql`a."id"`, { adId: sql`a."id"` })}
      FROM s, "ads" a WHERE a."advertiserId" = ANY(s."pages") AND a."status" = 'inactive' AND ${inWindow(sql`a."lastSeenAt"`)}`);
  }
  if (wants.has('newProducts')) {
    branches.push(sql`${ROW(sql`'newProducts'`, sql`p."createdAt"`, sql`p."id"`, { productId: sql`p."id"`, shopId: sql`p."shopId"::text` })}
      FROM s, "products" p WHERE p."shopId" = ANY(s."shops") AND ${inWindow(sql`p."createdAt"`)}`);
  }
  const fromEvent = { eventId: sql`e."id"::text`, adId: sql`e."adId"`, productId: sql`e."productId"`, shopId: sql`e."shopId"::text`, data: sql`e."data"` };
  const eventSections = sections.filter((section) => section !== 'hookChanges' && section !== 'newLandingPages' && EVENT_SECTIONS[section]);
  if (eventSections.length) {
    branches.push(sql`SELECT * FROM (${ROW(SECTION_OF_TYPE, sql`e."occurredAt"`, sql`lpad(e."id"::text, 20, '0')`, fromEvent)} FROM ev e) x
      WHERE x."section" = ANY(${eventSections}::text[])`);
  }
  if (wants.has('hookChanges')) {
    const data = sql`jsonb_build_object('before', jsonb_build_object('hook', e."hookBefore"), 'after', jsonb_build_object('hook', e."hookAfter"))`;
    branches.push(sql`${ROW(sql`'hookChanges'`, sql`e."occurredAt"`, sql`lpad(e."id"::text, 20, '0')`, { ...fromEvent, data })}
      FROM ev e WHERE e."type" = 'ad.copy_changed' AND e."hookBefore" IS DISTINCT FROM e."hookAfter"`);
  }
  if (wants.has('newLandingPages')) {
    branches.push(sql`${ROW(sql`'newLandingPages'`, sql`d."at"`, sql`d."domain"`, { domain: sql`d."domain"` })}
      FROM (
        SELECT c."domain", min(c."at") AS "at" FROM (
          SELECT a."landingPageDomain" AS "domain", a."firstSeenAt" AS "at" FROM s, "ads" a
          WHERE a."advertiserId" = ANY(s."pages") AND ${inWindow(sql`a."firstSeenAt"`)}
          UNION ALL
          SELECT e."data"->'after'->>'landingPageDomain', e."occurredAt" FROM ev e WHERE e."type" = 'ad.landing_page_changed'
        ) c WHERE c."domain" IS NOT NULL GROUP BY c."domain") d
      WHERE (
        SELECT b."id" FROM s, "ads" b
        WHERE b."advertiserId" = ANY(s."pages") AND b."firstSeenAt" < ${window.from} AND b."landingPageDomain" = d."domain"
          AND NOT EXISTS (SELECT 1 FROM ev m WHERE m."adId" = b."id" AND m."type" = 'ad.landing_page_changed' AND m."data"->'after'->>'landingPageDomain' = d."domain")
        LIMIT 1) IS NULL`);
  }
  return branches;
}

/** The brand (known or not), each section's count and its page of rows, in one statement. */
export async function findChanges(db: SqlSource, request: ChangesRequest): Promise<Found> {
  const typesOf = (of: 'advertiser' | 'shop') => [...new Set(request.sections.flatMap((section) => (EVENT_SECTIONS[section]?.of === of ? EVENT_SECTIONS[section]!.types : [])))];
  const pageTypes = typesOf('advertiser');
  const shopTypes = typesOf('shop');
  const ctes = [sql`s AS MATERIALIZED (${subjectCte(request.subject)})`];
  if (pageTypes.length || shopTypes.length) ctes.push(eventsCte(request.window, pageTypes, shopTypes));
  const branches = sectionRows(request);
  const first = request.offset;
  const last = request.offset + request.limit;
  type Head = { known: boolean; pages: string[]; shops: string[]; totals: Partial<Record<Section, number>> };
  type Row = Omit<FoundRow, 'section'> & { section: Section | null } & { [K in keyof Head]: Head[K] | null };
  // Every section of a subject (the default) is one text per subject kind: prepared, it is planned once per
  // connection (planning it takes longer than running it). Other selections of sections run unprepared, so that they
  // do not fill the connections with statements.
  const prepared = request.sections.length === SECTIONS.length && !('$queryRaw' in db);
  const rows = await rawRows<Row>(db, branches.length
    ? sql`WITH ${Prisma.join(ctes, ', ')},
        found AS (${Prisma.join(branches, ' UNION ALL ')}),
        totals AS (SELECT coalesce(json_object_agg(t."section", t."n"), '{}'::json) AS "totals" FROM (SELECT f."section", count(*)::int AS "n" FROM found f GROUP BY f."section") t),
        page AS (
          SELECT * FROM (SELECT f.*, row_number() OVER (PARTITION BY f."section" ORDER BY f."at" DESC, f."key" DESC) AS "n" FROM found f) r
          WHERE r."n" > ${first} AND r."n" <= ${last})
      SELECT s."known", s."pages", s."shops"::text[] AS "shops", t."totals", NULL AS "section", NULL::bigint AS "n", NULL::timestamptz AS "at", NULL AS "eventId", NULL AS "adId",
        NULL AS "productId", NULL AS "shopId", NULL AS "domain", NULL::jsonb AS "data", NULL AS "adTitle", NULL AS "productTitle"
      FROM s CROSS JOIN totals t
      UNION ALL
      SELECT NULL, NULL, NULL, NULL, p."section", p."n", p."at", p."eventId", p."adId", p."productId", p."shopId", p."domain", p."data",
        coalesce(nullif(btrim(ad."title"), ''), ${firstLine(sql`ad."body"`)}), pr."title"
      FROM page p LEFT JOIN "ads" ad ON ad."id" = p."adId" LEFT JOIN "products" pr ON pr."id" = p."productId"
      ORDER BY "section" NULLS FIRST, "n"`
    : sql`WITH ${Prisma.join(ctes, ', ')} SELECT s."known", s."pages", s."shops"::text[] AS "shops", '{}'::json AS "totals", NULL AS "section" FROM s`, { prepared });
  // The brand and the totals come once, in the first row; the page's rows follow.
  const [head, ...page] = rows;
  return {
    known: head.known ?? false,
    pages: head.pages ?? [],
    shops: head.shops ?? [],
    totals: head.totals ?? {},
    rows: page.filter((row): row is Row & { section: Section } => row.section !== null).map(({ known: _k, pages: _p, shops: _s, totals: _t, ...row }) => row),
  };
}
