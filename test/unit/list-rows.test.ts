import { describe, expect, it } from 'vitest';
import { Prisma } from '../../src/generated/prisma/client.js';
import { findComputedPage, findModelPage, type ListMeta, type ListRows, listRef } from '../../src/schema/shared/list.js';

// The list engine's row contracts (issue #34): rows without a text `id` must say how to read theirs (a type error
// otherwise, checked by `npm run typecheck`), a Prisma model's page runs its rows and count together, and a computed
// page's options compose one statement.

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

  it("pages computed rows with the options the analytics need: CTEs before, a total and aggregates over all, what the page's rows show, prepared", async () => {
    const sent: { name?: string; text: string }[] = [];
    // A page past the end: the one row carries the total and the summary, no page row.
    let rows: Record<string, unknown>[] = [{ k: null, shown: null, __listRow: null, __listTotal: 9, __listSummary0: 'z' }];
    const pool = { query: async (config: { name?: string; text: string }) => (sent.push(config), { rows }) };
    const sql = Prisma.sql;
    const query = {
      with: sql`s AS (SELECT 1 AS one)`,
      rows: sql`SELECT 'a' AS k FROM s`,
      order: (prefix: string) => Prisma.raw(`${prefix}k ASC`),
      total: sql`SELECT 9 AS total`,
      summary: { last: sql`max(m.k)` },
      after: { with: sql`q AS (SELECT * FROM p)`, columns: sql`q.k AS shown`, joins: sql`LEFT JOIN q ON q.k = p.k` },
      page: { page: 5, limit: 2 },
      prepared: true,
    };
    const found = await findComputedPage<{ k: string; shown: string }, { last: string | null }>(pool as never, query);
    expect(found).toEqual({ data: [], pagination: { page: 5, limit: 2, total: 9, totalPages: 5 }, meta: { totalRelation: 'eq' }, summary: { last: 'z' } });
    expect(sent[0].name).toMatch(/^mi_/);
    expect(sent[0].text.replace(/\s+/g, ' ').trim()).toBe(
      'WITH s AS (SELECT 1 AS one), m AS MATERIALIZED (SELECT \'a\' AS k FROM s), p AS MATERIALIZED (SELECT m.*, 1 AS "__listRow" FROM m ORDER BY m.k ASC LIMIT $1 OFFSET $2), q AS (SELECT * FROM p) ' +
        'SELECT p.*, t.total AS "__listTotal", u.*, q.k AS shown FROM (SELECT 9 AS total) t CROSS JOIN (SELECT max(m.k) AS "__listSummary0" FROM m) u ' +
        'LEFT JOIN p ON TRUE LEFT JOIN q ON q.k = p.k ORDER BY p.k ASC',
    );
    rows = [{ k: 'a', shown: 'a', __listRow: 1, __listTotal: 1, __listSummary0: 'a' }];
    expect((await findComputedPage<{ k: string; shown: string }, { last: string | null }>(pool as never, { ...query, page: { page: 1, limit: 2 } })).data).toEqual([{ k: 'a', shown: 'a' }]);
    const prisma = { $queryRaw: async () => [] };
    await expect(findComputedPage(prisma as never, { rows: sql`SELECT 1`, order: () => sql`1`, page: { page: 1, limit: 1 }, prepared: true })).rejects.toThrow(/pool/);
  });
});

