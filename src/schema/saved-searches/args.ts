import { z } from 'zod';
import { builder } from '../builder.js';

// The bounds of saved-search input: a name of 1 to 200 characters, the route as an integrator calls it, its
// arguments as one JSON object of at most 16 KB (what the route itself accepts is checked by running it: lists.ts).

export const savedSearchId = z.guid({ message: '{name} must be a UUID' });
export const savedSearchName = z.string().trim().min(1).max(200);
export const savedSearchPath = z.string().min(1).max(200);

/** Most characters of a saved search's params, as JSON. */
export const MAX_PARAMS_CHARS = 16_384;

export const savedSearchParams = z
  .custom<Record<string, unknown>>((value) => value !== null && typeof value === 'object' && !Array.isArray(value), { message: '{name} must be a JSON object' })
  .refine((value) => JSON.stringify(value).length <= MAX_PARAMS_CHARS, { message: `{name} must be at most ${MAX_PARAMS_CHARS.toLocaleString('en')} characters of JSON` });

export const SavedSearchMethodEnum = builder.enumType('SavedSearchMethod', {
  description: 'The method of the list route a saved search runs.',
  values: ['GET', 'POST'] as const,
});

export type SavedSearchMethod = 'GET' | 'POST';

/** Limits of the saved-search list. */
export const LIST_LIMITS = { defaultLimit: 25, maxLimit: 100 } as const;
