import { Prisma, type PrismaClient } from '../../generated/prisma/client.js';
import { pageInIdOrder, type IdPage, type PageRequest } from './pagination.js';

const sql = Prisma.sql;

/** One key of a list's order; the last key of every order is unique (the id), so pages never overlap. */
export type OrderKey = { key: Prisma.Sql; direction: 'ASC' | 'DESC' | 'ASC NULLS LAST' | 'DESC NULLS LAST' };

/** `k1 DESC, k2 ASC, …` for an ORDER BY (or a window's ORDER BY). */
export function orderBySql(keys: readonly OrderKey[]): Prisma.Sql {
  return Prisma.join(keys.map(({ key, direction }) => sql`${key} ${Prisma.raw(direction)}`), ', ');
}

export type IdPageQuery = {
  /** The id expression, e.g. a."id" (text). */
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
};

/** The ids of one page of matches, in order, and how many match in all. */
export async function findIdPage(prisma: PrismaClient, query: IdPageQuery): Promise<IdPage> {
  const { id, from, order, limit, offset } = query;
  if (!query.scansAllMatches) {
    const [rows, [{ total }]] = await Promise.all([
      prisma.$queryRaw<{ id: string }[]>`SELECT ${id} AS id ${from} ORDER BY ${orderBySql(order)} LIMIT ${limit} OFFSET ${offset}`,
      prisma.$queryRaw<{ total: number }[]>`SELECT count(*)::int AS total ${from}`,
    ]);
    return { ids: rows.map((row) => row.id), total };
  }
  const columns = order.map((_, index) => Prisma.raw(`o${index}`));
  const keys = Prisma.join(order.map(({ key }, index) => sql`${key} AS ${columns[index]}`), ', ');
  const byColumns = (prefix: string) => orderBySql(order.map(({ direction }, index) => ({ key: Prisma.raw(`${prefix}o${index}`), direction })));
  // The count row is always there, so a page past the end still reports the total (with no id).
  const rows = await prisma.$queryRaw<{ id: string | null; total: number }[]>`
    WITH matches AS MATERIALIZED (SELECT ${id} AS id, ${keys} ${from})
    SELECT p.id, t.total
    FROM (SELECT count(*)::int AS total FROM matches) t
    LEFT JOIN LATERAL (SELECT * FROM matches ORDER BY ${byColumns('')} LIMIT ${limit} OFFSET ${offset}) p ON TRUE
    ORDER BY ${byColumns('p.')}`;
  return { ids: rows.flatMap((row) => (row.id === null ? [] : [row.id])), total: rows[0].total };
}

/**
 * A page found by SQL, its rows loaded by id in one statement (`load`, usually Prisma with the request's
 * selection), in the order SQL found them: the second half of every list of ids.
 */
export async function loadIdPage<T extends { id: string }>(found: IdPage, page: PageRequest, load: (ids: string[]) => Promise<T[]>) {
  return pageInIdOrder(found, found.ids.length ? await load(found.ids) : [], page);
}
