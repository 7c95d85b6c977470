import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import { LANDING, PRODUCT, SHOP_PEAK, savingScenario } from './scenario.js';
import { expectViolation } from '../support/assertions.js';
import { recordStatements } from '../support/statements.js';
import { auditsOf, BOARD_KEYS, expectNotFound, ok } from './support.js';

// Boards through REST and GraphQL: create, read, list filters, update, the tree (moves, archive and restore of
// subtrees), items of every surface, share links that answer without a key and stop answering.

let t: TestApp;
let key: string;
let workspaceId: string;
let shopGlow: string;
beforeAll(async () => {
  t = await createTestApp(async (db) => {
    ({ shopGlow } = await savingScenario(db));
  });
  ({ apiKey: key, workspaceId } = await t.newKey());
});
afterAll(() => t?.close());

const call = (method: string, path: string, body?: unknown) => t.rest(method, path, { key, body });
const create = async (body: Record<string, unknown>) => ok(await call('POST', '/boards', body)).data;

describe('create, read, list, update', () => {
  it('creates a board with the specification shape, and reads it back on both surfaces', async () => {
    const res = await call('POST', '/boards', { name: '  Q4 inspiration ', description: 'Best hooks', surface: 'ads', visibility: 'private' });
    const board = ok(res).data;
    expect(Object.keys(res.body)).toEqual(['requestId', 'data']);
    expect(Object.keys(board)).toEqual(BOARD_KEYS);
    expect(board).toMatchObject({
      name: 'Q4 inspiration', kind: 'folder', surface: 'ads', description: 'Best hooks', createdByUserId: null, workspaceId,
      parentBoardId: null, visibility: 'private', archivedAt: null, capabilities: { canAddItems: true, canManage: true },
    });
    expect(ok(await call('GET', `/boards/${board.id}`)).data).toEqual(board);
    const gql = await t.graphql(`{ board(boardId: "${board.id}") { id name surface visibility capabilities { canManage } } }`, {}, key);
    expect(gql.body.data.board).toEqual({ id: board.id, name: 'Q4 inspiration', surface: 'ads', visibility: 'private', capabilities: { canManage: true } });
  });

  it('kind collection (deprecated) creates a mixed folder; an omitted surface is mixed', async () => {
    expect(await create({ name: 'Old collection', kind: 'collection', surface: 'shops' })).toMatchObject({ kind: 'folder', surface: 'mixed' });
    expect(await create({ name: 'No surface' })).toMatchObject({ kind: 'folder', surface: 'mixed', visibility: 'workspace' });
  });

  it('lists by scope, state, kind, surface and parent, page style', async () => {
    const parent = await create({ name: 'List parent', surface: 'shops' });
    await create({ name: 'List child', surface: 'shops', parentBoardId: parent.id });
    const shops = ok(await call('GET', '/boards?surface=shops&limit=1&page=2'));
    expect(Object.keys(shops)).toEqual(['requestId', 'data', 'pagination']);
    expect(shops.pagination).toEqual({ page: 2, limit: 1, total: 2, totalPages: 2 });
    expect(shops.data.map((b: { name: string }) => b.name)).toEqual(['List child']);
    expect(ok(await call('GET', `/boards?parentBoardId=${parent.id}`)).data.map((b: { name: string }) => b.name)).toEqual(['List child']);
    const mixed = ok(await call('GET', '/boards?surface=mixed')).data.map((b: { name: string }) => b.name);
    expect(mixed).toEqual(expect.arrayContaining(['Old collection', 'No surface']));
    expect(mixed).not.toContain('List parent');
    expect(ok(await call('GET', '/boards?kind=collection')).data.every((b: { surface: string }) => b.surface === 'mixed')).toBe(true);
    const gql = await t.graphql('{ boards(surface: shops) { data { name } pagination { total } } }', {}, key);
    expect(gql.body.data.boards).toEqual({ data: [{ name: 'List parent' }, { name: 'List child' }], pagination: { total: 2 } });
  });

  it('updates name, description and visibility, audited before and after', async () => {
    const board = await create({ name: 'Before' });
    const res = await call('PATCH', `/boards/${board.id}`, { name: 'After', description: 'Now described', visibility: 'public' });
    expect(ok(res).data).toMatchObject({ id: board.id, name: 'After', description: 'Now described', visibility: 'public' });
    const event = (await auditsOf(t, workspaceId)).filter((e) => e.entityId === board.id && e.action === 'board.update');
    expect(event).toHaveLength(1);
    expect(event[0].before).toMatchObject({ name: 'Before', visibility: 'workspace' });
    expect(event[0].after).toMatchObject({ name: 'After', visibility: 'public' });
    expect(ok(await call('PATCH', `/boards/${board.id}`, { name: 'After again' })).data.description).toBe('Now described');
    expect(ok(await call('PATCH', `/boards/${board.id}`, { description: null })).data).toMatchObject({ name: 'After again', description: null });
  });

  it('validates every bound with a 400 naming the field, and changes nothing', async () => {
    const before = await t.db.prisma.board.count({ where: { workspaceId } });
    expectViolation(await call('POST', '/boards', { name: 'x'.repeat(121) }), 'body.name');
    expectViolation(await call('POST', '/boards', { name: '   ' }), 'body.name');
    expectViolation(await call('POST', '/boards', {}), 'body.name');
    expectViolation(await call('POST', '/boards', { name: 'ok', description: 'd'.repeat(2001) }), 'body.description');
    expectViolation(await call('POST', '/boards', { name: 'ok', surface: 'tiktok' }), 'body.surface');
    expectViolation(await call('POST', '/boards', { name: 'ok', visibility: 'secret' }), 'body.visibility');
    expectViolation(await call('POST', '/boards', { name: 'ok', parentBoardId: 'bad id!' }), 'body.parentBoardId');
    expectViolation(await call('GET', `/boards/${'a'.repeat(129)}`), 'path.boardId');
    expectViolation(await call('GET', '/boards?limit=101'), 'query-string.limit');
    expectViolation(await call('GET', '/boards?page=0'), 'query-string.page');
    expectViolation(await call('GET', '/boards?state=deleted'), 'query-string.state');
    expectViolation(await call('GET', '/boards?scope=team'), 'query-string.scope');
    expect(await t.db.prisma.board.count({ where: { workspaceId } })).toBe(before);
    expectNotFound(await call('POST', '/boards', { name: 'ok', parentBoardId: 'no-such-board' }));
  });
});

