import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setCredits } from '../../src/auth/admin.js';
import { createAuthenticator } from '../../src/auth/authenticate.js';
import { connect, type Db } from '../../src/db/client.js';
import { createRateLimiter } from '../../src/metering/index.js';
import { chargeAll, releaseStaleHolds, reserve, settle, type Due } from '../../src/metering/ledger.js';
import { Meter } from '../../src/metering/meter.js';
import { PRICES } from '../../src/metering/prices.js';
import { createApp, type App } from '../../src/server.js';
import { routes } from '../../rest/routes.js';
import { createTestApp, TEST_RATE_LIMITS, type TestApp } from '../support/app.js';
import type { TestDatabase } from '../support/database.js';
import { statementsOf, statementsSettled, withStatements } from '../support/statements.js';
import { adsScenario } from '../ads/scenario.js';
import { createLogger } from '../../src/observability/logger.js';

// Four more landing pages for Peak Fitness Store, so a call can return 1..4 rows.
async function scenario(db: TestDatabase) {
  await adsScenario(db);
  const base = { platform: 'facebook', status: 'active' as const, mediaType: 'image' as const, collationId: '', advertiserId: '1000000000000002', gender: 'all',
    createdAt: new Date('2026-11-01T00:00:00Z'), firstSeenAt: new Date('2026-11-01T00:00:00Z'), lastSeenAt: new Date('2026-11-21T00:00:00Z') };
  await db.prisma.ad.createMany({
    data: [1, 2, 3, 4].map((n) => ({ ...base, id: `facebook_95${n}`, collationId: `col_95${n}`, landingPageUrl: `https://peakfit.shop/p${n}?utm=x`, landingPageDomain: 'peakfit.shop' })),
  });
}

const PAGES = (limit: number) => `/ads/facets/landing-pages?scopeTrackedPages=1000000000000002&limit=${limit}`;

/** `date` plus `months` UTC calendar months, the day clamped to the month's last (as PostgreSQL adds months). */
function addMonths(date: Date, months: number): Date {
  const month = date.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(date.getUTCFullYear(), month + 1, 0)).getUTCDate();
  return new Date(Date.UTC(date.getUTCFullYear(), month, Math.min(date.getUTCDate(), lastDay), date.getUTCHours(), date.getUTCMinutes(), date.getUTCSeconds(), date.getUTCMilliseconds()));
}

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp(scenario);
});
afterAll(() => t?.close());

async function account(slug: string) {
  return t.db.prisma.creditAccount.findFirstOrThrow({ where: { workspace: { slug } } });
}
async function usage(workspaceId: string) {
  return t.db.prisma.usageRecord.findMany({ where: { workspaceId }, orderBy: { id: 'asc' } });
}

describe('the price table', () => {
  it('prices every routed field', () => {
    const unpriced = routes.map((route) => route.field).filter((field) => !(field in PRICES));
    expect(unpriced).toEqual([]);
  });
});

describe('the ledger', () => {
  it('commits without waiting for the WAL flush on PostgreSQL (not on PGlite), for its own transaction only', async () => {
    const { slug, workspaceId } = await t.newKey();
    await setCredits(t.db.prisma, { workspace: slug, recurringLimit: 10, recurringUsed: 0, topup: 0 });
    const client = await t.db.ledger.connect();
    const mode = async () => (await client.query('SHOW synchronous_commit')).rows[0].synchronous_commit as string;
    try {
      const embedded = (await client.query<{ version: string }>('SELECT version()')).rows[0].version.includes('PGlite');
      // Inside an explicit transaction the statement's setting is visible until it ends.
      await client.query('BEGIN');
      expect(await reserve(client, workspaceId, 4)).not.toBeNull();
      expect(await mode()).toBe(embedded ? 'on' : 'off');
      await client.query('ROLLBACK');
      expect(await mode()).toBe('on');
      // As the server runs them: one statement, one transaction; the session keeps its setting.
      const hold = await reserve(client, workspaceId, 4);
      expect(await mode()).toBe('on');
      expect((await settle(client, hold!, 1, null)).remaining).toBe(9);
      expect(await mode()).toBe('on');
    } finally {
      client.release();
    }
  });
});

