import { builder } from '../builder.js';
import { countryName } from '../shared/codes.js';

// The values of the currency, shop-origin and visitor-country filters of the products query, with how many
// products each would match (from the shops' catalogue sizes, so the answer reads shops, not every product).

type FacetValue = { value: string; label: string; productsCount: number };
type Facets = { currencies: FacetValue[]; shopCountries: FacetValue[]; shopVisitorCountries: FacetValue[] };

const currencyNames = new Intl.DisplayNames(['en'], { type: 'currency', fallback: 'code' });

const ProductFacetValue = builder.objectRef<FacetValue>('ProductFacetValue').implement({
  fields: (t) => ({
    value: t.exposeString('value', { description: 'The code to send in the filter.' }),
    label: t.exposeString('label', { description: 'Its English name.' }),
    productsCount: t.exposeInt('productsCount', { description: 'Products of the shops with this value.' }),
  }),
});

const ProductFacets = builder.objectRef<Facets>('ProductFacets').implement({
  fields: (t) => ({
    currencies: t.field({ type: [ProductFacetValue], description: 'Values of `currencies[]` (ISO 4217).', resolve: (f) => f.currencies }),
    shopCountries: t.field({ type: [ProductFacetValue], description: 'Values of `shopCountries[]`: where shops are based.', resolve: (f) => f.shopCountries }),
    shopVisitorCountries: t.field({ type: [ProductFacetValue], description: "Values of `shopVisitorCountries[]`: shops' visitor countries.", resolve: (f) => f.shopVisitorCountries }),
  }),
});

builder.queryFields((t) => ({
  productFacets: t.field({
    type: ProductFacets,
    nullable: true,
    authScopes: { workspace: true },
    description: 'Filter values of the products query with product counts, most products first (GET /v1/products/facets). Free.',
    resolve: async (_root, _args, context) => {
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
    },
  }),
}));
