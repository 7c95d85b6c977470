import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey, createUser } from '../../src/auth/admin.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { AD_SUMMARY, keyPaths } from '../support/shapes.js';
import { savingScenario } from '../boards/scenario.js';
import { auditsOf, expectNotFound, ok } from '../boards/support.js';
import { expectViolation } from '../support/assertions.js';
import { recordStatements } from '../support/statements.js';

// Favorite ads, the deprecated vocabulary over boards: saved ads, folders with hierarchy, reorder, delete modes,
// visibility, share. A folder is a board and a favorite is a board item: both vocabularies read the same rows.

let t: TestApp;
let key: string;
let workspaceId: string;
let owner: { apiKey: string; userId: string };
beforeAll(async () => {
  t = await createTestApp(async (db) => { await savingScenario(db); });
  ({ apiKey: key, workspaceId } = await t.newKey({ slug: 'fav-ads' }));
  const { userId } = await createUser(t.db.prisma, { workspace: 'fav-ads', name: 'Olive Owner', role: 'owner' });
  owner = { apiKey: (await createKey(t.db.prisma, { workspace: 'fav-ads', name: 'owner', access: 'delegated_user', user: userId })).apiKey, userId };
});
afterAll(() => t?.close());

const call = (method: string, path: string, body?: unknown, as = key) => t.rest(method, path, { key: as, body });
const folder = async (name: string, parentId?: string, as = key) => ok(await call('POST', '/favorites/ads/folders', { scope: 'workspace', name, parentId }, as)).data;
const save = async (adId: string, folderId?: string, as = key) => ok(await call('POST', '/favorites/ads', { scope: 'workspace', adId, folderId }, as));