describe('charges without holds, several in one statement', () => {
  const due = (workspaceId: string, credentialId: string, cost: number, requestId: string): Due => ({ workspaceId, cost, charge: { credentialId, requestId, field: 'Query.adLandingPages', rows: cost } });

  it('take each charge in order, recurring first, up to the first one a workspace cannot pay (those that cost nothing always), and record each', async () => {
    const a = await t.newKey();
    const b = await t.newKey();
    const none = await t.newKey(); // no credit account at all
    await setCredits(t.db.prisma, { workspace: a.slug, recurringLimit: 10, recurringUsed: 5, topup: 4 }); // 5 + 4
    await setCredits(t.db.prisma, { workspace: b.slug, recurringLimit: 3, recurringUsed: 0, topup: 0 });
    await t.db.prisma.creditAccount.deleteMany({ where: { workspaceId: none.workspaceId } });
    const settled = await chargeAll(t.db.ledger, [
      due(a.workspaceId, a.credentialId, 3, 'a1'), // recurring 3 (2 left)
      due(b.workspaceId, b.credentialId, 2, 'b1'),
      due(a.workspaceId, a.credentialId, 4, 'a2'), // recurring 2, top-up 2
      due(b.workspaceId, b.credentialId, 2, 'b2'), // 1 left: refused
      due(a.workspaceId, a.credentialId, 0, 'a3'), // costs nothing: recorded
      due(b.workspaceId, b.credentialId, 1, 'b3'), // would fit, but comes after a refused one
      due(b.workspaceId, b.credentialId, 0, 'b4'), // costs nothing: recorded all the same
      due(none.workspaceId, none.credentialId, 1, 'n1'),
      due(none.workspaceId, none.credentialId, 0, 'n2'),
    ]);
    expect(settled).toEqual([
      { cost: 3, recurring: 3, topup: 0, remaining: 6 },
      { cost: 2, recurring: 2, topup: 0, remaining: 1 },
      { cost: 4, recurring: 2, topup: 2, remaining: 2 },
      null,
      { cost: 0, recurring: 0, topup: 0, remaining: 2 },
      null,
      { cost: 0, recurring: 0, topup: 0, remaining: 1 },
      null,
      null,
    ]);
    expect(await account(a.slug)).toMatchObject({ recurringUsed: 10, topupBalance: 2 });
    expect(await account(b.slug)).toMatchObject({ recurringUsed: 2, topupBalance: 0 });
    expect((await usage(a.workspaceId)).map((r) => [r.requestId, r.cost, r.recurring, r.topup])).toEqual([['a1', 3, 3, 0], ['a2', 4, 2, 2], ['a3', 0, 0, 0]]);
    expect((await usage(b.workspaceId)).map((r) => [r.requestId, r.cost])).toEqual([['b1', 2], ['b4', 0]]);
    expect(await usage(none.workspaceId)).toEqual([]);
  });

  it('roll an ended recurring period over once for all the charges of a workspace', async () => {
    const { slug, workspaceId, credentialId } = await t.newKey();
    await setCredits(t.db.prisma, { workspace: slug, recurringLimit: 10, recurringUsed: 10, topup: 0 });
    const ended = new Date(Date.now() - 60_000);
    await t.db.prisma.creditAccount.update({ where: { workspaceId }, data: { currentPeriodStart: new Date(ended.getTime() - 30 * 86_400_000), currentPeriodEnd: ended } });
    const settled = await chargeAll(t.db.ledger, [due(workspaceId, credentialId, 4, 'p1'), due(workspaceId, credentialId, 4, 'p2')]);
    expect(settled.map((s) => s?.remaining)).toEqual([6, 2]);
    const after = await account(slug);
    expect(after.recurringUsed).toBe(8);
    expect(after.currentPeriodStart).toEqual(ended); // the next period starts where the last one ended
    expect(after.currentPeriodEnd).toEqual(addMonths(ended, 1));
  });

  it('count periods from the old end in UTC calendar months, month-end days included (Jan 31, Feb 28, Mar 31)', async () => {
    const { slug, workspaceId, credentialId } = await t.newKey();
    await setCredits(t.db.prisma, { workspace: slug, recurringLimit: 10, recurringUsed: 10, topup: 0 });
    const ended = new Date(Date.UTC(new Date().getUTCFullYear() - 1, 0, 31)); // Jan 31 last year
    await t.db.prisma.creditAccount.update({ where: { workspaceId }, data: { currentPeriodStart: new Date(Date.UTC(ended.getUTCFullYear() - 1, 11, 31)), currentPeriodEnd: ended } });
    await chargeAll(t.db.ledger, [due(workspaceId, credentialId, 1, 'm1')]);
    let k = 0;
    while (addMonths(ended, k + 1).getTime() <= Date.now()) k += 1;
    expect(await account(slug)).toMatchObject({ recurringUsed: 1, currentPeriodStart: addMonths(ended, k), currentPeriodEnd: addMonths(ended, k + 1) });
  });

  it('are shared by concurrent calls of one instance: fewer statements than calls, each call charged and recorded', async () => {
    const { apiKey, slug, workspaceId } = await t.newKey();
    await setCredits(t.db.prisma, { workspace: slug, recurringLimit: 10_000, recurringUsed: 0, topup: 0 });
    await t.rest('GET', PAGES(1), { key: apiKey }); // holds: nothing known yet
    const [responses, sql] = await withStatements(() => Promise.all(Array.from({ length: 40 }, (_, i) => t.rest('GET', PAGES(1 + (i % 4)), { key: apiKey }))));
    expect(sql.filter((text) => /"usage_records"/.test(text)).length).toBeGreaterThan(0);
    expect(sql.filter((text) => /"credit_reservations"/.test(text))).toEqual([]);
    expect(sql.filter((text) => /"credit_accounts"/.test(text)).length).toBeLessThan(40);
    expect(responses.map((r) => r.status)).toEqual(Array(40).fill(200));
    const costs = responses.map((r) => Number(r.headers.get('x-usage-cost')));
    expect(costs).toEqual(Array.from({ length: 40 }, (_, i) => 1 + (i % 4)));
    const remaining = responses.map((r) => Number(r.headers.get('x-credits-remaining'))).sort((x, y) => y - x);
    expect(new Set(remaining).size).toBe(40); // each call saw the pools right after its own charge
    expect(remaining.at(-1)).toBe(10_000 - 1 - 100);
    expect(await account(slug)).toMatchObject({ recurringUsed: 101 });
    const records = (await usage(workspaceId)).slice(1);
    expect(records.map((r) => r.requestId).sort()).toEqual(responses.map((r) => r.body.requestId).sort());
  });
});

