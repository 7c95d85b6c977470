import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import { keyPaths } from '../support/shapes.js';
import { BT_A, BT_B, brandtrackerScenario, PAGE_A, PAGE_B, PAGE_C } from './scenario.js';
import { FOLDER, LINKS_RESULT } from './shapes.js';

// Folders (create with the next rank, rename, delete moving to the root or deactivating with confirm), a folder's
// listing, bulk moves and deletes of workspace links, and the snapshots of a brandtracker.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp(brandtrackerScenario);
});
afterAll(() => t?.close());

type Api = ReturnType<typeof as>;
const as = (key: string) => ({
  get: (path: string) => t.rest('GET', path, { key }),
  post: (path: string, body: unknown) => t.rest('POST', path, { key, body }),
  patch: (path: string, body: unknown) => t.rest('PATCH', path, { key, body }),
  del: (path: string, body?: unknown) => t.rest('DELETE', path, { key, body }),
});
const operations = (workspaceId: string) => t.db.prisma.brandtrackerQuotaOperation.count({ where: { workspaceId } });

/** A workspace tracking A, B and C, A and B in folder "Rivals". */
async function workspace() {
  const { apiKey, workspaceId } = await t.newKey();
  const api = as(apiKey);
  const rivals = (await api.post('/brandtrackers/folders', { name: 'Rivals' })).body.data;
  const ids: Record<string, { id: string; workspaceLinkId: number }> = {};
  for (const page of [PAGE_A, PAGE_B]) ids[page] = (await api.post('/brandtrackers', { facebookPageId: page, folderId: rivals.id })).body.data;
  ids[PAGE_C] = (await api.post('/brandtrackers', { facebookPageId: PAGE_C })).body.data;
  return { api, apiKey, workspaceId, rivals, ids };
}

