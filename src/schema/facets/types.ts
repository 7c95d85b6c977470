import type { ObjectRef } from '@pothos/core';
import { builder } from '../builder.js';
import { listRef, type OffsetPagination } from '../shared/list.js';
import { resolveMediaUrl } from '../shared/media-url.js';

// The five facet lists share one envelope: the values, their pagination, and meta telling what kind of value
// they are and which filters of which resources accept them.

export type FilterUsage = { resource: 'shops' | 'ads' | 'emails' | 'advertisers'; fields: string[]; valueField: 'id' | 'slug' };
export type FacetMeta = { valueType: 'number' | 'uuid' | 'slug'; filterUsage: FilterUsage[] };

const FacetValueType = builder.enumType('FacetValueType', { values: ['number', 'uuid', 'slug'] as const });
const FacetResource = builder.enumType('FacetResource', { values: ['shops', 'ads', 'emails', 'advertisers'] as const });
const FacetValueField = builder.enumType('FacetValueField', { values: ['id', 'slug'] as const });

const FacetFilterUsage = builder.objectRef<FilterUsage>('FacetFilterUsage').implement({
  fields: (t) => ({
    resource: t.field({ type: FacetResource, resolve: (usage) => usage.resource }),
    fields: t.exposeStringList('fields', { description: 'The filters (query parameters or body fields) that take these values.' }),
    valueField: t.field({ type: FacetValueField, description: 'Which field of a value to send.', resolve: (usage) => usage.valueField }),
  }),
});

const FacetMetaRef = builder.objectRef<FacetMeta>('FacetMeta').implement({
  fields: (t) => ({
    valueType: t.field({ type: FacetValueType, resolve: (meta) => meta.valueType }),
    filterUsage: t.field({ type: [FacetFilterUsage], resolve: (meta) => meta.filterUsage }),
  }),
});

export type FacetList<T> = { data: T[]; pagination: OffsetPagination; meta: FacetMeta };

/** A facet list type `{ data[], pagination, meta }` of the given value type. */
export function facetListRef<T>(name: string, item: ObjectRef<typeof builder.$inferSchemaTypes, T>) {
  // Its meta is its own (FacetMeta), not a ListMeta: declared as an extra field.
  return listRef<T, FacetList<T>>(name, item, {
    style: 'offset',
    fields: (t) => ({ meta: t.field({ type: FacetMetaRef, resolve: (list) => list.meta }) }),
  });
}

export type CategoryFacet = { id: number; name: string; path: string; parentId: number | null; usageCount: number };
export type ShopifyAppFacet = { id: number; label: string; iconUrl: string | null; shopifyUrl: string | null; usageCount: number };
export type TechnologyFacet = { slug: string; id: string; name: string; iconUrl: string | null; categories: string[]; usageCount: number };
export type PixelFacet = { id: string; slug: string; name: string; iconUrl: string | null; categories: string[]; usageCount: number };
export type ThemeFacet = { id: string; name: string; usageCount: number };

const usage = 'Shops using it.';

export const CategoryFacetRef = builder.objectRef<CategoryFacet>('CategoryFacet').implement({
  fields: (t) => ({
    id: t.exposeInt('id', { description: 'Google product taxonomy id.' }),
    name: t.exposeString('name'),
    path: t.exposeString('path', { description: 'The names from the top level down, joined by " > ".' }),
    parentId: t.exposeInt('parentId', { nullable: true }),
    usageCount: t.exposeInt('usageCount', { description: 'Shops tagged with the category itself.' }),
  }),
});

export const ShopifyAppFacetRef = builder.objectRef<ShopifyAppFacet>('ShopifyAppFacet').implement({
  fields: (t) => ({
    id: t.exposeInt('id', { description: "The app's grouped id (all its listings)." }),
    label: t.exposeString('label'),
    iconUrl: t.string({ nullable: true, resolve: resolveMediaUrl((p) => p.iconUrl) }),
    shopifyUrl: t.exposeString('shopifyUrl', { nullable: true }),
    usageCount: t.exposeInt('usageCount', { description: usage }),
  }),
});

export const TechnologyFacetRef = builder.objectRef<TechnologyFacet>('TechnologyFacet').implement({
  fields: (t) => ({
    slug: t.exposeString('slug', { description: 'The value technology filters take.' }),
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    iconUrl: t.string({ nullable: true, resolve: resolveMediaUrl((p) => p.iconUrl) }),
    categories: t.exposeStringList('categories'),
    usageCount: t.exposeInt('usageCount', { description: usage }),
  }),
});

export const PixelFacetRef = builder.objectRef<PixelFacet>('PixelFacet').implement({
  fields: (t) => ({
    id: t.exposeID('id', { description: 'The value pixel filters take (UUID).' }),
    slug: t.exposeString('slug'),
    name: t.exposeString('name'),
    iconUrl: t.string({ nullable: true, resolve: resolveMediaUrl((p) => p.iconUrl) }),
    categories: t.exposeStringList('categories'),
    usageCount: t.exposeInt('usageCount', { description: usage }),
  }),
});

export const ThemeFacetRef = builder.objectRef<ThemeFacet>('ThemeFacet').implement({
  fields: (t) => ({
    id: t.exposeID('id', { description: 'The value theme filters take (UUID).' }),
    name: t.exposeString('name'),
    usageCount: t.exposeInt('usageCount', { description: usage }),
  }),
});
