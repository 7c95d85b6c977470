import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey, createUser } from '../../src/auth/admin.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { savingScenario } from './scenario.js';
import { auditsOf, expectNotFound, ok } from './support.js';

// Who may see and change boards: workspaces are isolated (another workspace's board is answered exactly like a
// missing one, before any change), readonly keys read only, personal boards belong to one delegated user,
// private boards to their creator (and full-access keys), and a board create replays under an Idempotency-Key.

type Key = { apiKey: string; workspaceId: string; userId?: string };
let t: TestApp;
let full: Key;
let owner: Key;
let member: Key;
let readonly: Key;
let other: Key;
let boardId: string;
let itemId: string;

beforeAll(async () => {
  t = await createTestApp(async (db) => { await savingScenario(db); });
  full = await t.newKey({ slug: 'acme' });
  other = await t.newKey({ slug: 'rival' });
  // Delegated users of acme: the key helper makes a workspace per key, so add users to acme by hand.
  const delegated = async (role: 'owner' | 'member' | 'readonly'): Promise<Key> => {
    const { userId } = await createUser(t.db.prisma, { workspace: 'acme', name: role, role });
    const created = await createKey(t.db.prisma, { workspace: 'acme', name: role, access: 'delegated_user', user: userId });
    return { ...created, userId };
  };
  owner = await delegated('owner');
  member = await delegated('member');
  readonly = await delegated('readonly');
  const board = ok(await t.rest('POST', '/boards', { key: full.apiKey, body: { name: 'Acme board', surface: 'ads' } })).data;
  boardId = board.id;
  itemId = ok(await t.rest('POST', `/boards/${boardId}/items`, { key: full.apiKey, body: { type: 'ad', targetId: 'facebook_9001' } })).data.id;
});
afterAll(() => t?.close());

