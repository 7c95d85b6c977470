import { Prisma } from '../../generated/prisma/client.js';
import { orderBySql, orderColumns, type OrderKey } from './order-keys.js';
import { pageInIdOrder, type IdPage, type PageRequest } from './pagination.js';
import type { InlineRows } from './cursor.js';
import { rawRows, type SqlSource } from './raw-rows.js';
import { boundedTotal, findSearchPage, searchBounds } from './search-page.js';
import type { LeadingColumn } from './search-windows.js';

export { orderBySql, type OrderKey };

export type IdPageQuery = {
  /** The id column, e.g. a."id" (read back as text; a column rather than an expression lets a search reach its key). */
  id: Prisma.Sql;
  /** `FROM … WHERE …` of the matches. */
  from: Prisma.Sql;
  order: readonly OrderKey[];
  limit: number;
  offset: number;
  /**
   * Whether the page must visit every match anyway (a text search, a computed order). Then the matches are
   * read once, narrowed to their id and order keys (a relevance rank is computed once per match), and both
   * the total and the page come from that: one statement, one scan. Otherwise the page can stop early on an
   * index, and a separate count, run at the same time, is cheaper.
   */
  scansAllMatches: boolean;
  /**
   * A text search (its condition is in `from`): unless the order is computed (`scansAllMatches`), the page and a
   * total counted up to a cap come from shared/search-page.ts at a cost bounded whatever the number of matches,
   * `rank` (the text rank, when sorted by relevance) ranking a bounded set of candidates ahead of `order`. With
   * a computed order every match is visited anyway: the rank then orders all of them and the total is exact.
   * `leading`: the order's first key is a column of the text index (search-windows.ts).
   */
  search?: { rank: Prisma.Sql | null; leading?: LeadingColumn };
  /**
   * A list that reports `meta.totalRelation`: without a text search too, its total is counted up to a cap
   * (search-page.ts `boundedTotal`), so that a broad filter's first page does not read every match to count it.
   */
  boundedTotal?: boolean;
};

/**
 * The ids of one page of matches, in order, and how many match in all; given `inline`, a text search's page also
 * brings its rows (`rows`; any other page leaves them to the caller).
 */
export async function findIdPage<Row = never>(db: SqlSource, query: IdPageQuery, inline?: InlineRows<Row>): Promise<IdPage & { rows?: Row[] }> {
  const { id, from, limit, offset, search } = query;
  if (search && !query.scansAllMatches) return findSearchPage(db, { id, from, order: query.order, rank: search.rank, leading: search.leading, limit, offset }, inline);
  // Visiting every match anyway, the text rank (if any) orders all of them.
  const order: readonly OrderKey[] = search?.rank ? [{ key: search.rank, direction: 'DESC' }, ...query.order] : query.order;
  if (!query.scansAllMatches) {
    const matches = query.boundedTotal ? Prisma.sql`(SELECT 1 ${from} LIMIT ${searchBounds.totalCap + 1}) m` : null;
    const [rows, [{ total }]] = await Promise.all([
      rawRows<{ id: string }>(db, Prisma.sql`SELECT (${id})::text AS id ${from} ORDER BY ${orderBySql(order)} LIMIT ${limit} OFFSET ${offset}`),
      rawRows<{ total: number }>(db, matches ? Prisma.sql`SELECT count(*)::int AS total FROM ${matches}` : Prisma.sql`SELECT count(*)::int AS total ${from}`),
    ]);
    const ids = rows.map((row) => row.id);
    return { ids, ...(matches ? boundedTotal(total, { offset, limit, rows: ids.length }) : { total }) };
  }
  const { select: keys, orderBy: byColumns } = orderColumns(order);
  // The count row is always there, so a page past the end still reports the total (with no id).
  const rows = await rawRows<{ id: string | null; total: number }>(db, Prisma.sql`
    WITH matches AS MATERIALIZED (SELECT ${id} AS id, ${keys} ${from})
    SELECT p.id::text AS id, t.total
    FROM (SELECT count(*)::int AS total FROM matches) t
    LEFT JOIN LATERAL (SELECT * FROM matches ORDER BY ${byColumns()} LIMIT ${limit} OFFSET ${offset}) p ON TRUE
    ORDER BY ${byColumns('p.')}`);
  return { ids: rows.flatMap((row) => (row.id === null ? [] : [row.id])), total: rows[0].total };
}

/**
 * A page found by SQL, its rows loaded by id in one statement (`load`, usually Prisma with the request's
 * selection), in the order SQL found them: the second half of every list of ids.
 */
export async function loadIdPage<T extends { id: string }>(found: IdPage, page: PageRequest, load: (ids: string[]) => Promise<T[]>) {
  return pageInIdOrder(found, found.ids.length ? await load(found.ids) : [], page);
}