describe('folders', () => {
  it('creates with the next rank, lists on both paths with active counts, renames, refuses a duplicate name', async () => {
    const { api, rivals, workspaceId } = await workspace();
    expect(rivals).toEqual({ id: rivals.id, name: 'Rivals', rank: 1, brandtrackerCount: 0 });
    const second = await api.post('/brandtrackers/folders', { name: 'Inspiration' });
    expect(second.body.data.rank).toBe(2);
    const listed = await api.get('/brandtrackers/folders');
    expect(Object.keys(listed.body)).toEqual(['requestId', 'data']);
    expect(keyPaths(listed.body.data)).toEqual(keyPaths([FOLDER]));
    expect(listed.body.data.map((f: { name: string; brandtrackerCount: number }) => [f.name, f.brandtrackerCount])).toEqual([['Rivals', 2], ['Inspiration', 0]]);
    expect((await api.get('/workspace/folders')).body.data).toEqual(listed.body.data);

    const renamed = await api.patch(`/brandtrackers/folders/${rivals.id}`, { name: 'Competitors' });
    expect(renamed.body.data).toEqual({ id: rivals.id, name: 'Competitors', rank: 1, brandtrackerCount: 2 });
    const taken = await api.post('/brandtrackers/folders', { name: 'Inspiration' });
    expect(taken.status).toBe(409);
    expect(taken.body.error.code).toBe('conflict');
    expect((await api.patch(`/brandtrackers/folders/${rivals.id}`, { name: 'Inspiration' })).status).toBe(409);
    expect((await api.post('/brandtrackers/folders', { name: '   ' })).status).toBe(400);
    const events = await t.db.prisma.auditEvent.findMany({ where: { workspaceId, entityType: 'brandtracker_folder' }, orderBy: { id: 'asc' } });
    expect(events.map((e) => [e.action, (e.before as { name?: string } | null)?.name ?? null, (e.after as { name?: string } | null)?.name ?? null])).toEqual([
      ['brandtracker_folder.create', null, 'Rivals'],
      ['brandtracker_folder.create', null, 'Inspiration'],
      ['brandtracker_folder.rename', 'Rivals', 'Competitors'],
    ]);
  });

  it("lists a folder's brandtrackers, and 404s another workspace's folder", async () => {
    const { api, rivals, ids } = await workspace();
    const listed = await api.get(`/brandtrackers/folders/${rivals.id}/brandtrackers?sortBy=name`);
    expect(listed.body.data.map((b: { id: string }) => b.id)).toEqual([BT_A, BT_B]);
    expect(listed.body.data[0].folder).toEqual({ id: rivals.id, name: 'Rivals' });
    expect((await api.get(`/brandtrackers?folderIds=${rivals.id}`)).body.data).toHaveLength(2);
    expect((await api.get('/brandtrackers?folderNames=riv')).body.data).toHaveLength(2);
    expect((await api.get('/brandtrackers?folderNames=nope')).body.data).toHaveLength(0);
    expect(ids[PAGE_C]).toBeTruthy();
    const other = as((await t.newKey()).apiKey);
    expect((await other.get(`/brandtrackers/folders/${rivals.id}/brandtrackers`)).status).toBe(404);
    expect((await other.patch(`/brandtrackers/folders/${rivals.id}`, { name: 'Stolen' })).status).toBe(404);
    expect((await other.del(`/brandtrackers/folders/${rivals.id}`, { action: 'move-to-default', confirm: true })).status).toBe(404);
    expect((await other.post('/brandtrackers', { facebookPageId: PAGE_A, folderId: rivals.id })).status).toBe(404);
    expect((await api.get('/brandtrackers/folders')).body.data[0].name).toBe('Rivals');
  });

  it('needs confirm: true to delete; move-to-default keeps the brandtrackers active at the root', async () => {
    const { api, rivals, workspaceId } = await workspace();
    for (const body of [{ action: 'move-to-default' }, { action: 'move-to-default', confirm: false }]) {
      const refused = await api.del(`/brandtrackers/folders/${rivals.id}`, body);
      expect(refused.status).toBe(400);
      expect(refused.body.error.details.validationErrors[0].field).toMatch(/confirm$/);
    }
    expect((await api.del(`/brandtrackers/folders/${rivals.id}`, { action: 'archive', confirm: true })).status).toBe(400);
    expect((await api.get('/brandtrackers/folders')).body.data).toHaveLength(1);

    const before = await operations(workspaceId);
    const moved = await api.del(`/brandtrackers/folders/${rivals.id}`, { action: 'move-to-default', confirm: true });
    expect(moved.body.data).toEqual({ deleted: true, action: 'move-to-default', affectedCount: 2 });
    expect((await api.get('/brandtrackers/folders')).body.data).toEqual([]);
    const list = await api.get('/brandtrackers');
    expect(list.body.pagination.total).toBe(3);
    expect(list.body.data.every((b: { folder: unknown }) => b.folder === null)).toBe(true);
    expect(await operations(workspaceId)).toBe(before);
  });

  it('delete-brandtrackers deactivates the folder\'s brandtrackers with one quota operation, or changes nothing when the quota is spent', async () => {
    const { api, rivals, workspaceId } = await workspace();
    await t.db.prisma.brandtrackerQuota.create({ data: { workspaceId, operationsLimit: 3 } });
    const spent = await api.del(`/brandtrackers/folders/${rivals.id}`, { action: 'delete-brandtrackers', confirm: true });
    expect(spent.status).toBe(409);
    expect((await api.get('/brandtrackers/folders')).body.data).toHaveLength(1);
    expect((await api.get('/brandtrackers')).body.pagination.total).toBe(3);

    await t.db.prisma.brandtrackerQuota.update({ where: { workspaceId }, data: { operationsLimit: 4 } });
    const done = await api.del(`/brandtrackers/folders/${rivals.id}`, { action: 'delete-brandtrackers', confirm: true });
    expect(done.body.data).toEqual({ deleted: true, action: 'delete-brandtrackers', affectedCount: 2 });
    expect((await api.get('/brandtrackers')).body.data.map((b: { facebookPageId: string }) => b.facebookPageId)).toEqual([PAGE_C]);
    expect(await operations(workspaceId)).toBe(4);
    const events = await t.db.prisma.auditEvent.findMany({ where: { workspaceId, requestId: done.body.requestId }, orderBy: { id: 'asc' } });
    expect(events.map((e) => e.action)).toEqual(['brandtracker_folder.delete', 'brandtracker.delete', 'brandtracker.delete']);
  });
});

