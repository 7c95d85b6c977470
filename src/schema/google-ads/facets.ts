import { Prisma } from '../../generated/prisma/client.js';
import { builder } from '../builder.js';
import { COUNTRY_NAMES } from '../shared/codes.js';
import { facetArgs, facetList, facetPage, facetPageRef, labelTable, type FacetQuery } from '../shared/facets.js';
import { GOOGLE_NETWORKS, type GoogleNetwork } from './enums.js';

// The values POST /v1/google-ads/query accepts, with counts from the stored ads.

type FacetValue = { value: string; label: string; adsCount: number };
type Category = { id: number; name: string; path: string; parentId: number | null; advertiserUsageCount: number };

const sql = Prisma.sql;
const NETWORK_LABELS: Record<GoogleNetwork, string> = { search: 'Search', shopping: 'Shopping', maps: 'Maps', youtube: 'YouTube', other: 'Other' };

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

// Most active ads first, then by value (byte order, as the codes are compared everywhere else).
const byActiveAds = (count: Prisma.Sql, value: Prisma.Sql): FacetQuery['order'] => [
  { key: count, direction: 'DESC' },
  { key: sql`${value} COLLATE "C"`, direction: 'ASC' },
];

/** Every network, whether or not an active ad runs on it. */
const NETWORKS: FacetQuery = {
  select: sql`n."value", n."label", coalesce(c.live, 0)::int AS "adsCount"`,
  from: sql`FROM ${labelTable('n', GOOGLE_NETWORKS.map((network) => [network, NETWORK_LABELS[network]]))}
    LEFT JOIN (SELECT "network"::text AS value, count(*)::int AS live FROM "google_ads" WHERE "status" = 'active' GROUP BY 1) c ON c.value = n."value"`,
  labels: [sql`n."label"`],
  order: byActiveAds(sql`coalesce(c.live, 0)`, sql`n."value"`),
};

/** The main countries of the stored ads (active or not), named in English. */
const COUNTRY_LABEL = sql`coalesce(n."label", upper(c.code))`;
const COUNTRIES: FacetQuery = {
  select: sql`c.code AS "value", ${COUNTRY_LABEL} AS "label", c.live AS "adsCount"`,
  from: sql`FROM (SELECT "mainCountry" AS code, count(*) FILTER (WHERE "status" = 'active')::int AS live
                  FROM "google_ads" WHERE "mainCountry" IS NOT NULL GROUP BY 1) c
    LEFT JOIN ${labelTable('n', COUNTRY_NAMES)} ON n."value" = upper(c.code)`,
  labels: [sql`c.code`, COUNTRY_LABEL],
  order: byActiveAds(sql`c.live`, sql`c.code`),
};

const CATEGORIES: FacetQuery = {
  select: sql`c."id", c."name", c."path", c."parentId",
    (SELECT count(*) FROM "google_advertisers" v WHERE c."id" = ANY(v."categoryIds"))::int AS "advertiserUsageCount"`,
  from: sql`FROM "categories" c`,
  labels: [sql`c."name"`, sql`c."path"`],
  order: [{ key: sql`"advertiserUsageCount"`, direction: 'DESC' }, { key: sql`c."id"`, direction: 'ASC' }],
};

builder.queryFields((t) => ({
  googleAdsNetworkFacets: t.field({
    type: GoogleAdsFacetList,
    nullable: true,
    authScopes: { workspace: true },
    description: 'The delivery networks accepted by googleAdsQuery, with their active ads (GET /v1/google-ads/facets/networks).',
    resolve: async (_root, _args, context) => ({ data: await facetList<FacetValue>(context.prisma, NETWORKS) }),
  }),
  googleAdsCountryFacets: t.field({
    type: facetPageRef('GoogleAdsFacetPage', GoogleAdsFacetValue),
    nullable: true,
    authScopes: { workspace: true },
    description: 'Audience countries observed in the Google Ads library, with their active ads (GET /v1/google-ads/facets/countries). `search` matches the code or the English name.',
    args: facetArgs(),
    resolve: (_root, args, context) => facetPage<FacetValue>(context.prisma, COUNTRIES, args),
  }),
  googleAdsCategoryFacets: t.field({
    type: facetPageRef('GoogleAdsCategoryFacetPage', GoogleAdsCategoryFacet),
    nullable: true,
    authScopes: { workspace: true },
    description: 'Google categories accepted by categoryIds on googleAdsQuery, with advertiser counts (GET /v1/google-ads/facets/categories). `search` matches the name or path.',
    args: facetArgs(),
    resolve: (_root, args, context) => facetPage<Category>(context.prisma, CATEGORIES, args),
  }),
}));
