import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey, createUser, createWorkspace } from '../../src/auth/admin.js';
import type { WorkspaceRole } from '../../src/generated/prisma/client.js';
import { createTestApp, type HttpResult, type TestApp } from '../support/app.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { adsScenario } from '../ads/scenario.js';

// Idempotency-Key (src/plugins/use-idempotency.ts) against the findings of issues #32 and #33: a key belongs to the
// caller who sent it (credential and delegated user), a replay is authenticated, role-checked and rate-limited like a
// fresh request and answers with its own request id, binary bodies are fingerprinted by their bytes, and a claim whose
// request never stored its answer is released after a short lease, its committed writes replayed rather than redone.

let database: TestDatabase;
let t: TestApp;
let slugs = 0;
beforeAll(async () => {
  database = await createTestDatabase();
  await adsScenario(database);
  t = await createTestApp(undefined, { database });
});
afterAll(async () => {
  await t?.close();
  await database?.dispose();
});

type Caller = { apiKey: string; credentialId: string; workspaceId: string; userId?: string };

/** A workspace with one caller per role asked for (`full` for a full-access key). */
async function workspaceWith<R extends string>(...roles: R[]): Promise<Record<R, Caller>> {
  const slug = `idem-${process.pid}-${++slugs}`;
  await createWorkspace(database.prisma, { slug, name: slug });
  const callers = {} as Record<R, Caller>;
  for (const role of roles) {
    if (role === 'full') callers[role] = await createKey(database.prisma, { workspace: slug });
    else {
      const { userId } = await createUser(database.prisma, { workspace: slug, name: `A ${role}`, role: role.replace(/\d+$/, '') as WorkspaceRole });
      callers[role] = { ...(await createKey(database.prisma, { workspace: slug, access: 'delegated_user', user: userId })), userId };
    }
  }
  return callers;
}

const keyed = (app: TestApp, method: string, path: string, caller: Caller, key: string, body?: unknown) =>
  app.rest(method, path, { key: caller.apiKey, body, headers: { 'idempotency-key': key } });

const replayed = (res: HttpResult) => res.headers.get('idempotent-replayed') === 'true';
const boardsNamed = (workspaceId: string, name: string) => database.prisma.board.count({ where: { workspaceId, name } });
const auditsOf = (workspaceId: string) => database.prisma.auditEvent.count({ where: { workspaceId } });

describe('a key belongs to the caller who sent it', () => {
  it("a readonly user sending a member's key is refused (403), never handed the member's personal folder", async () => {
    const { member, readonly, full, member2 } = await workspaceWith('member', 'readonly', 'full', 'member2');
    const body = { scope: 'personal', name: 'Private plans' };
    const mine = await keyed(t, 'POST', '/favorites/ads/folders', member, 'same-key', body);
    expect(mine.status, JSON.stringify(mine.body)).toBe(200);

    const stranger = await keyed(t, 'POST', '/favorites/ads/folders', readonly, 'same-key', body);
    expect([stranger.status, stranger.body.error?.code, replayed(stranger)]).toEqual([403, 'forbidden', false]);
    expect(JSON.stringify(stranger.body)).not.toContain(mine.body.data.id);

    const fullAccess = await keyed(t, 'POST', '/favorites/ads/folders', full, 'same-key', body);
    expect([fullAccess.status, replayed(fullAccess)]).toEqual([403, false]); // personal scope needs a delegated user

    const colleague = await keyed(t, 'POST', '/favorites/ads/folders', member2, 'same-key', body);
    expect([colleague.status, replayed(colleague)]).toEqual([200, false]);
    expect(colleague.body.data.id).not.toBe(mine.body.data.id);
  });

  it('a replay is role-checked again: a member turned readonly gets 403, not the stored answer', async () => {
    const { member } = await workspaceWith('member');
    const first = await keyed(t, 'POST', '/boards', member, 'board-role', { name: 'Role board' });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    await database.prisma.workspaceUser.update({ where: { id: member.userId! }, data: { role: 'readonly' } });
    const again = await keyed(t, 'POST', '/boards', member, 'board-role', { name: 'Role board' });
    expect([again.status, again.body.error?.code, replayed(again)]).toEqual([403, 'forbidden', false]);
  });
});

