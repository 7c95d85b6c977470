import { declare, owned, type Owner } from './registry.js';

// Boards: every route names a board of workspace A (and an item of it); B gets what a missing id gets.

async function board({ t, key }: Owner, body: Record<string, unknown> = {}) {
  const res = await t.rest('POST', '/boards', { key, body: { name: `Secret board ${Math.random().toString(36).slice(2, 8)}`, surface: 'ads', ...body } });
  return res.body.data as { id: string; name: string };
}

const madeBoard = (extra?: (owner: Owner, id: string) => Promise<Record<string, unknown>>) => async (owner: Owner) => {
  const made = await board(owner);
  const more = extra ? await extra(owner, made.id) : {};
  return {
    args: { boardId: made.id, ...more },
    secrets: [made.id, made.name],
    readBack: async () => [(await owner.t.rest('GET', `/boards/${made.id}`, { key: owner.key })).body.data, (await owner.t.rest('GET', `/boards/${made.id}/items`, { key: owner.key })).body.data],
  };
};

const parentOnly = async (owner: Owner) => {
  const made = await board(owner);
  return { args: { parentBoardId: made.id }, secrets: [made.id, made.name], readBack: async () => (await owner.t.rest('GET', `/boards/${made.id}`, { key: owner.key })).body.data };
};

declare('GET /boards', owned(parentOnly));
declare('POST /boards', owned(parentOnly, { name: 'Under a foreign parent' }));
declare('GET /boards/:boardId', owned(madeBoard()));
declare('PATCH /boards/:boardId', owned(madeBoard(), { name: 'Renamed by B', visibility: 'public' }));
declare('DELETE /boards/:boardId', owned(madeBoard()));
declare('PATCH /boards/:boardId/parent', owned(madeBoard(), { parentBoardId: null }));
declare('POST /boards/:boardId/restore', owned(madeBoard()));
declare('GET /boards/:boardId/items', owned(madeBoard()));
declare('POST /boards/:boardId/items', owned(madeBoard(), { type: 'ad', targetId: 'facebook_9004' }));
declare('DELETE /boards/:boardId/items/:itemId', owned(madeBoard(async ({ t, key }, id) => {
  const item = await t.rest('POST', `/boards/${id}/items`, { key, body: { type: 'ad', targetId: 'facebook_9001' } });
  return { itemId: item.body.data.id };
})));
declare('POST /boards/:boardId/share', owned(madeBoard()));
declare('DELETE /boards/:boardId/share', owned(madeBoard(async ({ t, key }, id) => {
  await t.rest('POST', `/boards/${id}/share`, { key });
  return {};
})));
