import type { FieldMap, ObjectFieldBuilder, ObjectRef } from '@pothos/core';
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type pg from 'pg';
import { z } from 'zod';
import { prepared } from '../../db/statements.js';
import { validationError } from '../../errors.js';
import { Prisma, type PrismaClient } from '../../generated/prisma/client.js';
import { builder } from '../builder.js';
import type { KeywordModeValue } from './enums.js';
import type { RecordPlan } from './json-rows.js';

// The list engine. A domain's service describes a list (its FROM … WHERE, its order, how its rows are read) and
// calls findPage with the page the caller asked for, in any of the three styles of the specification:
// - page (`page`, `limit`: `{ page, limit, total, totalPages }`) and offset (`limit`, `offset`: `{ limit, offset, total }`):
//   SQL finds the page's ids and the total; the rows come back in that order, read by id (`load`), in the same
//   statement (`inline`), or as selected columns (`select`);
// - cursor (`limit`, `cursor`): keyset pages on the order's keys, so page 1,000 costs what page 1 costs.
// A list that Prisma reads (a model's findMany with the request's selection: boards, favorites) pages with
// findModelPage, its page and count run together, and answers in the same page object.
// A text search's page costs a bounded amount whatever the number of matches (`search`): the total is counted up to
// `searchBounds.totalCap` and is a lower bound beyond (`meta.totalRelation: gte`), and relevance ranks a bounded set
// of candidates. The GraphQL side of a list is here too: its arguments (pageArgs, offsetArgs, cursorArgs) and its object type (listRef).
// A route run under a row restriction (withRowRestriction: saved searches) reads the ids of every match among given
// rows, or of every match up to a bound, instead of a page: the route's own filters decide, nothing else changes.
// A route run under an export read (withExportRead: exports) reads its whole list in its order, a chunk per run.

const sql = Prisma.sql;

// ---------------------------------------------------------------------------------------------------------------
// Statements and orders

/**
 * Where a list's raw statements run: Prisma's client, or the pg pool under it. A statement sent on the pool skips
 * Prisma's raw-query layer, for the hot lists that pass it.
 */
export type SqlSource = PrismaClient | Prisma.TransactionClient | Pick<pg.Pool, 'query'>;

/**
 * The rows of a statement built with Prisma.sql (values as parameters), on either source; `prepared` (on a pool) runs it
 * as a named prepared statement (src/db/statements.ts).
 */
export async function rawRows<T>(db: SqlSource, statement: Prisma.Sql, options: { prepared?: boolean } = {}): Promise<T[]> {
  if ('$queryRaw' in db) {
    // Prisma names only its own statements (prismaStatementName): a prepared statement needs the pool.
    if (options.prepared) throw new Error('rawRows: a prepared statement runs on a pool');
    return db.$queryRaw<T[]>(statement);
  }
  if (options.prepared) return (await db.query(prepared(statement.text, statement.values))).rows as T[];
  return (await db.query(statement.text, statement.values)).rows as T[];
}

/** One key of a list's order; the last key of every order is unique (the id), so pages never overlap. */
export type OrderKey = { key: Prisma.Sql; direction: 'ASC' | 'DESC' | 'ASC NULLS LAST' | 'DESC NULLS LAST' };

/** `k1 DESC, k2 ASC, …` for an ORDER BY (or a window's ORDER BY). */
export function orderBySql(keys: readonly OrderKey[]): Prisma.Sql {
  return Prisma.join(keys.map(({ key, direction }) => sql`${key} ${Prisma.raw(direction)}`), ', ');
}

/** The keys as output columns `o0, o1, …` of a select list, and an ORDER BY on those columns (optionally qualified). */
function orderColumns(keys: readonly OrderKey[]) {
  const name = (index: number) => Prisma.raw(`o${index}`);
  return {
    select: Prisma.join(keys.map(({ key }, index) => sql`${key} AS ${name(index)}`), ', '),
    orderBy: (prefix = '') => orderBySql(keys.map(({ direction }, index) => ({ key: Prisma.raw(`${prefix}o${index}`), direction }))),
  };
}

