import type pg from 'pg';
import type { Context } from '../../../context.js';
import { EVENT_ROW_COLUMNS, publicEvent, type EventRow, type PublicEvent } from '../../../data/events.js';
import { notFound, validationError } from '../../../errors.js';
import { Prisma } from '../../../generated/prisma/client.js';
import { rawRows, type CursorPageOf } from '../../shared/list.js';
import { inWorkspace } from '../../shared/workspace.js';
import { eventCursor, type Position } from '../cursor.js';

// The events' SQL: the feed (GET /v1/events, Query.events), the reads of a live stream (its replay and its
// catch-up), and who each dispatched event concerns (the live consumer's one question per batch, src/events/live.ts).
// A market event concerns a workspace when one of its subjects is one of the workspace's interests (the view
// `workspace_interests`, migration 0032); an event of one workspace (`workspaceId` set: a saved search matched, a
// webhook disabled) concerns that workspace alone, whatever subjects it names: what it says is that workspace's.
//
// How a page is found without reading every event: the workspace's interests are few (its brands' pages and shops,
// what its boards saved), and each kind of subject has an index on (subject, seq). For each interest, one index scan
// in `seq` order takes at most the page's size past the position; the page is the first of their union. A filter on
// one subject (an advertiser, a shop, an ad, a product) reads that subject's index instead and keeps the events that
// concern the workspace. Every page is one statement, however far the position.

const sql = Prisma.sql;

export type EventFilter = {
  types?: readonly string[] | null;
  brandtrackerId?: string | null;
  advertiserId?: string | null;
  shopId?: string | null;
  adId?: string | null;
  productId?: string | null;
  from?: Date | null;
  to?: Date | null;
};

export type Direction = 'asc' | 'desc';
type Db = Pick<pg.Pool, 'query'>;

/** An event with its place in the dispatch order, as the live streams handle it. */
export type SequencedEvent = { seq: string; event: PublicEvent };

/** The subjects an event may have, with their column and the interest kind that follows them. */
const SUBJECTS = [
  { filter: 'adId', column: '"adId"', kind: 'ad', key: (e: string) => `${e}."adId"` },
  { filter: 'productId', column: '"productId"', kind: 'product', key: (e: string) => `${e}."productId"` },
  { filter: 'advertiserId', column: '"advertiserId"', kind: 'advertiser', key: (e: string) => `${e}."advertiserId"` },
  { filter: 'shopId', column: '"shopId"', kind: 'shop', key: (e: string) => `${e}."shopId"::text` },
] as const;

/** The conditions on the event `e` itself: its types, subjects, time, and its place after `bound`. */
function eventConditions(filter: EventFilter, bound: Prisma.Sql): Prisma.Sql {
  const parts = [bound];
  if (filter.types?.length) parts.push(sql`e."type" = ANY(${[...filter.types]}::text[])`);
  for (const subject of SUBJECTS) {
    const value = filter[subject.filter];
    if (value == null) continue;
    parts.push(subject.filter === 'shopId' ? sql`e."shopId" = ${value}::uuid` : sql`e.${Prisma.raw(subject.column)} = ${value}`);
  }
  if (filter.from) parts.push(sql`e."occurredAt" >= ${filter.from}`);
  if (filter.to) parts.push(sql`e."occurredAt" < ${filter.to}`);
  return Prisma.join(parts, ' AND ');
}

/**
 * `interests` (the workspace's, or one brandtracker's) and `hits`: the `seq` of up to `take` events that concern the
 * workspace, pass the filter and come after `position` in `direction` (each index scan stops at `take`).
 */
