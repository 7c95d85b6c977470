import { z } from 'zod';

// The bounds of board input, the specification's: names up to 120 characters, descriptions up to 2000, ids of
// A-Z a-z 0-9 _ - up to 128.

export const BOARD_ID = /^[A-Za-z0-9_-]{1,128}$/;

export const boardId = z.string().regex(BOARD_ID, { message: '{name} must be 1 to 128 characters of A-Z a-z 0-9 _ -' });
export const boardName = z.string().trim().min(1).max(120);
export const boardDescription = z.string().max(2000);
export const uuid = z.guid({ message: '{name} must be a UUID' });

/** Limits of every board and favorites list. */
export const LIST_LIMITS = { defaultLimit: 25, maxLimit: 100 } as const;
