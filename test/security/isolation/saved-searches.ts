import { declare, owned, type Owner } from './registry.js';

// Saved searches: every route names a saved search of workspace A; B gets what a missing id gets, and A's search (its
// params, its name and the rows it holds) is unchanged.

let made = 0;

const madeSearch = async ({ t, key }: Owner) => {
  const name = `Secret radar ${process.pid}x${++made}x${Math.random().toString(36).slice(2, 8)}`;
  const res = await t.rest('POST', '/saved-searches', { key, body: { name, method: 'GET', path: '/v1/ads', params: { search: name.split(' ').at(-1) } } });
  if (res.status !== 201) throw new Error(`saved search not made: ${JSON.stringify(res.body)}`);
  const search = res.body.data as { id: string; name: string };
  return {
    args: { savedSearchId: search.id },
    secrets: [search.id, search.name],
    readBack: async () => (await t.rest('GET', `/saved-searches/${search.id}`, { key })).body.data,
  };
};

declare('GET /saved-searches/:savedSearchId', owned(madeSearch));
declare('PATCH /saved-searches/:savedSearchId', owned(madeSearch, { name: 'Changed by B', notifyLeft: true, params: { search: 'taken' } }));
declare('DELETE /saved-searches/:savedSearchId', owned(madeSearch));