describe('saved ads', () => {
  it('add answers { data, created }, a repeat returns it unchanged with no audit event; remove is audited before/null', async () => {
    const first = await save('facebook_9004');
    expect(Object.keys(first)).toEqual(['requestId', 'data', 'created']);
    expect(first.created).toBe(true);
    expect(Object.keys(first.data)).toEqual(['id', 'scope', 'savedAt', 'folder', 'ad']);
    expect(first.data).toMatchObject({ scope: 'workspace', folder: null, ad: { id: 'facebook_9004' } });
    expect(Number.isInteger(first.data.id)).toBe(true);
    expect(keyPaths(first.data.ad)).toEqual(keyPaths(AD_SUMMARY));
    const events = (await auditsOf(t, workspaceId)).length;
    const again = await save('9004');
    expect(again).toEqual({ ...first, requestId: again.requestId, created: false });
    expect((await auditsOf(t, workspaceId)).length).toBe(events);

    const list = ok(await call('GET', '/favorites/ads?scope=workspace'));
    expect(Object.keys(list)).toEqual(['requestId', 'data', 'pagination']);
    expect(list.data).toEqual([first.data]);
    expect(list.pagination).toEqual({ page: 1, limit: 25, total: 1, totalPages: 1 });

    const removed = ok(await call('DELETE', '/favorites/ads/facebook_9004?scope=workspace'));
    expect(removed.data).toEqual({ removed: true, adId: 'facebook_9004', scope: 'workspace', folderId: null });
    const last = (await auditsOf(t, workspaceId)).at(-1)!;
    expect(last).toMatchObject({ action: 'board_item.remove', after: null });
    expect(last.before).toMatchObject({ adId: 'facebook_9004', number: first.data.id });
    expect(ok(await call('DELETE', '/favorites/ads/facebook_9004?scope=workspace')).data.removed).toBe(false);
    expect((await auditsOf(t, workspaceId)).length).toBe(events + 1);
  });

  it('concurrent adds of the same ad save it once: one created, one audit event', async () => {
    const before = (await auditsOf(t, workspaceId)).length;
    const answers = await Promise.all([1, 2, 3].map(() => call('POST', '/favorites/ads', { scope: 'workspace', adId: 'facebook_9002' })));
    expect(answers.map((res) => res.status)).toEqual([200, 200, 200]);
    expect(answers.filter((res) => res.body.created)).toHaveLength(1);
    expect(new Set(answers.map((res) => res.body.data.id)).size).toBe(1);
    expect(await t.db.prisma.boardItem.count({ where: { workspaceId, adId: 'facebook_9002' } })).toBe(1);
    expect((await auditsOf(t, workspaceId)).length).toBe(before + 1);
    // What makes it hold under any interleaving: the database refuses a second save of one thing in one place.
    const duplicate = { workspaceId, scope: 'workspace' as const, itemType: 'ad' as const, adId: 'facebook_9002' };
    await expect(t.db.prisma.boardItem.create({ data: duplicate })).rejects.toMatchObject({ code: 'P2002' });
    ok(await call('DELETE', '/favorites/ads/facebook_9002?scope=workspace'));
  });

  it('the group lead keeps collationId; unknown ads are 404; bad input is a 400 naming the field', async () => {
    const saved = await save('facebook_9001');
    expect(saved.data.ad.collationId).toBe('col_a');
    const single = await save('facebook_9003');
    expect(Object.keys(single.data.ad)).not.toContain('collationId');
    expectNotFound(await call('POST', '/favorites/ads', { scope: 'workspace', adId: 'facebook_1' }));
    expectViolation(await call('POST', '/favorites/ads', { adId: 'facebook_9001' }), 'body.scope');
    expectViolation(await call('POST', '/favorites/ads', { scope: 'everyone', adId: 'facebook_9001' }), 'body.scope');
    expectViolation(await call('POST', '/favorites/ads', { scope: 'workspace', adId: 'facebook_9001', folderId: 'folder-1' }), 'body.folderId');
    expectViolation(await call('GET', '/favorites/ads'), 'query-string.scope');
    expectViolation(await call('GET', '/favorites/ads?scope=workspace&limit=0'), 'query-string.limit');
    expectViolation(await call('PATCH', '/favorites/ads/saved/abc/folder?scope=workspace', { folderId: null }), 'path.favoriteId');
    expectNotFound(await call('POST', '/favorites/ads', { scope: 'workspace', adId: 'facebook_9001', folderId: '00000000-0000-4000-8000-000000000001' }));
    for (const adId of ['facebook_9001', 'facebook_9003']) ok(await call('DELETE', `/favorites/ads/${adId}?scope=workspace`));
  });

  it('moves a saved ad between folders and the root; the same ad twice in one place is a 409', async () => {
    const inbox = await folder('Inbox');
    const later = await folder('Later');
    const inInbox = (await save('facebook_9001', inbox.id)).data;
    const atRoot = (await save('facebook_9001')).data;
    expect(atRoot.id).not.toBe(inInbox.id);
    const clash = await call('PATCH', `/favorites/ads/saved/${inInbox.id}/folder?scope=workspace`, { folderId: null });
    expect(clash.status).toBe(409);
    expect(clash.body.error.code).toBe('conflict');
    const moved = ok(await call('PATCH', `/favorites/ads/saved/${atRoot.id}/folder?scope=workspace`, { folderId: later.id }));
    expect(Object.keys(moved)).toEqual(['requestId', 'data']);
    expect(moved.data).toMatchObject({ id: atRoot.id, folder: { id: later.id, name: 'Later', parentId: null }, ad: { id: 'facebook_9001' } });
    const byFolder = ok(await call('GET', `/favorites/ads?scope=workspace&folderId=${later.id}`)).data;
    expect(byFolder.map((f: { id: number }) => f.id)).toEqual([atRoot.id]);
    const deleted = ok(await call('DELETE', `/favorites/ads/saved/${inInbox.id}?scope=workspace`));
    expect(deleted.data).toEqual({ removed: true, adId: 'facebook_9001', scope: 'workspace', folderId: inbox.id });
    expectNotFound(await call('DELETE', `/favorites/ads/saved/${inInbox.id}?scope=workspace`));
    expectNotFound(await call('PATCH', '/favorites/ads/saved/999999/folder?scope=workspace', { folderId: null }));
    ok(await call('DELETE', `/favorites/ads/facebook_9001?scope=workspace&folderId=${later.id}`));
  });
});

describe('one store, two vocabularies', () => {
  it('a folder made by favorites is a board; an item saved on that board is a favorite', async () => {
    const made = await folder('Made by favorites');
    const board = ok(await call('GET', `/boards/${made.id}`)).data;
    expect(board).toMatchObject({ id: made.id, name: 'Made by favorites', surface: 'ads', kind: 'folder' });
    const item = ok(await call('POST', `/boards/${made.id}/items`, { type: 'ad', targetId: 'facebook_9003' })).data;
    const favorites = ok(await call('GET', `/favorites/ads?scope=workspace&folderId=${made.id}`)).data;
    expect(favorites).toHaveLength(1);
    expect(favorites[0]).toMatchObject({ folder: { id: made.id }, ad: { id: 'facebook_9003' } });
    const row = await t.db.prisma.boardItem.findUniqueOrThrow({ where: { id: item.id } });
    expect(favorites[0].id).toBe(row.number);
    // Saving the same ad through favorites finds the board item.
    expect((await save('facebook_9003', made.id)).created).toBe(false);
    ok(await call('DELETE', `/favorites/ads/saved/${row.number}?scope=workspace`));
    expect(ok(await call('GET', `/boards/${made.id}/items`)).data).toEqual([]);
    // An archived board is no longer a favorite folder.
    ok(await call('DELETE', `/boards/${made.id}`));
    expectNotFound(await call('GET', `/favorites/ads?scope=workspace&folderId=${made.id}`));
  });
});

