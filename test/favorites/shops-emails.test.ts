import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import { savingScenario, SHOP_PEAK } from '../boards/scenario.js';
import { auditsOf, expectNotFound, ok } from '../boards/support.js';
import { expectViolation } from '../support/assertions.js';

// Favorite shops (flat folders, no reorder) and favorite emails (nested folders, reorder; saved once per scope).

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

describe('favorite shops', () => {
  it('add, list, remove by websiteId, with the reference shapes', async () => {
    const added = ok(await call('POST', '/favorites/shops', { scope: 'workspace', websiteId: shopGlow }));
    expect(Object.keys(added)).toEqual(['requestId', 'data', 'created']);
    expect(added.created).toBe(true);
    expect(Object.keys(added.data)).toEqual(['id', 'scope', 'savedAt', 'folder', 'shop']);
    expect(added.data).toMatchObject({ scope: 'workspace', folder: null, shop: { id: shopGlow, domain: 'nordicglow.com', name: 'Nordic Glow' } });
    const events = (await auditsOf(t, workspaceId)).length;
    expect(ok(await call('POST', '/favorites/shops', { scope: 'workspace', websiteId: shopGlow.toUpperCase() })).created).toBe(false);
    expect((await auditsOf(t, workspaceId)).length).toBe(events);
    expect(ok(await call('GET', '/favorites/shops?scope=workspace')).data).toEqual([added.data]);
    const removed = ok(await call('DELETE', `/favorites/shops/${shopGlow}?scope=workspace`));
    expect(removed.data).toEqual({ removed: true, websiteId: shopGlow, scope: 'workspace', folderId: null, savedFavoriteId: added.data.id });
    expect((await auditsOf(t, workspaceId)).at(-1)).toMatchObject({ action: 'board_item.remove', entityId: added.data.id, after: null });
    expectViolation(await call('POST', '/favorites/shops', { scope: 'workspace', websiteId: 'nordicglow.com' }), 'body.websiteId');
    expectNotFound(await call('POST', '/favorites/shops', { scope: 'workspace', websiteId: '00000000-0000-4000-8000-000000000003' }));
  });

  it('flat folders: create, rename, move a saved shop, delete without deletedFolderIds; no hierarchy, no reorder', async () => {
    const folder = ok(await call('POST', '/favorites/shops/folders', { scope: 'workspace', name: 'Competitors', parentId: '00000000-0000-4000-8000-000000000004' })).data;
    expect(folder).toEqual({ id: folder.id, name: 'Competitors' }); // parentId is not a shop folder field: ignored
    expect((await t.db.prisma.board.findUniqueOrThrow({ where: { id: folder.id } })).parentBoardId).toBeNull();
    expect(ok(await call('PATCH', `/favorites/shops/folders/${folder.id}?scope=workspace`, { name: 'Rivals' })).data).toEqual({ id: folder.id, name: 'Rivals' });
    expect(ok(await call('GET', '/favorites/shops/folders?scope=workspace')).data).toEqual([{ id: folder.id, name: 'Rivals' }]);
    const saved = ok(await call('POST', '/favorites/shops', { scope: 'workspace', websiteId: SHOP_PEAK })).data;
    const moved = ok(await call('PATCH', `/favorites/shops/saved/${saved.id}/folder?scope=workspace`, { folderId: folder.id })).data;
    expect(moved).toMatchObject({ id: saved.id, folder: { id: folder.id, name: 'Rivals' }, shop: { id: SHOP_PEAK } });
    expect(ok(await call('GET', `/favorites/shops?scope=workspace&folderId=${folder.id}`)).data.map((f: { id: string }) => f.id)).toEqual([saved.id]);
    expect((await call('PATCH', '/favorites/shops/folders/reorder?scope=workspace', { folders: [] })).status).toBe(400); // reorder is not a shop route: a folder id
    const gone = ok(await call('DELETE', `/favorites/shops/folders/${folder.id}?scope=workspace`, { mode: 'move_items_to_root' }));
    expect(gone.data).toEqual({ deleted: true, folderId: folder.id, scope: 'workspace', mode: 'move_items_to_root', targetFolderId: null, affectedFavoriteIds: [saved.id] });
    const deleted = ok(await call('DELETE', `/favorites/shops/saved/${saved.id}?scope=workspace`));
    expect(deleted.data).toEqual({ removed: true, websiteId: SHOP_PEAK, scope: 'workspace', folderId: null, savedFavoriteId: saved.id });
  });

  it('folder visibility switches the flat folder between scopes (personal needs a delegated user)', async () => {
    const folder = ok(await call('POST', '/favorites/shops/folders', { scope: 'workspace', name: 'Team' })).data;
    const res = await call('PATCH', `/favorites/shops/folders/${folder.id}/visibility?scope=workspace`, { visibility: 'private' });
    expect(res.status).toBe(403);
    expect(ok(await call('PATCH', `/favorites/shops/folders/${folder.id}/visibility?scope=workspace`, { visibility: 'organization' })).data).toEqual(folder);
  });
});

