import type pg from 'pg';

// Table digests for tests that prove a write changed nothing (or something): one digest of every row's text per
// table, so any changed value shows.

/** A digest of every row's text (`where` narrows it), with the row count: `n:md5`. */
export async function checksum(pool: pg.Pool, table: string, where = 'true'): Promise<string> {
  const { rows } = await pool.query<{ sum: string | null; n: number }>(
    `SELECT md5(string_agg(r::text, '|' ORDER BY r::text)) AS sum, count(*)::int AS n FROM "${table}" r WHERE ${where}`,
  );
  return `${rows[0].n}:${rows[0].sum}`;
}

/** `checksum` of each table. */
export async function checksums(pool: pg.Pool, tables: readonly string[]): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const table of tables) out[table] = await checksum(pool, table);
  return out;
}
