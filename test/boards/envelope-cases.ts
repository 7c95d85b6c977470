import { expect } from 'vitest';
import type { HttpResult, TestApp } from '../support/app.js';
import { BOARD_KEYS } from './support.js';

// The envelope cases of the boards and favorites routes for test/rest/envelopes.test.ts: one successful call per
// route, made twice there (plus twice without a key). `setupSavingCases` makes what the calls act on in the test's
// workspace; a route that consumes its target (a delete) takes a fresh one from a pool on every call.

type Case = { path: string; body?: unknown; check: (res: HttpResult) => void };

const state = {
  board: '', child: '', restore: '', archive: '', itemBoard: '', folder: '', shopFolder: '', emailFolder: '',
  shopId: '', adMove: 0, shopMove: '', emailMove: '',
  items: [] as string[], adSaved: [] as number[], shopSaved: [] as string[], emailSaved: [] as string[],
  adFolders: [] as string[], shopFolders: [] as string[], emailFolders: [] as string[],
};
const EMAIL_IDS = [990_001, 990_002];

export async function setupSavingCases(t: TestApp, key: string): Promise<void> {
  const post = async (path: string, body?: unknown) => {
    const res = await t.rest('POST', path, { key, body });
    if (res.status !== 200) throw new Error(`setup ${path}: ${JSON.stringify(res.body)}`);
    return res.body.data;
  };
  const shop = await t.db.prisma.shop.findFirstOrThrow({ select: { id: true }, orderBy: { id: 'asc' } });
  state.shopId = shop.id;
  await t.db.prisma.email.createMany({
    data: EMAIL_IDS.map((id) => ({ id, shopId: shop.id, fromAddress: 'news@shop.example', sentAt: new Date('2026-11-01T00:00:00Z'), campaignType: 'promotional', subject: 'Sale', body: 'Sale', bodyLength: 4 })),
  });
  state.board = (await post('/boards', { name: 'Envelope board', surface: 'ads' })).id;
  state.child = (await post('/boards', { name: 'Envelope child', parentBoardId: state.board })).id;
  state.archive = (await post('/boards', { name: 'Envelope archive' })).id;
  state.restore = (await post('/boards', { name: 'Envelope restore' })).id;
  await t.rest('DELETE', `/boards/${state.restore}`, { key });
  state.itemBoard = (await post('/boards', { name: 'Envelope items', surface: 'ads' })).id;
  for (const ad of ['facebook_9001', 'facebook_9002', 'facebook_9003', 'facebook_9004']) state.items.push((await post(`/boards/${state.itemBoard}/items`, { type: 'ad', targetId: ad })).id);

  for (const [family, pool, saved, add] of [
    ['ads', state.adFolders, state.adSaved, { adId: 'facebook_9004' }],
    ['shops', state.shopFolders, state.shopSaved, { websiteId: shop.id }],
    ['emails', state.emailFolders, state.emailSaved, { emailId: EMAIL_IDS[0] }],
  ] as const) {
    for (let i = 0; i < 4; i += 1) {
      const folder = (await post(`/favorites/${family}/folders`, { scope: 'workspace', name: `Envelope ${family} ${i}` })).id;
      (pool as string[]).push(folder);
      // Emails are saved once per scope: each delete case gets its own saved email, in its own folder.
      if (family === 'emails') continue;
      const favorite = await post(`/favorites/${family}`, { scope: 'workspace', ...add, folderId: folder });
      (saved as (string | number)[]).push(favorite.id);
    }
  }
  state.folder = (await post('/favorites/ads/folders', { scope: 'workspace', name: 'Envelope ads folder' })).id;
  state.shopFolder = (await post('/favorites/shops/folders', { scope: 'workspace', name: 'Envelope shops folder' })).id;
  state.emailFolder = (await post('/favorites/emails/folders', { scope: 'workspace', name: 'Envelope emails folder' })).id;
  state.adMove = (await post('/favorites/ads', { scope: 'workspace', adId: 'facebook_9003', folderId: state.folder })).id;
  state.shopMove = (await post('/favorites/shops', { scope: 'workspace', websiteId: shop.id, folderId: state.shopFolder })).id;
  state.emailMove = (await post('/favorites/emails', { scope: 'workspace', emailId: EMAIL_IDS[1], folderId: state.emailFolder })).id;
  for (let i = 0; i < 4; i += 1) {
    const email = await t.db.prisma.email.create({ data: { shopId: shop.id, fromAddress: 'news@shop.example', sentAt: new Date('2026-11-02T00:00:00Z'), campaignType: 'promotional', subject: `Sale ${i}`, body: 'Sale', bodyLength: 4 } });
    state.emailSaved.push((await post('/favorites/emails', { scope: 'workspace', emailId: email.id })).id);
  }
}

/** The next unused target of a pool (each call of a deleting route consumes one). */
const take = <T>(pool: T[]): T => {
  const next = pool.shift();
  if (next === undefined) throw new Error('envelope case pool exhausted');
  return next;
};

