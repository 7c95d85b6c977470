import type { Queryable } from './bulk.js';

/** Per facet table: its key and the query counting the shops that use each key. */
const USAGE: readonly { table: string; key: string; counts: string }[] = [
  { table: 'shopify_apps', key: 'id', counts: `SELECT "appId" AS key, count(*)::int AS n FROM shop_apps GROUP BY 1` },
  { table: 'technologies', key: 'id', counts: `SELECT "technologyId" AS key, count(*)::int AS n FROM shop_technologies GROUP BY 1` },
  { table: 'pixels', key: 'id', counts: `SELECT "pixelId" AS key, count(*)::int AS n FROM shop_pixels GROUP BY 1` },
  { table: 'themes', key: 'id', counts: `SELECT "themeId" AS key, count(*)::int AS n FROM shops WHERE "themeId" IS NOT NULL GROUP BY 1` },
];

/**
 * Recounts the facets' `usageCount` (shops using each Shopify app, technology, pixel and theme) from the shop
 * tables; rows whose count is unchanged are not written. Run after a market load and after an import that adds
 * shops. Categories have no stored count: `CATEGORY_USAGE` counts them when listed.
 */
export async function refreshFacetUsage(client: Queryable): Promise<void> {
  for (const { table, key, counts } of USAGE) {
    await client.query(
      `UPDATE "${table}" AS f SET "usageCount" = coalesce(c.n, 0)
         FROM "${table}" AS t LEFT JOIN (${counts}) AS c ON c.key = t."${key}"
        WHERE f."${key}" = t."${key}" AND f."usageCount" IS DISTINCT FROM coalesce(c.n, 0)`,
    );
  }
}

/** Shops per category id (a shop counts once for each id of its `categoryIds`): `SELECT id, "usageCount"`. */
export const CATEGORY_USAGE = `SELECT id, count(*)::int AS "usageCount" FROM shops, unnest("categoryIds") AS id GROUP BY id`;