function hitsOf(workspaceId: string, filter: EventFilter, position: Prisma.Sql | null, direction: Direction, take: number | null): Prisma.Sql {
  const order = Prisma.raw(direction === 'asc' ? 'ASC' : 'DESC');
  // No bound (take null): every event (a count).
  const limit = take === null ? Prisma.empty : sql`LIMIT ${take}`;
  const bound = position === null ? sql`e."seq" IS NOT NULL` : direction === 'asc' ? sql`e."seq" > ${position}` : sql`e."seq" < ${position}`;
  const ownEvents = !filter.brandtrackerId;
  const interests = sql`interests AS MATERIALIZED (
      SELECT DISTINCT w."kind", w."key" FROM "workspace_interests" w
      WHERE w."workspaceId" = ${workspaceId}::uuid${filter.brandtrackerId ? sql` AND w."brandtrackerId" = ${filter.brandtrackerId}::uuid` : Prisma.empty})`;
  const driving = SUBJECTS.find((subject) => filter[subject.filter] != null);
  if (driving) {
    // One subject's index, in seq order; an event of it is kept when it concerns the workspace.
    const concerns = Prisma.join(
      SUBJECTS.map((subject) => sql`(i."kind" = ${subject.kind} AND i."key" = ${Prisma.raw(subject.key('e'))})`),
      ' OR ',
    );
    const own = ownEvents ? sql`e."workspaceId" = ${workspaceId}::uuid OR ` : Prisma.empty;
    return sql`${interests},
    hits AS (
      SELECT e."seq" FROM "market_events" e
      WHERE ${eventConditions(filter, bound)} AND (${own}(e."workspaceId" IS NULL AND EXISTS (SELECT 1 FROM interests i WHERE ${concerns})))
      ORDER BY e."seq" ${order} ${limit})`;
  }
  const branches = SUBJECTS.map(
    (subject) => sql`SELECT x."seq" FROM interests i CROSS JOIN LATERAL (
        SELECT e."seq" FROM "market_events" e
        WHERE e.${Prisma.raw(subject.column)} = ${subject.filter === 'shopId' ? sql`i."key"::uuid` : sql`i."key"`} AND e.${Prisma.raw(subject.column)} IS NOT NULL
          AND e."workspaceId" IS NULL AND ${eventConditions(filter, bound)}
        ORDER BY e."seq" ${order} ${limit}) x
      WHERE i."kind" = ${subject.kind}`,
  );
  if (ownEvents) {
    branches.push(sql`(SELECT e."seq" FROM "market_events" e WHERE e."workspaceId" = ${workspaceId}::uuid AND ${eventConditions(filter, bound)} ORDER BY e."seq" ${order} ${limit})`);
  }
  return sql`${interests},
    hits AS (
      SELECT DISTINCT u."seq" FROM (${Prisma.join(branches, ' UNION ALL ')}) u
      ORDER BY u."seq" ${order} ${limit})`;
}

/** The `seq` bound of a position (null without one) and the CTE that finds an event id's `seq` (`resume_at`). */
function positionOf(workspaceId: string, position: Position | null): { bound: Prisma.Sql | null; positionCte: Prisma.Sql } {
  if (position && 'seq' in position) return { bound: sql`${position.seq}::bigint`, positionCte: Prisma.empty };
  if (position && 'eventId' in position) {
    // An event of the dispatch order: a market event, or one of the workspace's own (another's is answered as unknown).
    const positionCte = sql`resume_at AS (
      SELECT p."seq" FROM "market_events" p
      WHERE p."id" = ${position.eventId}::bigint AND p."seq" IS NOT NULL AND (p."workspaceId" IS NULL OR p."workspaceId" = ${workspaceId}::uuid)), `;
    return { bound: sql`(SELECT "seq" FROM resume_at)`, positionCte };
  }
  return { bound: null, positionCte: Prisma.empty };
}

type FoundRow = Omit<EventRow, 'seq'> & { seq: string | null; known: boolean; positioned: string | null; watermark: string | null };

/**
 * One statement: the events of `hitsOf` (as EventRows, in `direction`), whether the brandtracker of the filter is an
 * active one of the workspace, whether the position named by an event id was found, and the dispatch order's last
 * `seq` (the watermark: every event up to it is visible to this statement).
 */
