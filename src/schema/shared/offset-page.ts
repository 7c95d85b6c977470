import type { ObjectRef } from '@pothos/core';
import { builder } from '../builder.js';
import { OffsetPaginationRef, offsetPagination, type IdPage, type OffsetPagination, type OffsetRequest } from './pagination.js';

// The offset-style twin of loadIdPage/pageListRef: a page of ids found by SQL, its rows loaded in one
// statement, returned in the SQL's order with `{ limit, offset, total }`.

export type OffsetRowPage<T = { id: string }> = { data: T[]; pagination: OffsetPagination };

export async function loadOffsetPage<T extends { id: string }>(found: IdPage, request: OffsetRequest, load: (ids: string[]) => Promise<T[]>): Promise<OffsetRowPage<T>> {
  const rows = found.ids.length ? await load(found.ids) : [];
  const byId = new Map(rows.map((row) => [row.id, row]));
  return { data: found.ids.flatMap((id) => byId.get(id) ?? []), pagination: offsetPagination(request, found.total) };
}

/** An offset-style list type `{ data[], pagination }` of the given item type. */
export function offsetListRef<T>(name: string, item: ObjectRef<typeof builder.$inferSchemaTypes, T>, description: string) {
  return builder.objectRef<OffsetRowPage>(name).implement({
    description,
    fields: (t) => ({
      data: t.field({ type: [item], resolve: (page) => page.data as never }),
      pagination: t.field({ type: OffsetPaginationRef, resolve: (page) => page.pagination }),
    }),
  });
}