describe('the tree', () => {
  it('refuses a move under the board itself or a descendant; null moves to the root', async () => {
    const a = await create({ name: 'A' });
    const b = await create({ name: 'B', parentBoardId: a.id });
    const c = await create({ name: 'C', parentBoardId: b.id });
    expectViolation(await call('PATCH', `/boards/${a.id}/parent`, { parentBoardId: c.id }), 'body.parentBoardId');
    expectViolation(await call('PATCH', `/boards/${a.id}/parent`, { parentBoardId: a.id }), 'body.parentBoardId');
    expectViolation(await call('PATCH', `/boards/${a.id}/parent`, {}), 'body.parentBoardId');
    expect((await t.db.prisma.board.findUniqueOrThrow({ where: { id: a.id } })).parentBoardId).toBeNull();
    expect(ok(await call('PATCH', `/boards/${c.id}/parent`, { parentBoardId: null })).data.parentBoardId).toBeNull();
    expect(ok(await call('PATCH', `/boards/${c.id}/parent`, { parentBoardId: a.id })).data.parentBoardId).toBe(a.id);
    const gql = await t.graphql(`mutation { boardMove(boardId: "${c.id}", parentBoardId: null) { parentBoardId } }`, {}, key);
    expect(gql.body.data.boardMove.parentBoardId).toBeNull();
  });

  it('DELETE archives the whole subtree; restore brings back what was archived with it', async () => {
    const root = await create({ name: 'Root' });
    const child = await create({ name: 'Child', parentBoardId: root.id });
    const grandchild = await create({ name: 'Grandchild', parentBoardId: child.id });
    const archived = ok(await call('DELETE', `/boards/${root.id}`)).data;
    expect(archived.archivedAt).not.toBeNull();
    expect(archived.capabilities).toEqual({ canAddItems: false, canManage: true });
    const states = await t.db.prisma.board.findMany({ where: { id: { in: [root.id, child.id, grandchild.id] } } });
    expect(states.every((b) => b.archivedAt?.toISOString() === archived.archivedAt)).toBe(true);
    const active = ok(await call('GET', '/boards?limit=100')).data.map((b: { id: string }) => b.id);
    expect(active).not.toContain(child.id);
    const gone = ok(await call('GET', '/boards?state=archived&limit=100')).data.map((b: { id: string }) => b.id);
    expect(gone).toEqual(expect.arrayContaining([root.id, child.id, grandchild.id]));
    // A child cannot come back under an archived parent; adding items to an archived board is a conflict.
    expect((await call('POST', `/boards/${child.id}/restore`)).status).toBe(409);
    expect((await call('POST', `/boards/${child.id}/items`, { type: 'ad', targetId: 'facebook_9001' })).status).toBe(409);
    expect(ok(await call('POST', `/boards/${root.id}/restore`)).data.archivedAt).toBeNull();
    const back = await t.db.prisma.board.findMany({ where: { id: { in: [root.id, child.id, grandchild.id] } } });
    expect(back.map((b) => b.archivedAt)).toEqual([null, null, null]);
    const actions = (await auditsOf(t, workspaceId)).filter((e) => e.entityId === root.id).map((e) => e.action);
    expect(actions).toEqual(['board.create', 'board.archive', 'board.restore']);
  });

  it('a board archived on its own before its parent stays archived when the parent is restored', async () => {
    const root = await create({ name: 'Root 2' });
    const child = await create({ name: 'Child 2', parentBoardId: root.id });
    ok(await call('DELETE', `/boards/${child.id}`));
    ok(await call('DELETE', `/boards/${root.id}`));
    ok(await call('POST', `/boards/${root.id}/restore`));
    expect((await t.db.prisma.board.findUniqueOrThrow({ where: { id: child.id } })).archivedAt).not.toBeNull();
  });
});