async function readEvents(db: Db, request: { workspaceId: string; filter: EventFilter; position: Position | null; direction: Direction; take: number }) {
  const { workspaceId, filter, position, direction, take } = request;
  const { bound, positionCte } = positionOf(workspaceId, position);
  const known = filter.brandtrackerId
    ? sql`EXISTS (SELECT 1 FROM "brandtracker_links" l WHERE ${inWorkspace('l', workspaceId)} AND l."isActive" AND l."brandtrackerId" = ${filter.brandtrackerId}::uuid)`
    : sql`TRUE`;
  // The position's seq ('0' when no position was asked for; null when an event id names no event of the order).
  const positioned = position && 'eventId' in position ? sql`(SELECT "seq" FROM resume_at)::text` : sql`${position && 'seq' in position ? position.seq : '0'}::text`;
  const rows = await rawRows<FoundRow>(db, sql`
    WITH ${positionCte}${hitsOf(workspaceId, filter, bound, direction, take)}
    SELECT f."known", f."positioned", f."watermark", r.*
    FROM (SELECT ${known} AS "known", ${positioned} AS "positioned", (SELECT max(m."seq") FROM "market_events" m WHERE m."seq" IS NOT NULL)::text AS "watermark") f
    LEFT JOIN LATERAL (SELECT ${Prisma.raw(EVENT_ROW_COLUMNS)} FROM "market_events" e WHERE e."seq" IN (SELECT "seq" FROM hits) AND e."seq" IS NOT NULL) r ON TRUE`);
  const [first] = rows;
  const events = rows.filter((row): row is FoundRow & { seq: string } => row.seq !== null);
  events.sort((a, b) => (BigInt(a.seq) < BigInt(b.seq) ? -1 : 1) * (direction === 'asc' ? 1 : -1));
  return { known: first.known, position: first.positioned, watermark: first.watermark ?? '0', events };
}

const toEvent = (row: FoundRow & { seq: string }): EventRow => {
  const { known: _known, positioned: _positioned, watermark: _watermark, ...event } = row;
  return event;
};

/** The feed's request: a page in `order` after `position` (the `after` or `cursor` argument, named by `positionArg`). */
export type FeedRequest = { order: Direction; limit: number; position: Position | null; positionArg: 'after' | 'cursor' };

/**
 * A page of the events that concern the caller's workspace (GET /v1/events). The total is not counted (that would
 * read every event of every interest): it is the page's events, plus one when more follow (`gte`), so a client
 * pages on until nextCursor is null.
 */
export async function eventPage(context: Pick<Context, 'pool' | 'principal'>, filter: EventFilter, request: FeedRequest): Promise<CursorPageOf<PublicEvent>> {
  const { workspace } = await context.principal();
  const found = await readEvents(context.pool, { workspaceId: workspace.id, filter, position: request.position, direction: request.order, take: request.limit + 1 });
  checkFound(found, filter, request.positionArg);
  const page = found.events.slice(0, request.limit);
  const more = found.events.length > request.limit;
  const last = page.at(-1);
  return {
    data: page.map((row) => publicEvent(toEvent(row))),
    pagination: { limit: request.limit, total: page.length + (more ? 1 : 0), totalRelation: more ? 'gte' : 'eq', nextCursor: more && last ? eventCursor(last.seq) : null },
  };
}

/**
 * How many events the feed holds for this filter after `position` in `direction` (an export's count: what walking the
 * feed's pages to the end returns), in one statement: the same union as a page's, without its bound. The caller has
 * checked the filter and position (a page of the feed).
 */
export async function eventCount(db: Db, workspaceId: string, filter: EventFilter, position: Position | null, direction: Direction): Promise<number> {
  const { bound, positionCte } = positionOf(workspaceId, position);
  const [row] = await rawRows<{ total: number }>(db, sql`
    WITH ${positionCte}${hitsOf(workspaceId, filter, bound, direction, null)}
    SELECT count(*)::int AS "total" FROM hits`);
  return row?.total ?? 0;
}

function checkFound(found: { known: boolean; position: string | null }, filter: EventFilter, positionArg: string) {
  if (!found.known) throw notFound(`Brandtracker "${filter.brandtrackerId}"`);
  if (found.position === null) throw validationError([{ argument: positionArg, expected: [`${positionArg} names no event of this feed: send a cursor or an event id (evt_…) it returned`] }]);
}

/**
 * The start of a live stream, in one statement: the brandtracker of the filter checked (404 as on the feed) and the
 * position resolved. Returns the `seq` to replay after: the position's, or the watermark (live only) without one.
 */
export async function streamStart(db: Db, workspaceId: string, filter: EventFilter, position: Position | null, positionArg: string): Promise<{ after: string }> {
  const found = await readEvents(db, { workspaceId, filter, position, direction: 'asc', take: 0 });
  checkFound(found, filter, positionArg);
  return { after: position ? found.position! : found.watermark };
}

/**
 * Up to `take` events after `after` (ascending), and the watermark of the same snapshot: every event up to it that
 * concerns the workspace and passes the filter is among these or before `after` when fewer than `take` came back.
 */
