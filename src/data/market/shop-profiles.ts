import type { Rng } from '../random.js';
import type { AdvertiserSeed, LinkSeed, ShopSeed } from './advertisers.js';
import type { TableRows } from './define.js';
import type { Window } from './time.js';

// Shop profiles (storefront, Trustpilot, socials, technology) and the facets they use (Shopify apps,
// technologies, pixels, themes); the shops' traffic months and countries; their daily social followers and
// sales readings (the shop-history slices). OWNED BY: shop-profiles work (scaffold).

/** Fields of a shop set by describeShopProfiles. */
export type ShopProfileSeed = Record<string, never>;

/** Draws every shop's profile, technology and traffic breakdown; call after describeShops and startProducts. */
export function describeShopProfiles(_rng: Rng, _shops: ShopSeed[], _links: LinkSeed[], _advertisers: AdvertiserSeed[], _window: Window): void {}

export type ShopHistorySlice = { kind: 'shop-history'; shops: ShopSeed[] };

export type ShopHistoryPlan = {
  /** History rows (socials days + sales readings) per shop, in shop order: the slicing weights. */
  rowCounts: number[];
  /** The history of shops `start`..`end - 1`; call on consecutive runs from 0. */
  shopsBetween(start: number, end: number): Omit<ShopHistorySlice, 'kind'>;
};

export function startShopHistory(_rng: Rng, shops: ShopSeed[], _window: Window): ShopHistoryPlan {
  return { rowCounts: shops.map(() => 0), shopsBetween: (start, end) => ({ shops: shops.slice(start, end) }) };
}

/** The facet catalogues (themes, Shopify apps, technologies, pixels), inserted once before the shops. */
export function facetTables(): TableRows[] {
  return [];
}

/** The rows that hang off each shop and are drawn up front (apps, technologies, pixels, traffic months and countries). */
export function shopProfileTables(_shops: ShopSeed[]): TableRows[] {
  return [];
}

export function shopHistoryTables(_slice: ShopHistorySlice): TableRows[] {
  return [];
}
