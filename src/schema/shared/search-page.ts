import { Prisma } from '../../generated/prisma/client.js';
import type { InlineRows, TotalRelation } from './cursor.js';
import { orderBySql, orderColumns, type OrderKey } from './order-keys.js';
import { rawRows, type SqlSource } from './raw-rows.js';
import { leadingWindows, type LeadingColumn } from './search-windows.js';

// A text search's page at a cost bounded whatever the number of matches: a common word matches a quarter of a
// table, and ranking or counting every match would make the first page as slow as the market is large.
//
// - Total: the matches are counted up to `totalCap` (1,000); beyond it the total is a lower bound (`totalRelation`
//   gte), like a search engine's. A page far down the list still reports at least the rows before it. Counting to
//   10,000 made the count the whole cost of a common word's first page, growing with the market until the cap (a
//   bitmap of every match, then 10,001 rows read): at 1,000 a first page costs about the same at every scale.
// - Relevance: the `candidates` first matches in the list's own order (an index order, e.g. reach, so that
//   finding them stops early on a common word, while a rare word's few matches come from its text index) are
//   ranked by text rank; the other matches follow them in the list's order. When fewer match, every match is
//   ranked. One statement either way, the count included. 250 candidates: past the cap they come from a walk of
//   the list's index that stops at the 250th match (at the bench's medium scale a brand word walked 18,000
//   advertisers to find 1,000), and a first page of 25 is ranked among ten times as many.
//   When the list's first order key is in the text index too, the candidates past the cap are looked for among the
//   first rows in that order (search-windows.ts), reading only the matches there instead of every match.
// - Any other order: the page in that order (an index stops early), with the same capped count.

/**
 * The bounds of a list's cost: a text search's (and a searchable list's filtered) total counted up to `totalCap`,
 * a relevance rank over `candidates` matches, looked for past the cap in `windows` of the first rows in the list's order
 * when it leads with a column of the text index (search-windows.ts). One window: a phrase in 5% of the rows has its
 * 250 first among the first 5,000 at any scale; each window is planned with every statement, used or not, and a
 * second one (40,000) cost the small market's page of S11 a fifth of its throughput. Tests lower them to reach them
 * with a few rows.
 */
export const searchBounds = { totalCap: 1_000, candidates: 250, windows: [5_000] as readonly number[] };

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

export type SearchPageQuery = {
  /** The id column of the searched table, as `alias."id"` (read back as text). */
  id: Prisma.Sql;
  /** `FROM … WHERE …` of the matches (the text condition included). */
  from: Prisma.Sql;
  /** The list's order, without the text rank; its last key is unique. */
  order: readonly OrderKey[];
  /** The text rank (higher first), when the list is sorted by relevance. */
  rank: Prisma.Sql | null;
  limit: number;
  offset: number;
  /** The first order key as a column that the text index holds too: past the cap, candidates are found in windows. */
  leading?: LeadingColumn;
};

export type SearchPage = { ids: string[]; total: number; totalRelation: TotalRelation };

const sql = Prisma.sql;

/**
 * The physical address (ctid) of the row whose id is `id` (`alias."id"`): a relevance rank reads each candidate again
 * by it, a TID scan, about half the cost of a walk down the primary key (within one statement, one snapshot, a
 * row's address stays its own).
 */
function rowAddress(id: Prisma.Sql): Prisma.Sql {
  const alias = /^([a-z_][a-z0-9_]*)\."id"$/.exec(id.sql.trim())?.[1];
  if (!alias || id.values.length) throw new Error(`findSearchPage: the id must be a table's "id" column (alias."id"), not ${id.sql}`);
  return Prisma.raw(`${alias}.ctid`);
}

/** The page's ids in order, the (capped) total and, given `inline`, the page's rows: one statement. */
export async function findSearchPage<Row = never>(db: SqlSource, query: SearchPageQuery, inline?: InlineRows<Row>): Promise<SearchPage & { rows?: Row[] }> {
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
    // The page's rows in the same statement (as shared/cursor.ts's keyset pages load theirs): one round trip.
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