describe('SQL statements of a metered list', () => {
  // Statements a metered list sends, but for the key's lookup and last-use write (cached or deferred per key).
  async function listStatements(apiKey: string, limit: number, rows: number) {
    const { res, statements } = await statementsOf(() => t.rest('GET', PAGES(limit), { key: apiKey }));
    expect(res.body.data).toHaveLength(rows);
    expect(res.headers.get('x-usage-cost')).toBe(String(rows));
    return statements;
  }
  const holds = (sql: string[]) => sql.filter((text) => /"credit_reservations"/.test(text));
  const charges = (sql: string[]) => sql.filter((text) => /"credit_accounts"/.test(text));

  it("are the list's own and one charge for a well-funded workspace, whatever the page size", async () => {
    const { apiKey, slug } = await t.newKey();
    await setCredits(t.db.prisma, { workspace: slug, recurringLimit: 1000, recurringUsed: 0, topup: 0 });
    await t.rest('GET', PAGES(1), { key: apiKey }); // the first call holds (nothing is known yet); its key's last-use write happens now
    await statementsSettled(t.db);
    const one = await listStatements(apiKey, 1, 1);
    const four = await listStatements(apiKey, 4, 4);
    expect(four.length).toBe(one.length);
    expect(holds(one)).toEqual([]); // no hold: the workspace can pay a hundred such calls
    expect(charges(one)).toHaveLength(1);
    expect(one.length).toBeLessThanOrEqual(2);
    expect(await account(slug)).toMatchObject({ recurringUsed: 6 });
  });

  it("are the list's own, one hold and one settlement near the end of the credits, whatever the page size", async () => {
    const { apiKey, slug } = await t.newKey();
    await setCredits(t.db.prisma, { workspace: slug, recurringLimit: 50, recurringUsed: 0, topup: 0 });
    await t.rest('GET', PAGES(1), { key: apiKey });
    await statementsSettled(t.db);
    const one = await listStatements(apiKey, 1, 1);
    const four = await listStatements(apiKey, 4, 4);
    expect(four.length).toBe(one.length);
    expect(holds(one)).toHaveLength(2); // the hold, then the settlement
    expect(one.length).toBeLessThanOrEqual(3);
  });
});

