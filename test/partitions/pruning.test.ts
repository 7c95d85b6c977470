import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { HISTORY_TABLES, maintainHistoryPartitions, monthPartitions } from '../../src/db/partitions.js';
import { createTestApp, type HttpResult, type TestApp } from '../support/app.js';
import { createTestDatabase } from '../support/database.js';
import { partitionOf } from './support.js';
import { TINY_MARKET } from '../support/tiny-market.js';

// The routes that read history scan only the months of their window. Each route is called over HTTP on the tiny market
// (as of 2025-06-01: its history spans March to June 2025, a partition per month after the maintenance); the statements
// it sends are recorded with their parameters and run again under EXPLAIN (ANALYZE), and the history partitions the
// plan actually scanned are read from it: a partition pruned when planning is not in the plan, one pruned while running
// (a window computed in the statement, from its latest day) is there but never executed.

let t: TestApp;
let key = '';

type Statement = { text: string; values?: unknown[] };
type PlanNode = {
  'Node Type': string;
  'Relation Name'?: string;
  'Actual Loops'?: number;
  'Actual Rows'?: number;
  'Index Cond'?: string;
  Filter?: string;
  'Recheck Cond'?: string;
  'Parent Relationship'?: string;
  'Subplan Name'?: string;
  Plans?: PlanNode[];
};
/**
 * A scan of a history partition in a plan that ran: its month (YYYY-MM-01, null for the default partition); `initPlan`:
 * it is part of a scalar subquery computed once before the statement's rows (a latest day).
 */
type Scan = { partition: string; month: string | null; loops: number; rows: number; dateBound: boolean; initPlan: boolean };

