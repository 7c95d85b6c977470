import { z } from 'zod';
import { boardName, LIST_LIMITS, uuid } from '../boards/types.js';
import { pageRequest } from '../shared/list.js';

// The arguments of the favorites routes: board bounds (names, uuids, list limits) and the favorites' own ids.

export { LIST_LIMITS, uuid };

export const SCOPE_DESCRIPTION = 'workspace or personal. personal needs a delegated-user key (a full_access key gets 403).';

/** A composite ad id, e.g. facebook_123. */
export const adId = z.string().min(1).max(128);
/** A saved ad's number. */
export const favoriteId = z.number().int().min(1);
export const emailId = z.number().int().min(1);

export const folderName = boardName;

/** Validation of a reorder list: folder uuids with integer positions, at most 100 at once. */
export const folderOrders = z.array(z.object({ id: uuid, order: z.number().int().min(0) })).min(1).max(100);

/** The page a list asks for, with the board lists' default limit. */
export const pageOf = (args: { page?: number | null; limit?: number | null }) => pageRequest(args, LIST_LIMITS.defaultLimit);