/** The rows of `ids` in that order (rows loaded in any order; an id without a row is left out). Rows without a text `id` say how to read theirs. */
export function inIdOrder<T extends { id: string }>(ids: readonly string[], rows: readonly T[]): T[];
export function inIdOrder<T>(ids: readonly string[], rows: readonly T[], idOf: (row: T) => string): T[];
export function inIdOrder<T>(ids: readonly string[], rows: readonly T[], idOf: (row: T) => string = (row) => (row as { id: string }).id): T[] {
  const byId = new Map(rows.map((row) => [idOf(row), row]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

// ---------------------------------------------------------------------------------------------------------------
// Text search

/** A text search: a web-search string (GET lists), or terms combined by `keywordMode` (POST queries). */
export type TextSearch = { websearch?: string; terms?: string[]; keywordMode?: KeywordModeValue | null };

/** The search as a `tsquery` on the 'simple' configuration, parenthesised (the search columns are built with it). */
export function tsQuery(search: TextSearch): Prisma.Sql {
  if (search.websearch !== undefined) return sql`websearch_to_tsquery('simple', ${search.websearch})`;
  const parts = (search.terms ?? []).map((term) => sql`plainto_tsquery('simple', ${term})`);
  return sql`(${Prisma.join(parts, search.keywordMode === 'all' ? ' && ' : ' || ')})`;
}

/** Search terms as sent, trimmed, blanks dropped. */
export function termsOf(list: readonly string[] | null | undefined): string[] {
  return (list ?? []).map((term) => term.trim()).filter(Boolean);
}

/** Up to `max` search terms of at most 500 characters. */
export const searchTerms = (max: number) => z.array(z.string().max(500)).max(max);

// ---------------------------------------------------------------------------------------------------------------
// The three page styles: requests, pagination objects, GraphQL types and arguments

export type TotalRelation = 'eq' | 'gte';
export type PageRequest = { page: number; limit: number };
export type OffsetRequest = { limit: number; offset: number };
export type CursorRequest = { limit: number; cursor?: string | null };
export type PagePagination = { page: number; limit: number; total: number; totalPages: number };
export type OffsetPagination = { limit: number; offset: number; total: number };
export type CursorPagination = { limit: number; total: number; totalRelation: TotalRelation; nextCursor: string | null };
/** What a searchable list says about its total. */
export type ListMeta = { totalRelation: TotalRelation };
/** A page found by SQL (ids in order, and the total; `totalRelation` gte when it is a lower bound). */
export type IdPage = { ids: string[]; total: number; totalRelation?: TotalRelation };

export type PageOf<T> = { data: T[]; pagination: PagePagination; meta: ListMeta };
export type OffsetPageOf<T> = { data: T[]; pagination: OffsetPagination; meta: ListMeta };
export type CursorPageOf<T> = { data: T[]; pagination: CursorPagination };
/** A page-style list's rows, as the page list types read them. */
export type RowPage = { data: { id: string }[]; pagination: PagePagination; meta?: ListMeta };

/**
 * The bounds of a list's cost: a text search's (and a searchable list's filtered) total counted up to `totalCap`, a
 * relevance rank over `candidates` matches, looked for past the cap in `windows` of the first rows in the list's
 * order when it leads with a column of the text index. Tests lower them to reach them with a few rows.
 */
export const searchBounds = { totalCap: 1_000, candidates: 250, windows: [5_000] as readonly number[] };

export const TOTAL_RELATION_DESCRIPTION =
  `eq: pagination.total counts every match. gte: the list matched more than ${searchBounds.totalCap.toLocaleString('en')} rows and counts no ` +
  'further, so pagination.total is a lower bound, never below the rows up to this page (and totalPages, where the list has it, is computed from it): ' +
  'page on until a page comes back short.';

export const TotalRelationEnum = builder.enumType('TotalRelation', {
  values: ['eq', 'gte'] as const,
  description: 'eq: `total` is exact; gte: at least `total` rows match (counting them all would cost more than the page).',
});

export const CursorPaginationRef = builder.objectRef<CursorPagination>('CursorPagination').implement({
  description: 'Cursor-style pagination: pass `nextCursor` back as `cursor` (with the same query) for the next page; null on the last page.',
  fields: (t) => ({
    limit: t.exposeInt('limit'),
    total: t.exposeInt('total'),
    totalRelation: t.expose('totalRelation', { type: TotalRelationEnum }),
    nextCursor: t.exposeString('nextCursor', { nullable: true }),
  }),
});

export const PagePaginationRef = builder.objectRef<PagePagination>('PagePagination').implement({
  description: 'Page-style pagination: `page` is 1-based; `totalPages` is 0 when nothing matches.',
  fields: (t) => ({
    page: t.exposeInt('page'),
    limit: t.exposeInt('limit'),
    total: t.exposeInt('total'),
    totalPages: t.exposeInt('totalPages'),
  }),
});

export const OffsetPaginationRef = builder.objectRef<OffsetPagination>('OffsetPagination').implement({
  description: 'Offset-style pagination: `offset` rows were skipped; `total` counts every match (a lower bound where the list\'s meta.totalRelation is gte).',
  fields: (t) => ({
    limit: t.exposeInt('limit'),
    offset: t.exposeInt('offset'),
    total: t.exposeInt('total'),
  }),
});

export const ListMetaRef = builder.objectRef<ListMeta>('ListMeta').implement({
  description: 'About the list as a whole.',
  fields: (t) => ({ totalRelation: t.expose('totalRelation', { type: TotalRelationEnum, description: TOTAL_RELATION_DESCRIPTION }) }),
});

export const MAX_CURSOR_LENGTH = 2000;

type Limits = { defaultLimit: number; maxLimit: number };

const limitArg = (t: Parameters<Parameters<typeof builder.args>[0]>[0], limits: Limits, description: string) =>
  t.int({
    defaultValue: limits.defaultLimit,
    description: `${description}, 1..${limits.maxLimit} (default ${limits.defaultLimit}).`,
    validate: z.number().int().min(1).max(limits.maxLimit),
  });

/** `page` (>= 1, default 1) and `limit` (1..max) arguments of a page-style list. */
export function pageArgs(limits: Limits) {
  return builder.args((t) => ({
    page: t.int({ defaultValue: 1, description: 'Page number, from 1.', validate: z.number().int().min(1) }),
    limit: limitArg(t, limits, 'Rows per page'),
  }));
}

/** `limit` (1..max) and `offset` (>= 0, default 0) arguments of an offset-style list. */
export function offsetArgs(limits: Limits) {
  return builder.args((t) => ({
    limit: limitArg(t, limits, 'Rows to return'),
    offset: t.int({ defaultValue: 0, description: 'Rows to skip, from 0.', validate: z.number().int().min(0) }),
  }));
}

/** `limit` (1..max) and `cursor` (the previous page's `nextCursor`) arguments of a cursor-style list. */
export function cursorArgs(limits: Limits) {
  return builder.args((t) => ({
    limit: limitArg(t, limits, 'Rows per page'),
    cursor: t.string({
      description: `The previous page's pagination.nextCursor (at most ${MAX_CURSOR_LENGTH} characters), sent with the same query.`,
      validate: z.string().max(MAX_CURSOR_LENGTH),
    }),
  }));
}

/** The page a list was asked for: `page` and `limit` as validated by pageArgs, their defaults when omitted. */
export function pageRequest(args: { page?: number | null; limit?: number | null }, defaultLimit: number): PageRequest {
  return { page: args.page ?? 1, limit: args.limit ?? defaultLimit };
}

/** The offset a list was asked for: `limit` and `offset` as validated by offsetArgs, their defaults when omitted. */
export function offsetRequest(args: { offset?: number | null; limit?: number | null }, defaultLimit: number): OffsetRequest {
  return { limit: args.limit ?? defaultLimit, offset: args.offset ?? 0 };
}

export function offsetOf(request: PageRequest | OffsetRequest): number {
  return 'page' in request ? (request.page - 1) * request.limit : request.offset;
}

export function pagePagination({ page, limit }: PageRequest, total: number): PagePagination {
  return { page, limit, total, totalPages: Math.ceil(total / limit) };
}

export function offsetPagination({ limit, offset }: OffsetRequest, total: number): OffsetPagination {
  return { limit, offset, total };
}

/** The page of `rows` (already in order) as the list's answer in the request's style. */
export function pageOf<T>(rows: T[], request: PageRequest, found: Omit<IdPage, 'ids'>): PageOf<T>;
export function pageOf<T>(rows: T[], request: OffsetRequest, found: Omit<IdPage, 'ids'>): OffsetPageOf<T>;
export function pageOf<T>(rows: T[], request: PageRequest | OffsetRequest, found: Omit<IdPage, 'ids'>): PageOf<T> | OffsetPageOf<T>;
export function pageOf<T>(rows: T[], request: PageRequest | OffsetRequest, found: Omit<IdPage, 'ids'>): PageOf<T> | OffsetPageOf<T> {
  const meta = { totalRelation: found.totalRelation ?? 'eq' } as const;
  if ('page' in request) return { data: rows, pagination: pagePagination(request, found.total), meta };
  return { data: rows, pagination: offsetPagination(request, found.total), meta };
}

type Item<T> = ObjectRef<typeof builder.$inferSchemaTypes, T>;
// `meta` is any type: a searchable list's is a ListMeta (the field below), other lists declare their own in `fields`.
type ListShape = { data: unknown[]; pagination: unknown; meta?: unknown };
type ListFields<P> = (t: ObjectFieldBuilder<typeof builder.$inferSchemaTypes, P>) => FieldMap;

/**
 * A list type `{ data[], pagination }` of the given item type, in one of the three styles; a searchable list adds
 * `meta` (ListMeta). `paginationDescription` says what the pagination counts when it is not the rows (batches,
 * series); `fields` adds the list's own fields beside them.
 */
export function listRef<T, P extends ListShape = ListShape>(
  name: string,
  item: Item<T>,
  // searchable only for a list whose meta is a ListMeta (the field it adds); another meta is declared in `fields`.
  options: { style: 'page' | 'offset' | 'cursor'; description?: string; searchable?: P extends { meta?: ListMeta } ? boolean : never; dataDescription?: string; paginationDescription?: string; fields?: ListFields<P> },
) {
  const pagination = { page: PagePaginationRef, offset: OffsetPaginationRef, cursor: CursorPaginationRef }[options.style];
  return builder.objectRef<P>(name).implement({
    description: options.description,
    fields: (t) => ({
      data: t.field({ type: [item], description: options.dataDescription, resolve: (page) => page.data as never }),
      pagination: t.field({ type: pagination as never, description: options.paginationDescription, resolve: (page) => page.pagination as never }),
      ...(options.searchable ? { meta: t.field({ type: ListMetaRef, resolve: (page) => (page.meta as ListMeta | undefined) ?? { totalRelation: 'eq' as const } }) } : {}),
      ...(options.fields ? options.fields(t) : {}),
    }),
  });
}

/** A page-style list type (listRef with style 'page'). */
export function pageListRef<T>(name: string, item: Item<T>, description: string, options: { searchable?: boolean } = {}) {
  return listRef<T, RowPage>(name, item, { style: 'page', description, searchable: options.searchable });
}

/** An offset-style list type (listRef with style 'offset'). */
export function offsetListRef<T>(name: string, item: Item<T>, description: string) {
  return listRef<T, OffsetPageOf<unknown>>(name, item, { style: 'offset', description });
}

// ---------------------------------------------------------------------------------------------------------------
// Row restrictions: a list's matches among given rows, or all of them (saved searches, src/schema/saved-searches/)

/**
 * Runs a route's list for the ids of its matches, not a page: `among` (ids as the list engine filters them) narrows
 * it to those rows; without it every match is read, and more than `upTo` throws TooManyRows (one more is read to
 * know). `statement` runs the list's one statement where the caller wants it (by default on the list's own source;
 * the saved searches' consumer: prepared, on the dispatch transaction's connection).
 */
export type RowRestriction = {
  among?: readonly string[];
  upTo?: number;
  statement?: (db: SqlSource, statement: Prisma.Sql) => Promise<{ id: string }[]>;
};

type Restricted = RowRestriction & { found: string[] | null };

// Carried by the async context of the call that set it, and of nothing else: a request running at the same time (or
// after it) never sees it.
const restriction = new AsyncLocalStorage<Restricted>();

/**
 * Runs `run` (a route's resolver) with its list restricted: the list engine reads the ids of its matches in one
 * statement and answers an empty page (nothing is loaded); those ids are returned (none when the resolver answered
 * without reading its list). The list's own filters (the route's arguments, as its resolver reads them) decide, and
 * nothing else changes; the engines that cannot be restricted refuse to run.
 */
export async function withRowRestriction(restricted: RowRestriction, run: () => Promise<void>): Promise<string[]> {
  const state: Restricted = { ...restricted, found: null };
  await restriction.run(state, run);
  return state.found ?? [];
}

/** A list engine that cannot honour a restriction refuses to run under one (a wrong answer would pass for a right one). */
function refuseRestriction(engine: string): void {
  if (restriction.getStore()) throw new Error(`${engine} cannot run under a row restriction: only findPage and findIds lists can`);
}

/** Thrown by a list run under a restriction with `upTo` that matches more than `upTo` rows. */
export class TooManyRows extends Error {
  constructor(readonly upTo: number) {
    super(`the list matches more than ${upTo} rows`);
  }
}

/**
 * The ids of a restricted list's matches (`SELECT <id> … WHERE <the list's conditions> [AND id among the restriction's]`),
 * reported to the restriction; the list answers an empty page with them as its total.
 */
async function restrictedIds(db: SqlSource, id: Prisma.Sql, from: Prisma.Sql, where: Prisma.Sql | null, state: Restricted): Promise<IdPage> {
  // The list's id keeps its own type inside (uuid, bigint, text), so the restriction's ids are read as that type and
  // its index finds them; the list's own conditions stay as written, whatever their operators. No order: a bound stops
  // at its first rows instead of sorting every match.
  const inner = where ? sql`SELECT ${id} AS id ${from} WHERE ${where}` : sql`SELECT ${id} AS id ${from}`;
  const among = state.among ? sql`WHERE r.id = ANY(${state.among})` : Prisma.empty;
  const bound = state.upTo !== undefined ? sql`LIMIT ${state.upTo + 1}` : Prisma.empty;
  const statement = sql`SELECT r.id::text AS id FROM (${inner}) r ${among} ${bound}`;
  if (state.found !== null) throw new Error('withRowRestriction: a run reads one list');
  const ids = (await (state.statement ? state.statement(db, statement) : rawRows<{ id: string }>(db, statement))).map((row) => row.id);
  if (state.upTo !== undefined && ids.length > state.upTo) throw new TooManyRows(state.upTo);
  state.found = ids;
  return { ids: [], total: ids.length, totalRelation: 'eq' };
}

// ---------------------------------------------------------------------------------------------------------------
// Export mode: a list's whole result, chunk after chunk (exports, src/schema/exports/)

/**
 * A route's list read whole, under an export read (withExportRead), instead of a page: `count` counts its matches
 * (no order, no rows); `rows` makes each run of the route answer the next `chunk` rows of the list in its order, shaped
 * by the route's own resolvers, and sets `done` once the last is read. The ids come from a server-side cursor over the
 * list's whole ordered id query (DECLARE … NO SCROLL CURSOR, then FETCH), declared on the first run: the caller runs
 * every run in one transaction on one connection (its snapshot). No total is counted, no page bound applies. The
 * engines that cannot (rows computed in SQL, a model read by Prisma, a relevance-ranked text search) refuse with
 * ExportRefused, so the export is refused before it starts.
 */
export type ExportRead = {
  mode: 'count' | 'rows';
  chunk: number;
  total: number | null;
  done: boolean;
  cursor: string | null;
  /**
   * Bulk read (rows mode): the base URL of the export's media URLs, set by a caller that runs the route with its whole
   * REST selection. A list whose rows say how to write their REST items (ListRows' `exported`) then answers an empty
   * page and leaves the chunk's items here, as NDJSON text (one item a line, no final newline) and their count: one
   * statement for the chunk, no resolver per field. A list without them answers its rows as usual (`lines` stays null).
   * `stream`: the run reads no row; it leaves the statement of the whole list's items (one row an item, in the list's
   * order: its text in a column `line`, or its record's columns when `record` is set) in `statement`, for the caller
   * to stream elsewhere (a COPY in the export's worker), and is done.
   */
  bulk?: { baseUrl: string; stream?: boolean };
  lines: { text: string; count: number } | null;
  statement: Prisma.Sql | null;
  /** With `statement`, when the list's rows are records (ExportRows' `record`): how the worker writes them. */
  record: RecordPlan | null;
};

/** A fresh export read: counting, or reading `chunk` rows a run (`bulk`: as REST items' text where the list can). */
export function exportRead(mode: ExportRead['mode'], chunk = 1_000, bulk?: ExportRead['bulk']): ExportRead {
  return { mode, chunk, total: null, done: false, cursor: null, bulk, lines: null, statement: null, record: null };
}

/**
 * How a list's rows are written as the items REST shows (the route's whole selection, its envelope's omitNull keys left
 * out) for a bulk export read: `item(baseUrl)` is SQL of one row's item as JSON text over `from` (a `FROM …` without
 * WHERE, naming the list's row as its id's alias does), `baseUrl` SQL of the media URLs' base. `record(baseUrl)`, when
 * given: the same item as one record of its values and how to write it (json-rows.ts shapeRecord), which a streamed read
 * selects instead of `item` (the export's worker writes the items). `carry`, when given: named columns of the list's
 * matches (`v.ctid AS tv`) carried through its ordered query, and the FROM the item is then read with instead of
 * `from`, which reads them as `o.<name>` (a joined row read again by its address rather than looked up per row);
 * unused by a streamed record `inMatches`.
 */
export type ExportRows = {
  from: Prisma.Sql;
  item(baseUrl: Prisma.Sql): Prisma.Sql;
  record?(baseUrl: string): { columns: Prisma.Sql; plan: RecordPlan };
  carry?: { columns: Prisma.Sql; from: Prisma.Sql };
  /**
   * The record's columns read only what the list's matches join, by the same aliases: a streamed read then selects
   * them in the matches' own statement, sorted with them, instead of reading each row again by its address. One
   * sequential read and a sort that spills to disk cost PostgreSQL less than a TID fetch a row once the table outgrows
   * its shared buffers (the ads of the large scale, 1.3 GB against 128 MB: 12.6 s against 20.2 s).
   */
  inMatches?: boolean;
};

const exporting = new AsyncLocalStorage<ExportRead>();

/** Runs `run` (one run of a route's resolver) under the export read `state`. */
export function withExportRead<T>(state: ExportRead, run: () => Promise<T>): Promise<T> {
  return exporting.run(state, run);
}

/**
 * Whether this run is a bulk export read's (rows mode, `bulk` set): a list whose items' SQL needs a value it otherwise
 * reads beside its page (the products' EU access) reads it first.
 */
export function inBulkExport(): boolean {
  const state = exporting.getStore();
  return state?.mode === 'rows' && state.bulk !== undefined;
}

/** Thrown by a list engine that cannot be read whole under an export read; `argument`: the route's argument at fault, if one is. */
export class ExportRefused extends Error {
  constructor(message: string, readonly argument?: string) {
    super(message);
  }
}

function refuseExport(engine: string): void {
  if (exporting.getStore()) throw new ExportRefused(`this list cannot be exported (${engine}): only the lists paged by findPage and findIds can`);
}

let cursors = 0;

/** The next `state.chunk` rows of the cursor over `ordered` (declared by the first call); `done` once a chunk comes back short. */
async function exportFetch<T>(db: SqlSource, state: ExportRead, ordered: Prisma.Sql): Promise<T[]> {
  if (state.done) return [];
  if (state.cursor === null) {
    const name = `list_export_${++cursors}`;
    await rawRows(db, sql`DECLARE ${Prisma.raw(name)} NO SCROLL CURSOR FOR ${ordered}`);
    state.cursor = name;
  }
  const rows = await rawRows<T>(db, sql`FETCH FORWARD ${Prisma.raw(String(state.chunk))} FROM ${Prisma.raw(state.cursor)}`);
  if (rows.length < state.chunk) state.done = true;
  return rows;
}

/** The ids of the next chunk (rows) or none (count: `total` set), from `matches` (`FROM … WHERE …`) and the list's `ordered` id query. */
async function exportIds(db: SqlSource, state: ExportRead, matches: Prisma.Sql, ordered: Prisma.Sql): Promise<string[]> {
  if (state.mode === 'count') {
    const [{ total }] = await rawRows<{ total: number }>(db, sql`SELECT count(*)::int AS total ${matches}`);
    state.total = total;
    state.done = true;
    return [];
  }
  return (await exportFetch<{ id: string }>(db, state, ordered)).map((row) => row.id);
}

/**
 * Whether this run is a bulk export read (rows mode, `bulk` set, the list's rows say how to write their items), and
 * then what to read it with.
 */
function bulkRead(rows: { exported?: ExportRows }): { state: ExportRead; exported: ExportRows } | null {
  const state = exporting.getStore();
  return state?.mode === 'rows' && state.bulk && rows.exported ? { state, exported: rows.exported } : null;
}

/**
 * The next chunk of a bulk export read, left in `state.lines`: the cursor reads the matches' addresses in the list's
 * order (`id`, `matches` its `FROM … WHERE …`, `order` its ORDER BY), and each row's item is written as it is fetched,
 * read again by its address (a TID scan in the same snapshot): only the fetched rows are written, none is sorted with
 * its text. A subquery over the ordered addresses (scalar, or lateral for a record: one row an address, the item's
 * FROM joining at most one row of each table), not a join, so that nothing reorders them. A record `inMatches` is
 * the exception: selected in the matches' own statement and sorted with them (ExportRows).
 */
async function exportLines(db: SqlSource, bulk: { state: ExportRead; exported: ExportRows }, id: Prisma.Sql, matches: Prisma.Sql, order: Prisma.Sql): Promise<void> {
  const { state, exported } = bulk;
  const address = rowAddress(id);
  const base = sql`${state.bulk!.baseUrl}::text`;
  const record = state.bulk!.stream && exported.record ? exported.record(state.bulk!.baseUrl) : null;
  const carried = exported.carry ? sql`, ${exported.carry.columns}` : Prisma.empty;
  const ordered = sql`(SELECT ${address} AS t${carried} ${matches} ORDER BY ${order}) o`;
  const from = exported.carry?.from ?? exported.from;
  // A record's columns come from the matches' own statement (`inMatches`), or from a lateral subquery read once an
  // address, in the addresses' order (a nested loop over them: nothing else can join a subquery that reads its outer row).
  let statement: Prisma.Sql;
  if (record && exported.inMatches) statement = sql`SELECT ${record.columns} ${matches} ORDER BY ${order}`;
  else if (record) statement = sql`SELECT x.* FROM ${ordered} CROSS JOIN LATERAL (SELECT ${record.columns} ${from} WHERE ${address} = o.t OFFSET 0) x`;
  else statement = sql`SELECT (SELECT ${exported.item(base)} ${from} WHERE ${address} = o.t) AS line FROM ${ordered}`;
  if (state.bulk!.stream) {
    state.statement = statement;
    state.record = record?.plan ?? null;
    state.done = true;
    state.lines = { text: '', count: 0 };
    return;
  }
  const lines = await exportFetch<{ line: string }>(db, state, statement);
  state.lines = { text: lines.map((row) => row.line).join('\n'), count: lines.length };
}

/** The order a list is exported in (its pages' order), or ExportRefused for a relevance rank over a bounded set. */
function exportOrder(query: ListQuery): readonly OrderKey[] {
  const { search } = query;
  if (search?.rank && !query.scansAllMatches) {
    throw new ExportRefused('a text search sorted by relevance (the default sort of a search) ranks a bounded set of candidates per page and cannot be read whole: add sortBy with another sort (newest, reach, …) to export it', 'sortBy');
  }
  return search?.rank ? [{ key: search.rank, direction: 'DESC' }, ...query.order] : query.order;
}

// ---------------------------------------------------------------------------------------------------------------
// findPage: the one entry

/** Rows loaded in the page's own statement: `inline(ids)`, an expression of JSON text, read back by `parse`. */
export type InlineRows<Row> = { inline(ids: Prisma.Sql): Prisma.Sql; parse(json: string): Row[] };

/**
 * How the page's rows are read: in the page's own statement (`inline`, when given and not null), else by id once the
 * page is found (`load`, e.g. Prisma with the request's selection), and put back in the page's order either way.
 */
export type ListRows<Row> =
  | { inline?: InlineRows<Row & { id: string }> | null; load: (ids: string[]) => Promise<(Row & { id: string })[]>; idOf?: undefined; exported?: ExportRows }
  | { inline?: InlineRows<Row> | null; load: (ids: string[]) => Promise<Row[]>; idOf: (row: Row) => string; exported?: ExportRows };
// Rows with a text `id` are put back in the page's order by it; any other rows (a numeric id, a key under another name)
// must say how to read theirs (`idOf`), so a loader cannot forget it. A union rather than a conditional type on Row:
// `load`'s parameter is typed from its context, and a conditional type there would fix Row (to unknown) before `load`
// is read.

/**
 * The first order key as a column of the searched table: NOT NULL, with a btree index of its own and a column of the
 * text index (btree_gin). `table` and `column` are SQL identifiers, e.g. "emails" and "sentAt".
 */
export type LeadingColumn = { table: Prisma.Sql; column: Prisma.Sql };

/** A list found by OFFSET: page and offset styles. */
export type ListQuery = {
  /** The id column, e.g. a."id" (read back as text; a column rather than an expression lets a search reach its key). */
  id: Prisma.Sql;
  /** `FROM … WHERE …` of the matches. */
  from: Prisma.Sql;
  order: readonly OrderKey[];
  /**
   * Whether the page must visit every match anyway (a computed order, a rank per group). Then the matches are read
   * once, narrowed to their id and order keys, and both the total and the page come from that: one statement, one
   * scan. Otherwise the page stops early on an index, and a separate count, run at the same time, is cheaper.
   */
  scansAllMatches?: boolean;
  /**
   * A text search (its condition is in `from`): unless every match is visited anyway, the page and a total counted up
   * to a cap cost a bounded amount whatever the number of matches, `rank` (the text rank, when sorted by relevance)
   * ranking a bounded set of candidates ahead of `order`; with `scansAllMatches` the rank orders every match and the
   * total is exact. `leading`: the order's first key is a column of the text index.
   */
  search?: { rank: Prisma.Sql | null; leading?: LeadingColumn };
  /** A list that reports `meta.totalRelation`: its total is counted up to the cap without a text search too. */
  boundedTotal?: boolean;
};

/** A list found by keyset: cursor style. */
export type KeysetListQuery = {
  /** The id expression, e.g. p."id" (text); it is also the last key. */
  id: Prisma.Sql;
  /** `FROM …` of the list, and its conditions (joined with AND). */
  from: Prisma.Sql;
  where: Prisma.Sql[];
  /** Keys before the id, all in one direction: an index on them in that order (or reversed) serves every page. */
  keys: readonly KeysetKey[];
  direction: 'ASC' | 'DESC';
  /**
   * How the total is counted, at a cost bounded whatever the table's size:
   * - `matches`: the matching rows themselves, up to `cap` (when an index finds them: one shop, a text search);
   * - `window`: the matches among the first `rows` rows of the list's order (any other filter set, where counting
   *   every match could mean reading the whole table). Exact when the window holds the whole list.
   */
  count: { by: 'matches'; cap: number } | { by: 'window'; rows: number };
  /** What the query asks for (filters and sort): a cursor is refused with any other. */
  digestOf: unknown;
};

/** Where a cursor page continues: null for the first page, a 400 naming `cursor` for a cursor this query did not hand out. */
function cursorPosition(query: Pick<KeysetListQuery, 'digestOf' | 'keys'> & { page: CursorRequest }): CursorPosition | null {
  return query.page.cursor ? decodeCursor(query.page.cursor, queryDigest(query.digestOf), query.keys.length + 1) : null;
}

/** Refuses a cursor this query did not hand out (400 naming `cursor`) before the caller runs any statement. */
export function checkCursor(query: Pick<KeysetListQuery, 'digestOf' | 'keys'> & { page: CursorRequest }): void {
  cursorPosition(query);
}

/**
 * One page of a list, in the style of `page`: its rows in the list's order, its pagination, and (page and offset
 * styles) `meta.totalRelation`. `db` is Prisma or, for the hot lists, the pool (a cursor page always runs on a pool).
 */
export async function findPage<Row>(db: SqlSource, query: ListQuery & { page: PageRequest; rows: ListRows<Row> }): Promise<PageOf<Row>>;
export async function findPage<Row>(db: SqlSource, query: ListQuery & { page: OffsetRequest; rows: ListRows<Row> }): Promise<OffsetPageOf<Row>>;
export async function findPage<Row>(db: Pick<pg.Pool, 'query'>, query: KeysetListQuery & { page: CursorRequest; rows: ListRows<Row> }): Promise<CursorPageOf<Row>>;
export async function findPage<Row>(
  db: SqlSource,
  query: (ListQuery & { page: PageRequest | OffsetRequest; rows: ListRows<Row> }) | (KeysetListQuery & { page: CursorRequest; rows: ListRows<Row> }),
): Promise<PageOf<Row> | OffsetPageOf<Row> | CursorPageOf<Row>> {
  const { rows } = query;
  const idOf = rows.idOf ?? ((row: Row) => (row as { id: string }).id);
  const inOrder = async (ids: string[], inline: Row[] | null | undefined) => inIdOrder(ids, inline ?? (ids.length ? await rows.load(ids) : []), idOf);
  if ('keys' in query) {
    if ('$queryRaw' in db) throw new Error('findPage: a cursor page runs on a pool');
    const digest = queryDigest(query.digestOf);
    const after = cursorPosition(query);
    const restricted = restriction.getStore();
    if (restricted) {
      const found = await restrictedIds(db, query.id, query.from, query.where.length ? Prisma.join(query.where, ' AND ') : null, restricted);
      return { data: [], pagination: { limit: query.page.limit, total: found.total, totalRelation: 'eq', nextCursor: null } };
    }
    const exported = exporting.getStore();
    if (exported) {
      const all = [...query.keys, { key: query.id }];
      const where = query.where.length ? sql`WHERE ${Prisma.join(query.where, ' AND ')}` : Prisma.empty;
      const order = Prisma.join(all.map(({ key }) => sql`${key} ${Prisma.raw(query.direction)}`), ', ');
      const pagination = { limit: query.page.limit, total: exported.total ?? 0, totalRelation: 'eq' as const, nextCursor: null };
      const bulk = bulkRead(rows);
      if (bulk) {
        await exportLines(db, bulk, query.id, sql`${query.from} ${where}`, order);
        return { data: [], pagination };
      }
      const ids = await exportIds(db, exported, sql`${query.from} ${where}`, sql`SELECT (${query.id})::text AS id ${query.from} ${where} ORDER BY ${order}`);
      return { data: await inOrder(ids, null), pagination };
    }
    const found = await findKeysetPage(db, { ...query, limit: query.page.limit, after }, rows.inline ?? undefined);
    const pagination = { limit: query.page.limit, total: found.total, totalRelation: found.totalRelation, nextCursor: found.next ? encodeCursor(digest, found.next) : null };
    return { data: await inOrder(found.ids, found.rows), pagination };
  }
  const bulk = bulkRead(rows);
  if (bulk && !restriction.getStore()) {
    await exportLines(db, bulk, query.id, query.from, orderBySql(exportOrder(query)));
    return pageOf([], query.page, { total: 0 });
  }
  const found = await findIds(db, query, { limit: query.page.limit, offset: offsetOf(query.page) }, rows.inline ?? undefined);
  return pageOf(await inOrder(found.ids, found.rows), query.page, found);
}

/** The ids of one page of matches, in order, and how many match in all (the first half of findPage, for a list whose rows another list loads). */
export async function findIds<Row = never>(db: SqlSource, query: ListQuery, page: OffsetRequest, inline?: InlineRows<Row>): Promise<IdPage & { rows?: Row[] }> {
  const { id, from, search } = query;
  const { limit, offset } = page;
  const restricted = restriction.getStore();
  if (restricted) return restrictedIds(db, id, from, null, restricted);
  const exported = exporting.getStore();
  if (exported) {
    const order = exportOrder(query);
    return { ids: await exportIds(db, exported, from, sql`SELECT (${id})::text AS id ${from} ORDER BY ${orderBySql(order)}`), total: exported.total ?? 0 };
  }
  if (search && !query.scansAllMatches) return findSearchPage(db, { id, from, order: query.order, rank: search.rank, leading: search.leading, limit, offset }, inline);
  // Visiting every match anyway, the text rank (if any) orders all of them.
  const order: readonly OrderKey[] = search?.rank ? [{ key: search.rank, direction: 'DESC' }, ...query.order] : query.order;
  if (!query.scansAllMatches) {
    const matches = query.boundedTotal ? sql`(SELECT 1 ${from} LIMIT ${searchBounds.totalCap + 1}) m` : null;
    const [rows, [{ total }]] = await Promise.all([
      rawRows<{ id: string }>(db, sql`SELECT (${id})::text AS id ${from} ORDER BY ${orderBySql(order)} LIMIT ${limit} OFFSET ${offset}`),
      rawRows<{ total: number }>(db, matches ? sql`SELECT count(*)::int AS total FROM ${matches}` : sql`SELECT count(*)::int AS total ${from}`),
    ]);
    const ids = rows.map((row) => row.id);
    return { ids, ...(matches ? boundedTotal(total, { offset, limit, rows: ids.length }) : { total }) };
  }
  const { select: keys, orderBy: byColumns } = orderColumns(order);
  // The count row is always there, so a page past the end still reports the total (with no id).
  const rows = await rawRows<{ id: string | null; total: number }>(db, sql`
    WITH matches AS MATERIALIZED (SELECT ${id} AS id, ${keys} ${from})
    SELECT p.id::text AS id, t.total
    FROM (SELECT count(*)::int AS total FROM matches) t
    LEFT JOIN LATERAL (SELECT * FROM matches ORDER BY ${byColumns()} LIMIT ${limit} OFFSET ${offset}) p ON TRUE
    ORDER BY ${byColumns('p.')}`);
  return { ids: rows.flatMap((row) => (row.id === null ? [] : [row.id])), total: rows[0].total };
}

/**
 * A list whose rows are the selected columns themselves (facets, a shop's products): one page in the style of
 * `page` and the total, two statements run together. `from` is `FROM … WHERE …`.
 */
export async function findRowsPage<Row>(db: SqlSource, query: { select: Prisma.Sql; from: Prisma.Sql; order: readonly OrderKey[]; page: PageRequest }): Promise<PageOf<Row>>;
export async function findRowsPage<Row>(db: SqlSource, query: { select: Prisma.Sql; from: Prisma.Sql; order: readonly OrderKey[]; page: OffsetRequest }): Promise<OffsetPageOf<Row>>;
export async function findRowsPage<Row>(db: SqlSource, query: { select: Prisma.Sql; from: Prisma.Sql; order: readonly OrderKey[]; page: PageRequest | OffsetRequest }): Promise<PageOf<Row> | OffsetPageOf<Row>> {
  refuseRestriction('findRowsPage');
  refuseExport('findRowsPage');
  const { select, from, order, page } = query;
  const [rows, [{ total }]] = await Promise.all([
    rawRows<Row>(db, sql`SELECT ${select} ${from} ORDER BY ${orderBySql(order)} LIMIT ${page.limit} OFFSET ${offsetOf(page)}`),
    rawRows<{ total: number }>(db, sql`SELECT count(*)::int AS total ${from}`),
  ]);
  return pageOf(rows, page, { total });
}

/**
 * A list read by Prisma (a model's findMany, with the request's selection): `rows(skip, take)` reads the page and
 * `count()` counts every match, two statements run together; or `both(skip, take)` reads the page and its total at
 * once (a parent row with its relation's page and `_count`, one statement with relationJoins). The page in the style
 * of `page`.
 */
export type ModelPageQuery<Row> =
  | { rows: (skip: number, take: number) => Promise<Row[]>; count: () => Promise<number>; both?: undefined }
  | { both: (skip: number, take: number) => Promise<{ rows: Row[]; total: number }> };

export async function findModelPage<Row>(page: PageRequest, query: ModelPageQuery<Row>): Promise<PageOf<Row>>;
export async function findModelPage<Row>(page: OffsetRequest, query: ModelPageQuery<Row>): Promise<OffsetPageOf<Row>>;
export async function findModelPage<Row>(page: PageRequest | OffsetRequest, query: ModelPageQuery<Row>): Promise<PageOf<Row> | OffsetPageOf<Row>> {
  refuseRestriction('findModelPage');
  refuseExport('findModelPage');
  if (query.both) {
    const { rows, total } = await query.both(offsetOf(page), page.limit);
    return pageOf(rows, page, { total });
  }
  const [rows, total] = await Promise.all([query.rows(offsetOf(page), page.limit), query.count()]);
  return pageOf(rows, page, { total });
}

/**
 * A list of computed rows (findComputedPage). Its one statement:
 * `WITH <with>, m AS MATERIALIZED (<rows>) SELECT p.*, <after.columns> FROM (<total>) t LEFT JOIN LATERAL (the page of m) p
 * ON TRUE <after.joins> ORDER BY …`: the rows are computed once, the page and the total come from them, and what the page's
 * rows show is computed for them only, after the page.
 */
export type ComputedListQuery<Summary extends Record<string, unknown> = Record<never, never>> = {
  /** CTEs before the rows (`s AS (…), …`), which `rows`, `total`, `summary` and `after` may read. */
  with?: Prisma.Sql;
  /** A statement whose output rows are the list's items (materialized as `m`). */
  rows: Prisma.Sql;
  /** Their order on their output columns, qualified by `prefix` (as `m.`, `p.`), its last key unique. */
  order: (prefix: string) => Prisma.Sql;
  /**
   * A one-row statement whose `total` column is the list's total, for rows that are not the whole list (each brand's
   * first offset + limit rows, the total counted elsewhere). Default: `SELECT count(*)::int AS total FROM m`.
   */
  total?: Prisma.Sql;
  /** Aggregates over all the rows `m`, by name (`max(m."date")`): computed once, returned as `summary`, a page past the end included. */
  summary?: { [K in keyof Summary]: Prisma.Sql };
  /**
   * What the page's rows `p` show, computed for them only: `columns` added to each row, `joins` on `p` (`LEFT JOIN …
   * ON … = p."key"`), and `with`, CTEs that read the page `p` as a whole (the page is then a materialized CTE `p`
   * rather than a LATERAL subquery).
   */
  after?: { with?: Prisma.Sql; columns?: Prisma.Sql; joins?: Prisma.Sql };
  /** Run as a named prepared statement (`db` a pool): for a text fixed but for its values, whose plan suits every value (src/db/statements.ts). */
  prepared?: boolean;
};

/** The `summary` a computed page returns when its query names some. */
export type WithSummary<Summary> = [keyof Summary] extends [never] ? unknown : { summary: Summary };

/**
 * A list of computed rows (grouped or aggregated: a tracker's partners, its test batches, the media mix, the
 * analytics' groups and ranked ads, a brandtracker's snapshot days): `rows` is a statement whose output rows are the
 * list's items, `order(prefix)` its order on their output columns. One statement gives the page in the style of
 * `page` and the total, which is there even for a page past the end; ComputedListQuery says what else it can hold
 * (CTEs before the rows, a total that is not their count, aggregates over all of them, what the page's rows show).
 */
export async function findComputedPage<Row, Summary extends Record<string, unknown> = Record<never, never>>(
  db: SqlSource, query: ComputedListQuery<Summary> & { page: PageRequest }): Promise<PageOf<Row> & WithSummary<Summary>>;
export async function findComputedPage<Row, Summary extends Record<string, unknown> = Record<never, never>>(
  db: SqlSource, query: ComputedListQuery<Summary> & { page: OffsetRequest }): Promise<OffsetPageOf<Row> & WithSummary<Summary>>;
export async function findComputedPage<Row, Summary extends Record<string, unknown> = Record<never, never>>(
  db: SqlSource,
  query: ComputedListQuery<Summary> & { page: PageRequest | OffsetRequest },
): Promise<(PageOf<Row> | OffsetPageOf<Row>) & WithSummary<Summary>> {
  refuseRestriction('findComputedPage');
  refuseExport('findComputedPage');
  const { rows, order, page, after = {} } = query;
  const summary = Object.entries<Prisma.Sql>(query.summary ?? {});
  const summaryName = (index: number) => Prisma.raw(`"__listSummary${index}"`);
  const pageRows = sql`SELECT m.*, 1 AS "__listRow" FROM m ORDER BY ${order('m.')} LIMIT ${page.limit} OFFSET ${offsetOf(page)}`;
  const optional = (part: Prisma.Sql | undefined, render: (part: Prisma.Sql) => Prisma.Sql) => (part ? render(part) : Prisma.empty);
  const statement = sql`
    WITH ${optional(query.with, (ctes) => sql`${ctes}, `)}m AS MATERIALIZED (${rows})${optional(after.with, (ctes) => sql`, p AS MATERIALIZED (${pageRows}), ${ctes}`)}
    SELECT p.*, t.total AS "__listTotal"${summary.length ? sql`, u.*` : Prisma.empty}${optional(after.columns, (columns) => sql`, ${columns}`)}
    FROM (${query.total ?? sql`SELECT count(*)::int AS total FROM m`}) t${summary.length ? sql` CROSS JOIN (SELECT ${Prisma.join(summary.map(([, value], i) => sql`${value} AS ${summaryName(i)}`), ', ')} FROM m) u` : Prisma.empty}
    ${after.with ? sql`LEFT JOIN p ON TRUE` : sql`LEFT JOIN LATERAL (${pageRows}) p ON TRUE`}${optional(after.joins, (joins) => sql`
    ${joins}`)}
    ORDER BY ${order('p.')}`;
  const found = await rawRows<Record<string, unknown>>(db, statement, { prepared: query.prepared });
  const data = found.flatMap(({ __listTotal: _total, __listRow: present, ...row }) => {
    if (present === null) return [];
    summary.forEach((_, i) => delete row[`__listSummary${i}`]);
    return [row as Row];
  });
  const result = pageOf(data, page, { total: (found[0]?.__listTotal as number | undefined) ?? 0 });
  if (!summary.length) return result as typeof result & WithSummary<Summary>;
  const first = found[0] ?? {};
  return Object.assign(result, { summary: Object.fromEntries(summary.map(([name], i) => [name, first[`__listSummary${i}`] ?? null])) as Summary }) as typeof result & WithSummary<Summary>;
}

// ---------------------------------------------------------------------------------------------------------------
// Bounded totals and relevance
//
// A text search's page at a cost bounded whatever the number of matches: a common word matches a quarter of a table,
// and ranking or counting every match would make the first page as slow as the market is large.
// - Total: the matches are counted up to `totalCap`; beyond it the total is a lower bound (`totalRelation` gte), like a
//   search engine's. A page far down the list still reports at least the rows before it.
// - Relevance: the `candidates` first matches in the list's own order (an index order, so that finding them stops
//   early on a common word, while a rare word's few matches come from its text index) are ranked by text rank; the
//   other matches follow them in the list's order. When fewer match, every match is ranked. One statement, the count
//   included. When the list's first order key is in the text index too, the candidates past the cap are looked for
//   among the first rows in that order (leadingWindows), reading only the matches there instead of every match.
// - Any other order: the page in that order (an index stops early), with the same capped count.

/**
 * A total counted up to `totalCap` (at most totalCap + 1) for a page of `rows` (asked for `limit` from `offset`):
 * exact when the count stayed under the cap or the page came back short (the list ends in it); otherwise a lower
 * bound, never below the rows up to a full page (a page past the end knows only the cap).
 */
export function boundedTotal(counted: number, page: { offset: number; limit: number; rows: number }): { total: number; totalRelation: TotalRelation } {
  const { offset, limit, rows } = page;
  if (counted <= searchBounds.totalCap) return { total: counted, totalRelation: 'eq' };
  if (rows > 0 && rows < limit) return { total: offset + rows, totalRelation: 'eq' };
  return { total: Math.max(searchBounds.totalCap, rows > 0 ? offset + rows : 0), totalRelation: 'gte' };
}

type SearchPageQuery = {
  id: Prisma.Sql;
  from: Prisma.Sql;
  /** The list's order, without the text rank; its last key is unique. */
  order: readonly OrderKey[];
  /** The text rank (higher first), when the list is sorted by relevance. */
  rank: Prisma.Sql | null;
  limit: number;
  offset: number;
  leading?: LeadingColumn;
};

/**
 * The physical address (ctid) of the row whose id is `id` (`alias."id"`): a relevance rank reads each candidate again
 * by it, as a bulk export read each row, a TID scan (within one statement, one snapshot, a row's address stays its own).
 */
function rowAddress(id: Prisma.Sql): Prisma.Sql {
  const alias = /^([a-z_][a-z0-9_]*)\."id"$/.exec(id.sql.trim())?.[1];
  if (!alias || id.values.length) throw new Error(`findPage: a text search's (or a bulk export's) id must be a table's "id" column (alias."id"), not ${id.sql}`);
  return Prisma.raw(`${alias}.ctid`);
}

/** A text search's page ids in order, the (capped) total and, given `inline`, the page's rows: one statement. */
async function findSearchPage<Row = never>(db: SqlSource, query: SearchPageQuery, inline?: InlineRows<Row>): Promise<IdPage & { rows?: Row[] }> {
  const { id, from, order, rank, limit, offset } = query;
  const { totalCap, candidates, windows: sizes } = searchBounds;
  const columns = orderColumns(order);
  const names = Prisma.join(order.map((_, i) => Prisma.raw(`o${i}`)), ', ');
  const inOrder = (rows: number, skip: number) =>
    sql`SELECT ${id} AS id, 1 AS part, NULL::float8 AS r, ${columns.select} ${from} ORDER BY ${orderBySql(order)} LIMIT ${rows} OFFSET ${skip}`;
  const parts: Prisma.Sql[] = [];
  // The count row is always there, so a page past the end still reports the total (with no id).
  let statement: Prisma.Sql;
  if (!rank) {
    parts.push(inOrder(limit, offset));
    const ordered = columns.orderBy('p.');
    statement = sql`
      SELECT p.id::text AS id, t.total, row_number() OVER (ORDER BY ${ordered}) AS n
      FROM (SELECT count(*)::int AS total FROM (SELECT 1 ${from} LIMIT ${totalCap + 1}) m) t
      LEFT JOIN LATERAL (${parts[0]}) p ON TRUE
      ORDER BY ${ordered}`;
  } else {
    if (offset < candidates) {
      parts.push(sql`(SELECT id, 0 AS part, r, ${names} FROM candidates ORDER BY r DESC, ${columns.orderBy()} LIMIT ${Math.min(limit, candidates - offset)} OFFSET ${offset})`);
    }
    const start = Math.max(offset, candidates);
    if (offset + limit > start) parts.push(sql`(${inOrder(offset + limit - start, start)})`);
    const ordered = sql`p.part, p.r DESC, ${columns.orderBy('p.')}`;
    // One scan reads the matches (up to the cap) with their order keys: it gives the total and, when every match is
    // in it, the first candidates in the list's order. Past the cap, an index in the list's order gives them (a common
    // word: its first matches come early). Only the candidates are ranked, each read again by its address (a TID
    // scan once `t = candidate` is pushed into the subquery): ranking every match would read each one's text.
    const address = rowAddress(id);
    const rows = sql`${id} AS id, ${address} AS t, ${columns.select}`;
    const overCap = sql`(SELECT total FROM counted) > ${totalCap}`;
    const windows = leadingWindows({ leading: query.leading, rows, from, order, overCap, candidates, sizes });
    statement = sql`
      WITH matched AS MATERIALIZED (SELECT ${rows} ${from} LIMIT ${totalCap + 1}),
      counted AS (SELECT count(*)::int AS total FROM matched)${windows.ctes},
      firsts AS MATERIALIZED (
        (SELECT id, t, ${names} FROM matched WHERE (SELECT total FROM counted) <= ${totalCap} ORDER BY ${columns.orderBy()} LIMIT ${candidates})
        ${windows.taken}
        UNION ALL
        (SELECT * FROM (SELECT ${rows} ${from} ORDER BY ${orderBySql(order)} LIMIT ${candidates}) y
          WHERE ${overCap} AND ${windows.noneTaken})),
      candidates AS MATERIALIZED (
        SELECT f.id, ${Prisma.join(order.map((_, i) => Prisma.raw(`f.o${i}`)), ', ')},
          (SELECT x.r FROM (SELECT (${rank})::float8 AS r, ${address} AS t ${from}) x WHERE x.t = f.t LIMIT 1) AS r
        FROM firsts f)
      SELECT p.id::text AS id, t.total, row_number() OVER (ORDER BY ${ordered}) AS n
      FROM counted t
      LEFT JOIN LATERAL (${Prisma.join(parts, ' UNION ALL ')}) p ON TRUE
      ORDER BY ${ordered}`;
  }
  let ids: string[];
  let counted: number;
  let loaded: Row[] | undefined;
  if (!inline) {
    const rows = await rawRows<{ id: string | null; total: number }>(db, statement);
    ids = rows.flatMap((row) => (row.id === null ? [] : [row.id]));
    counted = rows[0].total;
  } else {
    // The page's rows in the same statement (as the keyset pages load theirs): one round trip.
    const [found] = await rawRows<{ ids: string[]; total: number; rows: string }>(db, sql`
      WITH page AS MATERIALIZED (${statement})
      SELECT (SELECT total FROM page LIMIT 1) AS total,
        ARRAY(SELECT id FROM page WHERE id IS NOT NULL ORDER BY n) AS ids,
        ${inline.inline(sql`SELECT id FROM page WHERE id IS NOT NULL`)} AS rows`);
    ({ ids, total: counted } = found);
    loaded = inline.parse(found.rows);
  }
  return { ids, rows: loaded, ...boundedTotal(counted, { offset, limit, rows: ids.length }) };
}

/**
 * Past the cap, a relevance search ranks the first `candidates` matches in the list's order. Found by the text index
 * alone, they cost a read of every match's row to learn its order key. When the list's first order key is a column
 * that the text index holds too (a btree_gin column, as the emails' "sentAt"), one index scan answers "the matches
 * among the first k rows of the table in that order", reading only those matches' rows. Windows of growing k are
 * tried in turn; the first that holds `candidates` matches holds the first candidates of all, since every row outside
 * it comes later in the order (a window takes every row tied with its k-th). When none does, all matches are read.
 * Each window's bound is the k-th row's key, read from the column's btree (an index-only scan).
 */
function leadingWindows(q: {
  leading?: LeadingColumn;
  rows: Prisma.Sql;
  from: Prisma.Sql;
  order: readonly OrderKey[];
  overCap: Prisma.Sql;
  candidates: number;
  sizes: readonly number[];
}): { ctes: Prisma.Sql; taken: Prisma.Sql; noneTaken: Prisma.Sql } {
  const { leading, order, candidates, sizes } = q;
  if (!leading || sizes.length === 0) return { ctes: Prisma.empty, taken: Prisma.empty, noneTaken: sql`TRUE` };
  const first = order[0];
  if (!first || first.key.values.length || !first.key.sql.endsWith(`.${leading.column.sql}`)) {
    throw new Error(`leadingWindows: the order's first key must be the column ${leading.column.sql}, not ${first?.key.sql}`);
  }
  const descending = first.direction.startsWith('DESC');
  const direction = Prisma.raw(descending ? 'DESC' : 'ASC');
  const within = Prisma.raw(descending ? '>=' : '<=');
  const { orderBy } = orderColumns(order);
  const names = sizes.map((_, j) => Prisma.raw(`w${j}`));
  const short = (j: number) => sql`(SELECT count(*) FROM ${names[j]}) < ${candidates}`;
  const earlierShort = (j: number) => names.slice(0, j).map((_, i) => short(i));
  // The gate (over the cap, no earlier window enough) stands outside the window's LIMIT: a one-time filter that skips
  // the scan (inside, it would keep PostgreSQL from removing the list's unused joins).
  const ctes = sizes.map((size, j) => sql`${names[j]} AS MATERIALIZED (
        SELECT * FROM (
          SELECT * FROM (SELECT ${q.rows} ${q.from}) y
          WHERE y.o0 ${within} (SELECT ${leading.column} FROM ${leading.table} ORDER BY ${leading.column} ${direction} OFFSET ${size - 1} LIMIT 1)
          ORDER BY ${orderBy('y.')} LIMIT ${candidates}) z
        WHERE ${Prisma.join([q.overCap, ...earlierShort(j)], ' AND ')})`);
  return {
    ctes: sql`, ${Prisma.join(ctes, ', ')}`,
    taken: Prisma.join(names.map((name) => sql`UNION ALL (SELECT * FROM ${name} WHERE (SELECT count(*) FROM ${name}) >= ${candidates})`), ' '),
    noneTaken: Prisma.join(names.map((_, j) => short(j)), ' AND '),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Cursor pages: keyset pages on a list's sort keys. A cursor is opaque and signed: it carries the last row's sort
// keys and a digest of the query it came from, and is refused (400 naming `cursor`) when altered or used with
// another filter set or sort.

/**
 * Signs cursors. CURSOR_SECRET, when set, lets every instance behind a load balancer (and a restarted one) accept
 * the others' cursors; without it each process draws its own, and a cursor from before a restart is refused.
 */
const SECRET = process.env.CURSOR_SECRET ? Buffer.from(process.env.CURSOR_SECRET) : randomBytes(32);

const sign = (payload: string) => createHmac('sha256', SECRET).update(payload).digest('base64url').slice(0, 22);

/** A digest of what a query asks for (filters and sort, not its limit or cursor): objects are read with sorted keys. */
function queryDigest(query: unknown): string {
  const canonical = JSON.stringify(query, (_key, value: unknown) =>
    value && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Date)
      ? Object.fromEntries(Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined && v !== null).sort(([a], [b]) => (a < b ? -1 : 1)))
      : value,
  );
  return createHash('sha256').update(canonical).digest('base64url').slice(0, 16);
}

/** Where a cursor continues: the sort-key values (as PostgreSQL text) of the last row it followed, then its id, and how many rows came before. */
type CursorPosition = { keys: string[]; seen: number };

function encodeCursor(digest: string, position: CursorPosition): string {
  const payload = Buffer.from(JSON.stringify({ q: digest, k: position.keys, n: position.seen })).toString('base64url');
  return `${payload}.${sign(payload)}`;
}

const cursorShape = z.object({ q: z.string(), k: z.array(z.string().nullable()), n: z.number().int().min(0) });

const refused = (why: string) => validationError([{ argument: 'cursor', expected: [why] }]);

/** The position a cursor carries, or a 400 naming `cursor` when it is malformed, altered, or from another query. */
function decodeCursor(cursor: string, digest: string, keyCount: number): CursorPosition {
  const [payload, signature, ...rest] = cursor.split('.');
  const given = Buffer.from(signature ?? '');
  const expected = Buffer.from(payload ? sign(payload) : '');
  if (!payload || rest.length || given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw refused('cursor must be a pagination.nextCursor returned by this server, unchanged');
  }
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    json = null;
  }
  const parsed = cursorShape.safeParse(json);
  if (!parsed.success) throw refused('cursor must be a pagination.nextCursor returned by this server, unchanged');
  if (parsed.data.q !== digest) throw refused('cursor belongs to another query: send it with the same filters and sort as the request that returned it');
  if (parsed.data.k.length !== keyCount || parsed.data.k.some((key) => key === null)) {
    throw refused('cursor must be a pagination.nextCursor returned by this server, unchanged');
  }
  return { keys: parsed.data.k as string[], seen: parsed.data.n };
}

/**
 * One key of a keyset order. `key` must never be null (coalesce missing values to a value that sorts them last),
 * and `type` is the PostgreSQL type the key's text is read back as. The last key must be unique (the id).
 */
export type KeysetKey = { key: Prisma.Sql; type: 'text' | 'int4' | 'int8' | 'float8' | 'numeric' | 'timestamptz' | 'bool' };

type KeysetQuery = Omit<KeysetListQuery, 'digestOf'> & { limit: number; after: CursorPosition | null };

type KeysetPage<Row> = { ids: string[]; total: number; totalRelation: TotalRelation; next: CursorPosition | null; rows: Row[] | null };

/**
 * One page after `after` (a row comparison on the keys, which a B-tree on the same keys answers without an OFFSET),
 * the count and, given `rows`, the page's rows: ONE statement whatever the page. The total is exact (`eq`) when it
 * was counted in full or when the last page is reached; otherwise it is a lower bound (`gte`), never below the rows
 * paged so far.
 */
async function findKeysetPage<Row = never>(pool: Pick<pg.Pool, 'query'>, query: KeysetQuery, rows?: InlineRows<Row>): Promise<KeysetPage<Row>> {
  const { id, from, keys, direction, limit, after, count } = query;
  const all = [...keys, { key: id, type: 'text' as const }];
  const row = Prisma.join(all.map(({ key }) => key), ', ');
  const where = [...query.where];
  if (after) {
    const values = Prisma.join(all.map(({ type }, i) => sql`${after.keys[i]}::${Prisma.raw(type)}`), ', ');
    where.push(direction === 'ASC' ? sql`(${row}) > (${values})` : sql`(${row}) < (${values})`);
  }
  const whereSql = (conditions: Prisma.Sql[]) => (conditions.length ? sql`WHERE ${Prisma.join(conditions, ' AND ')}` : Prisma.empty);
  const order = Prisma.join(all.map(({ key }) => sql`${key} ${Prisma.raw(direction)}`), ', ');
  const texts = Prisma.join(all.map(({ key }, i) => sql`(${key})::text AS ${Prisma.raw(`k${i}`)}`), ', ');
  const matches = query.where.length ? sql`(${Prisma.join(query.where, ' AND ')})` : sql`TRUE`;
  const counting =
    count.by === 'matches'
      ? sql`SELECT count(*)::int AS matched, 0 AS examined FROM (SELECT 1 ${from} ${whereSql(query.where)} LIMIT ${count.cap + 1}) capped`
      : sql`SELECT count(*) FILTER (WHERE w.m)::int AS matched, count(*)::int AS examined FROM (SELECT ${matches} AS m ${from} ORDER BY ${order} LIMIT ${count.rows}) w`;
  const idKey = Prisma.raw(`k${all.length - 1}`);
  // The page's keys as JSON text (each key as PostgreSQL's text of it, for the cursor), in order (n).
  const keyArray = Prisma.join(all.map((_, i) => Prisma.raw(`k${i}`)), ', ');
  const statement = sql`
    WITH page AS MATERIALIZED (SELECT ${texts}, row_number() OVER (ORDER BY ${order}) AS n ${from} ${whereSql(where)} ORDER BY ${order} LIMIT ${limit + 1}),
    counted AS (${counting})
    SELECT c.matched, c.examined,
      (SELECT coalesce(json_agg(json_build_array(${keyArray}) ORDER BY n), '[]')::text FROM page) AS keys,
      ${rows ? rows.inline(sql`SELECT ${idKey} FROM page WHERE n <= ${limit}`) : sql`NULL::text`} AS rows
    FROM counted c`;
  // On the pool, not Prisma: its raw queries cost about half a millisecond of Node's time more for a page's JSON.
  const { rows: [found] } = await pool.query<{ matched: number; examined: number; keys: string; rows: string | null }>(statement.text, statement.values);
  const keysFound = JSON.parse(found.keys) as string[][];
  const pageKeys = keysFound.slice(0, limit);
  const seen = (after?.seen ?? 0) + pageKeys.length;
  const more = keysFound.length > limit;
  let total = count.by === 'matches' ? Math.min(found.matched, count.cap) : found.matched;
  let exact = count.by === 'matches' ? found.matched <= count.cap : found.examined < count.rows;
  if (!more) [total, exact] = [seen, true];
  else if (total <= seen) [total, exact] = [seen + 1, false];
  const last = pageKeys[pageKeys.length - 1];
  return {
    ids: pageKeys.map((keyTexts) => keyTexts[all.length - 1]),
    total,
    totalRelation: exact ? 'eq' : 'gte',
    next: more && last ? { keys: last, seen } : null,
    rows: rows && found.rows !== null ? rows.parse(found.rows) : null,
  };
}