describe('a well-funded workspace (no hold)', () => {
  const holds = (sql: string[]) => sql.filter((text) => /"credit_reservations"/.test(text));
  const readsAds = (sql: string[]) => sql.some((text) => text.includes('"ads"'));

  it('is charged what its calls returned, recurring before top-up, with the same headers and records, without holds', async () => {
    const { apiKey, slug, workspaceId } = await t.newKey();
    await setCredits(t.db.prisma, { workspace: slug, recurringLimit: 1002, recurringUsed: 0, topup: 500 });
    const first = await t.rest('GET', PAGES(1), { key: apiKey }); // holds: nothing known yet
    expect(first.headers.get('x-credits-remaining')).toBe('1501');
    const [a, aSql] = await withStatements(() => t.rest('GET', PAGES(9), { key: apiKey })); // 9 at most, 4 rows returned
    expect(holds(aSql)).toEqual([]);
    expect(a.body.data).toHaveLength(4);
    expect([a.headers.get('x-usage-cost'), a.headers.get('x-credits-remaining'), a.headers.get('x-credits-source')]).toEqual(['4', '1497', 'recurring']);
    await setCredits(t.db.prisma, { workspace: slug, recurringLimit: 1002, recurringUsed: 1000, topup: 500 }); // 2 recurring left
    const [b, bSql] = await withStatements(() => t.rest('GET', PAGES(3), { key: apiKey }));
    expect(holds(bSql)).toEqual([]);
    expect([b.headers.get('x-usage-cost'), b.headers.get('x-credits-remaining'), b.headers.get('x-credits-source')]).toEqual(['3', '499', 'hybrid']);
    expect(await account(slug)).toMatchObject({ recurringUsed: 1002, topupBalance: 499 });
    expect((await usage(workspaceId)).map((r) => [r.rows, r.cost, r.recurring, r.topup])).toEqual([[1, 1, 1, 0], [4, 4, 4, 0], [3, 3, 2, 1]]);
    expect(await t.db.prisma.creditReservation.count({ where: { workspaceId } })).toBe(0);
  });

  it('is refused after running, its answer withheld and nothing charged, when its credits went meanwhile; the next call holds first again', async () => {
    const { apiKey, slug, workspaceId } = await t.newKey();
    await setCredits(t.db.prisma, { workspace: slug, recurringLimit: 1000, recurringUsed: 0, topup: 0 });
    await t.rest('GET', PAGES(1), { key: apiKey }); // this instance now knows of 999 credits
    await setCredits(t.db.prisma, { workspace: slug, recurringLimit: 3, recurringUsed: 0, topup: 0 }); // an operator, or other instances
    // Runs (999 known), returns 4 rows, cannot pay them: a hold of 9 would have been refused with required 9, before reading ads.
    const [refused, refusedSql] = await withStatements(() => t.rest('GET', PAGES(9), { key: apiKey }));
    expect(refused.status).toBe(402);
    expect(refused.body.error).toMatchObject({ code: 'insufficient_credits', details: { required: 4 } });
    expect(readsAds(refusedSql)).toBe(true);
    expect(refused.body.data).toBeUndefined();
    expect(refused.headers.get('x-usage-cost')).toBeNull();
    expect(await account(slug)).toMatchObject({ recurringUsed: 0, topupBalance: 0 });
    expect(await usage(workspaceId)).toHaveLength(1);

    const [again, againSql] = await withStatements(() => t.rest('GET', PAGES(9), { key: apiKey })); // holds first now
    expect(again.status).toBe(402);
    expect(again.body.error).toMatchObject({ code: 'insufficient_credits', details: { required: 9 } });
    expect(readsAds(againSql)).toBe(false);
    const fits = await t.rest('GET', PAGES(3), { key: apiKey });
    expect([fits.status, fits.headers.get('x-credits-remaining')]).toEqual([200, '0']);
  });

  it('on GraphQL, charges the fields the credits pay for and refuses the others', async () => {
    const { apiKey, slug } = await t.newKey();
    await setCredits(t.db.prisma, { workspace: slug, recurringLimit: 1000, recurringUsed: 0, topup: 0 });
    const one = (limit: number) => `adLandingPages(scopeTrackedPages: ["1000000000000002"], limit: ${limit}) { data { url } }`;
    await fetchGraphQL(t.app, apiKey, `{ ${one(1)} }`); // this instance now knows of 999 credits
    await setCredits(t.db.prisma, { workspace: slug, recurringLimit: 3, recurringUsed: 0, topup: 0 });
    const res = await fetchGraphQL(t.app, apiKey, `{ a: ${one(2)} b: ${one(2)} }`); // both run; 3 credits pay one of them
    expect(res.status).toBe(402); // the refused field's status, as when a hold is refused
    const paid = ['a', 'b'].filter((alias) => res.body.data?.[alias] !== null);
    expect(paid).toHaveLength(1);
    expect(res.body.data[paid[0]].data).toHaveLength(2);
    expect(res.body.errors).toHaveLength(1);
    expect(res.body.errors[0]).toMatchObject({ path: [paid[0] === 'a' ? 'b' : 'a'], extensions: { code: 'insufficient_credits' } });
    expect([res.headers.get('x-usage-cost'), res.headers.get('x-credits-remaining')]).toEqual(['2', '1']);
    expect(await account(slug)).toMatchObject({ recurringUsed: 2 });
  });
});