describe('items', () => {
  it('saves every surface a board accepts; a wrong surface is a 400; a second save returns created false', async () => {
    const mixed = await create({ name: 'Everything' });
    const things: [string, string][] = [
      ['ad', 'facebook_9004'], ['shop', shopGlow], ['email', '501'], ['product', PRODUCT], ['advertiser', '1000000000000002'], ['landing', LANDING],
    ];
    for (const [type, targetId] of things) {
      const res = ok(await call('POST', `/boards/${mixed.id}/items`, { type, targetId }));
      expect(Object.keys(res)).toEqual(['requestId', 'data', 'created']);
      expect(res.created).toBe(true);
      expect(res.data).toMatchObject({ boardId: mixed.id, type, targetId });
      expect(Object.keys(res.data)).toEqual(['id', 'boardId', 'type', 'targetId', 'note', 'createdByUserId', 'createdAt']);
    }
    const events = (await auditsOf(t, workspaceId)).length;
    const again = ok(await call('POST', `/boards/${mixed.id}/items`, { type: 'ad', targetId: '9004' }));
    expect(again.created).toBe(false);
    expect((await auditsOf(t, workspaceId)).length).toBe(events);
    const page = ok(await call('GET', `/boards/${mixed.id}/items?limit=4`));
    expect(page.pagination).toEqual({ page: 1, limit: 4, total: 6, totalPages: 2 });
    expect(page.data.map((i: { type: string }) => i.type)).toEqual(['landing', 'advertiser', 'product', 'email']);

    const shops = await create({ name: 'Shops only', surface: 'shops' });
    expectViolation(await call('POST', `/boards/${shops.id}/items`, { type: 'ad', targetId: 'facebook_9001' }), 'body.type');
    expect(ok(await call('POST', `/boards/${shops.id}/items`, { type: 'shop', targetId: SHOP_PEAK })).created).toBe(true);
    expectViolation(await call('POST', `/boards/${shops.id}/items`, { type: 'shop', targetId: 'not-a-uuid' }), 'body.targetId');
    expectNotFound(await call('POST', `/boards/${shops.id}/items`, { type: 'shop', targetId: '00000000-0000-4000-8000-000000000000' }));
    expectNotFound(await call('POST', `/boards/${mixed.id}/items`, { type: 'ad', targetId: 'facebook_1' }));
    expectViolation(await call('POST', `/boards/${mixed.id}/items`, { type: 'email', targetId: '1.5' }), 'body.targetId');
    expectViolation(await call('POST', `/boards/${mixed.id}/items`, { type: 'video', targetId: '1' }), 'body.type');
  });

  it('removes an item with a before/null audit event; a second removal is a 404', async () => {
    const board = await create({ name: 'Remove from', surface: 'ads' });
    const item = ok(await call('POST', `/boards/${board.id}/items`, { type: 'ad', targetId: 'facebook_9003' })).data;
    const removed = ok(await call('DELETE', `/boards/${board.id}/items/${item.id}`));
    expect(removed.data).toEqual({ removed: true, itemId: item.id, boardId: board.id });
    const [event] = (await auditsOf(t, workspaceId)).filter((e) => e.entityId === item.id && e.action === 'board_item.remove');
    expect(event.before).toMatchObject({ id: item.id, adId: 'facebook_9003' });
    expect(event.after).toBeNull();
    expectNotFound(await call('DELETE', `/boards/${board.id}/items/${item.id}`));
    expectViolation(await call('DELETE', `/boards/${board.id}/items/42`), 'path.itemId');
  });
});