describe('folders', () => {
  it('nest, list by parent or root, rename and move (null: the root; omitted: kept); cycles are refused', async () => {
    const top = await folder('Top');
    const mid = await folder('Mid', top.id);
    const low = await folder('Low', mid.id);
    expect(low).toEqual({ id: low.id, name: 'Low', parentId: mid.id });
    expect(ok(await call('GET', `/favorites/ads/folders?scope=workspace&parentId=${top.id}`)).data).toEqual([mid]);
    const roots = ok(await call('GET', '/favorites/ads/folders?scope=workspace&rootOnly=true&limit=100')).data;
    expect(roots.map((f: { id: string }) => f.id)).toContain(top.id);
    expect(roots.every((f: { parentId: string | null }) => f.parentId === null)).toBe(true);
    expectViolation(await call('GET', `/favorites/ads/folders?scope=workspace&rootOnly=true&parentId=${top.id}`), 'query-string.rootOnly');
    expectViolation(await call('PATCH', `/favorites/ads/folders/${top.id}?scope=workspace`, { parentId: low.id }), 'body.parentId');
    expect(ok(await call('PATCH', `/favorites/ads/folders/${low.id}?scope=workspace`, { name: 'Renamed' })).data).toEqual({ id: low.id, name: 'Renamed', parentId: mid.id });
    expect(ok(await call('PATCH', `/favorites/ads/folders/${low.id}?scope=workspace`, { parentId: null })).data).toEqual({ id: low.id, name: 'Renamed', parentId: null });
    expectViolation(await call('PATCH', `/favorites/ads/folders/${low.id}?scope=workspace`, { name: '' }), 'body.name');
    expectViolation(await call('PATCH', `/favorites/ads/folders/${low.id}`, { name: 'x' }), 'query-string.scope');
  });

  it('reorder sets sibling positions, audited, and lists in the new order', async () => {
    const parent = await folder('Sorted');
    const [a, b, c] = [await folder('a', parent.id), await folder('b', parent.id), await folder('c', parent.id)];
    const res = ok(await call('PATCH', '/favorites/ads/folders/reorder?scope=workspace', { folders: [{ id: c.id, order: 0 }, { id: a.id, order: 1 }, { id: b.id, order: 2 }] }));
    expect(res.data).toEqual({ reordered: true, scope: 'workspace', folders: [c, a, b] });
    expect(ok(await call('GET', `/favorites/ads/folders?scope=workspace&parentId=${parent.id}`)).data).toEqual([c, a, b]);
    // c was already at 0 (every folder starts there): a and b changed, one event each.
    expect((await auditsOf(t, workspaceId)).filter((e) => e.action === 'board.reorder').map((e) => e.entityId).sort()).toEqual([a.id, b.id].sort());
    expectViolation(await call('PATCH', '/favorites/ads/folders/reorder?scope=workspace', { folders: [{ id: a.id, order: -1 }] }), 'body.folders');
    expectViolation(await call('PATCH', '/favorites/ads/folders/reorder?scope=workspace', { folders: [{ id: a.id, order: 1.5 }] }), 'body.folders');
    expectViolation(await call('PATCH', '/favorites/ads/folders/reorder?scope=workspace', { folders: [] }), 'body.folders');
    expectNotFound(await call('PATCH', '/favorites/ads/folders/reorder?scope=workspace', { folders: [{ id: '00000000-0000-4000-8000-000000000002', order: 0 }] }));
  });

  it('delete modes: delete_items, move_items_to_root, move_items_to_folder (outside the tree), with the gaps-filled answer', async () => {
    const keep = await folder('Keep');
    const tree = async () => {
      const root = await folder('Doomed');
      const sub = await folder('Doomed child', root.id);
      const one = (await save('facebook_9001', root.id)).data.id;
      const two = (await save('facebook_9004', sub.id)).data.id;
      return { root, sub, ids: [one, two] };
    };
    let doomed = await tree();
    expectViolation(await call('DELETE', `/favorites/ads/folders/${doomed.root.id}?scope=workspace`, { mode: 'move_items_to_folder' }), 'body.targetFolderId');
    expectViolation(await call('DELETE', `/favorites/ads/folders/${doomed.root.id}?scope=workspace`, { mode: 'move_items_to_folder', targetFolderId: doomed.sub.id }), 'body.targetFolderId');
    expectViolation(await call('DELETE', `/favorites/ads/folders/${doomed.root.id}?scope=workspace`, { mode: 'shred' }), 'body.mode');
    expectViolation(await call('DELETE', `/favorites/ads/folders/${doomed.root.id}?scope=workspace`), 'body.mode');
    expect(await t.db.prisma.board.count({ where: { id: { in: [doomed.root.id, doomed.sub.id] } } })).toBe(2);

    const moved = ok(await call('DELETE', `/favorites/ads/folders/${doomed.root.id}?scope=workspace`, { mode: 'move_items_to_folder', targetFolderId: keep.id }));
    expect(moved.data).toEqual({
      deleted: true, folderId: doomed.root.id, scope: 'workspace', mode: 'move_items_to_folder', targetFolderId: keep.id,
      deletedFolderIds: [doomed.root.id, doomed.sub.id], affectedFavoriteIds: doomed.ids,
    });
    expect(ok(await call('GET', `/favorites/ads?scope=workspace&folderId=${keep.id}`)).data.map((f: { id: number }) => f.id).sort()).toEqual([...doomed.ids].sort());
    expect(await t.db.prisma.board.count({ where: { id: { in: [doomed.root.id, doomed.sub.id] } } })).toBe(0);

    doomed = await tree();
    const toRoot = ok(await call('DELETE', `/favorites/ads/folders/${doomed.root.id}?scope=workspace`, { mode: 'move_items_to_root' }));
    expect(toRoot.data).toMatchObject({ mode: 'move_items_to_root', targetFolderId: null, affectedFavoriteIds: doomed.ids });
    expect(await t.db.prisma.boardItem.count({ where: { number: { in: doomed.ids }, boardId: null } })).toBe(2);

    doomed = await tree();
    const events = (await auditsOf(t, workspaceId)).length;
    const gone = ok(await call('DELETE', `/favorites/ads/folders/${doomed.root.id}?scope=workspace`, { mode: 'delete_items' }));
    expect(gone.data).toMatchObject({ mode: 'delete_items', affectedFavoriteIds: doomed.ids });
    expect(await t.db.prisma.boardItem.count({ where: { number: { in: doomed.ids } } })).toBe(0);
    const audit = (await auditsOf(t, workspaceId)).slice(events);
    expect(audit.map((e) => e.action).sort()).toEqual(['board.delete', 'board.delete', 'board_item.remove', 'board_item.remove']);
    expect(audit.every((e) => e.after === null)).toBe(true);
    expectNotFound(await call('DELETE', `/favorites/ads/folders/${doomed.root.id}?scope=workspace`, { mode: 'delete_items' }));

    // Keep already saves both ads: moving the tree there does not save them twice, the copies go.
    doomed = await tree();
    ok(await call('DELETE', `/favorites/ads/folders/${doomed.root.id}?scope=workspace`, { mode: 'move_items_to_folder', targetFolderId: keep.id }));
    const kept = ok(await call('GET', `/favorites/ads?scope=workspace&folderId=${keep.id}`)).data;
    expect(kept.map((f: { ad: { id: string } }) => f.ad.id).sort()).toEqual(['facebook_9001', 'facebook_9004']);
    expect(await t.db.prisma.boardItem.count({ where: { number: { in: doomed.ids } } })).toBe(0);
  });
});