describe('a replay answers as a request of its own', () => {
  it('REST: its body carries its own requestId, with the rate-limit and credit headers', async () => {
    const { full } = await workspaceWith('full');
    const first = await keyed(t, 'POST', '/boards', full, 'board-1', { name: 'Once' });
    expect(first.status).toBe(200);
    const again = await keyed(t, 'POST', '/boards', full, 'board-1', { name: 'Once' });
    expect(replayed(again)).toBe(true);
    expect(again.body.requestId).toBe(again.headers.get('x-request-id'));
    expect(again.body.requestId).not.toBe(first.body.requestId);
    expect({ ...again.body, requestId: first.body.requestId }).toEqual(first.body);
    for (const header of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'x-credits-remaining']) expect(again.headers.get(header), header).not.toBeNull();
    expect(again.headers.get('x-usage-cost')).toBe('0');
    expect(await boardsNamed(full.workspaceId, 'Once')).toBe(1);
  });

  it('REST: a kept error envelope is replayed with the new request id', async () => {
    const { full } = await workspaceWith('full');
    const first = await keyed(t, 'POST', '/ads/facebook_1/share', full, 'share-404');
    expect(first.status).toBe(404);
    const again = await keyed(t, 'POST', '/ads/facebook_1/share', full, 'share-404');
    expect([again.status, replayed(again)]).toEqual([404, true]);
    expect(again.body.error.requestId).toBe(again.headers.get('x-request-id'));
    expect(again.body.error.requestId).not.toBe(first.body.error.requestId);
  });

  it('GraphQL: a mutation replays with the rate-limit headers; a query with a key is not kept', async () => {
    const { full } = await workspaceWith('full');
    const send = (query: string) =>
      t.app.fetch('http://api.test/graphql', {
        method: 'POST',
        headers: { authorization: `Bearer ${full.apiKey}`, 'content-type': 'application/json', 'idempotency-key': `gql-${query.length}` },
        body: JSON.stringify({ query }),
      });
    const mutation = 'mutation { boardCreate(name: "Via GraphQL") { id } }';
    const first = await send(mutation);
    const firstBody = await first.json();
    expect(firstBody.errors).toBeUndefined();
    const again = await send(mutation);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await again.json()).toEqual(firstBody);
    expect(again.headers.get('x-ratelimit-remaining')).not.toBeNull();
    expect(again.headers.get('x-request-id')).not.toBe(first.headers.get('x-request-id'));
    expect(await boardsNamed(full.workspaceId, 'Via GraphQL')).toBe(1);

    const query = '{ me { workspace { slug } } }';
    await send(query);
    expect((await send(query)).headers.get('idempotent-replayed')).toBeNull();
  });

  it('reads ignore the key: a metered POST query runs (and is charged) every time', async () => {
    const { full } = await workspaceWith('full');
    const first = await keyed(t, 'POST', '/ads/query', full, 'read-1', { limit: 1 });
    const again = await keyed(t, 'POST', '/ads/query', full, 'read-1', { limit: 1 });
    expect([first.status, again.status]).toEqual([200, 200]);
    expect(replayed(again)).toBe(false);
  });

  it('a replay takes a token like any request: past the write bucket it answers 429, once', async () => {
    const limited = await createTestApp(undefined, { database, rateLimits: { read: { capacity: 100, perSecond: 100 }, write: { capacity: 2, perSecond: 0.001 } } });
    try {
      const { full } = await workspaceWith('full');
      const answers = [];
      for (let i = 0; i < 3; i++) answers.push(await keyed(limited, 'POST', '/boards', full, 'limited', { name: 'Limited' }));
      expect(answers.map((res) => [res.status, replayed(res), res.headers.get('x-ratelimit-remaining')])).toEqual([[200, false, '1'], [200, true, '0'], [429, false, '0']]);
      expect(answers[2].body.error.code).toBe('rate_limited');
      expect(answers[2].headers.get('retry-after')).toMatch(/^\d+$/);
    } finally {
      await limited.close();
    }
  });
});

