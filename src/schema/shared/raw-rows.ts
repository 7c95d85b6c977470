import type pg from 'pg';
import type { Prisma, PrismaClient } from '../../generated/prisma/client.js';

/**
 * Where a list's raw statements run: Prisma's client, or the pg pool under it. A statement sent on the pool skips
 * Prisma's raw-query layer (about half a millisecond of Node's time a statement), for the hot lists that pass it.
 */
export type SqlSource = PrismaClient | Pick<pg.Pool, 'query'>;

/** The rows of a statement built with Prisma.sql (values as parameters), on either source. */
export async function rawRows<T>(db: SqlSource, statement: Prisma.Sql): Promise<T[]> {
  if ('$queryRaw' in db) return db.$queryRaw<T[]>(statement);
  return (await db.query(statement.text, statement.values)).rows as T[];
}