describe('charging', () => {
  it('charges rows returned, recurring before top-up, and agrees with /v1/usage and the ledger', async () => {
    const { apiKey, slug, workspaceId } = await t.newKey();
    await setCredits(t.db.prisma, { workspace: slug, recurringLimit: 3, recurringUsed: 0, topup: 5 });

    const a = await t.rest('GET', PAGES(2), { key: apiKey });
    expect(a.status).toBe(200);
    expect(a.body.data).toHaveLength(2);
    expect([a.headers.get('x-usage-cost'), a.headers.get('x-credits-used'), a.headers.get('x-credits-remaining'), a.headers.get('x-credits-source')]).toEqual(['2', '2', '6', 'recurring']);

    const b = await t.rest('GET', PAGES(3), { key: apiKey });
    expect([b.headers.get('x-usage-cost'), b.headers.get('x-credits-remaining'), b.headers.get('x-credits-source')]).toEqual(['3', '3', 'hybrid']);

    // 5 would be reserved and only 3 are left: refused before any data work, nothing charged.
    const c = await t.rest('GET', PAGES(5), { key: apiKey });
    expect(c.status).toBe(402);
    expect(c.body.error).toMatchObject({ code: 'insufficient_credits', requestId: c.headers.get('x-request-id') });
    expect(c.headers.get('x-usage-cost')).toBeNull();

    const d = await t.rest('GET', PAGES(3), { key: apiKey });
    expect([d.headers.get('x-usage-cost'), d.headers.get('x-credits-remaining'), d.headers.get('x-credits-source')]).toEqual(['3', '0', 'topup']);

    expect(await account(slug)).toMatchObject({ recurringLimit: 3, recurringUsed: 3, topupBalance: 0 });
    const records = await usage(workspaceId);
    expect(records.map((r) => [r.field, r.rows, r.cost, r.recurring, r.topup])).toEqual([
      ['Query.adLandingPages', 2, 2, 2, 0],
      ['Query.adLandingPages', 3, 3, 1, 2],
      ['Query.adLandingPages', 3, 3, 0, 3],
    ]);
    expect(records.map((r) => r.requestId)).toEqual([a, b, d].map((res) => res.headers.get('x-request-id')));
    expect(await t.db.prisma.creditReservation.count()).toBe(0);

    const report = await t.rest('GET', '/usage', { key: apiKey });
    expect(report.body.credits).toEqual({ balance: 0, recurring: { limit: 3, used: 3, remaining: 0 }, topup: { balance: 0 }, totalRemaining: 0 });
    expect(report.headers.get('x-credits-remaining')).toBe('0');
  });

  it('holds the maximum and settles to the rows returned', async () => {
    const { apiKey, slug } = await t.newKey();
    await setCredits(t.db.prisma, { workspace: slug, recurringLimit: 10, recurringUsed: 0, topup: 0 });
    const res = await t.rest('GET', PAGES(100), { key: apiKey }); // holds 100? no: 10 left, so refused
    expect(res.status).toBe(402);
    const fits = await t.rest('GET', PAGES(9), { key: apiKey }); // holds 9, returns the 4 pages there are
    expect(fits.body.data).toHaveLength(4);
    expect(fits.headers.get('x-usage-cost')).toBe('4');
    expect((await account(slug)).recurringUsed).toBe(4);
  });

  it('a dry run answers the reservation and charges nothing', async () => {
    const { apiKey, slug, workspaceId } = await t.newKey();
    await setCredits(t.db.prisma, { workspace: slug, recurringLimit: 10, recurringUsed: 8, topup: 0 });
    const rest = await t.rest('GET', `${PAGES(7)}&dryRun=true`, { key: apiKey });
    expect(rest.status).toBe(200);
    expect(rest.body).toEqual({
      requestId: rest.headers.get('x-request-id'),
      dryRun: true,
      reserve: 7,
      remaining: 2,
      affordable: false,
      fields: [{ field: 'Query.adLandingPages', reserve: 7 }],
    });
    const free = await t.rest('GET', '/ads?search=summer&dryRun=true', { key: apiKey });
    expect(free.body).toMatchObject({ dryRun: true, reserve: 0, affordable: true });

    const gql = await fetchGraphQL(t.app, apiKey, '{ adLandingPages(scopeTrackedPages: ["1000000000000002"]) { data { url } } }', { 'x-dry-run': 'true' });
    expect(gql.body).toEqual({ data: null, extensions: { cost: { dryRun: true, reserve: 25, remaining: 2, affordable: false, fields: [{ field: 'Query.adLandingPages', reserve: 25 }] } } });
    expect(await usage(workspaceId)).toEqual([]);
    expect((await account(slug)).recurringUsed).toBe(8);
  });

  it('charges a GraphQL field once per occurrence: three aliases pay three times', async () => {
    const { apiKey, workspaceId } = await t.newKey();
    const one = 'adLandingPages(scopeTrackedPages: ["1000000000000002"], limit: 1) { data { url } }';
    const res = await fetchGraphQL(t.app, apiKey, `{ a: ${one} b: ${one} c: ${one} }`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.data)).toEqual(['a', 'b', 'c']);
    expect(res.body.extensions.cost).toMatchObject({ credits: 3 });
    expect(res.headers.get('x-usage-cost')).toBe('3');
    expect((await usage(workspaceId)).map((r) => r.cost)).toEqual([1, 1, 1]);
  });

  it('GraphQL pays what REST pays for the same field', async () => {
    const { apiKey, workspaceId } = await t.newKey();
    await t.rest('GET', PAGES(2), { key: apiKey });
    await fetchGraphQL(t.app, apiKey, '{ adLandingPages(scopeTrackedPages: ["1000000000000002"], limit: 2) { data { url } } }');
    expect((await usage(workspaceId)).map((r) => [r.field, r.cost])).toEqual([['Query.adLandingPages', 2], ['Query.adLandingPages', 2]]);
  });

  it('refuses an unpayable call before reading any market data', async () => {
    const { apiKey, slug } = await t.newKey();
    await setCredits(t.db.prisma, { workspace: slug, recurringLimit: 0, recurringUsed: 0, topup: 0 });
    const [res, statements] = await withStatements(() => t.rest('GET', PAGES(1), { key: apiKey }));
    expect(res.status).toBe(402);
    expect(statements.some((sql) => sql.includes('"ads"'))).toBe(false);
  });

  it('releases the hold when the resolver fails', async () => {
    const { apiKey, slug, workspaceId } = await t.newKey();
    await setCredits(t.db.prisma, { workspace: slug, recurringLimit: 10, recurringUsed: 0, topup: 0 });
    const principal = createAuthenticator(t.db.prisma)(`Bearer ${apiKey}`);
    const meter = new Meter(t.db.pool, () => principal, 'req-fail', new Map());
    await expect(
      meter.run('Query.adLandingPages', PRICES['Query.adLandingPages'], { limit: 5 }, () => {
        throw new Error('the database went away');
      }),
    ).rejects.toThrow('the database went away');
    expect((await account(slug)).recurringUsed).toBe(0);
    expect(await usage(workspaceId)).toEqual([]);
    expect(await t.db.prisma.creditReservation.count()).toBe(0);
  });
});

