import type { ObjectRef } from '@pothos/core';
import { Prisma } from '../../generated/prisma/client.js';
import { builder } from '../builder.js';
import { facetArgs, facetPage, type FacetQuery } from '../shared/facets.js';
import {
  CategoryFacetRef, facetListRef, PixelFacetRef, ShopifyAppFacetRef, TechnologyFacetRef, ThemeFacetRef,
  type FacetMeta, type FilterUsage,
} from './types.js';

// GET /v1/facets/*: the values the market's filters take, most used first. Usage counts are the shops using each
// value, stored with the value and recounted after every market load or import (src/data/facet-usage.ts).

const sql = Prisma.sql;
const byId = (...resources: [FilterUsage['resource'], string[]][]): FilterUsage[] => resources.map(([resource, fields]) => ({ resource, fields, valueField: 'id' }));

type Facet<T> = { path: string; list: string; item: ObjectRef<typeof builder.$inferSchemaTypes, T>; query: FacetQuery; meta: FacetMeta; description: string };

const facet = <T>(definition: Facet<T>) => definition;

const categoryFacets = facet({
  list: 'CategoryFacetList',
  path: 'categories',
  item: CategoryFacetRef,
  description: 'Google product taxonomy categories; `search` matches the name or the path.',
  query: {
    select: sql`c."id", c."name", c."path", c."parentId", c."usageCount"`,
    from: sql`FROM "categories" c`,
    labels: [sql`c."name"`, sql`c."path"`],
    order: [{ key: sql`c."usageCount"`, direction: 'DESC' }, { key: sql`c."id"`, direction: 'ASC' }],
  },
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
  query: {
    select: sql`p."id", p."label", p."iconUrl", p."shopifyUrl", p."usageCount"`,
    from: sql`FROM "shopify_apps" p`,
    labels: [sql`p."label"`, sql`p."slug"`],
    order: [{ key: sql`p."usageCount"`, direction: 'DESC' }, { key: sql`p."id"`, direction: 'ASC' }],
  },
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
  query: {
    select: sql`te."slug", te."id"::text AS id, te."name", te."iconUrl", te."categories", te."usageCount"`,
    from: sql`FROM "technologies" te`,
    labels: [sql`te."name"`, sql`te."slug"`],
    order: [{ key: sql`te."usageCount"`, direction: 'DESC' }, { key: sql`te."slug"`, direction: 'ASC' }],
  },
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
  query: {
    select: sql`x."id"::text AS id, x."slug", x."name", x."iconUrl", x."categories", x."usageCount"`,
    from: sql`FROM "pixels" x`,
    labels: [sql`x."name"`, sql`x."slug"`],
    order: [{ key: sql`x."usageCount"`, direction: 'DESC' }, { key: sql`x."slug"`, direction: 'ASC' }],
  },
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
  query: {
    select: sql`h."id"::text AS id, h."name", h."usageCount"`,
    from: sql`FROM "themes" h`,
    labels: [sql`h."name"`],
    order: [{ key: sql`h."usageCount"`, direction: 'DESC' }, { key: sql`h."name"`, direction: 'ASC' }],
  },
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
    resolve: async (_root, args, context) => ({ ...(await facetPage<T>(context.prisma, definition.query, args)), meta: definition.meta }),
  });
}

builder.queryFields((t) => ({
  categoryFacets: facetField(t, categoryFacets),
  shopifyAppFacets: facetField(t, shopifyAppFacets),
  technologyFacets: facetField(t, technologyFacets),
  pixelFacets: facetField(t, pixelFacets),
  themeFacets: facetField(t, themeFacets),
}));