const keys = (value: object) => Object.keys(value);
const single = (dataKeys: string[]) => ({ body }: HttpResult) => {
  expect(keys(body)).toEqual(['requestId', 'data']);
  expect(keys(body.data)).toEqual(dataKeys);
};
const page = (itemKeys: string[]) => ({ body }: HttpResult) => {
  expect(keys(body)).toEqual(['requestId', 'data', 'pagination']);
  expect(body.data.length).toBeGreaterThan(0);
  for (const item of body.data) expect(keys(item)).toEqual(itemKeys);
  expect(keys(body.pagination)).toEqual(['page', 'limit', 'total', 'totalPages']);
};
const added = (itemKeys: string[]) => ({ body }: HttpResult) => {
  expect(keys(body)).toEqual(['requestId', 'data', 'created']);
  expect(keys(body.data)).toEqual(itemKeys);
};

const ITEM = ['id', 'boardId', 'type', 'targetId', 'note', 'createdByUserId', 'createdAt'];
const SHARE = ['boardId', 'id', 'slug', 'shareUrl', 'sharePath', 'createdAt'];
const NESTED = ['id', 'name', 'parentId'];
const FAVORITE = (target: string) => ['id', 'scope', 'savedAt', 'folder', target];
const DELETION = (hierarchy: boolean) => ['deleted', 'folderId', 'scope', 'mode', 'targetFolderId', ...(hierarchy ? ['deletedFolderIds'] : []), 'affectedFavoriteIds'];

