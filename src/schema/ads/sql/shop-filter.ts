import { Prisma } from '../../../generated/prisma/client.js';
import { range, type Range } from '../../shared/ranges.js';
import { shopInCategories, shopUsesApps, shopUsesPixels } from '../../shared/shop-facets.js';

// Filters on the advertiser's primary shop: its traffic, catalogue size, and the facet values it carries
// (categories, theme, pixels, Shopify apps; GET /v1/facets/*). An exclusion keeps ads whose advertiser has no
// primary shop at all.

export type PrimaryShopFilter = {
  traffic?: Range<number>;
  products?: Range<number>;
  categoryIds?: number[] | null;
  themes?: string[] | null;
  pixels?: string[] | null;
  excludePixels?: string[] | null;
  shopifyApps?: number[] | null;
  excludeShopifyApps?: number[] | null;
};

const sql = Prisma.sql;
const primaryShopOf = (conditions: Prisma.Sql[]) => sql`EXISTS (SELECT 1 FROM "advertiser_shops" l JOIN "shops" s ON s."id" = l."shopId"
  WHERE l."advertiserId" = a."advertiserId" AND l."isPrimary" AND ${Prisma.join(conditions, ' AND ')})`;

export function primaryShopConditions(shop: PrimaryShopFilter | undefined): Prisma.Sql[] {
  if (!shop) return [];
  const required: Prisma.Sql[] = [];
  range(sql`s."monthlyVisits"`, shop.traffic, required);
  range(sql`s."productsCount"`, shop.products, required);
  if (shop.categoryIds?.length) required.push(shopInCategories('s', shop.categoryIds));
  if (shop.themes?.length) required.push(sql`s."themeId" = ANY(${shop.themes}::uuid[])`);
  if (shop.pixels?.length) required.push(shopUsesPixels('s', shop.pixels));
  if (shop.shopifyApps?.length) required.push(shopUsesApps('s', shop.shopifyApps));
  const excluded: Prisma.Sql[] = [];
  if (shop.excludePixels?.length) excluded.push(shopUsesPixels('s', shop.excludePixels));
  if (shop.excludeShopifyApps?.length) excluded.push(shopUsesApps('s', shop.excludeShopifyApps));
  const out: Prisma.Sql[] = [];
  if (required.length) out.push(primaryShopOf(required));
  if (excluded.length) out.push(sql`NOT ${primaryShopOf([sql`(${Prisma.join(excluded, ' OR ')})`])}`);
  return out;
}
