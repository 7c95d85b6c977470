import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createAuthenticator } from '../../src/auth/authenticate.js';
import { deleteKey, revokeKey, revokeUser } from '../../src/auth/admin.js';
import { hashKey } from '../../src/auth/keys.js';
import { connect, type Db } from '../../src/db/client.js';
import { createRateLimiter } from '../../src/metering/index.js';
import { createApp, type App } from '../../src/server.js';
import { createTestApp, TEST_RATE_LIMITS, type TestApp } from '../support/app.js';
import { adsScenario } from '../ads/scenario.js';
import { createLogger } from '../../src/observability/logger.js';

// The authentication and authorization matrix of the specification, on a read (GET /v1/me), a write
// (POST /v1/ads/{adId}/share) and GraphQL, plus how keys are stored and what identity they report.

const ME_QUERY = 'query { me { workspace { id } } }';
const SHARE_MUTATION = 'mutation { adShare(adId: "facebook_9001") { id } }';
const SHARE_PATH = '/ads/facebook_9001/share';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(adsScenario); });
afterAll(() => t?.close());

const sharesOf = async (workspaceId: string) => t.db.prisma.adShare.count({ where: { workspaceId } });

/** The code the REST read, the REST write and GraphQL (query and mutation) all answer for these headers. */
async function expectDenied(headers: Record<string, string>, status: number, code: string, workspaceId?: string) {
  const read = await t.rest('GET', '/me', { headers });
  expect(read.status, `GET /me ${JSON.stringify(read.body)}`).toBe(status);
  expect(read.body).toEqual({ error: { code, message: expect.any(String), requestId: read.headers.get('x-request-id') } });

  const write = await t.rest('POST', SHARE_PATH, { headers });
  expect(write.status, `POST share ${JSON.stringify(write.body)}`).toBe(status);
  expect(write.body.error.code).toBe(code);

  for (const query of [ME_QUERY, SHARE_MUTATION]) {
    const response = await t.app.fetch('http://api.test/graphql', {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ query }),
    });
    const gql = await response.json();
    expect(gql.errors?.[0]?.extensions?.code, `${query}: ${JSON.stringify(gql)}`).toBe(code);
    expect(gql.errors).toHaveLength(1);
    expect(response.status).toBe(status);
    expect(Object.values(gql.data ?? {})).toEqual([null]);
  }
  if (workspaceId) expect(await sharesOf(workspaceId)).toBe(0);
}

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

describe('missing or unreadable key: 401 missing_api_key', () => {
  it('no Authorization header', async () => {
    await expectDenied({}, 401, 'missing_api_key');
  });

  it('the key only in x-api-key (or another header) is not read', async () => {
    const { apiKey, workspaceId } = await t.newKey();
    await expectDenied({ 'x-api-key': apiKey }, 401, 'missing_api_key', workspaceId);
    await expectDenied({ 'api-key': apiKey, 'x-authorization': `Bearer ${apiKey}` }, 401, 'missing_api_key', workspaceId);
  });

  it('another scheme, no scheme, or an empty bearer', async () => {
    const { apiKey, workspaceId } = await t.newKey();
    await expectDenied({ authorization: `Basic ${Buffer.from(`user:${apiKey}`).toString('base64')}` }, 401, 'missing_api_key', workspaceId);
    await expectDenied({ authorization: apiKey }, 401, 'missing_api_key', workspaceId);
    await expectDenied({ authorization: 'Bearer' }, 401, 'missing_api_key');
    await expectDenied({ authorization: 'Bearer   ' }, 401, 'missing_api_key');
  });
});

