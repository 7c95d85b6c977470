import type { ObjectRef } from '@pothos/core';
import { z } from 'zod';
import { builder } from '../builder.js';

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
  description: 'Offset-style pagination: `offset` rows were skipped; `total` counts every match.',
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

/** A page found by SQL (ids in order, and the total) whose rows were loaded separately. */
export type IdPage = { ids: string[]; total: number };
export type RowPage = { data: { id: string }[]; pagination: PagePagination };

/** The loaded rows in the order the SQL found them, with the page's pagination. */
export function pageInIdOrder<T extends { id: string }>(found: IdPage, rows: readonly T[], page: PageRequest): { data: T[]; pagination: PagePagination } {
  const byId = new Map(rows.map((row) => [row.id, row]));
  return { data: found.ids.flatMap((id) => byId.get(id) ?? []), pagination: pagePagination(page, found.total) };
}

/** A page-style list type `{ data[], pagination }` of the given item type. */
export function pageListRef<T>(name: string, item: ObjectRef<typeof builder.$inferSchemaTypes, T>, description: string) {
  return builder.objectRef<RowPage>(name).implement({
    description,
    fields: (t) => ({
      data: t.field({ type: [item], resolve: (page) => page.data as never }),
      pagination: t.field({ type: PagePaginationRef, resolve: (page) => page.pagination }),
    }),
  });
}