const strip = (body: { error: Record<string, unknown> }) => ({ ...body.error, requestId: undefined, message: String(body.error.message).replace(/"[^"]*"/g, '"…"') });

describe('isolation between workspaces', () => {
  it('every board route answers a foreign id exactly like a missing one, and changes nothing', async () => {
    const missing = 'no-such-board';
    const routes: [string, (id: string) => string, unknown?][] = [
      ['GET', (id) => `/boards/${id}`],
      ['PATCH', (id) => `/boards/${id}`, { name: 'Stolen' }],
      ['DELETE', (id) => `/boards/${id}`],
      ['PATCH', (id) => `/boards/${id}/parent`, { parentBoardId: null }],
      ['POST', (id) => `/boards/${id}/restore`],
      ['GET', (id) => `/boards/${id}/items`],
      ['POST', (id) => `/boards/${id}/items`, { type: 'ad', targetId: 'facebook_9004' }],
      ['DELETE', (id) => `/boards/${id}/items/${itemId}`],
      ['POST', (id) => `/boards/${id}/share`],
      ['DELETE', (id) => `/boards/${id}/share`],
    ];
    const before = await t.db.prisma.board.findUniqueOrThrow({ where: { id: boardId } });
    for (const [method, path, body] of routes) {
      const foreign = await t.rest(method, path(boardId), { key: other.apiKey, body });
      const absent = await t.rest(method, path(missing), { key: other.apiKey, body });
      expectNotFound(foreign);
      expectNotFound(absent);
      expect(strip(foreign.body), `${method} ${path('{id}')}`).toEqual(strip(absent.body));
    }
    // Moving one's own board under a foreign board is a 404 too.
    const mine = ok(await t.rest('POST', '/boards', { key: other.apiKey, body: { name: 'Rival board' } })).data;
    expectNotFound(await t.rest('PATCH', `/boards/${mine.id}/parent`, { key: other.apiKey, body: { parentBoardId: boardId } }));
    expect(await t.db.prisma.board.findUniqueOrThrow({ where: { id: boardId } })).toEqual(before);
    expect(await t.db.prisma.boardItem.count({ where: { boardId } })).toBe(1);
    expect(await t.db.prisma.boardShare.count({ where: { boardId } })).toBe(0);
    expect(ok(await t.rest('GET', '/boards', { key: other.apiKey })).data.map((b: { id: string }) => b.id)).toEqual([mine.id]);
    const gql = await t.graphql(`{ board(boardId: "${boardId}") { id } }`, {}, other.apiKey);
    expect(gql.body.errors[0].extensions.code).toBe('not_found');
  });
});

describe('roles', () => {
  it('readonly reads and gets 403 on every write, with nothing changed', async () => {
    expect(ok(await t.rest('GET', `/boards/${boardId}`, { key: readonly.apiKey })).data.capabilities).toEqual({ canAddItems: false, canManage: false });
    const events = (await auditsOf(t, full.workspaceId)).length;
    const writes: [string, string, unknown?][] = [
      ['POST', '/boards', { name: 'Nope' }],
      ['PATCH', `/boards/${boardId}`, { name: 'Nope' }],
      ['DELETE', `/boards/${boardId}`],
      ['POST', `/boards/${boardId}/items`, { type: 'ad', targetId: 'facebook_9004' }],
      ['DELETE', `/boards/${boardId}/items/${itemId}`],
      ['POST', `/boards/${boardId}/share`],
    ];
    for (const [method, path, body] of writes) {
      const res = await t.rest(method, path, { key: readonly.apiKey, body });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.error.code).toBe('forbidden');
    }
    expect((await auditsOf(t, full.workspaceId)).length).toBe(events);
    expect((await t.db.prisma.board.findUniqueOrThrow({ where: { id: boardId } })).name).toBe('Acme board');
  });

  it('writers (owner, member, full access) manage workspace boards', async () => {
    for (const key of [owner, member, full]) {
      expect(ok(await t.rest('GET', `/boards/${boardId}`, { key: key.apiKey })).data.capabilities).toEqual({ canAddItems: true, canManage: true });
      const board = ok(await t.rest('POST', '/boards', { key: key.apiKey, body: { name: 'By writer' } })).data;
      expect(board.createdByUserId).toBe(key.userId ?? null);
    }
  });
});

describe('personal scope and private boards', () => {
  it('personal boards need a delegated user, and belong to that user only', async () => {
    const denied = await t.rest('GET', '/boards?scope=personal', { key: full.apiKey });
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe('forbidden');
    expect((await t.rest('POST', '/boards', { key: full.apiKey, body: { name: 'Mine', scope: 'personal' } })).status).toBe(403);
    const mine = ok(await t.rest('POST', '/boards', { key: owner.apiKey, body: { name: 'Owner only', scope: 'personal' } })).data;
    expect(ok(await t.rest('GET', '/boards?scope=personal', { key: owner.apiKey })).data.map((b: { id: string }) => b.id)).toEqual([mine.id]);
    expect(ok(await t.rest('GET', '/boards?scope=personal', { key: member.apiKey })).data).toEqual([]);
    expect(ok(await t.rest('GET', '/boards?limit=100', { key: owner.apiKey })).data.map((b: { id: string }) => b.id)).not.toContain(mine.id);
    expectNotFound(await t.rest('GET', `/boards/${mine.id}`, { key: member.apiKey }));
    expectNotFound(await t.rest('GET', `/boards/${mine.id}`, { key: full.apiKey }));
    expect(ok(await t.rest('GET', `/boards/${mine.id}`, { key: owner.apiKey })).data.name).toBe('Owner only');
    // Readonly users may read their personal scope (it is empty) but not write to it.
    expect(ok(await t.rest('GET', '/boards?scope=personal', { key: readonly.apiKey })).data).toEqual([]);
    expect((await t.rest('POST', '/boards', { key: readonly.apiKey, body: { name: 'x', scope: 'personal' } })).status).toBe(403);
  });

  it('a private board is seen by its creator and by full-access keys only', async () => {
    const secret = ok(await t.rest('POST', '/boards', { key: member.apiKey, body: { name: 'Secret', visibility: 'private' } })).data;
    expect(ok(await t.rest('GET', `/boards/${secret.id}`, { key: member.apiKey })).data.visibility).toBe('private');
    expect(ok(await t.rest('GET', `/boards/${secret.id}`, { key: full.apiKey })).data.name).toBe('Secret');
    expectNotFound(await t.rest('GET', `/boards/${secret.id}`, { key: owner.apiKey }));
    expectNotFound(await t.rest('POST', `/boards/${secret.id}/items`, { key: owner.apiKey, body: { type: 'ad', targetId: 'facebook_9004' } }));
    expect(ok(await t.rest('GET', '/boards?limit=100', { key: owner.apiKey })).data.map((b: { id: string }) => b.id)).not.toContain(secret.id);
  });

  it("a board's items page is seen by exactly the callers who see the board", async () => {
    // The board's detail reads it through Prisma (visibleBoardsAnyScope), its items page in one raw statement
    // (visibleBoardsAnyScopeSql): every caller gets the same answer from both.
    const save = async (key: Key, body: Record<string, unknown>) => {
      const board = ok(await t.rest('POST', '/boards', { key: key.apiKey, body: { surface: 'ads', ...body } })).data;
      const item = ok(await t.rest('POST', `/boards/${board.id}/items`, { key: key.apiKey, body: { type: 'ad', targetId: 'facebook_9002' } })).data;
      return { id: board.id as string, itemId: item.id as string };
    };
    const boards = [
      { id: boardId, itemId },
      await save(member, { name: 'Private items', visibility: 'private' }),
      await save(owner, { name: 'Personal items', scope: 'personal' }),
      { id: ok(await t.rest('POST', '/boards', { key: full.apiKey, body: { name: 'Empty' } })).data.id as string, itemId: null },
    ];
    const seen: string[] = [];
    for (const board of boards) {
      for (const [name, key] of Object.entries({ full, owner, member, readonly, other })) {
        const detail = await t.rest('GET', `/boards/${board.id}`, { key: key.apiKey });
        const items = await t.rest('GET', `/boards/${board.id}/items`, { key: key.apiKey });
        expect(`${name} ${items.status}`).toBe(`${name} ${detail.status}`);
        if (detail.status === 404) {
          expectNotFound(items);
          continue;
        }
        seen.push(`${name}:${boards.indexOf(board)}`);
        expect(items.body.data.map((item: { id: string }) => item.id)).toEqual(board.itemId ? [board.itemId] : []);
        expect(items.body.pagination).toMatchObject({ page: 1, total: board.itemId ? 1 : 0 });
        // A page past the last item: no items, the board's count.
        const past = await t.rest('GET', `/boards/${board.id}/items?page=2`, { key: key.apiKey });
        expect([past.status, past.body.data, past.body.pagination.total]).toEqual([200, [], board.itemId ? 1 : 0]);
      }
    }
    // Who sees what: everyone in acme the workspace board and the empty one; the private board its creator and the
    // full-access key; the personal board its owner only.
    expect(seen.sort()).toEqual(['full:0', 'full:1', 'full:3', 'member:0', 'member:1', 'member:3', 'owner:0', 'owner:2', 'owner:3', 'readonly:0', 'readonly:3']);
  });
});

describe('Idempotency-Key', () => {
  it('a board create replays the first answer and creates one board', async () => {
    const send = () => t.rest('POST', '/boards', { key: full.apiKey, body: { name: 'Once' }, headers: { 'idempotency-key': 'board-once' } });
    const first = await send();
    const again = await send();
    expect(again.body).toEqual({ ...first.body, requestId: again.headers.get('x-request-id') });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await t.db.prisma.board.count({ where: { workspaceId: full.workspaceId, name: 'Once' } })).toBe(1);
    expect((await auditsOf(t, full.workspaceId)).filter((e) => e.entityId === first.body.data.id)).toHaveLength(1);
  });
});
