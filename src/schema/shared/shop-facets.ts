import { Prisma } from '../../generated/prisma/client.js';

// A shop's facet values as conditions on the shops row `shop` (an alias such as s): its categories, and the Shopify
// apps, pixels and technologies it uses. The link tables (shop_apps, shop_pixels, shop_technologies) are copied
// into arrays on the shop by triggers (migration 0022), so each condition is a GIN index scan and any combination
// of them a BitmapAnd: the shops list and its total, and the ads, emails and products filtered by their shop.

const sql = Prisma.sql;
/** The alias of the shops row in the caller's statement: a constant of the code, never input. */
type ShopAlias = 's';
const column = (shop: ShopAlias, name: string) => Prisma.raw(`${shop}."${name}"`);

export const shopInCategories = (shop: ShopAlias, ids: number[]) => sql`${column(shop, 'categoryIds')} && ${ids}::int[]`;
export const shopUsesApps = (shop: ShopAlias, ids: number[]) => sql`${column(shop, 'appIds')} && ${ids}::int[]`;
export const shopUsesPixels = (shop: ShopAlias, ids: string[]) => sql`${column(shop, 'pixelIds')} && ${ids}::uuid[]`;

/** Technologies are named by slug: the ids are read once from the small technologies table. */
export const shopUsesTechnologies = (shop: ShopAlias, slugs: string[]) =>
  sql`${column(shop, 'technologyIds')} && ARRAY(SELECT g."id" FROM "technologies" g WHERE g."slug" = ANY(${slugs}::text[]))`;
