import { z } from 'zod';

// The ids of tracked brands as the API takes them, validated alike by the brandtrackers' own routes and by the
// analytics that read them (per brandtracker and across the workspace's brandtrackers).

/** A public brandtracker id: a uuid. */
export const brandtrackerId = z.guid({ message: '{name} must be a UUID' });
/** A Facebook page id, as a brandtracker is created by and tracks. */
export const facebookPageId = z.string().trim().min(1).max(128);
/** A brandtracker folder id. */
export const folderId = z.number().int().min(1).max(2_147_483_647);
