import type { Queryable } from './bulk.js';

/** Per facet table: its key and the query counting the shops that use each key. */
const USAGE: readonly { table: string; key: string; counts: string }[] = [
  { table: 'shopify_apps', key: 'id', counts: `SELECT "appId" AS key, count(*)::int AS n FROM shop_apps GROUP BY 1` },
  { table: 'technologies', key: 'id', counts: `SELECT "technologyId" AS key, count(*)::int AS n FROM shop_technologies GROUP BY 1` },
  { table: 'pixels', key: 'id', counts: `SELECT "pixelId" AS key, count(*)::int AS n FROM shop_pixels GROUP BY 1` },
  { table: 'themes', key: 'id', counts: `SELECT "themeId" AS key, count(*)::int AS n FROM shops WHERE "themeId" IS NOT NULL GROUP BY 1` },
  // A shop counts once for each id of its categoryIds (a parent counts only the shops tagged with it).
  { table: 'categories', key: 'id', counts: `SELECT u.category AS key, count(*)::int AS n FROM shops s, unnest(s."categoryIds") AS u(category) GROUP BY 1` },
];

/**
 * Recounts the facets' `usageCount` (shops using each Shopify app, technology, pixel, theme and category) from
 * the shop tables; rows whose count is unchanged are not written. Run after a market load and after an import
 * that adds shops.
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