export function savingCases(): Record<string, Case> {
  return {
    'GET /boards': { path: '/boards', check: page(BOARD_KEYS) },
    'POST /boards': { path: '/boards', body: { name: 'Envelope created' }, check: single(BOARD_KEYS) },
    'GET /boards/:boardId': { get path() { return `/boards/${state.board}`; }, check: single(BOARD_KEYS) },
    'PATCH /boards/:boardId': { get path() { return `/boards/${state.board}`; }, body: { description: 'Described' }, check: single(BOARD_KEYS) },
    'DELETE /boards/:boardId': { get path() { return `/boards/${state.archive}`; }, check: single(BOARD_KEYS) },
    'PATCH /boards/:boardId/parent': { get path() { return `/boards/${state.child}/parent`; }, body: { parentBoardId: null }, check: single(BOARD_KEYS) },
    'POST /boards/:boardId/restore': { get path() { return `/boards/${state.restore}/restore`; }, check: single(BOARD_KEYS) },
    'GET /boards/:boardId/items': { get path() { return `/boards/${state.itemBoard}/items`; }, check: page(ITEM) },
    'POST /boards/:boardId/items': { get path() { return `/boards/${state.board}/items`; }, body: { type: 'ad', targetId: 'facebook_9004' }, check: added(ITEM) },
    'DELETE /boards/:boardId/items/:itemId': { get path() { return `/boards/${state.itemBoard}/items/${take(state.items)}`; }, check: single(['removed', 'itemId', 'boardId']) },
    'POST /boards/:boardId/share': { get path() { return `/boards/${state.board}/share`; }, check: single(SHARE) },
    'DELETE /boards/:boardId/share': { get path() { return `/boards/${state.board}/share`; }, check: single(['revoked', 'boardId']) },

    'GET /favorites/ads': { path: '/favorites/ads?scope=workspace', check: page(FAVORITE('ad')) },
    'POST /favorites/ads': { path: '/favorites/ads', body: { scope: 'workspace', adId: 'facebook_9001' }, check: added(FAVORITE('ad')) },
    'DELETE /favorites/ads/:adId': { path: '/favorites/ads/facebook_9001?scope=workspace', check: single(['removed', 'adId', 'scope', 'folderId']) },
    'PATCH /favorites/ads/saved/:favoriteId/folder': { get path() { return `/favorites/ads/saved/${state.adMove}/folder?scope=workspace`; }, body: { folderId: null }, check: single(FAVORITE('ad')) },
    'DELETE /favorites/ads/saved/:favoriteId': { get path() { return `/favorites/ads/saved/${take(state.adSaved)}?scope=workspace`; }, check: single(['removed', 'adId', 'scope', 'folderId']) },
    'GET /favorites/ads/folders': { path: '/favorites/ads/folders?scope=workspace', check: page(NESTED) },
    'POST /favorites/ads/folders': { path: '/favorites/ads/folders', body: { scope: 'workspace', name: 'Envelope new' }, check: single(NESTED) },
    'PATCH /favorites/ads/folders/reorder': { path: '/favorites/ads/folders/reorder?scope=workspace', get body() { return { folders: [{ id: state.folder, order: 3 }] }; }, check: single(['reordered', 'scope', 'folders']) },
    'PATCH /favorites/ads/folders/:folderId': { get path() { return `/favorites/ads/folders/${state.folder}?scope=workspace`; }, body: { name: 'Renamed' }, check: single(NESTED) },
    'DELETE /favorites/ads/folders/:folderId': { get path() { return `/favorites/ads/folders/${take(state.adFolders)}?scope=workspace`; }, body: { mode: 'delete_items' }, check: single(DELETION(true)) },
    'PATCH /favorites/ads/folders/:folderId/visibility': { get path() { return `/favorites/ads/folders/${state.folder}/visibility?scope=workspace`; }, body: { visibility: 'organization' }, check: single(NESTED) },
    'POST /favorites/ads/folders/:folderId/share': { get path() { return `/favorites/ads/folders/${state.folder}/share?scope=workspace`; }, check: single(['folderId', 'folder', 'id', 'slug', 'shareUrl', 'sharePath', 'createdAt']) },

    'GET /favorites/shops': { path: '/favorites/shops?scope=workspace', check: page(FAVORITE('shop')) },
    'POST /favorites/shops': { path: '/favorites/shops', get body() { return { scope: 'workspace', websiteId: state.shopId }; }, check: added(FAVORITE('shop')) },
    'DELETE /favorites/shops/:websiteId': { get path() { return `/favorites/shops/${state.shopId}?scope=workspace`; }, check: single(['removed', 'websiteId', 'scope', 'folderId', 'savedFavoriteId']) },
    'PATCH /favorites/shops/saved/:favoriteId/folder': { get path() { return `/favorites/shops/saved/${state.shopMove}/folder?scope=workspace`; }, get body() { return { folderId: state.shopFolder }; }, check: single(FAVORITE('shop')) },
    'DELETE /favorites/shops/saved/:favoriteId': { get path() { return `/favorites/shops/saved/${take(state.shopSaved)}?scope=workspace`; }, check: single(['removed', 'websiteId', 'scope', 'folderId', 'savedFavoriteId']) },
    'GET /favorites/shops/folders': { path: '/favorites/shops/folders?scope=workspace', check: page(['id', 'name']) },
    'POST /favorites/shops/folders': { path: '/favorites/shops/folders', body: { scope: 'workspace', name: 'Envelope new' }, check: single(['id', 'name']) },
    'PATCH /favorites/shops/folders/:folderId': { get path() { return `/favorites/shops/folders/${state.shopFolder}?scope=workspace`; }, body: { name: 'Renamed' }, check: single(['id', 'name']) },
    'DELETE /favorites/shops/folders/:folderId': { get path() { return `/favorites/shops/folders/${take(state.shopFolders)}?scope=workspace`; }, body: { mode: 'move_items_to_root' }, check: single(DELETION(false)) },
    'PATCH /favorites/shops/folders/:folderId/visibility': { get path() { return `/favorites/shops/folders/${state.shopFolder}/visibility?scope=workspace`; }, body: { visibility: 'organization' }, check: single(['id', 'name']) },

    'GET /favorites/emails': { path: '/favorites/emails?scope=workspace', check: page(FAVORITE('email')) },
    'POST /favorites/emails': { path: '/favorites/emails', body: { scope: 'workspace', emailId: EMAIL_IDS[0] }, check: added(FAVORITE('email')) },
    'DELETE /favorites/emails/:emailId': { path: `/favorites/emails/${EMAIL_IDS[0]}?scope=workspace`, check: single(['removed', 'emailId', 'scope', 'folderId', 'savedFavoriteId']) },
    'PATCH /favorites/emails/saved/:favoriteId/folder': { get path() { return `/favorites/emails/saved/${state.emailMove}/folder?scope=workspace`; }, body: { folderId: null }, check: single(FAVORITE('email')) },
    'DELETE /favorites/emails/saved/:favoriteId': { get path() { return `/favorites/emails/saved/${take(state.emailSaved)}?scope=workspace`; }, check: single(['removed', 'emailId', 'scope', 'folderId', 'savedFavoriteId']) },
    'GET /favorites/emails/folders': { path: '/favorites/emails/folders?scope=workspace', check: page(NESTED) },
    'POST /favorites/emails/folders': { path: '/favorites/emails/folders', body: { scope: 'workspace', name: 'Envelope new' }, check: single(NESTED) },
    'PATCH /favorites/emails/folders/reorder': { path: '/favorites/emails/folders/reorder?scope=workspace', get body() { return { folders: [{ id: state.emailFolder, order: 2 }] }; }, check: single(['reordered', 'scope', 'folders']) },
    'PATCH /favorites/emails/folders/:folderId': { get path() { return `/favorites/emails/folders/${state.emailFolder}?scope=workspace`; }, body: { name: 'Renamed' }, check: single(NESTED) },
    'DELETE /favorites/emails/folders/:folderId': { get path() { return `/favorites/emails/folders/${take(state.emailFolders)}?scope=workspace`; }, body: { mode: 'delete_items' }, check: single(DELETION(true)) },
    'PATCH /favorites/emails/folders/:folderId/visibility': { get path() { return `/favorites/emails/folders/${state.emailFolder}/visibility?scope=workspace`; }, body: { visibility: 'organization' }, check: single(NESTED) },
  };
}
