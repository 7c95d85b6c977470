import { Prisma, type PrismaClient } from '../../generated/prisma/client.js';
import type { TotalRelation } from './cursor.js';
import { orderBySql, orderColumns, type OrderKey } from './order-keys.js';

// A text search's page at a cost bounded whatever the number of matches: a common word matches a quarter of a
// table, and ranking or counting every match would make the first page as slow as the market is large.
//
// - Total: the matches are counted up to `totalCap`; beyond it the total is a lower bound (`totalRelation`
//   gte), like a search engine's. A page far down the list still reports at least the rows before it.
// - Relevance: the `candidates` first matches in the list's own order (an index order, e.g. reach, so that
//   finding them stops early on a common word, while a rare word's few matches come from its text index) are
//   ranked by text rank; the other matches follow them in the list's order. When fewer match, every match is
//   ranked. One statement either way, the count included.
// - Any other order: the page in that order (an index stops early), with the same capped count.

/** The bounds of a search's cost; tests lower them to reach them with a few rows. */
export const searchBounds = { totalCap: 10_000, candidates: 1_000 };

export type SearchPageQuery = {
  /** The id expression, e.g. a."id" (text). */
  id: Prisma.Sql;
  /** `FROM … WHERE …` of the matches (the text condition included). */
  from: Prisma.Sql;
  /** The list's order, without the text rank; its last key is unique. */
  order: readonly OrderKey[];
  /** The text rank (higher first), when the list is sorted by relevance. */
  rank: Prisma.Sql | null;
  limit: number;
  offset: number;
};

export type SearchPage = { ids: string[]; total: number; totalRelation: TotalRelation };

const sql = Prisma.sql;

/** The page of ids in order and the (capped) total, in one statement. */
export async function findSearchPage(prisma: PrismaClient, query: SearchPageQuery): Promise<SearchPage> {
  const { id, from, order, rank, limit, offset } = query;
  const { totalCap, candidates } = searchBounds;
  const columns = orderColumns(order);
  const inOrder = (rows: number, skip: number) =>
    sql`SELECT ${id} AS id, 1 AS part, NULL::float8 AS r, ${columns.select} ${from} ORDER BY ${orderBySql(order)} LIMIT ${rows} OFFSET ${skip}`;
  let ranked = Prisma.empty;
  const parts: Prisma.Sql[] = [];
  if (!rank) parts.push(inOrder(limit, offset));
  else {
    ranked = sql`WITH candidates AS MATERIALIZED (
      SELECT ${id} AS id, (${rank})::float8 AS r, ${columns.select} ${from} ORDER BY ${orderBySql(order)} LIMIT ${candidates})`;
    if (offset < candidates) {
      parts.push(sql`(SELECT id, 0 AS part, r, ${Prisma.join(order.map((_, i) => Prisma.raw(`o${i}`)), ', ')}
        FROM candidates ORDER BY r DESC, ${columns.orderBy()} LIMIT ${Math.min(limit, candidates - offset)} OFFSET ${offset})`);
    }
    const start = Math.max(offset, candidates);
    if (offset + limit > start) parts.push(sql`(${inOrder(offset + limit - start, start)})`);
  }
  // The count row is always there, so a page past the end still reports the total (with no id).
  const rows = await prisma.$queryRaw<{ id: string | null; total: number }[]>`
    ${ranked}
    SELECT p.id, t.total
    FROM (SELECT count(*)::int AS total FROM (SELECT 1 ${from} LIMIT ${totalCap + 1}) m) t
    LEFT JOIN LATERAL (${Prisma.join(parts, ' UNION ALL ')}) p ON TRUE
    ORDER BY p.part, p.r DESC, ${columns.orderBy('p.')}`;
  const ids = rows.flatMap((row) => (row.id === null ? [] : [row.id]));
  const counted = rows[0].total;
  if (counted <= totalCap) return { ids, total: counted, totalRelation: 'eq' };
  return { ids, total: Math.max(totalCap, offset + ids.length), totalRelation: 'gte' };
}