describe('key checks, in the order the specification lists them', () => {
  it('malformed or unknown key: 401 invalid_api_key', async () => {
    const { apiKey } = await t.newKey();
    await expectDenied(bearer('not-a-key'), 401, 'invalid_api_key');
    await expectDenied(bearer(`mik_${'A'.repeat(12)}_${'b'.repeat(40)}`), 401, 'invalid_api_key');
    // A real prefix with a wrong secret is not the key.
    await expectDenied(bearer(`${apiKey.slice(0, -1)}${apiKey.endsWith('x') ? 'y' : 'x'}`), 401, 'invalid_api_key');
    await expectDenied(bearer(`${apiKey}extra`), 401, 'invalid_api_key');
  });

  it('with credential lookups cached, a wrong secret behind a verified key is still refused', async () => {
    const { apiKey, workspaceId } = await t.newKey();
    const authenticate = createAuthenticator(t.db.prisma, { cacheMs: 60_000 });
    const wrong = `${apiKey.slice(0, -1)}${apiKey.endsWith('x') ? 'y' : 'x'}`;
    expect((await authenticate(`Bearer ${apiKey}`)).workspace.id).toBe(workspaceId);
    await expect(authenticate(`Bearer ${wrong}`)).rejects.toMatchObject({ extensions: { code: 'invalid_api_key' } });
    expect((await authenticate(`Bearer ${apiKey}`)).workspace.id).toBe(workspaceId);
    await expect(authenticate(`Bearer ${apiKey}x`)).rejects.toMatchObject({ extensions: { code: 'invalid_api_key' } });
  });

  it('deleted key: 401 credential_not_found', async () => {
    const { apiKey, credentialId, workspaceId } = await t.newKey();
    expect((await t.rest('GET', '/me', { key: apiKey })).status).toBe(200);
    await deleteKey(t.db.prisma, credentialId);
    await expectDenied(bearer(apiKey), 401, 'credential_not_found', workspaceId);
  });

  it('revoked key: 401 credential_revoked', async () => {
    const { apiKey, credentialId, workspaceId } = await t.newKey();
    await revokeKey(t.db.prisma, credentialId);
    await expectDenied(bearer(apiKey), 401, 'credential_revoked', workspaceId);
  });

  it('expired key: 401 credential_expired; a key expiring later still works', async () => {
    const expired = await t.newKey({ expiresAt: new Date(Date.now() - 60_000) });
    await expectDenied(bearer(expired.apiKey), 401, 'credential_expired', expired.workspaceId);
    const later = await t.newKey({ expiresAt: new Date(Date.now() + 3_600_000) });
    const me = await t.rest('GET', '/me', { key: later.apiKey });
    expect(me.status).toBe(200);
    expect(Date.parse(me.body.credential.expiresAt)).toBeGreaterThan(Date.now());
  });

  it('workspace without public API access: 403 workspace_public_api_disabled (a missing record counts as disabled)', async () => {
    for (const apiAccess of ['none', 'disabled'] as const) {
      const { apiKey, workspaceId } = await t.newKey({ apiAccess });
      await expectDenied(bearer(apiKey), 403, 'workspace_public_api_disabled', workspaceId);
    }
  });

  it('suspended workspace: 403 workspace_public_api_suspended', async () => {
    const { apiKey, workspaceId } = await t.newKey({ apiAccess: 'suspended' });
    await expectDenied(bearer(apiKey), 403, 'workspace_public_api_suspended', workspaceId);
  });

  it("revoked delegated user: 403 delegated_user_access_revoked", async () => {
    const { apiKey, userId, workspaceId } = await t.newKey({ role: 'member' });
    expect((await t.rest('GET', '/me', { key: apiKey })).status).toBe(200);
    await revokeUser(t.db.prisma, userId!);
    await expectDenied(bearer(apiKey), 403, 'delegated_user_access_revoked', workspaceId);
  });

  it('when several checks fail, the first in order answers', async () => {
    // deleted before revoked
    const a = await t.newKey();
    await revokeKey(t.db.prisma, a.credentialId);
    await deleteKey(t.db.prisma, a.credentialId);
    await expectDenied(bearer(a.apiKey), 401, 'credential_not_found');
    // revoked before expired
    const b = await t.newKey({ expiresAt: new Date(Date.now() - 60_000) });
    await revokeKey(t.db.prisma, b.credentialId);
    await expectDenied(bearer(b.apiKey), 401, 'credential_revoked');
    // expired before the workspace's access
    const c = await t.newKey({ expiresAt: new Date(Date.now() - 60_000), apiAccess: 'suspended' });
    await expectDenied(bearer(c.apiKey), 401, 'credential_expired');
    // workspace access before the delegated user
    const d = await t.newKey({ role: 'readonly', apiAccess: 'disabled' });
    await revokeUser(t.db.prisma, d.userId!);
    await expectDenied(bearer(d.apiKey), 403, 'workspace_public_api_disabled');
    // a revoked readonly user is revoked, not merely forbidden
    const e = await t.newKey({ role: 'readonly' });
    await revokeUser(t.db.prisma, e.userId!);
    await expectDenied(bearer(e.apiKey), 403, 'delegated_user_access_revoked', e.workspaceId);
  });

  it('authentication comes before parameter validation', async () => {
    const res = await t.rest('GET', '/ads?limit=abc');
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('missing_api_key');
    const bad = await t.rest('POST', '/ads/query', { rawBody: '{oops', headers: { authorization: 'Bearer nope' } });
    expect(bad.status).toBe(401);
    expect(bad.body.error.code).toBe('invalid_api_key');
  });

  it('the scheme name is case-insensitive', async () => {
    const { apiKey } = await t.newKey();
    expect((await t.rest('GET', '/me', { headers: { authorization: `bearer ${apiKey}` } })).status).toBe(200);
  });
});

