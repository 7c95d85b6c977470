import type { Context } from '../../../context.js';
import { Prisma } from '../../../generated/prisma/client.js';
import { COUNTRY_NAMES } from '../../shared/codes.js';
import { facetList, facetPage, labelTable, type FacetPage, type FacetQuery } from '../../shared/facets.js';
import { GOOGLE_NETWORKS, type GoogleNetwork } from '../enums.js';

// The values POST /v1/google-ads/query accepts (GET /v1/google-ads/facets/*), with counts from the stored ads.

export type GoogleAdsFacetValue = { value: string; label: string; adsCount: number };
export type GoogleAdsCategoryFacet = { id: number; name: string; path: string; parentId: number | null; advertiserUsageCount: number };
type FacetArgs = { search?: string | null; limit?: number | null; offset?: number | null };

const sql = Prisma.sql;
const NETWORK_LABELS: Record<GoogleNetwork, string> = { search: 'Search', shopping: 'Shopping', maps: 'Maps', youtube: 'YouTube', other: 'Other' };

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

/** The delivery networks, every one, with their active ads. */
export function googleAdsNetworkFacets(context: Context): Promise<GoogleAdsFacetValue[]> {
  return facetList<GoogleAdsFacetValue>(context.prisma, NETWORKS);
}

/** A page of the ads' main countries, searched by code or English name. */
export function googleAdsCountryFacets(context: Context, args: FacetArgs): Promise<FacetPage<GoogleAdsFacetValue>> {
  return facetPage<GoogleAdsFacetValue>(context.prisma, COUNTRIES, args);
}

/** A page of the Google categories with their advertisers, searched by name or path. */
export function googleAdsCategoryFacets(context: Context, args: FacetArgs): Promise<FacetPage<GoogleAdsCategoryFacet>> {
  return facetPage<GoogleAdsCategoryFacet>(context.prisma, CATEGORIES, args);
}
