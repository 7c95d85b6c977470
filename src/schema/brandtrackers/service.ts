// The brandtrackers domain's public face and the index of its SQL (service/): what its declarations (queries.ts,
// mutations.ts, folder-mutations.ts, links.ts, snapshots.ts, quota.ts, detail.ts, types.ts) and the other domains call.
//   service/links.ts            the workspace's links: the list's page with its figures, one link, a folder's links
//   service/market-figures.ts   a tracked brand's market figures (active ads, new ads, traffic), in SQL beside the rows
//   service/detail.ts           one brandtracker's page profile and ad statistics
//   service/tracking.ts         create (or reactivate), rename and delete a workspace link
//   service/targets.ts          what POST /v1/brandtrackers tracks: the global brandtracker of a page or a website
//   service/workspace-links.ts  the bulk move and delete of links
//   service/folders.ts          the folders, listed and written
//   service/quota.ts            the plan's quotas: their state, the lock and taking an operation
//   service/snapshots.ts        the readiness of a brandtracker's daily data

export { brandtrackerList, folderBrandtrackers } from './service/links.js';
export { figuresOf, type BrandtrackerFigures } from './service/market-figures.js';
export { brandtrackerDetail, extrasOf, type PageProfile, type Statistics } from './service/detail.js';
export { brandtrackerCreate, brandtrackerDelete, brandtrackerUpdate } from './service/tracking.js';
export { workspaceLinksDelete, workspaceLinksMove, type LinksResult } from './service/workspace-links.js';
export { folderCreate, folderDelete, folderRename, listFolders, type FolderRow } from './service/folders.js';
export { quotaState, type QuotaState } from './service/quota.js';
export { brandtrackerSnapshots, type Snapshot, type Snapshots } from './service/snapshots.js';
