import type { Queryable } from './bulk.js';

/**
 * Tells the triggers of the shops' link tables (shop_apps, shop_pixels, shop_technologies; migration 0022), for this
 * transaction, that a market load is under way: they then leave the shops' arrays alone, because a market load
 * writes each shop's arrays with its row (src/data/market/tables.ts). Outside a load the triggers copy the link
 * tables into the arrays after each statement (`refresh_shop_link_arrays`).
 */
export async function marketLoad(client: Queryable): Promise<void> {
  await client.query(`SELECT set_config('mi.market_load', 'on', true)`);
}
