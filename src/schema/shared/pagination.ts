import type { ObjectRef } from '@pothos/core';
import { z } from 'zod';
import { builder } from '../builder.js';
import { TotalRelationEnum, type TotalRelation } from './cursor.js';
import { searchBounds } from './search-page.js';

export type PagePagination = { page: number; limit: number; total: number; totalPages: number };

export const PagePaginationRef = builder.objectRef<PagePagination>('PagePagination').implement({
  description: 'Page-style pagination: `page` is 1-based; `totalPages` is 0 when nothing matches.',
  fields: (t) => ({
    page: t.exposeInt('page'),
    limit: t.exposeInt('limit'),
    total: t.exposeInt('total'),
    totalPages: t.exposeInt('totalPages'),
  }),
});

export type PageRequest = { page: number; limit: number };

/** `page` (>= 1, default 1) and `limit` (1..max) arguments of a page-style list. */
export function pageArgs(limits: { defaultLimit: number; maxLimit: number }) {
  return builder.args((t) => ({
    page: t.int({ defaultValue: 1, description: 'Page number, from 1.', validate: z.number().int().min(1) }),
    limit: t.int({
      defaultValue: limits.defaultLimit,
      description: `Rows per page, 1..${limits.maxLimit} (default ${limits.defaultLimit}).`,
      validate: z.number().int().min(1).max(limits.maxLimit),
    }),
  }));
}

/** The page a list was asked for: `page` and `limit` as validated by pageArgs, their defaults when omitted. */
export function pageRequest(args: { page?: number | null; limit?: number | null }, defaultLimit: number): PageRequest {
  return { page: args.page ?? 1, limit: args.limit ?? defaultLimit };
}

export function offsetOf({ page, limit }: PageRequest): number {
  return (page - 1) * limit;
}

export function pagePagination({ page, limit }: PageRequest, total: number): PagePagination {
  return { page, limit, total, totalPages: Math.ceil(total / limit) };
}

export type OffsetPagination = { limit: number; offset: number; total: number };

export const OffsetPaginationRef = builder.objectRef<OffsetPagination>('OffsetPagination').implement({
  description: 'Offset-style pagination: `offset` rows were skipped; `total` counts every match (a lower bound where the list\'s meta.totalRelation is gte).',
  fields: (t) => ({
    limit: t.exposeInt('limit'),
    offset: t.exposeInt('offset'),
    total: t.exposeInt('total'),
  }),
});

export type OffsetRequest = { limit: number; offset: number };

/** `limit` (1..max) and `offset` (>= 0, default 0) arguments of an offset-style list. */
export function offsetArgs(limits: { defaultLimit: number; maxLimit: number }) {
  return builder.args((t) => ({
    limit: t.int({
      defaultValue: limits.defaultLimit,
      description: `Rows to return, 1..${limits.maxLimit} (default ${limits.defaultLimit}).`,
      validate: z.number().int().min(1).max(limits.maxLimit),
    }),
    offset: t.int({ defaultValue: 0, description: 'Rows to skip, from 0.', validate: z.number().int().min(0) }),
  }));
}

export function offsetPagination({ limit, offset }: OffsetRequest, total: number): OffsetPagination {
  return { limit, offset, total };
}

/** A page found by SQL (ids in order, and the total; `totalRelation` gte when it is a lower bound) whose rows were loaded separately. */
export type IdPage = { ids: string[]; total: number; totalRelation?: TotalRelation };
/** What a searchable list says about its total. */
export type ListMeta = { totalRelation: TotalRelation };
export type RowPage = { data: { id: string }[]; pagination: PagePagination; meta?: ListMeta };

export const TOTAL_RELATION_DESCRIPTION =
  `eq: pagination.total counts every match. gte: the list matched more than ${searchBounds.totalCap.toLocaleString('en')} rows and counts no ` +
  'further, so pagination.total is a lower bound, never below the rows up to this page (and totalPages, where the list has it, is computed from it): ' +
  'page on until a page comes back short.';

export const ListMetaRef = builder.objectRef<ListMeta>('ListMeta').implement({
  description: 'About the list as a whole.',
  fields: (t) => ({ totalRelation: t.expose('totalRelation', { type: TotalRelationEnum, description: TOTAL_RELATION_DESCRIPTION }) }),
});

export const listMeta = (found: IdPage): ListMeta => ({ totalRelation: found.totalRelation ?? 'eq' });

/** The loaded rows in the order the SQL found them, with the page's pagination. */
export function pageInIdOrder<T extends { id: string }>(found: IdPage, rows: readonly T[], page: PageRequest): { data: T[]; pagination: PagePagination; meta: ListMeta } {
  const byId = new Map(rows.map((row) => [row.id, row]));
  return { data: found.ids.flatMap((id) => byId.get(id) ?? []), pagination: pagePagination(page, found.total), meta: listMeta(found) };
}

/** A page-style list type `{ data[], pagination }` of the given item type; a searchable list adds `meta` (ListMeta). */
export function pageListRef<T>(name: string, item: ObjectRef<typeof builder.$inferSchemaTypes, T>, description: string, options: { searchable?: boolean } = {}) {
  return builder.objectRef<RowPage>(name).implement({
    description,
    fields: (t) => ({
      data: t.field({ type: [item], resolve: (page) => page.data as never }),
      pagination: t.field({ type: PagePaginationRef, resolve: (page) => page.pagination }),
      ...(options.searchable ? { meta: t.field({ type: ListMetaRef, resolve: (page) => page.meta ?? { totalRelation: 'eq' as const } }) } : {}),
    }),
  });
}
