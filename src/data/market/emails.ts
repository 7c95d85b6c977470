import type { Rng } from '../random.js';
import type { ShopSeed } from './advertisers.js';
import type { TableRows } from './define.js';
import type { Window } from './time.js';

// Marketing emails of the shops with their classification. OWNED BY: emails work (scaffold).

/** `first`: the first email slice also carries the classification tables. */
export type EmailSlice = { kind: 'emails'; first: boolean; shops: ShopSeed[] };

export type EmailsPlan = {
  /** Emails per shop, in shop order. */
  emailCounts: number[];
  shopsBetween(start: number, end: number): Omit<EmailSlice, 'kind'>;
};

export function startEmails(_rng: Rng, shops: ShopSeed[], _total: number, _window: Window): EmailsPlan {
  return { emailCounts: shops.map(() => 0), shopsBetween: (start, end) => ({ first: start === 0, shops: shops.slice(start, end) }) };
}

export function emailTables(_slice: EmailSlice): TableRows[] {
  return [];
}
