import { builder } from '../builder.js';
import { productFacets, type FacetValue, type Facets } from './service/facets.js';

// GET /v1/products/facets: the products query's filter values with their product counts (service/facets.ts).

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
    resolve: (_root, _args, context) => productFacets(context),
  }),
}));
