import type { ObjectRef } from '@pothos/core';
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { validationError } from '../../errors.js';
import type pg from 'pg';
import { Prisma } from '../../generated/prisma/client.js';
import { builder } from '../builder.js';

// Cursor pagination (the third style, after page and offset): keyset pages on a list's sort keys, so page 1,000
// costs what page 1 costs. A cursor is opaque and signed: it carries the last row's sort keys and a digest of the
// query it came from, and is refused (400 naming `cursor`) when altered or used with another filter set or sort.

const sql = Prisma.sql;

export type TotalRelation = 'eq' | 'gte';
export type CursorPagination = { limit: number; total: number; totalRelation: TotalRelation; nextCursor: string | null };

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

export const MAX_CURSOR_LENGTH = 2000;

/** `limit` (1..max) and `cursor` (the previous page's `nextCursor`) arguments of a cursor-style list. */
export function cursorArgs(limits: { defaultLimit: number; maxLimit: number }) {
  return builder.args((t) => ({
    limit: t.int({
      defaultValue: limits.defaultLimit,
      description: `Rows per page, 1..${limits.maxLimit} (default ${limits.defaultLimit}).`,
      validate: z.number().int().min(1).max(limits.maxLimit),
    }),
    cursor: t.string({
      description: `The previous page's pagination.nextCursor (at most ${MAX_CURSOR_LENGTH} characters), sent with the same query.`,
      validate: z.string().max(MAX_CURSOR_LENGTH),
    }),
  }));
}

/**
 * Signs cursors. CURSOR_SECRET, when set, lets every instance behind a load balancer (and a restarted one) accept
 * the others' cursors; without it each process draws its own, and a cursor from before a restart is refused.
 */
const SECRET = process.env.CURSOR_SECRET ? Buffer.from(process.env.CURSOR_SECRET) : randomBytes(32);

const sign = (payload: string) => createHmac('sha256', SECRET).update(payload).digest('base64url').slice(0, 22);

/** A digest of what a query asks for (filters and sort, not its limit or cursor): objects are read with sorted keys. */
export function queryDigest(query: unknown): string {
  const canonical = JSON.stringify(query, (_key, value: unknown) =>
    value && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Date)
      ? Object.fromEntries(Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined && v !== null).sort(([a], [b]) => (a < b ? -1 : 1)))
      : value,
  );
  return createHash('sha256').update(canonical).digest('base64url').slice(0, 16);
}

/** Where a cursor continues: the sort-key values (as PostgreSQL text) of the last row it followed, then its id, and how many rows came before. */
export type CursorPosition = { keys: string[]; seen: number };

export function encodeCursor(digest: string, position: CursorPosition): string {
  const payload = Buffer.from(JSON.stringify({ q: digest, k: position.keys, n: position.seen })).toString('base64url');
  return `${payload}.${sign(payload)}`;
}

const cursorShape = z.object({ q: z.string(), k: z.array(z.string().nullable()), n: z.number().int().min(0) });

const refused = (why: string) => validationError([{ argument: 'cursor', expected: [why] }]);

/** The position a cursor carries, or a 400 naming `cursor` when it is malformed, altered, or from another query. */
export function decodeCursor(cursor: string, digest: string, keyCount: number): CursorPosition {
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

export type KeysetQuery = {
  /** The id expression, e.g. p."id" (text); it is also the last key. */
  id: Prisma.Sql;
  /** `FROM …` of the list, and its conditions (joined with AND). */
  from: Prisma.Sql;
  where: Prisma.Sql[];
  /** Keys before the id, all in one direction: an index on them in that order (or reversed) serves every page. */
  keys: readonly KeysetKey[];
  direction: 'ASC' | 'DESC';
  limit: number;
  after: CursorPosition | null;
  /**
   * How the total is counted, at a cost bounded whatever the table's size:
   * - `matches`: the matching rows themselves, up to `cap` (when an index finds them: one shop, a text search);
   * - `window`: the matches among the first `rows` rows of the list's order (any other filter set, where counting
   *   every match could mean reading the whole table). Exact when the window holds the whole list.
   */
  count: { by: 'matches'; cap: number } | { by: 'window'; rows: number };
};

export type KeysetPage<Row> = {
  ids: string[];
  total: number;
  totalRelation: TotalRelation;
  next: CursorPosition | null;
  /** The page's rows when `rows` was given (in no particular order), else null. */
  rows: Row[] | null;
};

/** Rows loaded in the page's own statement: `inline(ids)`, an expression of JSON text, read back by `parse`. */
export type InlineRows<Row> = { inline(ids: Prisma.Sql): Prisma.Sql; parse(json: string): Row[] };

/**
 * One page after `after` (a row comparison on the keys, which a B-tree on the same keys answers without an OFFSET),
 * the count and, given `rows`, the page's rows: ONE statement whatever the page. The total is exact (`eq`) when it
 * was counted in full or when the last page is reached; otherwise it is a lower bound (`gte`), never below the rows
 * paged so far.
 */
export async function findKeysetPage<Row = never>(pool: Pick<pg.Pool, 'query'>, query: KeysetQuery, rows?: InlineRows<Row>): Promise<KeysetPage<Row>> {
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

/** A cursor-style list type `{ data[], pagination }` of the given item type. */
export function cursorListRef<T>(name: string, item: ObjectRef<typeof builder.$inferSchemaTypes, T>, description: string) {
  return builder.objectRef<{ data: T[]; pagination: CursorPagination }>(name).implement({
    description,
    fields: (t) => ({
      data: t.field({ type: [item], resolve: (page) => page.data as never }),
      pagination: t.field({ type: CursorPaginationRef, resolve: (page) => page.pagination }),
    }),
  });
}
