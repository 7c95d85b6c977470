import type { Prisma, PrismaClient } from '../../generated/prisma/client.js';
import type { IdPage } from './pagination.js';

export type IdPageQuery = {
  /** The id expression, e.g. a."id" (cast to text if it is not). */
  id: Prisma.Sql;
  /** `FROM … WHERE …` of the matches. */
  from: Prisma.Sql;
  orderBy: Prisma.Sql;
  limit: number;
  offset: number;
  /**
   * Whether the page must visit every match anyway (a text search, a computed order): then the total is
   * counted in the same statement, over the rows the page already scans (`count(*) OVER ()`). Otherwise the
   * page can stop early on an index and a separate count, run at the same time, is cheaper.
   */
  scansAllMatches: boolean;
};

/**
 * The ids of one page of matches, in order, and how many match in all. One statement when the page scans
 * every match anyway; a page past the end (no row to carry the count) counts in a second one.
 */
export async function findIdPage(prisma: PrismaClient, query: IdPageQuery): Promise<IdPage> {
  const { id, from, orderBy, limit, offset } = query;
  const count = () => prisma.$queryRaw<{ total: number }[]>`SELECT count(*)::int AS total ${from}`.then(([row]) => row.total);
  if (!query.scansAllMatches) {
    const [rows, total] = await Promise.all([
      prisma.$queryRaw<{ id: string }[]>`SELECT ${id} AS id ${from} ORDER BY ${orderBy} LIMIT ${limit} OFFSET ${offset}`,
      count(),
    ]);
    return { ids: rows.map((row) => row.id), total };
  }
  const rows = await prisma.$queryRaw<{ id: string; total: number }[]>`
    SELECT ${id} AS id, (count(*) OVER ())::int AS total ${from} ORDER BY ${orderBy} LIMIT ${limit} OFFSET ${offset}`;
  if (rows.length) return { ids: rows.map((row) => row.id), total: rows[0].total };
  return { ids: [], total: offset === 0 ? 0 : await count() };
}
