import { declare, owned } from './registry.js';

// The feed: `brandtrackerId` names one of workspace A's brandtrackers; B naming it gets what a missing id gets (404),
// and A's brandtracker is unchanged.

declare('GET /events', owned(async ({ t, key }) => {
  const made = (await t.rest('POST', '/brandtrackers', { key, body: { facebookPageId: '1000000000000001' } })).body.data as { id: string };
  return {
    args: { brandtrackerId: made.id },
    secrets: [],
    readBack: async () => (await t.rest('GET', `/brandtrackers/${made.id}`, { key })).body.data,
  };
}));
