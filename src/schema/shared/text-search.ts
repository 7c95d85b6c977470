import { z } from 'zod';
import { Prisma } from '../../generated/prisma/client.js';
import type { KeywordModeValue } from './enums.js';

/** A text search: a web-search string (GET lists), or terms combined by `keywordMode` (POST queries). */
export type TextSearch = { websearch?: string; terms?: string[]; keywordMode?: KeywordModeValue | null };

/** The search as a `tsquery` on the 'simple' configuration, parenthesised (the search columns are built with it). */
export function tsQuery(search: TextSearch): Prisma.Sql {
  if (search.websearch !== undefined) return Prisma.sql`websearch_to_tsquery('simple', ${search.websearch})`;
  const parts = (search.terms ?? []).map((term) => Prisma.sql`plainto_tsquery('simple', ${term})`);
  return Prisma.sql`(${Prisma.join(parts, search.keywordMode === 'all' ? ' && ' : ' || ')})`;
}

/** Search terms as sent, trimmed, blanks dropped. */
export function termsOf(list: readonly string[] | null | undefined): string[] {
  return (list ?? []).map((term) => term.trim()).filter(Boolean);
}

/** Up to `max` search terms of at most 500 characters. */
export const searchTerms = (max: number) => z.array(z.string().max(500)).max(max);
