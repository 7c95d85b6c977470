import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';

// The API's connections start with their session settings (src/db/client.ts SESSION_OPTIONS): JIT off on every pool,
// the ledger's generic plans besides. A startup parameter, so only a real PostgreSQL shows it (PGlite ignores it).

const onPostgres = process.env.TEST_DB === 'postgres';

describe.skipIf(!onPostgres)('session settings of the pools (PostgreSQL)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  const setting = async (pool: TestApp['db']['pool'], name: string) => (await pool.query<Record<string, string>>(`SHOW ${name}`)).rows[0][name];

  it('runs without JIT on the API pool and the ledger, and the ledger with generic plans', async () => {
    expect(await setting(t.db.pool, 'jit')).toBe('off');
    expect(await setting(t.db.ledger, 'jit')).toBe('off');
    expect(await setting(t.db.ledger, 'plan_cache_mode')).toBe('force_generic_plan');
    // The API pool keeps PostgreSQL's own plan choice.
    expect(await setting(t.db.pool, 'plan_cache_mode')).toBe('auto');
  });
});
