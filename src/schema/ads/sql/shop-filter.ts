import { Prisma } from '../../../generated/prisma/client.js';
import { range, type Range } from '../../shared/ranges.js';
import type { CountryFilter } from '../../shared/countries.js';
import { growthMatch, shopTrafficGrowth, type GrowthFilter } from '../../shared/growth-filter.js';
import { shopInCategories, shopUsesApps, shopUsesPixels, shopUsesTechnologies } from '../../shared/shop-facets.js';

// Filters on the advertiser's primary shop: its traffic, catalogue size, and the facet values it carries
// (categories, theme, pixels, Shopify apps, technologies; GET /v1/facets/*), where it is based, its storefront
// (language, currency, Shopify Plus), Trustpilot figures, best seller's price and traffic growth. An exclusion keeps ads whose advertiser has no
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
  /** Technology slugs: the shop uses one of them. */
  technologies?: string[] | null;
  /** The country the shop is based in (`countryCode`). */
  country?: CountryFilter | null;
  languages?: string[] | null;
  currencies?: string[] | null;
  shopifyPlus?: boolean | null;
  trustpilotRating?: Range<number>;
  trustpilotReviews?: Range<number>;
  bestSellerPrice?: Range<number>;
  /** Its monthly visits' growth (`trafficGrowth`). */
  trafficGrowth?: GrowthFilter | null;
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
  if (shop.technologies?.length) required.push(shopUsesTechnologies('s', shop.technologies));
  if (shop.country?.include?.length) required.push(sql`s."countryCode" = ANY(${shop.country.include}::text[])`);
  if (shop.languages?.length) required.push(sql`s."defaultLanguage" = ANY(${shop.languages}::text[])`);
  if (shop.currencies?.length) required.push(sql`s."currency" = ANY(${shop.currencies}::text[])`);
  if (shop.shopifyPlus != null) required.push(sql`s."isShopifyPlus" = ${shop.shopifyPlus}`);
  range(sql`s."trustpilotRating"`, shop.trustpilotRating, required);
  range(sql`s."trustpilotReviews"`, shop.trustpilotReviews, required);
  range(sql`s."bestSellerPriceUsd"`, shop.bestSellerPrice, required);
  const traffic = growthMatch(shop.trafficGrowth, shopTrafficGrowth, true);
  if (traffic) required.push(traffic);
  const excluded: Prisma.Sql[] = [];
  if (shop.excludePixels?.length) excluded.push(shopUsesPixels('s', shop.excludePixels));
  if (shop.excludeShopifyApps?.length) excluded.push(shopUsesApps('s', shop.excludeShopifyApps));
  if (shop.country?.exclude?.length) excluded.push(sql`s."countryCode" = ANY(${shop.country.exclude}::text[])`);
  const out: Prisma.Sql[] = [];
  if (required.length) out.push(primaryShopOf(required));
  if (excluded.length) out.push(sql`NOT ${primaryShopOf([sql`(${Prisma.join(excluded, ' OR ')})`])}`);
  return out;
}
