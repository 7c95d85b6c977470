import type pg from 'pg';
import { HISTORY_TABLES, type HistoryTable } from '../../src/db/partitions.js';

// What the partition tests read of a database: each history table's rows (a count and a digest of every row), its
// partitions and where its rows are.

export type Digest = { rows: number; md5: string | null };

/** Each history table's row count and the md5 of its rows in a fixed order (the same rows give the same digest). */
export async function digests(pool: pg.Pool): Promise<Record<HistoryTable, Digest>> {
  const out = {} as Record<HistoryTable, Digest>;
  for (const table of HISTORY_TABLES) {
    const { rows: [row] } = await pool.query<Digest>(`SELECT count(*)::int AS rows, md5(string_agg(t::text, E'\\n' ORDER BY t::text)) AS md5 FROM "${table}" t`);
    out[table] = row;
  }
  return out;
}

/** The partitions of `table` with their bounds as PostgreSQL prints them and their row counts. */
export async function partitionsOf(pool: pg.Pool, table: HistoryTable): Promise<{ name: string; bound: string; rows: number }[]> {
  const { rows } = await pool.query<{ name: string; bound: string }>(
    `SELECT c.relname AS name, pg_get_expr(c.relpartbound, c.oid) AS bound FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
     WHERE i.inhparent = $1::regclass ORDER BY c.relname`,
    [`"${table}"`],
  );
  const out = [];
  for (const row of rows) {
    const { rows: [count] } = await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${row.name}"`);
    out.push({ ...row, rows: count.n });
  }
  return out;
}

/** The months (YYYY-MM-01) of the rows of `table`. */
export async function monthsOfRows(pool: pg.Pool, table: HistoryTable): Promise<string[]> {
  const { rows } = await pool.query<{ month: string }>(`SELECT DISTINCT to_char(date_trunc('month', "date"), 'YYYY-MM-DD') AS month FROM "${table}" ORDER BY 1`);
  return rows.map((row) => row.month);
}

/** `<table>_pYYYYMM` of a month YYYY-MM-01. */
export const partitionOf = (table: string, month: string) => `${table}_p${month.slice(0, 4)}${month.slice(5, 7)}`;