describe('roles', () => {
  it('readonly reads but may not write: 403 forbidden, and no share row is written', async () => {
    const { apiKey, workspaceId } = await t.newKey({ role: 'readonly' });
    const me = await t.rest('GET', '/me', { key: apiKey });
    expect(me.status).toBe(200);
    expect(me.body.delegatedUser.workspaceRole).toBe('readonly');
    const ads = await t.rest('GET', '/ads?search=summer', { key: apiKey });
    expect(ads.status).toBe(200);

    const share = await t.rest('POST', SHARE_PATH, { key: apiKey });
    expect(share.status).toBe(403);
    expect(share.body).toEqual({ error: { code: 'forbidden', message: expect.any(String), requestId: share.headers.get('x-request-id') } });
    const gql = await t.graphql(SHARE_MUTATION, {}, apiKey);
    expect(gql.status).toBe(403);
    expect(gql.body.errors[0].extensions.code).toBe('forbidden');
    expect(await sharesOf(workspaceId)).toBe(0);
  });

  it('writer roles (owner, admin, member) and full-access keys can share', async () => {
    for (const role of ['owner', 'admin', 'member', undefined] as const) {
      const { apiKey, workspaceId } = await t.newKey({ role });
      const share = await t.rest('POST', SHARE_PATH, { key: apiKey });
      expect(share.status, `${role ?? 'full_access'}: ${JSON.stringify(share.body)}`).toBe(200);
      expect(share.body.data.adId).toBe('facebook_9001');
      expect(await sharesOf(workspaceId)).toBe(1);
    }
  });
});

describe('open routes', () => {
  it('GET /v1, /v1/health and /v1/system/freshness answer 200 without a key (and ignore a bad one)', async () => {
    for (const path of ['', '/health', '/system/freshness']) {
      for (const headers of [{}, { authorization: 'Bearer nonsense' }] as Record<string, string>[]) {
        const res = await t.rest('GET', path, { headers });
        expect(res.status, `${path} ${JSON.stringify(res.body)}`).toBe(200);
        expect(res.body.status).toBe('ok');
      }
    }
    const gql = await t.graphql('query { apiInfo { name version status } health { status } systemFreshness { data { latestReadyDate } } }');
    expect(gql.status).toBe(200);
    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data).toEqual({
      apiInfo: { name: 'Market Intelligence API', version: 'v1', status: 'ok' },
      health: { status: 'ok' },
      systemFreshness: { data: { latestReadyDate: '2026-11-21' } },
    });
  });
});

describe('credential store unreachable', () => {
  let down: Db;
  let app: App;
  beforeAll(() => {
    down = connect('postgresql://postgres@127.0.0.1:1/none'); // a closed port
    app = createApp(
      {
        prisma: down.prisma,
        pool: down.pool,
        ledger: down.ledger,
        authenticate: createAuthenticator(down.prisma),
        rateLimiter: createRateLimiter(TEST_RATE_LIMITS),
        publicBaseUrl: 'http://api.test',
        startedAt: new Date(),
      },
      { logger: createLogger({ level: 'silent' }) },
    );
  });
  afterAll(() => down?.close());

  it('answers 503 auth_provider_unavailable on REST and GraphQL; open routes still answer', async () => {
    const { apiKey } = await t.newKey();
    const headers = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };
    for (const [method, path] of [['GET', '/v1/me'], ['POST', `/v1${SHARE_PATH}`]]) {
      const res = await app.fetch(`http://api.test${path}`, { method, headers });
      const body = await res.json();
      expect(res.status, `${method} ${path}`).toBe(503);
      expect(body).toEqual({ error: { code: 'auth_provider_unavailable', message: expect.any(String), requestId: res.headers.get('x-request-id') } });
    }
    const gql = await app.fetch('http://api.test/graphql', { method: 'POST', headers, body: JSON.stringify({ query: ME_QUERY }) });
    expect(gql.status).toBe(503);
    expect((await gql.json()).errors[0].extensions.code).toBe('auth_provider_unavailable');

    // A malformed key never needs the store: still 401.
    const malformed = await app.fetch('http://api.test/v1/me', { headers: { authorization: 'Bearer nope' } });
    expect(malformed.status).toBe(401);
    const info = await app.fetch('http://api.test/v1');
    expect(info.status).toBe(200);
  });
});