export async function eventsAfter(db: Db, workspaceId: string, filter: EventFilter, after: string, take: number): Promise<{ events: SequencedEvent[]; watermark: string }> {
  const found = await readEvents(db, { workspaceId, filter, position: { seq: after }, direction: 'asc', take });
  return { events: found.events.map((row) => ({ seq: row.seq, event: publicEvent(toEvent(row)) })), watermark: found.watermark };
}

/** The last `seq` the dispatcher has given ('0' before the first). */
export async function dispatchedThrough(db: Db): Promise<string> {
  const [row] = await rawRows<{ seq: string }>(db, sql`SELECT coalesce(max(e."seq"), 0)::text AS "seq" FROM "market_events" e WHERE e."seq" IS NOT NULL`);
  return row.seq;
}

/** Whom one dispatched event concerns: each workspace, with the brandtrackers of it that follow the event's subjects. */
export type Concern = { workspaceId: string; brandtrackerIds: string[] };

/**
 * The workspaces each event of a dispatched batch concerns, by `seq`: one statement per batch (the live consumer's),
 * whatever the number of subscribers. Events that concern no workspace are absent.
 */
export async function concernsOf(db: Db, events: readonly EventRow[]): Promise<Map<string, Concern[]>> {
  const concerns = new Map<string, Concern[]>();
  if (!events.length) return concerns;
  const column = (pick: (event: EventRow) => string | null) => events.map(pick);
  // An event of one workspace is that workspace's alone: its subjects are not looked up.
  const subject = (pick: (event: EventRow) => string | null) => events.map((event) => (event.workspaceId ? null : pick(event)));
  const joins = SUBJECTS.map(
    (subject) => sql`SELECT b."seq", w."workspaceId", w."brandtrackerId" FROM b JOIN "workspace_interests" w ON w."kind" = ${subject.kind} AND w."key" = b.${Prisma.raw(subject.column)}`,
  );
  const rows = await rawRows<{ seq: string; workspaceId: string; brandtrackerIds: string[] }>(db, sql`
    WITH b AS (
      SELECT * FROM unnest(${column((e) => e.seq)}::bigint[], ${subject((e) => e.advertiserId)}::text[], ${subject((e) => e.shopId)}::text[],
                           ${subject((e) => e.adId)}::text[], ${subject((e) => e.productId)}::text[], ${column((e) => e.workspaceId)}::uuid[])
        AS b("seq", "advertiserId", "shopId", "adId", "productId", "workspaceId")),
    hits AS (
      ${Prisma.join(joins, ' UNION ALL ')}
      UNION ALL SELECT b."seq", b."workspaceId", NULL::uuid FROM b WHERE b."workspaceId" IS NOT NULL)
    SELECT h."seq"::text AS "seq", h."workspaceId"::text AS "workspaceId",
           coalesce(array_agg(DISTINCT h."brandtrackerId"::text) FILTER (WHERE h."brandtrackerId" IS NOT NULL), '{}') AS "brandtrackerIds"
    FROM hits h GROUP BY h."seq", h."workspaceId"`);
  for (const row of rows) {
    const list = concerns.get(row.seq) ?? [];
    list.push({ workspaceId: row.workspaceId, brandtrackerIds: row.brandtrackerIds });
    concerns.set(row.seq, list);
  }
  return concerns;
}

/** Whether a live event passes a stream's filter (the same rules as eventConditions, on the event in memory). */
export function passes(filter: EventFilter, event: PublicEvent, concern: Concern): boolean {
  if (filter.types?.length && !filter.types.includes(event.type)) return false;
  if (filter.brandtrackerId && !concern.brandtrackerIds.includes(filter.brandtrackerId.toLowerCase())) return false;
  if (filter.advertiserId != null && event.advertiserId !== filter.advertiserId) return false;
  if (filter.shopId != null && event.shopId?.toLowerCase() !== filter.shopId.toLowerCase()) return false;
  if (filter.adId != null && event.adId !== filter.adId) return false;
  if (filter.productId != null && event.productId !== filter.productId) return false;
  const at = Date.parse(event.occurredAt);
  if (filter.from && at < filter.from.getTime()) return false;
  if (filter.to && at >= filter.to.getTime()) return false;
  return true;
}
