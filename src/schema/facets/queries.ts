import type { ObjectRef } from '@pothos/core';
import { builder } from '../builder.js';
import { facetArgs } from '../shared/facets.js';
import { facetValues, type FacetPath } from './service.js';
import {
  CategoryFacetRef, facetListRef, PixelFacetRef, ShopifyAppFacetRef, TechnologyFacetRef, ThemeFacetRef,
  type FacetMeta, type FilterUsage,
} from './types.js';

// GET /v1/facets/*: the values the market's filters take, most used first. Usage counts are the shops using each
// value, stored with the value and recounted after every market load or import (src/data/facet-usage.ts).

const byId = (...resources: [FilterUsage['resource'], string[]][]): FilterUsage[] => resources.map(([resource, fields]) => ({ resource, fields, valueField: 'id' }));

type Facet<T> = { path: FacetPath; list: string; item: ObjectRef<typeof builder.$inferSchemaTypes, T>; meta: FacetMeta; description: string };

const facet = <T>(definition: Facet<T>) => definition;

const categoryFacets = facet({
  list: 'CategoryFacetList',
  path: 'categories',
  item: CategoryFacetRef,
  description: 'Google product taxonomy categories; `search` matches the name or the path.',
  meta: {
    valueType: 'number',
    filterUsage: byId(['shops', ['categoryIds']], ['ads', ['categoryIds']], ['emails', ['categoryIds']], ['advertisers', ['categoryIds', 'pageNiches']]),
  },
});

const shopifyAppFacets = facet({
  list: 'ShopifyAppFacetList',
  path: 'shopify-apps',
  item: ShopifyAppFacetRef,
  description: 'Shopify apps by their grouped id; `search` matches the label or the slug.',
  meta: {
    valueType: 'number',
    filterUsage: byId(['shops', ['shopifyAppIds', 'excludeShopifyAppIds']], ['ads', ['shopifyApps', 'excludeShopifyApps']]),
  },
});

const technologyFacets = facet({
  list: 'TechnologyFacetList',
  path: 'technologies',
  item: TechnologyFacetRef,
  description: 'Web technologies by slug; `search` matches the name or the slug.',
  meta: {
    valueType: 'slug',
    filterUsage: [{ resource: 'emails', fields: ['technologies'], valueField: 'slug' }, { resource: 'advertisers', fields: ['technologies'], valueField: 'slug' }],
  },
});

const pixelFacets = facet({
  list: 'PixelFacetList',
  path: 'pixels',
  item: PixelFacetRef,
  description: 'Tracking pixels by id (UUID); `search` matches the name or the slug.',
  meta: {
    valueType: 'uuid',
    filterUsage: byId(['shops', ['pixelIds', 'excludePixelIds']], ['ads', ['pixels', 'excludePixels']]),
  },
});

const themeFacets = facet({
  list: 'ThemeFacetList',
  path: 'themes',
  item: ThemeFacetRef,
  description: 'Shopify themes by id (UUID); `search` matches the name.',
  meta: {
    valueType: 'uuid',
    filterUsage: byId(['shops', ['themeIds']], ['ads', ['themes']]),
  },
});

function facetField<T>(t: PothosSchemaTypes.QueryFieldBuilder<typeof builder.$inferSchemaTypes, object>, definition: Facet<T>) {
  return t.field({
    type: facetListRef(definition.list, definition.item),
    nullable: true,
    authScopes: { workspace: true },
    description: `${definition.description} Most used first (GET /v1/facets/${definition.path}).`,
    args: facetArgs(),
    resolve: async (_root, args, context) => ({ ...(await facetValues<T>(context, definition.path, args)), meta: definition.meta }),
  });
}

builder.queryFields((t) => ({
  categoryFacets: facetField(t, categoryFacets),
  shopifyAppFacets: facetField(t, shopifyAppFacets),
  technologyFacets: facetField(t, technologyFacets),
  pixelFacets: facetField(t, pixelFacets),
  themeFacets: facetField(t, themeFacets),
}));