describe('the fingerprint', () => {
  const multipart = (file: number[]) => {
    const boundary = 'mi-fixed-boundary';
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nUploaded\r\n--${boundary}\r\nContent-Disposition: form-data; name="attachment"; filename="a.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`;
    return { body: Buffer.concat([Buffer.from(head), Buffer.from(file), Buffer.from(`\r\n--${boundary}--\r\n`)]), type: `multipart/form-data; boundary=${boundary}` };
  };

  it('hashes the bytes of a binary upload: another file with the same key is a 400, not a replay', async () => {
    const { full } = await workspaceWith('full');
    const send = async (file: number[]) => {
      const { body, type } = multipart(file);
      const response = await t.app.fetch('http://api.test/v1/boards', { method: 'POST', headers: { authorization: `Bearer ${full.apiKey}`, 'content-type': type, 'idempotency-key': 'upload-1' }, body });
      return { status: response.status, replayed: response.headers.get('idempotent-replayed') === 'true', body: await response.json() };
    };
    const first = await send([0xff, 0xfe, 0x00, 0x80]);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect((await send([0xff, 0xfe, 0x00, 0x80])).replayed).toBe(true);
    const other = await send([0xfe, 0xff, 0x00, 0x81]); // the same text once decoded as UTF-8 (U+FFFD each)
    expect([other.status, other.body.error?.details?.validationErrors?.[0]?.field]).toEqual([400, 'header.Idempotency-Key']);
  });
});

