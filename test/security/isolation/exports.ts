import { declare, owned, type Owner } from './registry.js';

// Exports: every route names an export of workspace A (queued: no job runs in the matrix); B gets what a missing id
// gets, and A's export (its path, params and state) is unchanged.

let made = 0;

const madeExport = async ({ t, key }: Owner) => {
  const secret = `secret-${process.pid}x${++made}x${Math.random().toString(36).slice(2, 8)}`;
  const res = await t.rest('POST', '/exports', { key, body: { method: 'GET', path: '/v1/shops', params: { search: secret }, format: 'csv' } });
  if (res.status !== 201) throw new Error(`export not made: ${JSON.stringify(res.body)}`);
  const created = res.body.data as { id: string };
  return {
    args: { exportId: created.id },
    secrets: [created.id, secret],
    readBack: async () => (await t.rest('GET', `/exports/${created.id}`, { key })).body.data,
  };
};

declare('GET /exports/:exportId', owned(madeExport));
declare('DELETE /exports/:exportId', owned(madeExport));
