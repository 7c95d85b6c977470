import { Prisma } from '../../generated/prisma/client.js';
import { orderColumns, type OrderKey } from './order-keys.js';

// Past the cap, a relevance search ranks the first `candidates` matches in the list's order (search-page.ts). Found
// by the text index alone, they cost a read of every match's row to learn its order key: a common phrase's 7,200
// rows at the bench's medium scale, growing with the market. When the list's first order key is a column that the
// text index holds too (a btree_gin column, as the emails' "sentAt"), one index scan answers "the matches among the
// first k rows of the table in that order", reading only those matches' rows. Windows of growing k are tried in
// turn; the first that holds `candidates` matches holds the first candidates of all, since every row outside it
// comes later in the order (a window takes every row tied with its k-th). When none does, all matches are read,
// as without windows. Each window's bound is the k-th row's key, read from the column's btree (an index-only scan).

/**
 * The list's first order key as a column of the searched table: NOT NULL, with a btree index of its own and a
 * column of the text index (btree_gin). `table` and `column` are SQL identifiers, e.g. "emails" and "sentAt".
 */
export type LeadingColumn = { table: Prisma.Sql; column: Prisma.Sql };

export type Windows = {
  /** `, w0 AS MATERIALIZED (…), w1 …`: CTEs to follow `counted` (the capped count of the matches). */
  ctes: Prisma.Sql;
  /** `UNION ALL (…) …`: the `firsts` branches taking a window's matches, each when it is the first that holds enough. */
  taken: Prisma.Sql;
  /** True when no window held enough: the last resort, every match, may run. */
  noneTaken: Prisma.Sql;
};

const sql = Prisma.sql;

/**
 * The windows' CTEs for a search of `from` (its rows `id AS id, t, o0, o1, …`), run only when more than `cap` matched
 * (`overCap`). Without a leading column (or windows), nothing: the last resort is the only way.
 */
export function leadingWindows(q: {
  leading?: LeadingColumn;
  rows: Prisma.Sql;
  from: Prisma.Sql;
  order: readonly OrderKey[];
  overCap: Prisma.Sql;
  candidates: number;
  sizes: readonly number[];
}): Windows {
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
