import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { statementKind } from '../../src/db/replicas.js';

// What decides where a statement runs, without a database: the configuration's refusals and the statement kinds
// (test/replicas/routing.test.ts runs them against a real standby).

describe('DATABASE_REPLICA_URLS', () => {
  it('reads one or more comma-separated replicas and REPLICA_MAX_LAG_MS', () => {
    const config = loadConfig({ DATABASE_URL: 'postgresql://p@primary/db', DATABASE_REPLICA_URLS: ' postgresql://r@one/db, postgres://r@two:5433/db ,', REPLICA_MAX_LAG_MS: '250' });
    expect(config.replicas).toEqual({ urls: ['postgresql://r@one/db', 'postgres://r@two:5433/db'], maxLagMs: 250 });
    expect(loadConfig({}).replicas).toEqual({ urls: [], maxLagMs: 1000 });
  });

  it('refuses replicas without DATABASE_URL (the embedded database has none), and a replica that is not a PostgreSQL URL', () => {
    expect(() => loadConfig({ DATABASE_REPLICA_URLS: 'postgresql://r@one/db' })).toThrow(/DATABASE_REPLICA_URLS: read replicas need DATABASE_URL .*embedded database \(PGlite\) has no replicas/);
    expect(() => loadConfig({ DATABASE_URL: 'postgresql://p@primary/db', DATABASE_REPLICA_URLS: 'postgresql://r@one/db,http://secret@two/' })).toThrow(/DATABASE_REPLICA_URLS: entry 2 is not a postgresql:\/\/ URL/);
    expect(() => loadConfig({ DATABASE_URL: 'postgresql://p@primary/db', DATABASE_REPLICA_URLS: 'postgresql://r@one/db,http://secret@two/' })).not.toThrow(/secret/);
    expect(() => loadConfig({ DATABASE_URL: 'postgresql://p@primary/db', REPLICA_MAX_LAG_MS: '-1' })).toThrow(/REPLICA_MAX_LAG_MS/);
  });
});

describe('statement kinds', () => {
  it('lets plain reads of market tables go to a replica', () => {
    expect(statementKind('SELECT a."id" FROM "ads" a WHERE a."advertiserId" = $1')).toBe('read');
    expect(statementKind('/* a comment */ WITH x AS (SELECT 1) SELECT * FROM "public"."shops", x')).toBe('read');
  });

  it('keeps writes, locks and sequences on the primary, in a CTE or a function too', () => {
    for (const text of [
      'INSERT INTO "ads" ("id") VALUES ($1)',
      'UPDATE "ads" SET "status" = $1',
      'UPDATE "credentials" SET "x" = 1 FROM "ads" WHERE "ads".id = $1 FOR UPDATE',
      'WITH moved AS (UPDATE "ads" a SET "status" = $1 RETURNING 1) SELECT count(*) FROM moved',
      'WITH gone AS (DELETE FROM "ads" WHERE id = $1 RETURNING 1) SELECT 1',
      'SELECT * FROM "ads" WHERE id = $1 FOR UPDATE',
      'SELECT * FROM "ads" FOR NO KEY UPDATE SKIP LOCKED',
      "SELECT nextval('ads_seq')",
      'SELECT pg_advisory_xact_lock(1)',
      'BEGIN',
      'CREATE TEMP TABLE t (x int)',
    ]) expect(statementKind(text), text).toBe('write');
  });

  it('runs writes of data read on the primary only there, without sending the request\'s later reads to the primary', () => {
    for (const text of [
      'INSERT INTO "public"."boards" ("name") VALUES ($1) RETURNING "id"',
      'UPDATE "public"."credentials" SET "lastUsedAt" = $1 WHERE ("public"."credentials"."id" = $2 AND 1=1)',
      `WITH commit_mode AS (SELECT 1), held AS (UPDATE "credit_accounts" a SET "balance" = 1 RETURNING 1) INSERT INTO "credit_reservations" ("id") VALUES ($1)`,
      'DELETE FROM "idempotency_keys" WHERE "expiresAt" < now()',
    ]) expect(statementKind(text), text).toBe('bookkeeping');
  });

  it('keeps reads of workspace data, keys, credits and idempotency claims on the primary', () => {
    for (const text of [
      'SELECT * FROM "board_items" bi JOIN "ads" a ON a."id" = bi."adId" WHERE bi."workspaceId" = $1',
      'SELECT 1 FROM "public"."credentials" WHERE "keyHash" = $1',
      'SELECT "balance" FROM "public"."credit_accounts" WHERE "workspaceId" = $1',
      'SELECT * FROM idempotency_keys WHERE key = $1',
      'SELECT * FROM "saved_searches" s WHERE s."workspaceId" = $1',
      'SELECT * FROM pgboss.job',
    ]) expect(statementKind(text), text).toBe('primary');
    // A column named like a table's singular is not the table.
    expect(statementKind('SELECT a."workspaceId" FROM "ads" a')).toBe('read');
  });
});
