import type { Queryable } from './bulk.js';

/**
 * Copies the shops' link tables (shop_apps, shop_pixels, shop_technologies) into their arrays on the shops row
 * (migration 0022), for the given shops or every shop. Triggers do it after each statement on a link table, except
 * inside a market load (`marketLoad`), which calls this once when its rows are in.
 */
export async function refreshShopLinkArrays(client: Queryable, shopIds?: string[]): Promise<void> {
  await client.query('SELECT "refresh_shop_link_arrays"($1::uuid[])', [shopIds ?? null]);
}

/** Tells the link tables' triggers of this transaction that a market load refreshes the arrays itself. */
export async function marketLoad(client: Queryable): Promise<void> {
  await client.query(`SELECT set_config('mi.market_load', 'on', true)`);
}
