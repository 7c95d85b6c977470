import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { revokeKey } from '../../src/auth/admin.js';
import { cachedLookup } from '../../src/auth/credential-cache.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { recordStatements } from '../support/statements.js';

// With AUTH_CACHE_MS set, a key is looked up once per window instead of once per request, and a
// revocation still takes effect when the window ends. Two servers on one database: a short window, to see it
// end, and a long one, so that requests on a slow machine all fall inside it.
const WINDOW_MS = 400;
let t: TestApp;
let longWindow: TestApp;

beforeAll(async () => {
  t = await createTestApp(undefined, { authCacheMs: WINDOW_MS });
  longWindow = await createTestApp(undefined, { authCacheMs: 60_000, database: t.db });
});
afterAll(async () => {
  await longWindow?.close();
  await t?.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('credential lookup cache', () => {
  it('looks a key up once per window, however many requests use it', async () => {
    const { apiKey } = await longWindow.newKey();
    const sql = recordStatements();
    try {
      const statuses = await Promise.all(Array.from({ length: 5 }, () => longWindow.rest('GET', '/me', { key: apiKey }).then((r) => r.status)));
      expect(statuses).toEqual([200, 200, 200, 200, 200]);
      expect((await longWindow.rest('GET', '/me', { key: apiKey })).status).toBe(200);
      const lookups = sql.all().filter((text) => /FROM "credentials" c/.test(text));
      expect(lookups).toHaveLength(1);
    } finally {
      sql.restore();
    }
  });

  it('still checks the secret of every request against the cached hash', async () => {
    const { apiKey } = await longWindow.newKey();
    expect((await longWindow.rest('GET', '/me', { key: apiKey })).status).toBe(200);
    const forged = apiKey.slice(0, -4) + (apiKey.endsWith('aaaa') ? 'bbbb' : 'aaaa');
    const res = await longWindow.rest('GET', '/me', { key: forged });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('invalid_api_key');
  });

  it('refuses a revoked key once the window has passed', async () => {
    const { apiKey, credentialId } = await t.newKey();
    expect((await t.rest('GET', '/me', { key: apiKey })).status).toBe(200);
    await revokeKey(t.db.prisma, credentialId);
    await sleep(WINDOW_MS + 100);
    const res = await t.rest('GET', '/me', { key: apiKey });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('credential_revoked');
  });

});

describe('cachedLookup', () => {
  it('keeps misses for the window, forgets failures at once and holds at most maxEntries keys', async () => {
    const calls: string[] = [];
    let fail = true;
    const lookup = cachedLookup(async (prefix) => {
      calls.push(prefix);
      if (prefix === 'flaky' && fail) throw new Error('store down');
      return null;
    }, 60_000, 2);
    expect(await lookup('a')).toBeNull();
    expect(await lookup('a')).toBeNull();
    expect(calls).toEqual(['a']);
    await expect(lookup('flaky')).rejects.toThrow('store down');
    fail = false;
    await sleep(0);
    expect(await lookup('flaky')).toBeNull();
    expect(calls).toEqual(['a', 'flaky', 'flaky']);
    await lookup('b'); // a third key: 'a', the oldest, goes
    await lookup('a');
    expect(calls).toEqual(['a', 'flaky', 'flaky', 'b', 'a']);
  });
});
