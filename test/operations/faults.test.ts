import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setCredits } from '../../src/auth/admin.js';
import { connect, type Db } from '../../src/db/client.js';
import { releaseStaleHolds } from '../../src/metering/ledger.js';
import { LEASE_SECONDS } from '../../src/plugins/use-idempotency.js';
import { createTestApp, type HttpResult, type TestApp } from '../support/app.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { adsScenario } from '../ads/scenario.js';
import { TcpProxy } from './tcp-proxy.js';

// A failing database and a failing Redis, while requests run. PostgreSQL only: terminating backends and refusing
// connections need a real server (PGlite runs inside the test's process). Requests in the fault's window answer 503
// with a code of the table, never 500; the server recovers by itself; no write is half-done.

const onPostgres = process.env.TEST_DB === 'postgres';
const PAGES = '/ads/facets/landing-pages?scopeTrackedPages=1000000000000001&limit=5'; // metered: holds, runs, settles

let database: TestDatabase;
let admin: pg.Client;
let dbName: string;
const statuses = new Map<string, number>();

function tally(label: string, res: HttpResult) {
  const key = `${label} ${res.status}${res.status >= 400 ? ` ${res.body?.error?.code}` : ''}`;
  statuses.set(key, (statuses.get(key) ?? 0) + 1);
}

/** Answers to a fault: a success, or a retryable 503 in the envelope with Retry-After; never a 500. */
function expectSurvivable(res: HttpResult, label: string) {
  tally(label, res);
  if (res.status === 503) {
    expect(['service_unavailable', 'auth_provider_unavailable'], label).toContain(res.body.error.code);
    expect(res.body.error.requestId, label).toBe(res.headers.get('x-request-id'));
    if (res.body.error.code === 'service_unavailable') expect(res.headers.get('retry-after'), label).toBe('1');
  } else expect(res.status, `${label}: ${JSON.stringify(res.body).slice(0, 300)}`).toBe(200);
}

async function waitFor(condition: () => Promise<boolean>, what: string) {
  for (let i = 0; i < 400; i++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`gave up waiting for ${what}`);
}

/** The credit ledger agrees with itself: no hold left, the pools hold what the usage records did not take. */
async function expectLedgerWhole(db: Db, workspaceId: string, limit: number) {
  await releaseStaleHolds(db.ledger, 0); // what the server's sweep does for holds a dead call left
  const [{ rows: holds }, { rows: [account] }, { rows: [used] }] = await Promise.all([
    db.pool.query('SELECT count(*)::int AS n FROM "credit_reservations" WHERE "workspaceId" = $1', [workspaceId]),
    db.pool.query('SELECT "recurringUsed", "topupBalance" FROM "credit_accounts" WHERE "workspaceId" = $1', [workspaceId]),
    db.pool.query('SELECT coalesce(sum("recurring"), 0)::int AS recurring, coalesce(sum("topup"), 0)::int AS topup FROM "usage_records" WHERE "workspaceId" = $1', [workspaceId]),
  ]);
  expect(holds[0].n).toBe(0);
  expect(account.recurringUsed).toBe(used.recurring); // every credit taken has its usage record, and no more
  expect(account.topupBalance + used.topup).toBe(0); // the workspace started with no top-up credits
  expect(account.recurringUsed).toBeLessThanOrEqual(limit);
}

/**
 * An app whose pools reach the database through a proxy the test can take down. Credentials are cached (as in
 * production, AUTH_CACHE_MS) so a refusal meets the data queries, not only the key lookup.
 */
async function appThroughProxy() {
  const proxy = new TcpProxy({ host: new URL(database.url).hostname, port: Number(new URL(database.url).port || 5432) });
  await proxy.up();
  const url = new URL(database.url);
  url.port = String(proxy.port);
  url.hostname = '127.0.0.1';
  const through: Db = connect(url.toString(), { max: 4 });
  const t = await createTestApp(undefined, { database: { ...database, prisma: through.prisma, pool: through.pool, ledger: through.ledger }, authCacheMs: 60_000 });
  return { proxy, through, t };
}