describe('favorite emails', () => {
  it('add (upsert per scope), list, move by adding to another folder, remove by emailId', async () => {
    const added = ok(await call('POST', '/favorites/emails', { scope: 'workspace', emailId: 501 }));
    expect(added.created).toBe(true);
    expect(Object.keys(added.data)).toEqual(['id', 'scope', 'savedAt', 'folder', 'email']);
    expect(added.data).toMatchObject({ scope: 'workspace', folder: null, email: { id: 501 } });
    const folder = ok(await call('POST', '/favorites/emails/folders', { scope: 'workspace', name: 'Promos' })).data;
    expect(folder).toEqual({ id: folder.id, name: 'Promos', parentId: null });
    const upserted = ok(await call('POST', '/favorites/emails', { scope: 'workspace', emailId: 501, folderId: folder.id }));
    expect(upserted.created).toBe(false);
    expect(upserted.data).toMatchObject({ id: added.data.id, folder: { id: folder.id, name: 'Promos', parentId: null } });
    expect(ok(await call('GET', '/favorites/emails?scope=workspace')).data.map((f: { id: string }) => f.id)).toEqual([added.data.id]);
    expectViolation(await call('POST', '/favorites/emails', { scope: 'workspace', emailId: 'abc' }), 'body.emailId');
    expectViolation(await call('DELETE', '/favorites/emails/1.5?scope=workspace'), 'path.emailId');
    expectNotFound(await call('POST', '/favorites/emails', { scope: 'workspace', emailId: 999 }));
    expect(ok(await call('DELETE', '/favorites/emails/501?scope=workspace')).data.removed).toBe(false); // it is in Promos now
    const removed = ok(await call('DELETE', `/favorites/emails/501?scope=workspace&folderId=${folder.id}`));
    expect(removed.data).toEqual({ removed: true, emailId: 501, scope: 'workspace', folderId: folder.id, savedFavoriteId: added.data.id });
  });

  it('nested folders, reorder, delete with deletedFolderIds and uuid favorite ids', async () => {
    const top = ok(await call('POST', '/favorites/emails/folders', { scope: 'workspace', name: 'Top' })).data;
    const sub = ok(await call('POST', '/favorites/emails/folders', { scope: 'workspace', name: 'Sub', parentId: top.id })).data;
    expect(sub.parentId).toBe(top.id);
    const other = ok(await call('POST', '/favorites/emails/folders', { scope: 'workspace', name: 'Other' })).data;
    const order = ok(await call('PATCH', '/favorites/emails/folders/reorder?scope=workspace', { folders: [{ id: other.id, order: 0 }, { id: top.id, order: 5 }] }));
    expect(order.data).toEqual({ reordered: true, scope: 'workspace', folders: [other, top] });
    const saved = ok(await call('POST', '/favorites/emails', { scope: 'workspace', emailId: 502, folderId: sub.id })).data;
    const moved = ok(await call('PATCH', `/favorites/emails/saved/${saved.id}/folder?scope=workspace`, { folderId: top.id })).data;
    expect(moved.folder).toEqual({ id: top.id, name: 'Top', parentId: null });
    ok(await call('PATCH', `/favorites/emails/saved/${saved.id}/folder?scope=workspace`, { folderId: sub.id }));
    expectViolation(await call('PATCH', `/favorites/emails/folders/${top.id}?scope=workspace`, { parentId: sub.id }), 'body.parentId');
    const gone = ok(await call('DELETE', `/favorites/emails/folders/${top.id}?scope=workspace`, { mode: 'delete_items' }));
    expect(gone.data).toEqual({
      deleted: true, folderId: top.id, scope: 'workspace', mode: 'delete_items', targetFolderId: null, deletedFolderIds: [top.id, sub.id], affectedFavoriteIds: [saved.id],
    });
    expectNotFound(await call('DELETE', `/favorites/emails/saved/${saved.id}?scope=workspace`));
  });

  it('GraphQL reads the same favorites', async () => {
    const saved = ok(await call('POST', '/favorites/emails', { scope: 'workspace', emailId: 502 })).data;
    const gql = await t.graphql('{ favoriteEmails(scope: workspace) { data { id folder { id } email { id campaignType } } } }', {}, key);
    expect(gql.body.data.favoriteEmails.data).toEqual([{ id: saved.id, folder: null, email: { id: 502, campaignType: 'newsletter' } }]);
  });
});
