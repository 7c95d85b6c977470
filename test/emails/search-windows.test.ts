import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailList } from '../../src/schema/emails/service/search.js';
import { findIds, searchBounds, type SqlSource } from '../../src/schema/shared/list.js';
import { createTestApp, type TestApp } from '../support/app.js';
import type { TestDatabase } from '../support/database.js';
import { daysAgo } from '../shops/scenario.js';
import { idsOf } from '../shops/support.js';

// Past the cap, a relevance search ranks the newest `candidates` matches, found in windows of the newest emails
// (leadingWindows, src/schema/shared/list.ts), with the bounds lowered so that 60 emails reach them: a cap of 5, 4
// candidates, windows of the newest 6 and 20 emails. Email i was sent i days ago (emails 6 and 7 at the same
// moment: the first window takes both); a matching email says its word (i % 3) + 1 times, so the text
// rank orders the candidates by that, then by date.
//   gamma: i <= 30 and not a multiple of 3 → the first window holds 1, 2, 4, 5 (enough)
//   alpha: every even i → the first window holds 2, 4, 6 (not enough), the second 10 (enough)
//   beta:  i >= 35 → no window holds any: every match is read, as without windows

const CAP = 5;
const CANDIDATES = 4;
const EMAILS = 60;
const defaults = { ...searchBounds };
const words = (i: number) => [i <= 30 && i % 3 !== 0 && 'gamma', i % 2 === 0 && 'alpha', i >= 35 && 'beta'].filter((w): w is string => Boolean(w));
const sentDaysAgo = (i: number) => (i === 7 ? 6 : i);

async function windowsScenario({ prisma }: TestDatabase) {
  const rows = Array.from({ length: EMAILS }, (_, index) => {
    const i = index + 1;
    const body = words(i).map((word) => Array.from({ length: (i % 3) + 1 }, () => word).join(' ')).join('. ') || 'nothing to see';
    return { id: i, sentAt: daysAgo(sentDaysAgo(i), 9), fromAddress: 'news@example.com', campaignType: 'campaign', subject: `Letter ${i}`, body, bodyLength: body.length };
  });
  await prisma.email.createMany({ data: rows });
}

/** The relevance order by its definition: the newest CANDIDATES matches by occurrences, then the rest by date. */
function relevance(word: string): number[] {
  const newest = Array.from({ length: EMAILS }, (_, index) => index + 1)
    .filter((i) => words(i).includes(word))
    .sort((a, b) => sentDaysAgo(a) - sentDaysAgo(b) || b - a);
  const ranked = newest.slice(0, CANDIDATES).sort((a, b) => (b % 3) - (a % 3) || sentDaysAgo(a) - sentDaysAgo(b) || b - a);
  return [...ranked, ...newest.slice(CANDIDATES)];
}

type PlanNode = { 'Subplan Name'?: string; 'Actual Rows'?: number; 'Actual Loops'?: number; Plans?: PlanNode[] };
/** The rows each window CTE (w0, w1, …) gave when the list's statement for `word` ran, from EXPLAIN ANALYZE. */
async function windowRows(word: string, order: 'asc' | 'desc' = 'desc'): Promise<Record<string, number>> {
  let statement: { text: string; values: unknown[] } | undefined;
  // A pool that keeps the statement it ran (its values included), to run it again under EXPLAIN.
  const spy = { query: (text: string, values: unknown[]) => ((statement = { text, values }), t.db.pool.query(text, values)) } as unknown as SqlSource;
  await findIds(spy, emailList({ search: { terms: [word], keywordMode: 'any', type: 'shopKeywords' } }, { sortBy: 'relevance', order }), { limit: 5, offset: 0 });
  const { rows } = await t.db.pool.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${statement!.text}`, statement!.values);
  const found: Record<string, number> = {};
  const walk = (node: PlanNode) => {
    const name = /^CTE (w\d+)$/.exec(node['Subplan Name'] ?? '')?.[1];
    if (name) found[name] = (node['Actual Rows'] ?? 0) * (node['Actual Loops'] ?? 0);
    node.Plans?.forEach(walk);
  };
  walk(rows[0]['QUERY PLAN'][0].Plan);
  return found;
}

let t: TestApp;
let key: string;

beforeAll(async () => {
  Object.assign(searchBounds, { totalCap: CAP, candidates: CANDIDATES, windows: [6, 20] });
  t = await createTestApp(windowsScenario);
  ({ apiKey: key } = await t.newKey());
});

afterAll(async () => {
  Object.assign(searchBounds, defaults);
  await t?.close();
});

const search = (word: string, page = 1, limit = 5) =>
  t.rest('POST', '/emails/query', { key, body: { search: [word], sortBy: 'relevance', page, limit } });
const firstPages = async (word: string) => [...idsOf(await search(word, 1)), ...idsOf(await search(word, 2))];

describe('a relevance search with more matches than the cap', () => {
  it.each(['gamma', 'alpha', 'beta'])('%s: ranks the newest matches, then the rest newest first, across pages', async (word) => {
    expect(await firstPages(word)).toEqual(relevance(word).slice(0, 10));
    const res = await search(word);
    expect(res.body.pagination.total).toBe(CAP);
    expect(res.body.meta).toEqual({ totalRelation: 'gte' });
  });

  it('finds the candidates in the first window that holds enough of them, reading no later window', async () => {
    expect(await windowRows('gamma')).toEqual({ w0: CANDIDATES, w1: 0 });
    expect(await windowRows('alpha')).toEqual({ w0: 3, w1: CANDIDATES });
    expect(await windowRows('beta')).toEqual({ w0: 0, w1: 0 });
    // Oldest first, the windows hold the oldest emails: beta's (sent 35 to 60 days ago) are all there.
    expect(await windowRows('beta', 'asc')).toEqual({ w0: CANDIDATES, w1: 0 });
  });

  it('the candidates are those every match would give: the same pages without windows, in either order', async () => {
    const pages = (order: 'asc' | 'desc') => Promise.all(['gamma', 'alpha', 'beta'].flatMap((word) => [1, 2].map((page) =>
      t.rest('POST', '/emails/query', { key, body: { search: [word], sortBy: 'relevance', order, page, limit: 5 } }).then((res) => idsOf(res)))));
    const withWindows = [await pages('desc'), await pages('asc')];
    expect(withWindows[1][4]).not.toEqual(withWindows[0][4]); // beta oldest first is another page
    searchBounds.windows = [];
    try {
      expect([await pages('desc'), await pages('asc')]).toEqual(withWindows);
    } finally {
      searchBounds.windows = [6, 20];
    }
  });
});