const HISTORY = new RegExp(`"(${HISTORY_TABLES.join('|')})"`);
const PARTITION = new RegExp(`^(?:${HISTORY_TABLES.join('|')})_(?:p(\\d{4})(\\d{2})|default)$`);
const DATE_BOUND = /\bdate\s*(?:>=|<=|>|<|=)|(?:>=|<=|>|<|=)\s*\(?\w*\.?date\b/;

beforeAll(async () => {
  const db = await createTestDatabase({ market: TINY_MARKET });
  await maintainHistoryPartitions(db.pool, { aheadMonths: 1, retentionMonths: null, now: new Date('2025-06-15T00:00:00Z') });
  await db.pool.query(`ANALYZE ${HISTORY_TABLES.map((table) => `"${table}"`).join(', ')}`);
  t = await createTestApp(undefined, { database: db });
  ({ apiKey: key } = await t.newKey());
});
afterAll(() => t?.close());

/** The statements reading a history table that `call` sends, with their parameters. */
async function historyStatements(call: () => Promise<HttpResult>): Promise<{ res: HttpResult; statements: Statement[] }> {
  const spy = vi.spyOn(pg.Client.prototype, 'query');
  try {
    const res = await call();
    const statements = spy.mock.calls.map(([first, second]): Statement => {
      if (typeof first === 'string') return { text: first, values: Array.isArray(second) ? second : undefined };
      const config = first as { text: string; values?: unknown[] };
      return { text: config.text, values: config.values ?? (Array.isArray(second) ? second : undefined) };
    });
    return { res, statements: statements.filter((s) => HISTORY.test(s.text) && /^\s*(?:SELECT|WITH)\b/i.test(s.text)) };
  } finally {
    spy.mockRestore();
  }
}

/** The history partitions each statement's plan scanned when run (in a transaction rolled back). */
async function scansOf(statements: Statement[]): Promise<Scan[]> {
  const client = await t.db.pool.connect();
  const scans: Scan[] = [];
  try {
    for (const statement of statements) {
      await client.query('BEGIN');
      try {
        const { rows } = await client.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${statement.text}`, statement.values);
        const walk = (node: PlanNode, underInitPlan = false) => {
          // A WITH query is shown as an InitPlan too ("CTE t"): not a scalar subquery.
          const initPlan = underInitPlan || (node['Parent Relationship'] === 'InitPlan' && !node['Subplan Name']?.startsWith('CTE '));
          const match = node['Relation Name'] ? PARTITION.exec(node['Relation Name']) : null;
          if (match) {
            const conditions = [node['Index Cond'], node.Filter, node['Recheck Cond']].filter(Boolean).join(' ');
            scans.push({
              partition: node['Relation Name']!,
              month: match[1] ? `${match[1]}-${match[2]}-01` : null,
              loops: node['Actual Loops'] ?? 0,
              rows: (node['Actual Rows'] ?? 0) * (node['Actual Loops'] ?? 0),
              dateBound: DATE_BOUND.test(conditions),
              initPlan,
            });
          }
          for (const child of node.Plans ?? []) walk(child, initPlan);
        };
        walk(rows[0]['QUERY PLAN'][0].Plan);
      } finally {
        await client.query('ROLLBACK');
      }
    }
  } finally {
    client.release();
  }
  return scans;
}

const month = (day: string) => `${day.slice(0, 7)}-01`;
const dayBefore = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);
const executed = (scans: Scan[]) => [...new Set(scans.filter((s) => s.loops > 0).map((s) => s.partition))].sort();
/**
 * A window "from a day on" (`date > latest - n`: the statement bounds it below only) reads its months and those after
 * (the months made ahead and the default partition, empty), never a month before it: the months that pile up.
 */
function expectNothingBefore(read: string[], from: string) {
  const before = read.filter((name) => !name.endsWith('_default') && name < from);
  expect(before, `read ${read.join(', ')}; the window starts in ${from}`).toEqual([]);
}
const one = async <T>(sql: string, values: unknown[] = []) => (await t.db.pool.query<T & pg.QueryResultRow>(sql, values)).rows[0];

describe('history reads prune to their months', () => {
  it('the tables hold several months, each its partition, and the default partitions are empty', async () => {
    for (const table of HISTORY_TABLES) {
      expect((await monthPartitions(t.db.pool, table)).length, table).toBeGreaterThanOrEqual(3);
      expect((await one<{ n: number }>(`SELECT count(*)::int AS n FROM "${table}_default"`)).n, table).toBe(0);
    }
  });

  it("a shop's social history (GET /shops/{id}/socials/history?days=7) never scans a month before its window", async () => {
    const shop = await one<{ id: string; last: string }>(
      `SELECT "shopId" AS id, to_char(max("date"), 'YYYY-MM-DD') AS last FROM "shop_social_days" GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1`);
    const { res, statements } = await historyStatements(() => t.rest('GET', `/shops/${shop.id}/socials/history?days=7`, { key }));
    expect(res.status).toBe(200);
    expect(res.body.data.facebook.length + res.body.data.instagram.length).toBeGreaterThan(0);
    expect(statements.length).toBeGreaterThan(0);
    const scans = await scansOf(statements);
    const from = partitionOf('shop_social_days', month(dayBefore(shop.last, 6)));
    const read = executed(scans.filter((s) => s.dateBound));
    expect(read).toContain(partitionOf('shop_social_days', month(shop.last)));
    expectNothingBefore(read, from);
    // The months before the window are in the table, and were not read.
    expect((await monthPartitions(t.db.pool, 'shop_social_days')).filter((p) => p.name < from).length).toBeGreaterThanOrEqual(2);
  });

  it("the advertisers' reach over the last 7 days (GET /advertisers?minReach=1&reachPeriod=last7d) never scans a month before its week", async () => {
    const { last } = await one<{ last: string }>(`SELECT to_char(max("date"), 'YYYY-MM-DD') AS last FROM "advertiser_metric_days"`);
    const { res, statements } = await historyStatements(() => t.rest('GET', '/advertisers?minReach=1&reachPeriod=last7d&limit=5', { key }));
    expect(res.status).toBe(200);
    expect(res.body.data.length).toBeGreaterThan(0);
    const scans = await scansOf(statements);
    const from = partitionOf('advertiser_metric_days', month(dayBefore(last, 6)));
    const read = executed(scans.filter((s) => s.dateBound && s.partition.startsWith('advertiser_metric_days')));
    expect(read).toContain(partitionOf('advertiser_metric_days', month(last)));
    expectNothingBefore(read, from);
    expect((await monthPartitions(t.db.pool, 'advertiser_metric_days')).filter((p) => p.name < from).length).toBeGreaterThanOrEqual(2);
  });

  it("a brand's daily series (GET /brandtrackers/{id}/time-series in April) reads the page's precomputed days, never the history tables", async () => {
    const page = await one<{ id: string }>(
      `SELECT a."advertiserId" AS id FROM "ads" a JOIN "ad_reach_days" r ON r."adId" = a."id" WHERE r."date" BETWEEN '2025-04-01' AND '2025-05-31'
       GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1`);
    const tracked = await t.rest('POST', '/brandtrackers', { key, body: { facebookPageId: page.id } });
    expect(tracked.status).toBe(200);
    const brandtrackerId = (tracked.body.data.id ?? tracked.body.data.brandtrackerId) as string;
    const { res, statements } = await historyStatements(() => t.rest('GET', `/brandtrackers/${brandtrackerId}/time-series?startDate=2025-04-10&endDate=2025-04-20`, { key }));
    expect(res.status).toBe(200);
    // The page's reach rows of April are in the answer (summed per day ahead of time: migration 0038).
    expect(res.body.data.euImpressionsSpend.some((point: { impressions: number }) => point.impressions > 0)).toBe(true);
    expect(statements).toEqual([]);
  });

  it("an ad's reach history (GET /ads/{id}/reach-history?limit=7), newest days first, reads the months of its days and never an older one", async () => {
    const ad = await one<{ id: string; last: string; first: string }>(
      `SELECT "adId" AS id, to_char(max("date"), 'YYYY-MM-DD') AS last, to_char(min("date"), 'YYYY-MM-DD') AS first FROM "ad_reach_days"
       GROUP BY 1 HAVING min("date") < '2025-04-01' ORDER BY count(*) DESC, 1 LIMIT 1`);
    const { res, statements } = await historyStatements(() => t.rest('GET', `/ads/${ad.id}/reach-history?limit=7`, { key }));
    expect(res.status).toBe(200);
    expect(res.body.data.length).toBe(7);
    const scans = (await scansOf(statements)).filter((s) => s.partition.startsWith('ad_reach_days'));
    const oldest = partitionOf('ad_reach_days', month(res.body.data[0].date));
    // The months are read newest first and the read stops once it has its days: the months after them (made ahead,
    // empty for this ad) and the default partition (empty) are looked into, the months before them never.
    const read = executed(scans);
    expect(read).toContain(partitionOf('ad_reach_days', month(ad.last)));
    expectNothingBefore(read, oldest);
    expect(scans.filter((s) => s.month !== null && s.month < month(res.body.data[0].date)).length, 'older months in the plan').toBeGreaterThanOrEqual(2);
    expect(scans.filter((s) => s.month === null).reduce((sum, s) => sum + s.rows, 0)).toBe(0);
  });

  it("a day outside the partitioned months (in the default partition) is still an ad's newest day", async () => {
    const ad = await one<{ id: string }>(`SELECT "adId" AS id FROM "ad_reach_days" GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1`);
    await t.db.pool.query(`INSERT INTO "ad_reach_days" ("adId", "date", "reach") VALUES ($1, '2031-01-15', 123)`, [ad.id]);
    try {
      expect((await one<{ n: number }>(`SELECT count(*)::int AS n FROM "ad_reach_days_default"`)).n).toBe(1);
      const res = await t.rest('GET', `/ads/${ad.id}/reach-history?limit=3`, { key });
      expect(res.status).toBe(200);
      expect(res.body.data.at(-1)).toEqual({ date: '2031-01-15', reach: 123 });
      expect(res.body.data).toHaveLength(3);
      const freshness = await t.rest('GET', '/system/freshness', { key });
      expect(freshness.body.data.latestScheduledDate).toBe('2031-01-15');
    } finally {
      await t.db.pool.query(`DELETE FROM "ad_reach_days" WHERE "date" = '2031-01-15'`);
    }
  });

  it("the latest snapshot day (GET /system/freshness, max(\"date\")) is read from the newest month, not from every month", async () => {
    const { last } = await one<{ last: string }>(`SELECT to_char(max("date"), 'YYYY-MM-DD') AS last FROM "ad_reach_days"`);
    const { res, statements } = await historyStatements(() => t.rest('GET', '/system/freshness', { key }));
    expect(res.status).toBe(200);
    expect(res.body.data.latestScheduledDate).toBe(last);
    expect(statements.length).toBeGreaterThan(0);
    const scans = (await scansOf(statements)).filter((s) => s.partition.startsWith('ad_reach_days'));
    const read = executed(scans);
    expect(read).toContain(partitionOf('ad_reach_days', month(last)));
    expectNothingBefore(read, partitionOf('ad_reach_days', month(last)));
    expect((await monthPartitions(t.db.pool, 'ad_reach_days')).filter((p) => p.month < month(last)).length).toBeGreaterThanOrEqual(2);
  });

  it("the rank movers' trajectories (GET /brandtrackers/{id}/scaling-ads) read their ads' latest day from the newest month, not from every month", async () => {
    const { apiKey } = await t.newKey();
    const page = await one<{ id: string }>(
      `SELECT a."advertiserId" AS id FROM "ads" a JOIN "ad_reach_days" r ON r."adId" = a."id"
       WHERE r."rank" IS NOT NULL AND a."status" = 'active' AND a."isGroupLead" GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1`);
    const tracked = await t.rest('POST', '/brandtrackers', { key: apiKey, body: { facebookPageId: page.id } });
    expect(tracked.status).toBe(200);
    const brandtrackerId = (tracked.body.data.id ?? tracked.body.data.brandtrackerId) as string;
    const { res, statements } = await historyStatements(() => t.rest('GET', `/brandtrackers/${brandtrackerId}/scaling-ads?minRankDelta=0&limit=5`, { key: apiKey }));
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
    expect(res.body.data.length).toBeGreaterThan(0);
    expect(res.body.data.some((row: { trajectory: unknown[] }) => row.trajectory.length > 0)).toBe(true);
    const { last } = await one<{ last: string }>(`SELECT to_char(max("date"), 'YYYY-MM-DD') AS last FROM "ad_reach_days" WHERE "adId" = ANY($1::text[])`,
      [res.body.data.map((row: { ad: { id: string } }) => row.ad.id)]);
    const trajectory = statements.filter((s) => /\btotals AS\b/.test(s.text));
    expect(trajectory).toHaveLength(1);
    const latestDay = (await scansOf(trajectory)).filter((s) => s.initPlan && s.partition.startsWith('ad_reach_days'));
    const read = executed(latestDay);
    expect(read).toContain(partitionOf('ad_reach_days', month(last)));
    expectNothingBefore(read, partitionOf('ad_reach_days', month(last)));
    // The older months are in the subquery's plan (the ads have rows there), and were not read.
    expect(latestDay.filter((s) => s.month !== null && s.month < month(last)).length, 'older months in the plan').toBeGreaterThanOrEqual(2);
  });

  it("the pages' latest day (GET /advertisers?reachPeriod=last7d) is read from the newest month of advertiser_metric_days", async () => {
    const { last } = await one<{ last: string }>(`SELECT to_char(max("date"), 'YYYY-MM-DD') AS last FROM "advertiser_metric_days"`);
    const { statements } = await historyStatements(() => t.rest('GET', '/advertisers?minReach=1&reachPeriod=last7d&limit=5', { key }));
    const scans = (await scansOf(statements)).filter((s) => s.partition.startsWith('advertiser_metric_days'));
    // Every scan of the statement, the window's and the latest day's, whatever its conditions.
    expectNothingBefore(executed(scans), partitionOf('advertiser_metric_days', month(dayBefore(last, 6))));
  });

  it("a brand's changes (GET /advertisers/{id}/changes) read the event feed, never the history tables", async () => {
    const page = await one<{ id: string }>(`SELECT "advertiserId" AS id FROM "ads" GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1`);
    const { res, statements } = await historyStatements(() => t.rest('GET', `/advertisers/${page.id}/changes?from=2025-05-01&to=2025-05-31`, { key }));
    expect(res.status).toBe(200);
    expect(statements).toEqual([]);
  });
});