describe.skipIf(!onPostgres)('PostgreSQL faults (skipped on PGlite: terminating backends and refusing connections need a real server)', () => {
  beforeAll(async () => {
    database = await createTestDatabase();
    await adsScenario(database);
    dbName = new URL(database.url).pathname.slice(1);
    admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
  });
  afterAll(async () => {
    if (statuses.size) console.log(`faults: answers seen ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`);
    await admin?.end();
    await database?.dispose();
  });

  it('backends terminated in the middle of queries: those requests answer 503 service_unavailable, the next ones 200, and no write is half-done', async () => {
    const t: TestApp = await createTestApp(undefined, { database });
    try {
      const { apiKey, slug, workspaceId } = await t.newKey();
      await setCredits(database.prisma, { workspace: slug, recurringLimit: 100_000, recurringUsed: 0, topup: 0 });
      for (let round = 0; round < 3; round++) {
        // Requests queue behind a lock on the tables they read (the ads; the landing pages' counts per page, migration
        // 0040, for the metered facet); their backends are then terminated while they wait.
        const locker = new pg.Client({ connectionString: database.url });
        await locker.connect();
        await locker.query('BEGIN');
        await locker.query('LOCK TABLE "ads", "advertiser_landing_page_counts" IN ACCESS EXCLUSIVE MODE');
        const calls = [
          ...Array.from({ length: 6 }, () => ['detail', t.rest('GET', '/ads/facebook_9001', { key: apiKey })] as const),
          ...Array.from({ length: 4 }, () => ['metered', t.rest('GET', PAGES, { key: apiKey })] as const),
          ...Array.from({ length: 2 }, () => ['search', t.rest('POST', '/ads/query', { key: apiKey, body: { minReach: 1 } })] as const),
          ['share', t.rest('POST', '/ads/facebook_9004/share', { key: apiKey, body: {} })] as const,
          ['graphql', t.graphql('{ ad(adId: "facebook_9001") { id } }', {}, apiKey)] as const,
        ];
        const blocked = async () => (await admin.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock'`, [dbName])).rows[0].n as number;
        await waitFor(async () => (await blocked()) >= 8, 'requests waiting on the lock');
        const killed = await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock'`, [dbName]);
        await locker.query('ROLLBACK');
        await locker.end();
        expect(killed.rowCount).toBeGreaterThanOrEqual(8);
        const answers = await Promise.all(calls.map(async ([label, pending]) => [label, await pending] as const));
        for (const [label, res] of answers) {
          if (label === 'graphql') {
            tally(label, res);
            const code = res.body.errors?.[0]?.extensions?.code;
            expect(code === undefined || code === 'service_unavailable', JSON.stringify(res.body)).toBe(true);
          } else expectSurvivable(res, label);
        }
        expect(answers.filter(([, res]) => res.status === 503 || res.body.errors?.[0]?.extensions?.code === 'service_unavailable').length).toBeGreaterThanOrEqual(1);
      }
      // Recovered without a restart: every call answers again.
      for (let i = 0; i < 5; i++) {
        expect((await t.rest('GET', '/ads/facebook_9001', { key: apiKey })).status).toBe(200);
        expect((await t.rest('GET', PAGES, { key: apiKey })).status).toBe(200);
      }
      expect((await t.rest('GET', '/ready')).status).toBe(200);
      await expectLedgerWhole(database, workspaceId, 100_000);
      // A share is written with its audit event, or not at all.
      const { rows: [shares] } = await database.pool.query(
        `SELECT (SELECT count(*) FROM "ad_shares" WHERE "workspaceId" = $1)::int AS shares, (SELECT count(*) FROM "audit_events" WHERE "workspaceId" = $1 AND "action" = 'ad.share')::int AS audited`,
        [workspaceId],
      );
      expect(shares.shares).toBe(shares.audited);
      expect(t.logs.filter((line) => line.level === 'error' && line.msg === 'internal error')).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it('Idempotency-Key through terminated backends: a key never sticks, a write answered 503 is not committed or replays its committed answer, and a write is made once', async () => {
    const { proxy, through, t } = await appThroughProxy();
    const { apiKey, workspaceId, credentialId } = await t.newKey();
    const keyed = (key: string, path: string, body: unknown) => t.rest('POST', path, { key: apiKey, body, headers: { 'idempotency-key': key } });
    const count = async (sql: string) => (await database.pool.query(sql, [workspaceId])).rows[0].n as number;
    const boards = (name: string) => count(`SELECT count(*)::int AS n FROM "boards" WHERE "workspaceId" = $1 AND "name" = '${name}'`);
    /** Holds `table` locked while `send` runs, ends the backends waiting on it (`cut`: by terminating them, or by cutting the proxy), and answers what `send` got. */
    async function whileLocked<T>(table: string, send: () => Promise<T>, waiting: number, cut: () => Promise<unknown>): Promise<T> {
      const locker = new pg.Client({ connectionString: database.url });
      await locker.connect();
      await locker.query('BEGIN');
      await locker.query(`LOCK TABLE "${table}" IN ACCESS EXCLUSIVE MODE`);
      const pending = send();
      const blocked = async () => (await admin.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock'`, [dbName])).rows[0].n as number;
      try {
        await waitFor(async () => (await blocked()) >= waiting, `${waiting} request(s) waiting on ${table}`);
        await cut();
      } finally {
        await locker.query('ROLLBACK');
        await locker.end();
      }
      return pending;
    }
    const terminate = () => admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock'`, [dbName]);
    try {
      // Cut off in its write: 503, nothing committed, the key freed at once; the retry runs.
      const cut = await whileLocked('boards', () => keyed('board-a', '/boards', { name: 'A' }), 1, terminate);
      expectSurvivable(cut, 'keyed write');
      expect(cut.status).toBe(503);
      const retry = await keyed('board-a', '/boards', { name: 'A' });
      expect([retry.status, await boards('A')]).toEqual([200, 1]);

      // The same, and the statement freeing the key fails too (the database is unreachable as the request ends): the
      // key is held for the lease only (409 with Retry-After meanwhile), never 24 hours.
      const unreachable = await whileLocked('boards', () => keyed('board-b', '/boards', { name: 'B' }), 1, async () => {
        await proxy.down();
        await terminate();
      });
      expect(unreachable.status).toBe(503);
      await proxy.up();
      const held = await keyed('board-b', '/boards', { name: 'B' });
      expect([held.status, held.body.error?.code]).toEqual([409, 'conflict']);
      expect(Number(held.headers.get('retry-after'))).toBeGreaterThan(LEASE_SECONDS - 10);
      expect(Number(held.headers.get('retry-after'))).toBeLessThanOrEqual(LEASE_SECONDS);
      await database.pool.query(`UPDATE "idempotency_keys" SET "claimedAt" = "claimedAt" - make_interval(secs => $2) WHERE "credentialId" = $1 AND "key" = 'board-b'`, [credentialId, LEASE_SECONDS + 1]);
      const afterLease = await keyed('board-b', '/boards', { name: 'B' });
      expect([afterLease.status, await boards('B')]).toEqual([200, 1]);

      // Committed, then cut off while its answer was read (the brandtracker is loaded from "ads" after the write): the
      // retry is answered from the committed write (created: true), without a second link or quota operation. The page's
      // global brandtracker exists already (another workspace tracks it), so the write only links it: making one
      // computes the page's daily series from "ads" in the write itself.
      const page = { facebookPageId: '1000000000000001' };
      expect((await t.rest('POST', '/brandtrackers', { key: (await t.newKey()).apiKey, body: page })).status).toBe(200);
      const late = await whileLocked('ads', () => keyed('track-1', '/brandtrackers', page), 1, terminate);
      expect(late.status).toBe(503);
      expect(await count(`SELECT count(*)::int AS n FROM "brandtracker_links" WHERE "workspaceId" = $1 AND "isActive"`)).toBe(1); // it did commit
      const answered = await keyed('track-1', '/brandtrackers', page);
      expect([answered.status, answered.body.created, answered.headers.get('idempotent-replayed')]).toEqual([200, true, null]);
      const again = await keyed('track-1', '/brandtrackers', page);
      expect([again.headers.get('idempotent-replayed'), { ...again.body, requestId: answered.body.requestId }]).toEqual(['true', answered.body]);
      expect(await count(`SELECT count(*)::int AS n FROM "brandtracker_quota_operations" WHERE "workspaceId" = $1`)).toBe(1);

      // A request that outlives its lease while a retry takes its key over: only one of them writes.
      const [outlived, taken] = await whileLocked('boards', async () => {
        const first = keyed('board-d', '/boards', { name: 'D' });
        await waitFor(async () => (await count(`SELECT count(*)::int AS n FROM "idempotency_keys" WHERE "workspaceId" = $1 AND "key" = 'board-d'`)) === 1, 'the claim');
        await database.pool.query(`UPDATE "idempotency_keys" SET "claimedAt" = now() - interval '1 hour' WHERE "credentialId" = $1 AND "key" = 'board-d'`, [credentialId]);
        return Promise.all([first, keyed('board-d', '/boards', { name: 'D' })]);
      }, 2, async () => undefined);
      expect([outlived.status, outlived.body.error?.code, taken.status]).toEqual([409, 'conflict', 200]);
      expect(await boards('D')).toBe(1);
      expect(t.logs.filter((line) => line.level === 'error' && line.msg === 'internal error')).toEqual([]);
    } finally {
      await t.close();
      await through.close();
      await proxy.down();
    }
  });

  it('a keyed DELETE committed whose answer was lost (503): the retry after the lease answers the committed 200, the row stays deleted, one audit event', async () => {
    const { proxy, through, t } = await appThroughProxy();
    const { apiKey, workspaceId, credentialId } = await t.newKey();
    // The removal's COMMIT is held at the server (a deferred trigger waits for an advisory lock the test holds); the
    // proxy then stops forwarding, the lock is let go, the commit completes at the server and its acknowledgement is
    // lost with the connection: the request answers 503 although its write committed.
    const HOLD = 3203201;
    await database.pool.query(`
      CREATE FUNCTION "test_hold_commit"() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_advisory_xact_lock(${HOLD}); RETURN NULL; END $$;
      CREATE CONSTRAINT TRIGGER "test_hold_commit" AFTER INSERT ON "audit_events" DEFERRABLE INITIALLY DEFERRED
        FOR EACH ROW WHEN (NEW."action" = 'board_item.remove') EXECUTE FUNCTION "test_hold_commit"();`);
    const holder = new pg.Client({ connectionString: database.url });
    await holder.connect();
    try {
      const board = await t.rest('POST', '/boards', { key: apiKey, body: { name: 'Lost answers' } });
      const item = await t.rest('POST', `/boards/${board.body.data.id}/items`, { key: apiKey, body: { type: 'ad', targetId: 'facebook_9001' } });
      expect([board.status, item.status], JSON.stringify(item.body)).toEqual([200, 200]);
      const path = `/boards/${board.body.data.id}/items/${item.body.data.id}`;
      const remove = () => t.rest('DELETE', path, { key: apiKey, headers: { 'idempotency-key': 'remove-1' } });
      const removals = () => database.pool.query(`SELECT count(*)::int AS n FROM "audit_events" WHERE "workspaceId" = $1 AND "action" = 'board_item.remove'`, [workspaceId]).then((r) => r.rows[0].n as number);
      const items = () => database.pool.query(`SELECT count(*)::int AS n FROM "board_items" WHERE "workspaceId" = $1`, [workspaceId]).then((r) => r.rows[0].n as number);

      await holder.query('SELECT pg_advisory_lock($1)', [HOLD]);
      const pending = remove();
      const holding = async () => (await admin.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock' AND wait_event = 'advisory'`, [dbName])).rows[0].n as number;
      await waitFor(async () => (await holding()) === 1, 'the removal holding its commit');
      proxy.stall();
      await holder.query('SELECT pg_advisory_unlock($1)', [HOLD]);
      await waitFor(async () => (await removals()) === 1, 'the removal to commit');
      await proxy.down();
      const lost = await pending;
      expectSurvivable(lost, 'keyed delete, answer lost');
      expect(lost.status).toBe(503);
      await proxy.up();
      expect([await items(), await removals()]).toEqual([0, 1]); // it did commit

      // The key is held for the lease (the statement releasing it could not reach the database either), then taken over.
      const early = await remove();
      expect([early.status, early.body.error?.code]).toEqual([409, 'conflict']);
      await database.pool.query(`UPDATE "idempotency_keys" SET "claimedAt" = "claimedAt" - make_interval(secs => $2) WHERE "credentialId" = $1 AND "key" = 'remove-1'`, [credentialId, LEASE_SECONDS + 1]);
      const retry = await remove();
      expect([retry.status, retry.headers.get('idempotent-replayed')], JSON.stringify(retry.body)).toEqual([200, null]);
      expect(retry.body).toEqual({ requestId: retry.body.requestId, data: { removed: true, itemId: item.body.data.id, boardId: board.body.data.id } });
      const again = await remove();
      expect([again.headers.get('idempotent-replayed'), { ...again.body, requestId: retry.body.requestId }]).toEqual(['true', retry.body]);
      expect([await items(), await removals()]).toEqual([0, 1]);
      // Without the key, a second removal is the route's 404, as before.
      expect((await t.rest('DELETE', path, { key: apiKey })).status).toBe(404);
      expect(t.logs.filter((line) => line.level === 'error' && line.msg === 'internal error')).toEqual([]);
    } finally {
      await holder.end();
      await database.pool.query(`DROP TRIGGER IF EXISTS "test_hold_commit" ON "audit_events"; DROP FUNCTION IF EXISTS "test_hold_commit"()`);
      await t.close();
      await through.close();
      await proxy.down();
    }
  });

  it('the database refusing connections for a while: 503 in that window, readiness 503, then recovery without a restart', async () => {
    const { proxy, through, t } = await appThroughProxy();
    try {
      const { apiKey, slug, workspaceId } = await t.newKey();
      await setCredits(database.prisma, { workspace: slug, recurringLimit: 100_000, recurringUsed: 0, topup: 0 });
      expect((await t.rest('GET', '/ads/facebook_9001', { key: apiKey })).status).toBe(200);
      expect((await t.rest('GET', PAGES, { key: apiKey })).status).toBe(200);

      await proxy.down();
      const during = await Promise.all([
        ...Array.from({ length: 4 }, () => t.rest('GET', '/ads/facebook_9001', { key: apiKey })),
        ...Array.from({ length: 3 }, () => t.rest('GET', PAGES, { key: apiKey })),
        t.rest('POST', '/ads/query', { key: apiKey, body: {} }),
        t.rest('POST', '/ads/facebook_9002/share', { key: apiKey, body: {} }),
      ]);
      for (const res of during) {
        expectSurvivable(res, 'refused');
        expect(res.status).toBe(503);
      }
      const gql = await t.graphql('{ ad(adId: "facebook_9001") { id } }', {}, apiKey);
      expect(gql.body.errors[0].extensions.code).toBe('service_unavailable');
      const ready = await t.rest('GET', '/ready');
      expect([ready.status, ready.body.status, ready.body.checks.database.status]).toEqual([503, 'unavailable', 'down']);
      expect((await t.rest('GET', '/health')).status).toBe(200); // liveness touches nothing

      await proxy.up();
      expect((await t.rest('GET', '/ads/facebook_9001', { key: apiKey })).status).toBe(200);
      expect((await t.rest('GET', PAGES, { key: apiKey })).status).toBe(200);
      expect((await t.rest('POST', '/ads/facebook_9002/share', { key: apiKey, body: {} })).status).toBe(200);
      expect((await t.rest('GET', '/ready')).status).toBe(200);
      await expectLedgerWhole(database, workspaceId, 100_000);
      expect(t.logs.filter((line) => line.level === 'error' && line.msg === 'internal error')).toEqual([]);
    } finally {
      await t.close();
      await through.close();
      await proxy.down();
    }
  });
});

const redisUrl = process.env.TEST_REDIS_URL;

describe.skipIf(!redisUrl)('Redis going away (skipped without TEST_REDIS_URL)', () => {
  it('requests are served without rate limits while Redis is down (as the README says), readiness says so, and limits resume when it is back', async () => {
    const target = new URL(redisUrl!);
    const proxy = new TcpProxy({ host: target.hostname, port: Number(target.port || 6379) });
    await proxy.up();
    // Five reads per key, refilled very slowly: more than five answered while Redis is down shows the limits are off.
    const rateLimits = { read: { capacity: 5, perSecond: 0.001 }, write: { capacity: 5, perSecond: 0.001 } };
    const t = await createTestApp(adsScenario, { rateLimits, redisUrl: `redis://127.0.0.1:${proxy.port}`, redisPrefix: `mi:test:${process.pid}:${Date.now()}:` });
    try {
      const { apiKey } = await t.newKey();
      const first = await t.rest('GET', '/ads/facebook_9001', { key: apiKey });
      expect(first.status).toBe(200);
      expect((await t.rest('GET', '/ready')).body.checks.redis.status).toBe('up');
      await proxy.down();
      for (let i = 0; i < 7; i++) {
        const res = await t.rest('GET', '/ads/facebook_9001', { key: apiKey });
        tally('redis down', res);
        expect(res.status).toBe(200);
      }
      const ready = await t.rest('GET', '/ready');
      expect([ready.status, ready.body.checks.redis.status, ready.body.checks.database.status]).toEqual([503, 'down', 'up']);
      await proxy.up();
      await waitFor(async () => (await t.rest('GET', '/ready')).status === 200, 'Redis to be back');
      const after = await t.rest('GET', '/ads/facebook_9001', { key: apiKey });
      expect(after.status).toBe(200);
      expect([first.headers.get('x-ratelimit-remaining'), after.headers.get('x-ratelimit-remaining')]).toEqual(['4', '3']); // Redis' bucket again
    } finally {
      await t.close().catch(() => undefined);
      await proxy.down();
    }
  });
});
