import type { Rng } from '../random.js';
import type { AdvertiserSeed, LinkSeed, ShopSeed } from './advertisers.js';
import type { TableRows } from './define.js';
import type { Window } from './time.js';

// The global brandtrackers (tracked brands) and their websites. OWNED BY: brandtrackers work (scaffold).

export type BrandtrackerSlice = { kind: 'brandtrackers' };

/** Draws the tracked brands up front; they are inserted after the ads (their pages' figures come from the ads). */
export function makeBrandtrackers(_rng: Rng, _advertisers: AdvertiserSeed[], _links: LinkSeed[], _shops: ShopSeed[], _window: Window): Omit<BrandtrackerSlice, 'kind'> & { count: number } {
  return { count: 0 };
}

export function brandtrackerTables(_slice: BrandtrackerSlice): TableRows[] {
  return [];
}