describe('keys and identity', () => {
  it('stores keys only hashed: no credentials column holds the key or its secret', async () => {
    const { apiKey, credentialId } = await t.newKey();
    const secret = apiKey.split('_')[2];
    expect(secret).toHaveLength(40);
    const { rows } = await t.db.pool.query('SELECT * FROM "credentials" WHERE "id" = $1', [credentialId]);
    expect(rows).toHaveLength(1);
    const renderings = Object.values(rows[0]).flatMap((value) =>
      Buffer.isBuffer(value) || value instanceof Uint8Array
        ? [Buffer.from(value).toString('utf8'), Buffer.from(value).toString('hex'), Buffer.from(value).toString('base64'), Buffer.from(value).toString('latin1')]
        : [value instanceof Date ? value.toISOString() : String(value)],
    );
    for (const text of renderings) {
      expect(text).not.toContain(apiKey);
      expect(text).not.toContain(secret);
    }
    // What is stored is the SHA-256 of the key.
    expect(Buffer.from(rows[0].keyHash).equals(hashKey(apiKey))).toBe(true);
  });

  it('GET /v1/me and /v1/workspace with a delegated key show the user and role', async () => {
    const { apiKey, userId, credentialId } = await t.newKey({ role: 'member' });
    const me = await t.rest('GET', '/me', { key: apiKey });
    expect(me.status).toBe(200);
    expect(me.body.delegatedUser).toEqual({ id: userId, fullName: 'Dana Delegate', avatarUrl: null, workspaceRole: 'member' });
    expect(me.body.credential).toMatchObject({ id: credentialId, accessLevel: 'delegated_user' });

    const workspace = await t.rest('GET', '/workspace', { key: apiKey });
    expect(workspace.status).toBe(200);
    expect(workspace.body.authenticatedAs).toEqual({ accessLevel: 'delegated_user', delegatedUserId: userId, delegatedUserRole: 'member' });

    const gql = await t.graphql('query { me { delegatedUser { id fullName avatarUrl workspaceRole } } workspace { authenticatedAs { accessLevel delegatedUserId delegatedUserRole } } }', {}, apiKey);
    expect(gql.body.data).toEqual({
      me: { delegatedUser: me.body.delegatedUser },
      workspace: { authenticatedAs: workspace.body.authenticatedAs },
    });
  });

  it('a full-access key has no delegated user', async () => {
    const { apiKey } = await t.newKey();
    const workspace = await t.rest('GET', '/workspace', { key: apiKey });
    expect(workspace.body.authenticatedAs).toEqual({ accessLevel: 'full_access', delegatedUserId: null, delegatedUserRole: null });
  });

  it('records lastUsedAt after a call', async () => {
    const { apiKey, credentialId } = await t.newKey();
    const stored = () => t.db.prisma.credential.findUniqueOrThrow({ where: { id: credentialId } });
    expect((await stored()).lastUsedAt).toBeNull();
    const before = Date.now();
    const me = await t.rest('GET', '/me', { key: apiKey });
    expect(me.status).toBe(200);
    expect(Date.parse(me.body.credential.lastUsedAt)).toBeGreaterThanOrEqual(before - 1000);
    await vi.waitFor(async () => expect((await stored()).lastUsedAt).not.toBeNull(), { timeout: 5000, interval: 50 });
    const lastUsedAt = (await stored()).lastUsedAt!.getTime();
    expect(lastUsedAt).toBeGreaterThanOrEqual(before - 1000);
    expect(lastUsedAt).toBeLessThanOrEqual(Date.now() + 1000);
  });
});
