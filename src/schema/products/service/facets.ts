import type { Context } from '../../../context.js';
import { countryName } from '../../shared/codes.js';

// GET /v1/products/facets: the values of the currency, shop-origin and visitor-country filters of the products
// query, with how many products each would match (from the shops' catalogue sizes, so the answer reads shops, not
// every product).

export type FacetValue = { value: string; label: string; productsCount: number };
export type Facets = { currencies: FacetValue[]; shopCountries: FacetValue[]; shopVisitorCountries: FacetValue[] };

const currencyNames = new Intl.DisplayNames(['en'], { type: 'currency', fallback: 'code' });

/** Each filter's values with their product counts, most products first. */
export async function productFacets(context: Pick<Context, 'prisma'>): Promise<Facets> {
  const rows = await context.prisma.$queryRaw<{ kind: keyof Facets; value: string; products: number }[]>`
        SELECT 'currencies' AS kind, "currency" AS value, sum("productsCount")::int AS products FROM "shops" WHERE "currency" IS NOT NULL GROUP BY 2
        UNION ALL
        SELECT 'shopCountries', "countryCode", sum("productsCount")::int FROM "shops" WHERE "countryCode" IS NOT NULL GROUP BY 2
        UNION ALL
        SELECT 'shopVisitorCountries', c."countryCode", sum(s."productsCount")::int
        FROM "shop_traffic_countries" c JOIN "shops" s ON s."id" = c."shopId" GROUP BY 2`;
  const facets: Facets = { currencies: [], shopCountries: [], shopVisitorCountries: [] };
  for (const row of rows) {
    if (row.products <= 0) continue;
    const label = row.kind === 'currencies' ? currencyNames.of(row.value) ?? row.value : countryName(row.value);
    facets[row.kind].push({ value: row.value, label, productsCount: row.products });
  }
  for (const list of Object.values(facets)) list.sort((a, b) => b.productsCount - a.productsCount || (a.value < b.value ? -1 : 1));
  return facets;
}
