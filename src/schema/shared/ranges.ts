import { z } from 'zod';
import { Prisma } from '../../generated/prisma/client.js';

/** Inclusive bounds of a list filter; a missing or null bound is no bound. */
export type Range<T> = { min?: T | null; max?: T | null };

/** Adds `column >= min` and `column <= max` to a list's conditions, for the bounds that are set. */
export function range(column: Prisma.Sql, bounds: Range<number | bigint | Date> | undefined, out: Prisma.Sql[]): void {
  if (bounds?.min !== undefined && bounds.min !== null) out.push(Prisma.sql`${column} >= ${bounds.min}`);
  if (bounds?.max !== undefined && bounds.max !== null) out.push(Prisma.sql`${column} <= ${bounds.max}`);
}

const INT_MAX = 2_147_483_647;
const integer = '{name} must be an integer number';

// Bounds are validated for the column they are compared with, so a value PostgreSQL could not compare is the
// client's 400, never a failed statement: a fraction against an integer column, a number past its range.

/** A count stored in an `integer` column (days, products, likes): a whole number, 0..2,147,483,647. */
export const count = z.number().int(integer).min(0).max(INT_MAX);
/** A count stored in a `bigint` column (reach, views, visits): a whole number within JavaScript's exact integers. */
export const bigCount = z.number().int(integer).min(0).max(Number.MAX_SAFE_INTEGER);
/** An amount (money, a ratio, a CPM-priced estimate): a finite number, 0..10^15. */
export const amount = z.number().min(0).max(1e15);
/** A percentage, 0..100. */
export const percent = z.number().min(0).max(100);