describe('share links', () => {
  it('answer at their URL without a key while the board is public and active, and stop answering', async () => {
    const board = await create({ name: 'Shared', surface: 'ads', visibility: 'workspace' });
    ok(await call('POST', `/boards/${board.id}/items`, { type: 'ad', targetId: 'facebook_9001' }));
    const share = ok(await call('POST', `/boards/${board.id}/share`)).data;
    expect(Object.keys(share)).toEqual(['boardId', 'id', 'slug', 'shareUrl', 'sharePath', 'createdAt']);
    expect(share.shareUrl).toBe(`http://api.test${share.sharePath}`);
    expect(ok(await call('GET', `/boards/${board.id}`)).data.visibility).toBe('public');
    expect(ok(await call('POST', `/boards/${board.id}/share`)).data).toEqual(share); // create or return

    const open = async () => {
      const res = await t.app.fetch(`http://api.test${share.sharePath}`);
      return { status: res.status, body: await res.json() };
    };
    const page = await open();
    expect(page.status).toBe(200);
    expect(page.body.data.board).toMatchObject({ id: board.id, name: 'Shared' });
    expect(page.body.data.items).toEqual([expect.objectContaining({ type: 'ad', targetId: 'facebook_9001' })]);
    expect((await t.app.fetch(`http://api.test${share.sharePath}`, { method: 'POST' })).status).toBe(405);

    ok(await call('PATCH', `/boards/${board.id}`, { visibility: 'workspace' }));
    expect((await open()).status).toBe(404);
    ok(await call('POST', `/boards/${board.id}/share`));
    expect((await open()).status).toBe(200);
    ok(await call('DELETE', `/boards/${board.id}`));
    expect((await open()).status).toBe(404);
    ok(await call('POST', `/boards/${board.id}/restore`));
    expect((await open()).status).toBe(200);
    expect(ok(await call('DELETE', `/boards/${board.id}/share`)).data).toEqual({ revoked: true, boardId: board.id });
    const revoked = await open();
    expect(revoked.status).toBe(404);
    expect(revoked.body.error.code).toBe('not_found');
    expect(ok(await call('DELETE', `/boards/${board.id}/share`)).data.revoked).toBe(false);
  });
});

describe('SQL statements per list request', () => {
  it('do not grow with the number of rows', async () => {
    const board = await create({ name: 'Counted' });
    for (const targetId of ['facebook_9001', 'facebook_9003', 'facebook_9004']) ok(await call('POST', `/boards/${board.id}/items`, { type: 'ad', targetId }));
    const sql = recordStatements();
    const count = async (path: string, rows: number) => {
      sql.clear();
      expect(ok(await call('GET', path)).data).toHaveLength(rows);
      return sql.own().length;
    };
    try {
      const boardsOne = await count('/boards?limit=1', 1);
      expect(await count('/boards?limit=5', 5)).toBe(boardsOne);
      expect(boardsOne).toBeLessThanOrEqual(2);
      const itemsOne = await count(`/boards/${board.id}/items?limit=1`, 1);
      expect(await count(`/boards/${board.id}/items?limit=3`, 3)).toBe(itemsOne);
      // The board, its count and its page: one statement.
      expect(itemsOne).toBe(1);
    } finally {
      sql.restore();
    }
  });
});
