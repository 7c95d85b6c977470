import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type HttpResult, type TestApp } from '../support/app.js';
import { savingScenario } from '../boards/scenario.js';
import { ok } from '../boards/support.js';

// Issue #32, items 3 and 7: many identical writes at once. A delete that lost the race answered 500 (Prisma's
// "No record was found for a delete"), and every call that read the row before the first one committed audited
// the same change again, with the same stale "before". Each burst below sends one request N times at once and
// expects what the same requests answer one after the other: one change, audited once, and for all the others the
// route's answer for what is already done (its 404, or its idempotent 200); never a 5xx.

const N = 100;
const PAGE_A = '1000000000000001';
const PAGE_B = '1000000000000002';

// One app and one workspace for the whole file: each burst works on rows of its own.
let t: TestApp;
let owner: { apiKey: string; workspaceId: string };
let shopGlow: string;
beforeAll(async () => {
  t = await createTestApp(async (db) => void ({ shopGlow } = await savingScenario(db)));
  owner = await t.newKey();
});
afterAll(() => t?.close());

const call = (method: string, path: string, body?: unknown) => t.rest(method, path, { key: owner.apiKey, body });
const create = async (path: string, body: Record<string, unknown>) => ok(await call('POST', path, body)).data;

/** The same request N times at once. */
const burst = (send: () => Promise<HttpResult>) => Promise.all(Array.from({ length: N }, send));

/** The audit events of one action on one entity. */
const audited = (action: string, entityId: string | number) => t.db.prisma.auditEvent.count({ where: { workspaceId: owner.workspaceId, action, entityId: String(entityId) } });

/** The saved row (board item) of the workspace that matches. */
const savedItem = (where: Record<string, unknown>) => t.db.prisma.boardItem.findFirstOrThrow({ where: { workspaceId: owner.workspaceId, ...where } });

/**
 * What a burst did, in one object: how many answers had each status, how many of them say they made the change
 * (`changed`, for routes whose 200 tells), and how many audit events each action wrote. A 404 must be not_found.
 */
async function outcome(answers: HttpResult[], events: Record<string, Promise<number>>, changed?: (data: any) => boolean) {
  const result: Record<string, number> = {};
  for (const { status, body } of answers) {
    result[status] = (result[status] ?? 0) + 1;
    if (status === 404) expect(body.error.code).toBe('not_found');
  }
  if (changed) result.changed = answers.filter((a) => a.status === 200 && changed(a.body.data)).length;
  for (const [action, count] of Object.entries(events)) result[action] = await count;
  return result;
}

