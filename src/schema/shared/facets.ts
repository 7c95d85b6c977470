import { z } from 'zod';
import { Prisma, type PrismaClient } from '../../generated/prisma/client.js';
import { builder } from '../builder.js';
import { orderBySql, type OrderKey } from './id-page.js';
import { escapeLike } from './like.js';
import { offsetArgs, offsetPagination, type OffsetPagination, type OffsetRequest } from './pagination.js';

// Facet lists: the values a filter accepts, with how often each is used, searchable by label, paged by
// offset. Every facet list pages in SQL through facetPage, whatever its values come from.

export const FACET_LIMITS = { defaultLimit: 100, maxLimit: 500 };

/** `search` (matched inside any label, case-insensitive, at most 200 characters), `limit` 1..500 (default 100), `offset`. */
export function facetArgs() {
  return builder.args((t) => ({
    search: t.string({ description: 'Matches inside the label (case-insensitive).', validate: z.string().max(200) }),
    ...offsetArgs(FACET_LIMITS),
  }));
}

export type FacetQuery = {
  /** The item's columns, as the list's type reads them (`c."id", c."name", … AS "usageCount"`). */
  select: Prisma.Sql;
  /** `FROM …` with its joins, no WHERE. */
  from: Prisma.Sql;
  /** Conditions every value meets, whatever the search. */
  where?: Prisma.Sql[];
  /** What the search is matched against (names, labels, paths, slugs). */
  labels: Prisma.Sql[];
  /** Most used first, by convention; the last key is unique, so pages never overlap. */
  order: OrderKey[];
};

/** One page of a facet list and how many values match: two statements, run together. */
export async function facetPage<T>(
  prisma: PrismaClient,
  query: FacetQuery,
  args: { search?: string | null; limit?: number | null; offset?: number | null },
): Promise<{ data: T[]; pagination: OffsetPagination }> {
  const request: OffsetRequest = { limit: args.limit ?? FACET_LIMITS.defaultLimit, offset: args.offset ?? 0 };
  const conditions = [...(query.where ?? [])];
  const search = args.search?.trim();
  if (search) {
    const pattern = `%${escapeLike(search)}%`;
    conditions.push(Prisma.sql`(${Prisma.join(query.labels.map((label) => Prisma.sql`${label} ILIKE ${pattern}`), ' OR ')})`);
  }
  const where = conditions.length ? Prisma.sql`WHERE ${Prisma.join(conditions, ' AND ')}` : Prisma.empty;
  const [data, [{ total }]] = await Promise.all([
    prisma.$queryRaw<T[]>`SELECT ${query.select} ${query.from} ${where} ORDER BY ${orderBySql(query.order)} LIMIT ${request.limit} OFFSET ${request.offset}`,
    prisma.$queryRaw<{ total: number }[]>`SELECT count(*)::int AS total ${query.from} ${where}`,
  ]);
  return { data, pagination: offsetPagination(request, total) };
}
