import { declare, global, owned, type Owner } from './registry.js';

// A brand's changes: a brandtracker's are read through workspace A's link (B naming it gets what a missing id gets);
// an advertiser's and a shop's are market data, the same for every workspace.

const tracked = async ({ t, key }: Owner) => {
  const made = (await t.rest('POST', '/brandtrackers', { key, body: { facebookPageId: '1000000000000001' } })).body.data as { id: string };
  return { args: { brandtrackerId: made.id }, secrets: [], readBack: async () => (await t.rest('GET', `/brandtrackers/${made.id}`, { key })).body.data };
};

declare('GET /brandtrackers/:brandtrackerId/changes', owned(tracked));
declare('GET /advertisers/:advertiserId/changes', global('advertiserId is a market Facebook page', { advertiserId: '1000000000000001' }));
declare('GET /shops/:shopId/changes', global('shopId is a market shop', { shopId: '5a0e0000-0000-4000-8000-000000000001' }));