describe('METERING=off', () => {
  it('runs priced fields free: no hold, no record, no credit headers', async () => {
    const free = await createTestApp(undefined, { database: t.db, metering: false });
    try {
      const { apiKey, slug, workspaceId } = await free.newKey();
      await setCredits(t.db.prisma, { workspace: slug, recurringLimit: 0, recurringUsed: 0, topup: 0 });
      const res = await free.rest('GET', PAGES(2), { key: apiKey });
      expect(res.status).toBe(200);
      expect(res.body.data).toHaveLength(2);
      expect(res.headers.get('x-usage-cost')).toBeNull();
      expect(await usage(workspaceId)).toEqual([]);
    } finally {
      await free.close();
    }
  });
});

describe('periods and stale holds', () => {
  it('rolls an ended recurring period over on the next charge, to the period that holds now, however many went by', async () => {
    const { apiKey, slug, workspaceId } = await t.newKey();
    const now = new Date();
    const monthStart = (monthsFromNow: number) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + monthsFromNow, 1));
    // Last charged three months ago: its period ended two months ago.
    await t.db.prisma.creditAccount.update({
      where: { workspaceId },
      data: { recurringLimit: 5, recurringUsed: 5, topupBalance: 0, currentPeriodStart: monthStart(-3), currentPeriodEnd: monthStart(-2) },
    });
    const res = await t.rest('GET', PAGES(2), { key: apiKey });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-credits-remaining')).toBe('3');
    const after = await account(slug);
    expect(after.recurringUsed).toBe(2);
    expect(after.currentPeriodStart?.toISOString()).toBe(monthStart(0).toISOString());
    expect(after.currentPeriodEnd?.toISOString()).toBe(monthStart(1).toISOString());
    // The period now holds: the next call is charged in it, not given a fresh allowance.
    const next = await t.rest('GET', PAGES(2), { key: apiKey });
    expect(next.headers.get('x-credits-remaining')).toBe('1');
    expect((await account(slug)).recurringUsed).toBe(4);
  });

  it('an ended period counts as rolled over for /v1/usage, the dry run and the charge alike: all say what the charge takes from', async () => {
    const { apiKey, slug, workspaceId } = await t.newKey();
    await setCredits(t.db.prisma, { workspace: slug, recurringLimit: 100, recurringUsed: 100, topup: 0 });
    const ended = new Date(Date.now() - 86_400_000); // yesterday
    await t.db.prisma.creditAccount.update({ where: { workspaceId }, data: { billingConfigured: true, currentPeriodStart: addMonths(ended, -1), currentPeriodEnd: ended } });
    const period = { currentPeriodStart: ended.toISOString(), currentPeriodEnd: addMonths(ended, 1).toISOString() };

    const before = await t.rest('GET', '/usage', { key: apiKey });
    expect(before.body.credits).toEqual({ balance: 0, recurring: { limit: 100, used: 0, remaining: 100 }, topup: { balance: 0 }, totalRemaining: 100 });
    expect(before.body.billing).toMatchObject(period);
    expect(before.headers.get('x-credits-remaining')).toBe('100');
    const gql = await fetchGraphQL(t.app, apiKey, '{ usage { credits { totalRemaining } } }');
    expect([gql.body.data.usage.credits.totalRemaining, gql.headers.get('x-credits-remaining')]).toEqual([100, '100']);
    expect((await t.rest('GET', `${PAGES(4)}&dryRun=true`, { key: apiKey })).body).toMatchObject({ reserve: 4, remaining: 100, affordable: true });

    const call = await t.rest('GET', PAGES(4), { key: apiKey });
    expect([call.status, call.headers.get('x-usage-cost'), call.headers.get('x-credits-remaining')]).toEqual([200, '4', '96']);
    const after = await t.rest('GET', '/usage', { key: apiKey });
    expect(after.body.credits).toEqual({ balance: 0, recurring: { limit: 100, used: 4, remaining: 96 }, topup: { balance: 0 }, totalRemaining: 96 });
    expect(after.body.billing).toMatchObject(period); // the period the ledger rolled to, as /v1/usage showed it before
    expect(await account(slug)).toMatchObject({ recurringUsed: 4, currentPeriodStart: ended, currentPeriodEnd: addMonths(ended, 1) });
  });

  it('returns holds left by a dead instance to their pools', async () => {
    const { slug, workspaceId } = await t.newKey();
    await setCredits(t.db.prisma, { workspace: slug, recurringLimit: 10, recurringUsed: 0, topup: 4 });
    const hold = await reserve(t.db.pool, workspaceId, 12);
    expect(hold).toMatchObject({ recurring: 10, topup: 2 });
    expect(await account(slug)).toMatchObject({ recurringUsed: 10, topupBalance: 2 });
    await t.db.prisma.creditReservation.update({ where: { id: hold!.id }, data: { createdAt: new Date(Date.now() - 3_600_000) } });
    expect(await releaseStaleHolds(t.db.pool, 600_000)).toBe(1);
    expect(await account(slug)).toMatchObject({ recurringUsed: 0, topupBalance: 4 });
    expect(await usage(workspaceId)).toEqual([]);
  });
});