describe('bulk moves and deletes of workspace links', () => {
  let w: Awaited<ReturnType<typeof workspace>>;
  let api: Api;
  beforeAll(async () => {
    w = await workspace();
    api = w.api;
  });

  it('moves by brandtracker ids or link ids, reports the ids not found, leaves other workspaces untouched', async () => {
    const inspiration = (await api.post('/brandtrackers/folders', { name: 'Inspiration' })).body.data;
    const stranger = await t.newKey();
    const theirs = (await as(stranger.apiKey).post('/brandtrackers', { facebookPageId: PAGE_B })).body.data;
    const missing = '00000000-0000-4000-8000-0000000000ff';

    const moved = await api.patch('/brandtrackers/workspace-links', { brandtrackerIds: [BT_A, BT_A, missing], folderId: inspiration.id });
    expect(keyPaths(moved.body.data)).toEqual(keyPaths(LINKS_RESULT));
    expect(moved.body.data).toEqual({ requestedCount: 2, affectedCount: 1, notFoundBrandtrackerIds: [missing], notFoundWorkspaceLinkIds: [] });
    expect((await api.get(`/brandtrackers/${BT_A}`)).body.data.folder).toEqual({ id: inspiration.id, name: 'Inspiration' });

    const byLink = await api.patch('/brandtrackers/workspace-links', { workspaceLinkIds: [w.ids[PAGE_C].workspaceLinkId, theirs.workspaceLinkId], folderId: inspiration.id });
    expect(byLink.body.data).toEqual({ requestedCount: 2, affectedCount: 1, notFoundBrandtrackerIds: [], notFoundWorkspaceLinkIds: [theirs.workspaceLinkId] });
    expect((await as(stranger.apiKey).get(`/brandtrackers/${BT_B}`)).body.data.folder).toBeNull();

    const moves = await t.db.prisma.auditEvent.findMany({ where: { workspaceId: w.workspaceId, requestId: moved.body.requestId } });
    expect(moves).toMatchObject([{ action: 'brandtracker.move', entityId: String(w.ids[PAGE_A].workspaceLinkId), before: { folderId: w.rivals.id }, after: { folderId: inspiration.id } }]);
    const toRoot = await api.patch('/brandtrackers/workspace-links', { brandtrackerIds: [BT_A] });
    expect(toRoot.body.data.affectedCount).toBe(1);
    expect((await api.get(`/brandtrackers/${BT_A}`)).body.data.folder).toBeNull();
    const foreignFolder = (await as(stranger.apiKey).post('/brandtrackers/folders', { name: 'Theirs' })).body.data;
    expect((await api.patch('/brandtrackers/workspace-links', { brandtrackerIds: [BT_A], folderId: foreignFolder.id })).status).toBe(404);
  });

  it('needs exactly one id set', async () => {
    for (const body of [{ folderId: null }, { brandtrackerIds: [BT_A], workspaceLinkIds: [1] }, { brandtrackerIds: [] }]) {
      const res = await api.patch('/brandtrackers/workspace-links', body);
      expect(res.status).toBe(400);
      expect(res.body.error.details.validationErrors[0].field).toBe('body.brandtrackerIds');
    }
    expect((await api.patch('/brandtrackers/workspace-links', { brandtrackerIds: ['x'] })).status).toBe(400);
  });

  it('deletes with confirm: true and one quota operation, reporting inactive ids as not found', async () => {
    const refused = await api.del('/brandtrackers/workspace-links', { brandtrackerIds: [BT_A] });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details.validationErrors[0]).toMatchObject({ field: 'query-string.confirm' });
    const before = await operations(w.workspaceId);
    const deleted = await api.del('/brandtrackers/workspace-links', { brandtrackerIds: [BT_A, BT_B], confirm: true });
    expect(deleted.body.data).toEqual({ requestedCount: 2, affectedCount: 2, notFoundBrandtrackerIds: [], notFoundWorkspaceLinkIds: [] });
    expect(await operations(w.workspaceId)).toBe(before + 1);
    const again = await api.del('/brandtrackers/workspace-links', { brandtrackerIds: [BT_A], confirm: true });
    expect(again.body.data).toEqual({ requestedCount: 1, affectedCount: 0, notFoundBrandtrackerIds: [BT_A], notFoundWorkspaceLinkIds: [] });
    expect((await api.get('/brandtrackers')).body.data.map((b: { facebookPageId: string }) => b.facebookPageId)).toEqual([PAGE_C]);
    // On GraphQL the same write, the same answer.
    const gql = await t.graphql(`mutation { brandtrackerLinksDelete(brandtrackerIds: ["${BT_A}"], confirm: true) { requestedCount affectedCount notFoundBrandtrackerIds } }`, {}, w.apiKey);
    expect(gql.body.data.brandtrackerLinksDelete).toEqual({ requestedCount: 1, affectedCount: 0, notFoundBrandtrackerIds: [BT_A] });
  });
});

describe('snapshots', () => {
  it("reports the brandtracker's snapshot days newest first, with their readiness", async () => {
    const { api } = await workspace();
    const res = await api.get(`/brandtrackers/${BT_A}/snapshots?limit=2`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      requestId: res.body.requestId,
      data: {
        latestDate: '2026-11-21', latestReadyDate: '2026-11-21', latestScheduledDate: '2026-11-21', dates: ['2026-11-21', '2026-11-20'],
        snapshots: [
          { date: '2026-11-21', status: 'ready', usableRows: 1, indexedRows: 1 },
          { date: '2026-11-20', status: 'ready', usableRows: 1, indexedRows: 1 },
        ],
      },
      pagination: { page: 1, limit: 2, total: 3, totalPages: 2 },
    });
    const empty = await api.get(`/brandtrackers/${(await api.get('/brandtrackers?name=gamma')).body.data[0].id}/snapshots`);
    expect(empty.body.data).toEqual({ latestDate: null, latestReadyDate: null, latestScheduledDate: null, dates: [], snapshots: [] });
  });
});
