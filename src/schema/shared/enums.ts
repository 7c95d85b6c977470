import { builder } from '../builder.js';

// Enums every list shares.

export const SortOrder = builder.enumType('SortOrder', { values: ['asc', 'desc'] as const });
export const KeywordMode = builder.enumType('KeywordMode', { values: ['any', 'all'] as const });

export type SortOrderValue = typeof SortOrder.$inferType;
export type KeywordModeValue = typeof KeywordMode.$inferType;
