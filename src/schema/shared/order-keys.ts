import { Prisma } from '../../generated/prisma/client.js';

/** One key of a list's order; the last key of every order is unique (the id), so pages never overlap. */
export type OrderKey = { key: Prisma.Sql; direction: 'ASC' | 'DESC' | 'ASC NULLS LAST' | 'DESC NULLS LAST' };

/** `k1 DESC, k2 ASC, …` for an ORDER BY (or a window's ORDER BY). */
export function orderBySql(keys: readonly OrderKey[]): Prisma.Sql {
  return Prisma.join(keys.map(({ key, direction }) => Prisma.sql`${key} ${Prisma.raw(direction)}`), ', ');
}

/** The keys as output columns `o0, o1, …` of a select list, and an ORDER BY on those columns (optionally qualified). */
export function orderColumns(keys: readonly OrderKey[]) {
  const name = (index: number) => Prisma.raw(`o${index}`);
  return {
    select: Prisma.join(keys.map(({ key }, index) => Prisma.sql`${key} AS ${name(index)}`), ', '),
    orderBy: (prefix = '') => orderBySql(keys.map(({ direction }, index) => ({ key: Prisma.raw(`${prefix}o${index}`), direction }))),
  };
}