describe('parallel removals of one saved item: one removal, audited once, no 5xx', () => {
  it('DELETE /boards/{boardId}/items/{itemId}: one 200, then the 404 of a second removal', async () => {
    const board = await create('/boards', { name: 'Burst items', surface: 'ads' });
    const item = (await create(`/boards/${board.id}/items`, { type: 'ad', targetId: 'facebook_9001' })) as { id: string };
    const answers = await burst(() => call('DELETE', `/boards/${board.id}/items/${item.id}`));
    expect(await outcome(answers, { 'board_item.remove': audited('board_item.remove', item.id) }))
      .toEqual({ 200: 1, 404: N - 1, 'board_item.remove': 1 });
    expect(answers.find((a) => a.status === 200)!.body.data).toEqual({ removed: true, itemId: item.id, boardId: board.id });
  });

  // Each family's target: the body that saves it, its id in the DELETE path, the saved row.
  const families = [
    { family: 'ads', target: () => ({ body: { adId: 'facebook_9002' }, pathId: 'facebook_9002', row: { adId: 'facebook_9002' } }) },
    { family: 'shops', target: () => ({ body: { websiteId: shopGlow }, pathId: shopGlow, row: { shopId: shopGlow } }) },
    { family: 'emails', target: () => ({ body: { emailId: 501 }, pathId: '501', row: { emailId: 501 } }) },
  ];

  it.each(families)('DELETE /favorites/$family/{id}: every answer 200, exactly one removed: true', async ({ family, target }) => {
    const { body, pathId, row } = target();
    ok(await call('POST', `/favorites/${family}`, { scope: 'workspace', ...body }));
    const saved = await savedItem({ boardId: null, ...row });
    const answers = await burst(() => call('DELETE', `/favorites/${family}/${pathId}?scope=workspace`));
    expect(await outcome(answers, { 'board_item.remove': audited('board_item.remove', saved.id) }, (data) => data.removed))
      .toEqual({ 200: N, changed: 1, 'board_item.remove': 1 });
  });

  it('DELETE /favorites/ads/saved/{favoriteId}: one 200, then 404', async () => {
    const saved = (await create('/favorites/ads', { scope: 'workspace', adId: 'facebook_9003' })) as { id: number };
    const item = await savedItem({ number: saved.id });
    const answers = await burst(() => call('DELETE', `/favorites/ads/saved/${saved.id}?scope=workspace`));
    expect(await outcome(answers, { 'board_item.remove': audited('board_item.remove', item.id) }))
      .toEqual({ 200: 1, 404: N - 1, 'board_item.remove': 1 });
  });

  it('PATCH /favorites/ads/saved/{favoriteId}/folder: every answer 200, one board_item.move', async () => {
    const folder = await create('/favorites/ads/folders', { scope: 'workspace', name: 'Burst destination' });
    const saved = (await create('/favorites/ads', { scope: 'workspace', adId: 'facebook_9001' })) as { id: number };
    const item = await savedItem({ number: saved.id });
    const answers = await burst(() => call('PATCH', `/favorites/ads/saved/${saved.id}/folder?scope=workspace`, { folderId: folder.id }));
    expect(await outcome(answers, { 'board_item.move': audited('board_item.move', item.id) }, (data) => data.folder?.id === folder.id))
      .toEqual({ 200: N, changed: N, 'board_item.move': 1 });
  });

  it('DELETE /favorites/ads/folders/{folderId}: one 200, then 404; the folder and its favorite audited once', async () => {
    const folder = await create('/favorites/ads/folders', { scope: 'workspace', name: 'Burst folder' });
    const saved = (await create('/favorites/ads', { scope: 'workspace', adId: 'facebook_9004', folderId: folder.id })) as { id: number };
    const item = await savedItem({ number: saved.id });
    const answers = await burst(() => call('DELETE', `/favorites/ads/folders/${folder.id}?scope=workspace`, { mode: 'delete_items' }));
    expect(await outcome(answers, { 'board.delete': audited('board.delete', folder.id), 'board_item.remove': audited('board_item.remove', item.id) }))
      .toEqual({ 200: 1, 404: N - 1, 'board.delete': 1, 'board_item.remove': 1 });
    expect(answers.find((a) => a.status === 200)!.body.data).toMatchObject({ deleted: true, folderId: folder.id, affectedFavoriteIds: [saved.id] });
  });
});

