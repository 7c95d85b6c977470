import { declare, owned, type Owner } from './registry.js';

// Brandtrackers: the link of a tracked brand and the folders are workspace A's; B naming them gets what a
// missing id gets, and A's link and folder are unchanged.

async function folder({ t, key }: Owner) {
  const res = await t.rest('POST', '/brandtrackers/folders', { key, body: { name: `Secret folder ${Math.random().toString(36).slice(2, 8)}` } });
  return res.body.data as { id: number; name: string };
}

async function tracked({ t, key }: Owner) {
  const res = await t.rest('POST', '/brandtrackers', { key, body: { facebookPageId: '1000000000000001' } });
  return res.body.data as { id: string; workspaceLinkId: number };
}

const readFolder = (owner: Owner, id: number) => async () =>
  (await owner.t.rest('GET', `/brandtrackers/folders/${id}/brandtrackers`, { key: owner.key })).body.data;
const readTracked = (owner: Owner, id: string) => async () => (await owner.t.rest('GET', `/brandtrackers/${id}`, { key: owner.key })).body.data;

const byFolder = (name: 'folderId' | 'folderIds') => async (owner: Owner) => {
  const made = await folder(owner);
  return { args: { [name]: name === 'folderIds' ? [made.id] : made.id }, secrets: [made.name], readBack: readFolder(owner, made.id) };
};
const byBrandtracker = (name: 'brandtrackerId' | 'brandtrackerIds' | 'workspaceLinkIds') => async (owner: Owner) => {
  const made = await tracked(owner);
  const value = name === 'brandtrackerId' ? made.id : name === 'brandtrackerIds' ? [made.id] : [made.workspaceLinkId];
  return { args: { [name]: value }, secrets: [], readBack: readTracked(owner, made.id) };
};

declare('GET /brandtrackers', owned(byFolder('folderIds')));
declare('POST /brandtrackers', owned(byFolder('folderId'), { facebookPageId: '1000000000000002' }));
declare('PATCH /brandtrackers/folders/:folderId', owned(byFolder('folderId'), { name: 'Renamed by B' }));
declare('DELETE /brandtrackers/folders/:folderId', owned(byFolder('folderId'), { action: 'move-to-default', confirm: true }));
declare('GET /brandtrackers/folders/:folderId/brandtrackers', owned(byFolder('folderId')));
declare('PATCH /brandtrackers/workspace-links', owned(byBrandtracker('workspaceLinkIds')));
declare('DELETE /brandtrackers/workspace-links', owned(byBrandtracker('brandtrackerIds'), { confirm: true }));
declare('GET /brandtrackers/:brandtrackerId', owned(byBrandtracker('brandtrackerId')));
declare('PATCH /brandtrackers/:brandtrackerId', owned(byBrandtracker('brandtrackerId'), { name: 'Renamed by B' }));
declare('DELETE /brandtrackers/:brandtrackerId', owned(byBrandtracker('brandtrackerId')));
declare('GET /brandtrackers/:brandtrackerId/snapshots', owned(byBrandtracker('brandtrackerId')));
const ANALYTICS = [
  'media-mix', 'ads', 'partnership-ads', 'partnership-ads/count', 'hooks', 'transcripts', 'headlines', 'ad-copies',
  'time-series', 'ad-copy-evolution', 'headline-evolution', 'landing-page-evolution', 'timeline', 'timeline/metadata',
  'testing', 'overview', 'landing-pages', 'top-ads',
  'scaling-ads', 'ad-rank', 'landing-pages/simple', 'creatives', 'partners', 'demography',
] as const;
for (const path of ANALYTICS) declare(`GET /brandtrackers/:brandtrackerId/${path}`, owned(byBrandtracker('brandtrackerId')));
for (const path of ['top-ads', 'hooks', 'ad-copies', 'landing-pages', 'scaling-ads', 'media-mix'] as const) {
  declare(`GET /workspace/${path}`, owned(byBrandtracker('brandtrackerIds')));
}