describe('a claim whose request never stored its answer', () => {
  const claimOf = async (credentialId: string, key: string) =>
    (await database.pool.query('SELECT * FROM "idempotency_keys" WHERE "credentialId" = $1 AND "key" = $2', [credentialId, key])).rows[0];
  /** What a request that died (or whose answer could not be stored) leaves: a claim without an answer, its lease `age` old. */
  const abandon = (credentialId: string, key: string, age: string) =>
    database.pool.query(`UPDATE "idempotency_keys" SET "status" = NULL, "contentType" = NULL, "body" = NULL, "claimedAt" = now() - $3::interval WHERE "credentialId" = $1 AND "key" = $2`, [credentialId, key, age]);

  it('is a 409 with Retry-After while its lease runs, then free: a retry runs', async () => {
    const { full } = await workspaceWith('full');
    const missing = await keyed(t, 'POST', '/ads/facebook_1/share', full, 'lease-1');
    expect(missing.status).toBe(404);
    await abandon(full.credentialId, 'lease-1', '1 second');
    const busy = await keyed(t, 'POST', '/ads/facebook_1/share', full, 'lease-1');
    expect([busy.status, busy.body.error.code]).toEqual([409, 'conflict']);
    expect(Number(busy.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    await abandon(full.credentialId, 'lease-1', '1 hour');
    const retry = await keyed(t, 'POST', '/ads/facebook_1/share', full, 'lease-1');
    expect([retry.status, replayed(retry)]).toEqual([404, false]);
  });

  it('whose write committed: a retry after the lease gets the committed answer back and writes nothing again', async () => {
    const { full } = await workspaceWith('full');
    const first = await keyed(t, 'POST', '/boards', full, 'committed-1', { name: 'Committed' });
    expect(first.status).toBe(200);
    const audits = await auditsOf(full.workspaceId);
    expect((await claimOf(full.credentialId, 'committed-1')).requestId).toBe(first.body.requestId);
    await abandon(full.credentialId, 'committed-1', '1 hour');
    const retry = await keyed(t, 'POST', '/boards', full, 'committed-1', { name: 'Committed' });
    expect(retry.status, JSON.stringify(retry.body)).toBe(200);
    expect(retry.body.data.id).toBe(first.body.data.id);
    expect(retry.body.requestId).toBe(retry.headers.get('x-request-id'));
    expect(await boardsNamed(full.workspaceId, 'Committed')).toBe(1);
    expect(await auditsOf(full.workspaceId)).toBe(audits);
    // The retry stored its answer: the next repeat is a plain replay.
    expect(replayed(await keyed(t, 'POST', '/boards', full, 'committed-1', { name: 'Committed' }))).toBe(true);
  });
});

describe('a delete (or any write) whose row its first call changed: the keyed retry gets the committed answer', () => {
  const abandon = (credentialId: string, key: string) =>
    database.pool.query(`UPDATE "idempotency_keys" SET "status" = NULL, "contentType" = NULL, "body" = NULL, "claimedAt" = now() - interval '1 hour' WHERE "credentialId" = $1 AND "key" = $2`, [credentialId, key]);

  it('board item, favorites (saved, by target, folder, visibility) and brandtracker deletes, and board item and favorite adds, answer the first 200 again, written once', async () => {
    const { full, member } = await workspaceWith('full', 'member');
    const ok = async (res: Promise<HttpResult>) => {
      const done = await res;
      expect(done.status, JSON.stringify(done.body)).toBe(200);
      return done.body;
    };
    const board = (await ok(t.rest('POST', '/boards', { key: full.apiKey, body: { name: 'Retried deletes' } }))).data;
    const item = (await ok(t.rest('POST', `/boards/${board.id}/items`, { key: full.apiKey, body: { type: 'ad', targetId: 'facebook_9001' } }))).data;
    const saved = (await ok(t.rest('POST', '/favorites/ads', { key: full.apiKey, body: { scope: 'workspace', adId: 'facebook_9002' } }))).data;
    await ok(t.rest('POST', '/favorites/ads', { key: full.apiKey, body: { scope: 'workspace', adId: 'facebook_9003' } }));
    const folder = (await ok(t.rest('POST', '/favorites/ads/folders', { key: full.apiKey, body: { scope: 'workspace', name: 'Deleted once' } }))).data;
    const privateFolder = (await ok(t.rest('POST', '/favorites/ads/folders', { key: member.apiKey, body: { scope: 'workspace', name: 'Goes private' } }))).data;
    const tracker = (await ok(t.rest('POST', '/brandtrackers', { key: full.apiKey, body: { facebookPageId: '1000000000000001' } }))).data;
    const shop = await database.prisma.shop.findFirstOrThrow({ where: { domain: 'nordicglow.com' }, select: { id: true } });
    const email = await database.prisma.email.create({
      data: { shopId: shop.id, fromAddress: 'news@nordicglow.com', sentAt: new Date('2026-11-01T00:00:00Z'), campaignType: 'promotional', subject: 'Sale', body: 'Sale', bodyLength: 4 },
    });

    const cases: [string, string, string, Caller, unknown?][] = [
      ['board item', 'DELETE', `/boards/${board.id}/items/${item.id}`, full],
      ['favorite by saved id', 'DELETE', `/favorites/ads/saved/${saved.id}?scope=workspace`, full],
      ['favorite by target', 'DELETE', '/favorites/ads/facebook_9003?scope=workspace', full],
      ['favorite folder', 'DELETE', `/favorites/ads/folders/${folder.id}?scope=workspace`, full, { mode: 'delete_items' }],
      ['folder visibility', 'PATCH', `/favorites/ads/folders/${privateFolder.id}/visibility?scope=workspace`, member, { visibility: 'private' }],
      ['brandtracker', 'DELETE', `/brandtrackers/${tracker.id}`, full],
      // Adds: the retry of a committed add answers `created: true`, as its first call did, not the `created: false` of a second add.
      ['board item add', 'POST', `/boards/${board.id}/items`, full, { type: 'ad', targetId: 'facebook_9004' }],
      ['favorite ad add', 'POST', '/favorites/ads', full, { scope: 'workspace', adId: 'facebook_9004' }],
      ['favorite shop add', 'POST', '/favorites/shops', full, { scope: 'workspace', websiteId: shop.id }],
      ['favorite email add', 'POST', '/favorites/emails', full, { scope: 'workspace', emailId: email.id }],
    ];
    for (const [label, method, path, caller, body] of cases) {
      const key = `retried-${label.replaceAll(" ", "-")}`;
      const first = await keyed(t, method, path, caller, key, body);
      expect(first.status, `${label}: ${JSON.stringify(first.body)}`).toBe(200);
      if (method === 'POST') expect(first.body.created, label).toBe(true);
      const audits = await auditsOf(caller.workspaceId);
      await abandon(caller.credentialId, key); // the first call committed and never stored its answer
      const retry = await keyed(t, method, path, caller, key, body);
      expect([retry.status, replayed(retry)], `${label}: ${JSON.stringify(retry.body)}`).toEqual([200, false]);
      expect({ ...retry.body, requestId: first.body.requestId }, label).toEqual(first.body);
      expect(await auditsOf(caller.workspaceId), label).toBe(audits);
      // Without the key, a second call is what it was before: a 404, nothing left to remove, or nothing left to add.
      const plain = await t.rest(method, path, { key: caller.apiKey, body });
      expect(plain.status === 404 || plain.body.data?.removed === false || plain.body.created === false, `${label}: ${plain.status} ${JSON.stringify(plain.body)}`).toBe(true);
    }
  });
});