describe('concurrency across two instances', () => {
  let secondDb: Db;
  let second: App;
  beforeAll(() => {
    secondDb = connect(t.db.url);
    second = createApp(
      { prisma: secondDb.prisma, pool: secondDb.pool, ledger: secondDb.ledger, authenticate: createAuthenticator(secondDb.prisma), rateLimiter: createRateLimiter(TEST_RATE_LIMITS), publicBaseUrl: 'http://api.test', startedAt: new Date() },
      { logger: createLogger({ level: 'silent' }) },
    );
  });
  afterAll(() => secondDb?.close());

  it('200 parallel calls against 150 credits, one instance skipping holds on an old figure: exactly 150 paid, never overdrawn', async () => {
    const { apiKey, slug, workspaceId } = await t.newKey();
    await setCredits(t.db.prisma, { workspace: slug, recurringLimit: 1000, recurringUsed: 0, topup: 0 });
    const headers = { authorization: `Bearer ${apiKey}` };
    expect((await t.app.fetch(`http://api.test/v1${PAGES(1)}`, { headers })).status).toBe(200); // t.app now knows of 999 credits
    await setCredits(t.db.prisma, { workspace: slug, recurringLimit: 100, recurringUsed: 0, topup: 50 });
    const responses = await Promise.all(
      Array.from({ length: 200 }, (_, i) => (i % 2 === 0 ? t.app : second).fetch(`http://api.test/v1${PAGES(1)}`, { headers })),
    );
    const statuses = responses.map((res) => res.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(150);
    expect(statuses.filter((s) => s === 402)).toHaveLength(50);
    expect(await account(slug)).toMatchObject({ recurringUsed: 100, topupBalance: 0 });
    const records = (await usage(workspaceId)).slice(1);
    expect(records).toHaveLength(150);
    expect(records.reduce((sum, r) => sum + r.recurring, 0)).toBe(100);
    expect(records.reduce((sum, r) => sum + r.topup, 0)).toBe(50);
    expect(await t.db.prisma.creditReservation.count({ where: { workspaceId } })).toBe(0);
  });

  it('200 parallel calls against credits for 100: exactly 100 paid, 100 refused, balance 0, ledger = charges', async () => {
    const { apiKey, slug, workspaceId } = await t.newKey();
    await setCredits(t.db.prisma, { workspace: slug, recurringLimit: 60, recurringUsed: 0, topup: 40 });
    const headers = { authorization: `Bearer ${apiKey}` };
    const responses = await Promise.all(
      Array.from({ length: 200 }, (_, i) => (i % 2 === 0 ? t.app : second).fetch(`http://api.test/v1${PAGES(1)}`, { headers })),
    );
    const statuses = responses.map((res) => res.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(100);
    expect(statuses.filter((s) => s === 402)).toHaveLength(100);
    for (const res of responses.filter((r) => r.status === 402)) expect((await res.json()).error.code).toBe('insufficient_credits');

    expect(await account(slug)).toMatchObject({ recurringUsed: 60, topupBalance: 0 });
    const records = await usage(workspaceId);
    expect(records).toHaveLength(100);
    expect(records.reduce((sum, r) => sum + r.cost, 0)).toBe(100);
    expect(records.reduce((sum, r) => sum + r.recurring, 0)).toBe(60);
    expect(records.reduce((sum, r) => sum + r.topup, 0)).toBe(40);
    expect(new Set(records.map((r) => r.requestId)).size).toBe(100);
    expect(await t.db.prisma.creditReservation.count()).toBe(0);
  });
});

async function fetchGraphQL(app: App, key: string, query: string, extra: Record<string, string> = {}) {
  const res = await app.fetch('http://api.test/graphql', {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...extra },
    body: JSON.stringify({ query }),
  });
  return { status: res.status, headers: res.headers, body: await res.json() };
}
