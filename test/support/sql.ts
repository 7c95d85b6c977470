import type { TestDatabase } from './database.js';

/** Rows of a query that should return none (at most 5); returned so a failure shows the offenders. */
export async function offenders(db: TestDatabase, sql: string, params: unknown[] = []): Promise<unknown[]> {
  return (await db.pool.query(`${sql} LIMIT 5`, params)).rows;
}

/** The first row of a query. */
export async function one<T = Record<string, number>>(db: TestDatabase, sql: string, params: unknown[] = []): Promise<T> {
  return (await db.pool.query(sql, params)).rows[0] as T;
}

/** Each table's row count, as `seedMarket` reports them (for a file that starts from a template copy of a market). */
export async function tableCounts(db: TestDatabase, tables: readonly string[]): Promise<Record<string, number>> {
  const { rows } = await db.pool.query<{ t: string; n: number }>(tables.map((table) => `SELECT '${table}' AS t, count(*)::int AS n FROM "${table}"`).join(' UNION ALL '));
  return Object.fromEntries(rows.map((row) => [row.t, row.n]));
}

/** `offenders` and `one` bound to a test file's database (read when called, so it may be set in beforeAll). */
export function sqlProbe(database: () => TestDatabase) {
  return {
    offenders: (sql: string, params: unknown[] = []) => offenders(database(), sql, params),
    one: <T = Record<string, number>>(sql: string, params: unknown[] = []) => one<T>(database(), sql, params),
  };
}
