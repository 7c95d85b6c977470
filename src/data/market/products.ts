import type { Rng } from '../random.js';
import type { ShopSeed } from './advertisers.js';
import type { TableRows } from './define.js';
import type { Window } from './time.js';

// Products of the shops with variants, images and weekly history. OWNED BY: products work (scaffold).

/**
 * Fields of a shop set by startProducts. `currency` is the storefront currency (ISO 4217) every price of the
 * shop is in; `monthlyRevenueUsd` and `monthlyUnitsSold` are the sums over its products (the latest sales reading
 * of the shop equals them); `bestSellerPriceUsd` is the price of its best-selling product (null without products).
 */
export type ShopCatalogSeed = {
  currency: string;
  productsCount: number;
  monthlyRevenueUsd: number;
  monthlyUnitsSold: number;
  bestSellerPriceUsd: number | null;
};

export type ProductSlice = { kind: 'products'; shops: ShopSeed[] };

export type ProductsPlan = {
  /** Products per shop, in shop order (each shop's `productsCount`). */
  productCounts: number[];
  /** The products of shops `start`..`end - 1`; call on consecutive runs from 0. */
  shopsBetween(start: number, end: number): Omit<ProductSlice, 'kind'>;
};

/** Draws each shop's catalogue size and figures up front (about `total` products in all). */
export function startProducts(_rng: Rng, shops: ShopSeed[], _total: number, _window: Window): ProductsPlan {
  return { productCounts: shops.map(() => 0), shopsBetween: (start, end) => ({ shops: shops.slice(start, end) }) };
}

export function productTables(_slice: ProductSlice): TableRows[] {
  return [];
}
