import { z } from 'zod';
import { Prisma } from '../../generated/prisma/client.js';
import { builder } from '../builder.js';
import { countryName } from '../shared/codes.js';
import { OffsetPaginationRef, offsetArgs, offsetPagination, type OffsetPagination } from '../shared/pagination.js';
import { GOOGLE_NETWORKS } from './enums.js';
import { escapeLike } from '../shared/like.js';

// The values POST /v1/google-ads/query accepts, with counts from the stored ads.

type FacetValue = { value: string; label: string; adsCount: number };
type Category = { id: number; name: string; path: string; parentId: number | null; advertiserUsageCount: number };

const NETWORK_LABELS: Record<(typeof GOOGLE_NETWORKS)[number], string> = { search: 'Search', shopping: 'Shopping', maps: 'Maps', youtube: 'YouTube', other: 'Other' };
const FACET_LIMITS = { defaultLimit: 100, maxLimit: 500 };
const facetSearch = z.string().max(200);

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

const GoogleAdsFacetPage = builder.objectRef<{ data: FacetValue[]; pagination: OffsetPagination }>('GoogleAdsFacetPage').implement({
  fields: (t) => ({
    data: t.field({ type: [GoogleAdsFacetValue], resolve: (page) => page.data }),
    pagination: t.field({ type: OffsetPaginationRef, resolve: (page) => page.pagination }),
  }),
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

const GoogleAdsCategoryFacetPage = builder.objectRef<{ data: Category[]; pagination: OffsetPagination }>('GoogleAdsCategoryFacetPage').implement({
  fields: (t) => ({
    data: t.field({ type: [GoogleAdsCategoryFacet], resolve: (page) => page.data }),
    pagination: t.field({ type: OffsetPaginationRef, resolve: (page) => page.pagination }),
  }),
});

const contains = (text: string, search: string | null | undefined) => !search?.trim() || text.toLowerCase().includes(search.trim().toLowerCase());
const byCount = (a: FacetValue, b: FacetValue) => b.adsCount - a.adsCount || (a.value < b.value ? -1 : 1);

builder.queryFields((t) => ({
  googleAdsNetworkFacets: t.field({
    type: GoogleAdsFacetList,
    nullable: true,
    authScopes: { workspace: true },
    description: 'The delivery networks accepted by googleAdsQuery, with their active ads (GET /v1/google-ads/facets/networks).',
    resolve: async (_root, _args, context) => {
      const rows = await context.prisma.googleAd.groupBy({ by: ['network'], where: { status: 'active' }, _count: { _all: true } });
      const counts = new Map(rows.map((row) => [row.network, row._count._all]));
      return { data: GOOGLE_NETWORKS.map((value) => ({ value, label: NETWORK_LABELS[value], adsCount: counts.get(value) ?? 0 })).sort(byCount) };
    },
  }),
  googleAdsCountryFacets: t.field({
    type: GoogleAdsFacetPage,
    nullable: true,
    authScopes: { workspace: true },
    description: 'Audience countries observed in the Google Ads library, with their active ads (GET /v1/google-ads/facets/countries). `search` matches the code or the English name.',
    args: { search: t.arg.string({ validate: facetSearch }), ...offsetArgs(FACET_LIMITS) },
    resolve: async (_root, args, context) => {
      const rows = await context.prisma.$queryRaw<{ code: string; live: number }[]>`
        SELECT "mainCountry" AS code, count(*) FILTER (WHERE "status" = 'active')::int AS live
        FROM "google_ads" WHERE "mainCountry" IS NOT NULL GROUP BY 1`;
      const values = rows
        .map((row) => ({ value: row.code, label: countryName(row.code), adsCount: row.live }))
        .filter((value) => contains(value.value, args.search) || contains(value.label, args.search))
        .sort(byCount);
      const request = { limit: args.limit ?? FACET_LIMITS.defaultLimit, offset: args.offset ?? 0 };
      return { data: values.slice(request.offset, request.offset + request.limit), pagination: offsetPagination(request, values.length) };
    },
  }),
  googleAdsCategoryFacets: t.field({
    type: GoogleAdsCategoryFacetPage,
    nullable: true,
    authScopes: { workspace: true },
    description: 'Google categories accepted by categoryIds on googleAdsQuery, with advertiser counts (GET /v1/google-ads/facets/categories). `search` matches the name or path.',
    args: { search: t.arg.string({ validate: facetSearch }), ...offsetArgs(FACET_LIMITS) },
    resolve: async (_root, args, context) => {
      const request = { limit: args.limit ?? FACET_LIMITS.defaultLimit, offset: args.offset ?? 0 };
      const search = args.search?.trim();
      const pattern = search && `%${escapeLike(search)}%`;
      const where = pattern ? Prisma.sql`WHERE c."name" ILIKE ${pattern} OR c."path" ILIKE ${pattern}` : Prisma.empty;
      const [data, [{ total }]] = await Promise.all([
        context.prisma.$queryRaw<Category[]>`
          SELECT c."id", c."name", c."path", c."parentId",
                 (SELECT count(*) FROM "google_advertisers" v WHERE c."id" = ANY(v."categoryIds"))::int AS "advertiserUsageCount"
          FROM "categories" c ${where}
          ORDER BY "advertiserUsageCount" DESC, c."id" ASC LIMIT ${request.limit} OFFSET ${request.offset}`,
        context.prisma.$queryRaw<{ total: number }[]>`SELECT count(*)::int AS total FROM "categories" c ${where}`,
      ]);
      return { data, pagination: offsetPagination(request, total) };
    },
  }),
}));