describe('visibility', () => {
  it('organization ↔ private moves a root folder tree and its favorites between scopes', async () => {
    const root = await folder('Going private', undefined, owner.apiKey);
    const child = await folder('Its child', root.id, owner.apiKey);
    const saved = (await save('facebook_9004', child.id, owner.apiKey)).data;
    expect((await call('PATCH', `/favorites/ads/folders/${child.id}/visibility?scope=workspace`, { visibility: 'private' }, owner.apiKey)).status).toBe(409);
    const res = ok(await call('PATCH', `/favorites/ads/folders/${root.id}/visibility?scope=workspace`, { visibility: 'private' }, owner.apiKey));
    expect(res.data).toEqual(root);
    expect(ok(await call('GET', '/favorites/ads/folders?scope=workspace&limit=100')).data.map((f: { id: string }) => f.id)).not.toContain(root.id);
    const personal = ok(await call('GET', '/favorites/ads/folders?scope=personal', undefined, owner.apiKey)).data;
    expect(personal.map((f: { id: string }) => f.id)).toEqual([root.id, child.id]);
    const mine = ok(await call('GET', '/favorites/ads?scope=personal', undefined, owner.apiKey)).data;
    expect(mine).toEqual([{ ...saved, scope: 'personal' }]);
    expect(ok(await call('GET', `/boards/${root.id}`, undefined, owner.apiKey)).data.id).toBe(root.id);
    expectNotFound(await call('GET', `/boards/${root.id}`));
    // And back to the organization.
    ok(await call('PATCH', `/favorites/ads/folders/${root.id}/visibility?scope=personal`, { visibility: 'organization' }, owner.apiKey));
    expect(ok(await call('GET', '/favorites/ads?scope=workspace&folderId=' + child.id)).data.map((f: { id: number }) => f.id)).toEqual([saved.id]);
  });

  it('private conversion is refused when the tree holds favorites another user saved, and for a full-access key', async () => {
    const shared = await folder('Team folder', undefined, owner.apiKey);
    await save('facebook_9001', shared.id); // saved by the full-access key: the workspace's
    const denied = await call('PATCH', `/favorites/ads/folders/${shared.id}/visibility?scope=workspace`, { visibility: 'private' }, owner.apiKey);
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe('forbidden');
    expect((await t.db.prisma.board.findUniqueOrThrow({ where: { id: shared.id } })).scope).toBe('workspace');
    expect((await call('PATCH', `/favorites/ads/folders/${shared.id}/visibility?scope=workspace`, { visibility: 'private' })).status).toBe(403);
    expectViolation(await call('PATCH', `/favorites/ads/folders/${shared.id}/visibility?scope=workspace`, { visibility: 'public' }), 'body.visibility');
  });
});