describe('parallel identical board changes: one change, audited once; every answer the idempotent 200', () => {
  let board: { id: string };
  const updates = () => t.db.prisma.auditEvent.findMany({ where: { workspaceId: owner.workspaceId, action: 'board.update', entityId: board.id }, orderBy: { id: 'asc' } });
  const visibilities = async () => (await updates()).map((e) => `${(e.before as { visibility: string }).visibility} → ${(e.after as { visibility: string }).visibility}`);
  beforeAll(async () => {
    board = await create('/boards', { name: 'Burst board', surface: 'ads', visibility: 'workspace' });
    await create('/boards', { name: 'Burst child', parentBoardId: board.id });
  });

  it('POST /boards/{boardId}/share: one share, one board.update workspace → public', async () => {
    const answers = await burst(() => call('POST', `/boards/${board.id}/share`));
    const shareId = answers[0].body.data?.id;
    expect(await outcome(answers, { 'board.share': audited('board.share', shareId), 'board.update': audited('board.update', board.id) }))
      .toEqual({ 200: N, 'board.share': 1, 'board.update': 1 });
    expect(new Set(answers.map((a) => a.body.data.id))).toEqual(new Set([shareId]));
    expect(await visibilities()).toEqual(['workspace → public']);
  });

  it('PATCH /boards/{boardId} to one visibility: one board.update', async () => {
    const answers = await burst(() => call('PATCH', `/boards/${board.id}`, { visibility: 'private' }));
    expect(await outcome(answers, { 'board.update': audited('board.update', board.id) })).toEqual({ 200: N, 'board.update': 2 });
    expect(await visibilities()).toEqual(['workspace → public', 'public → private']);
  });

  it('POST /boards/{boardId}/share of a shared board made private again: one board.update, no second share', async () => {
    const share = await t.db.prisma.boardShare.findUniqueOrThrow({ where: { boardId: board.id } });
    const answers = await burst(() => call('POST', `/boards/${board.id}/share`));
    expect(await outcome(answers, { 'board.share': audited('board.share', share.id), 'board.update': audited('board.update', board.id) }))
      .toEqual({ 200: N, 'board.share': 1, 'board.update': 3 });
    expect(new Set(answers.map((a) => a.body.data.id))).toEqual(new Set([share.id]));
    expect(await visibilities()).toEqual(['workspace → public', 'public → private', 'private → public']);
  });

  it('DELETE /boards/{boardId}/share: one revoked: true, the rest revoked: false', async () => {
    const share = await t.db.prisma.boardShare.findUniqueOrThrow({ where: { boardId: board.id } });
    const answers = await burst(() => call('DELETE', `/boards/${board.id}/share`));
    expect(await outcome(answers, { 'board.unshare': audited('board.unshare', share.id) }, (data) => data.revoked))
      .toEqual({ 200: N, changed: 1, 'board.unshare': 1 });
  });

  it('DELETE /boards/{boardId} (archive): one board.archive, every answer the archived board', async () => {
    const answers = await burst(() => call('DELETE', `/boards/${board.id}`));
    expect(await outcome(answers, { 'board.archive': audited('board.archive', board.id) })).toEqual({ 200: N, 'board.archive': 1 });
    expect(new Set(answers.map((a) => a.body.data.archivedAt)).size).toBe(1);
    expect(answers[0].body.data.archivedAt).not.toBeNull();
  });

  it('POST /boards/{boardId}/restore: one board.restore, every answer the active board', async () => {
    const answers = await burst(() => call('POST', `/boards/${board.id}/restore`));
    expect(await outcome(answers, { 'board.restore': audited('board.restore', board.id) })).toEqual({ 200: N, 'board.restore': 1 });
    expect(answers.every((a) => a.body.data.archivedAt === null)).toBe(true);
    expect(await t.db.prisma.board.count({ where: { workspaceId: owner.workspaceId, parentBoardId: board.id, archivedAt: { not: null } } })).toBe(0);
  });
});

describe('parallel brandtracker changes: each audited once; a delete that lost answers the 404 of a second delete', () => {
  const operations = () => t.db.prisma.brandtrackerQuotaOperation.count({ where: { workspaceId: owner.workspaceId } });

  it('PATCH /brandtrackers/{brandtrackerId} to one name, then DELETE: each change audited once', async () => {
    const tracked = (await create('/brandtrackers', { facebookPageId: PAGE_A })) as { id: string; workspaceLinkId: number };
    const renames = await burst(() => call('PATCH', `/brandtrackers/${tracked.id}`, { name: 'Burst rival' }));
    expect(await outcome(renames, { 'brandtracker.rename': audited('brandtracker.rename', tracked.workspaceLinkId) }, (data) => data.name === 'Burst rival'))
      .toEqual({ 200: N, changed: N, 'brandtracker.rename': 1 });
    const answers = await burst(() => call('DELETE', `/brandtrackers/${tracked.id}`));
    expect(await outcome(answers, { 'brandtracker.delete': audited('brandtracker.delete', tracked.workspaceLinkId) }))
      .toEqual({ 200: 1, 404: N - 1, 'brandtracker.delete': 1 });
    expect(answers.find((a) => a.status === 200)!.body.data).toEqual({ id: tracked.id, deleted: true });
  });

  it('DELETE /brandtrackers/folders/{folderId} with its brandtrackers: one 200, one quota operation', async () => {
    const folder = await create('/brandtrackers/folders', { name: 'Burst rivals' });
    const tracked = (await create('/brandtrackers', { facebookPageId: PAGE_B, folderId: folder.id })) as { workspaceLinkId: number };
    const before = await operations();
    const answers = await burst(() => call('DELETE', `/brandtrackers/folders/${folder.id}`, { action: 'delete-brandtrackers', confirm: true }));
    expect(await outcome(answers, {
      'brandtracker_folder.delete': audited('brandtracker_folder.delete', folder.id),
      'brandtracker.delete': audited('brandtracker.delete', tracked.workspaceLinkId),
    })).toEqual({ 200: 1, 404: N - 1, 'brandtracker_folder.delete': 1, 'brandtracker.delete': 1 });
    expect(await operations()).toBe(before + 1);
  });
});
