import { builder } from '../builder.js';
import { facetArgs, facetPageRef } from '../shared/facets.js';
import { googleAdsCategoryFacets, googleAdsCountryFacets, googleAdsNetworkFacets, type GoogleAdsCategoryFacet as Category, type GoogleAdsFacetValue as FacetValue } from './service.js';

// GET /v1/google-ads/facets/*: the values POST /v1/google-ads/query accepts, with counts from the stored ads (service/facets.ts).

const GoogleAdsFacetValue = builder.objectRef<FacetValue>('GoogleAdsFacetValue').implement({
  fields: (t) => ({
    value: t.exposeString('value'),
    label: t.exposeString('label'),
    adsCount: t.exposeInt('adsCount', { description: 'Active ads.' }),
  }),
});

const GoogleAdsFacetList = builder.objectRef<{ data: FacetValue[] }>('GoogleAdsFacetList').implement({
  fields: (t) => ({ data: t.field({ type: [GoogleAdsFacetValue], resolve: (list) => list.data }) }),
});

const GoogleAdsCategoryFacet = builder.objectRef<Category>('GoogleAdsCategoryFacet').implement({
  fields: (t) => ({
    id: t.exposeInt('id', { description: 'Google product taxonomy id.' }),
    name: t.exposeString('name'),
    path: t.exposeString('path'),
    parentId: t.exposeInt('parentId', { nullable: true }),
    advertiserUsageCount: t.exposeInt('advertiserUsageCount', { description: 'Google advertisers in this category.' }),
  }),
});

builder.queryFields((t) => ({
  googleAdsNetworkFacets: t.field({
    type: GoogleAdsFacetList,
    nullable: true,
    authScopes: { workspace: true },
    description: 'The delivery networks accepted by googleAdsQuery, with their active ads (GET /v1/google-ads/facets/networks).',
    resolve: async (_root, _args, context) => ({ data: await googleAdsNetworkFacets(context) }),
  }),
  googleAdsCountryFacets: t.field({
    type: facetPageRef('GoogleAdsFacetPage', GoogleAdsFacetValue),
    nullable: true,
    authScopes: { workspace: true },
    description: 'Audience countries observed in the Google Ads library, with their active ads (GET /v1/google-ads/facets/countries). `search` matches the code or the English name.',
    args: facetArgs(),
    resolve: (_root, args, context) => googleAdsCountryFacets(context, args),
  }),
  googleAdsCategoryFacets: t.field({
    type: facetPageRef('GoogleAdsCategoryFacetPage', GoogleAdsCategoryFacet),
    nullable: true,
    authScopes: { workspace: true },
    description: 'Google categories accepted by categoryIds on googleAdsQuery, with advertiser counts (GET /v1/google-ads/facets/categories). `search` matches the name or path.',
    args: facetArgs(),
    resolve: (_root, args, context) => googleAdsCategoryFacets(context, args),
  }),
}));