describe('folder share', () => {
  it('creates or returns the share URL of a folder, which answers without a key', async () => {
    const shared = await folder('Shared ads');
    await save('facebook_9004', shared.id);
    const res = ok(await call('POST', `/favorites/ads/folders/${shared.id}/share?scope=workspace`));
    expect(Object.keys(res.data)).toEqual(['folderId', 'folder', 'id', 'slug', 'shareUrl', 'sharePath', 'createdAt']);
    expect(res.data).toMatchObject({ folderId: shared.id, folder: shared });
    expect(ok(await call('POST', `/favorites/ads/folders/${shared.id}/share?scope=workspace`)).data).toEqual(res.data);
    const page = await t.app.fetch(`http://api.test${res.data.sharePath}`);
    expect(page.status).toBe(200);
    expect((await page.json()).data.items).toEqual([expect.objectContaining({ type: 'ad', targetId: 'facebook_9004' })]);
    ok(await call('DELETE', `/favorites/ads/folders/${shared.id}?scope=workspace`, { mode: 'delete_items' }));
    expect((await t.app.fetch(`http://api.test${res.data.sharePath}`)).status).toBe(404);
  });
});

describe('GraphQL', () => {
  it('answers what REST answers', async () => {
    const parent = await folder('GraphQL folder');
    await save('facebook_9003', parent.id);
    const rest = ok(await call('GET', `/favorites/ads?scope=workspace&folderId=${parent.id}`));
    const gql = await t.graphql(
      `query($f: String) { favoriteAds(scope: workspace, folderId: $f) { data { id scope savedAt folder { id name parentId } ad { id status advertiser { name } } } pagination { total } } }`,
      { f: parent.id },
      key,
    );
    const [row] = rest.data;
    expect(gql.body.data.favoriteAds).toEqual({
      data: [{ id: row.id, scope: 'workspace', savedAt: row.savedAt, folder: row.folder, ad: { id: row.ad.id, status: row.ad.status, advertiser: { name: row.ad.advertiser.name } } }],
      pagination: { total: 1 },
    });
    const add = await t.graphql('mutation { favoriteAdAdd(scope: workspace, adId: "facebook_9003") { created data { ad { id } } } }', {}, key);
    expect(add.body.data.favoriteAdAdd).toEqual({ created: true, data: { ad: { id: 'facebook_9003' } } });
  });
});

describe('SQL statements per list request', () => {
  it('do not grow with the number of favorites', async () => {
    const sql = recordStatements();
    const count = async (limit: number) => {
      sql.clear();
      expect(ok(await call('GET', `/favorites/ads?scope=workspace&limit=${limit}`)).data).toHaveLength(limit);
      return sql.own().length;
    };
    try {
      const one = await count(1);
      expect(await count(3)).toBe(one);
      expect(one).toBeLessThanOrEqual(3); // the page with its folders, the count, the ads with their advertisers
    } finally {
      sql.restore();
    }
  });
});
