import type { ObjectRef } from '@pothos/core';
import { z } from 'zod';
import { Prisma, type PrismaClient } from '../../generated/prisma/client.js';
import { builder } from '../builder.js';
import { escapeLike } from './like.js';
import { findRowsPage, listRef, offsetArgs, offsetRequest, orderBySql, type OffsetPagination, type OrderKey } from './list.js';

// Facet lists: the values a filter accepts, with how often each is used, searchable by label, paged by
// offset. Every facet list runs in SQL through facetPage (or facetList for a closed set shown whole), whatever
// its values come from: a table, an enum, or labels computed in TypeScript (labelTable).

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

export type FacetPage<T> = { data: T[]; pagination: OffsetPagination };

function whereOf(query: FacetQuery, search: string | null | undefined): Prisma.Sql {
  const conditions = [...(query.where ?? [])];
  const text = search?.trim();
  if (text) {
    const pattern = `%${escapeLike(text)}%`;
    conditions.push(Prisma.sql`(${Prisma.join(query.labels.map((label) => Prisma.sql`${label} ILIKE ${pattern}`), ' OR ')})`);
  }
  return conditions.length ? Prisma.sql`WHERE ${Prisma.join(conditions, ' AND ')}` : Prisma.empty;
}

/** One page of a facet list and how many values match: two statements, run together. */
export async function facetPage<T>(
  prisma: PrismaClient,
  query: FacetQuery,
  args: { search?: string | null; limit?: number | null; offset?: number | null },
): Promise<FacetPage<T>> {
  const from = Prisma.sql`${query.from} ${whereOf(query, args.search)}`;
  const { data, pagination } = await findRowsPage<T>(prisma, { select: query.select, from, order: query.order, page: offsetRequest(args, FACET_LIMITS.defaultLimit) });
  return { data, pagination };
}

/** Every value of a small closed facet (an enum's values), in order: one statement, no paging. */
export function facetList<T>(prisma: PrismaClient, query: FacetQuery): Promise<T[]> {
  return prisma.$queryRaw<T[]>`SELECT ${query.select} ${query.from} ${whereOf(query, null)} ORDER BY ${orderBySql(query.order)}`;
}

/**
 * Values and their labels computed in TypeScript (enum labels, country names) as rows `alias("value", "label")`
 * for a facet's FROM, sent as two parameter arrays: the labels are searched and sorted in SQL like any column.
 */
export function labelTable(alias: string, labels: ReadonlyArray<readonly [value: string, label: string]>): Prisma.Sql {
  const values = labels.map(([value]) => value);
  const names = labels.map(([, label]) => label);
  return Prisma.sql`unnest(${values}::text[], ${names}::text[]) AS ${Prisma.raw(alias)}("value", "label")`;
}

/** A facet page type `{ data[], pagination }` of the given item type. */
export function facetPageRef<T>(name: string, item: ObjectRef<typeof builder.$inferSchemaTypes, T>) {
  return listRef<T, FacetPage<T>>(name, item, { style: 'offset' });
}
