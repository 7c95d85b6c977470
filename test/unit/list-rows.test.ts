import { describe, expect, it } from 'vitest';
import { findModelPage, type ListMeta, type ListRows, listRef } from '../../src/schema/shared/list.js';

// The list engine's row contracts (issue #34): rows without a text `id` must say how to read theirs (a type error
// otherwise, checked by `npm run typecheck`), and a Prisma model's page runs its rows and count together.

describe('list rows', () => {
  it('requires idOf for rows without a text id, and only for those', () => {
    const byText: ListRows<{ id: string }> = { load: async (ids) => ids.map((id) => ({ id })) };
    // @ts-expect-error a numeric id: without idOf the rows could not be put back in the page's order
    const forgotten: ListRows<{ id: number }> = { load: async (ids) => ids.map(Number).map((id) => ({ id })) };
    const numeric: ListRows<{ id: number }> = { load: async (ids) => ids.map(Number).map((id) => ({ id })), idOf: (row) => String(row.id) };
    expect([byText, forgotten, numeric].every((rows) => typeof rows.load === 'function')).toBe(true);
  });

  it('lets only a list whose meta is a ListMeta be searchable (the meta field it adds reads a ListMeta)', () => {
    type Options<P extends { data: unknown[]; pagination: unknown; meta?: unknown }> = Parameters<typeof listRef<unknown, P>>[2];
    const listMeta: Options<{ data: []; pagination: null; meta?: ListMeta }> = { style: 'page', searchable: true };
    // @ts-expect-error a meta of its own is declared in `fields`: the ListMeta field would answer it wrongly
    const ownMeta: Options<{ data: []; pagination: null; meta: { reason: string } }> = { style: 'page', searchable: true };
    expect([listMeta, ownMeta].every((options) => options.searchable === true)).toBe(true);
  });

  it('pages a model: skip and take from the request, the count beside them, the page object of the other entries', async () => {
    const calls: string[] = [];
    const query = {
      rows: async (skip: number, take: number) => (calls.push(`rows ${skip} ${take}`), [{ id: 'a' }]),
      count: async () => (calls.push('count'), 41),
    };
    expect(await findModelPage({ page: 3, limit: 20 }, query)).toEqual({
      data: [{ id: 'a' }],
      pagination: { page: 3, limit: 20, total: 41, totalPages: 3 },
      meta: { totalRelation: 'eq' },
    });
    expect(await findModelPage({ limit: 5, offset: 7 }, query)).toEqual({ data: [{ id: 'a' }], pagination: { limit: 5, offset: 7, total: 41 }, meta: { totalRelation: 'eq' } });
    expect(calls).toEqual(['rows 40 20', 'count', 'rows 7 5', 'count']);
  });
});
